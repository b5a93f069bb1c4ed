"""Words in order: our Document's body text against docling's own plain-text export of the same
file (the gate's independent signal), for Office and HTML.

Both sides are reduced to their words (quality_gates.words: NFKC, case folded, punctuation
dropped). "Same words in the same order" is judged on the words run together, so a word that one
side splits where the other does not ("Wiktionary" + "Media" against "WiktionaryMedia") still
agrees; the agreement figure is difflib's ratio over the two word sequences.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from parsegate.parsers.model import NON_BODY_KINDS, Document
from parsegate.parsers.office.numbering import numbers_written_in
from parsegate.quality_gates.references.docling_export import docling_text
from parsegate.quality_gates.words import runs, words


@dataclass
class Agreement:
    ours: list[str]
    theirs: list[str]
    furniture: Counter[str] = field(default_factory=Counter)  # words we declared furniture
    everything: Counter[str] = field(default_factory=Counter)  # all of docling's words, every layer
    elsewhere: list[str] = field(default_factory=list)  # our words from docling's other layers (notes)

    @property
    def ratio(self) -> float:
        if not self.ours and not self.theirs:
            return 1.0
        return SequenceMatcher(None, self.ours, self.theirs, autojunk=False).ratio()

    def same_run(self) -> bool:
        return "".join(self.ours) == "".join(self.theirs)

    def unexplained(self) -> tuple[list[str], list[str]]:
        """Words docling has in its body that we neither hold in order nor declared furniture,
        and words we hold that docling has on no layer at all."""
        matcher = SequenceMatcher(None, self.ours, self.theirs, autojunk=False)
        lost: list[str] = []
        added: list[str] = []
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal" or "".join(self.ours[a0:a1]) == "".join(self.theirs[b0:b1]):
                continue  # the same words, split differently
            added += [w for w in self.ours[a0:a1] if self.everything[w] == 0]
            lost += [w for w in self.theirs[b0:b1] if self.furniture[w] == 0]
        added += [w for w in self.elsewhere if self.everything[w] == 0]
        return lost, added


# Body text we read from docling's other layers, which its body export leaves out: a slide's
# speaker notes (its notes layer) and a DOCX's footnotes (its furniture layer).
OTHER_LAYERS = {"pptx": frozenset({"speaker_notes"}), "docx": frozenset({"footnote"})}


# Pictures' alt text (and OCR text): docling's Word and PowerPoint exports leave it out, its HTML
# export holds it as a caption only where the image has none; the gate's reference reads it from
# the source (quality_gates/references/alt_text.py, tests/parsers/test_office_images.py).
IMAGE = "image_text"


def body_words(doc: Document) -> list[str]:
    """Our body text in reading order, without the headings we make up (a sheet's name), without
    what docling's body export does not hold (OTHER_LAYERS) and without pictures' words (IMAGE)."""
    out: list[str] = []
    elsewhere = OTHER_LAYERS.get(doc.format, frozenset())
    for el in doc.leaves():
        if (el.kind == "heading" and getattr(el.data, "sheet", None)) or el.kind in elsewhere or el.kind == IMAGE:
            continue
        out += words(doc.text[el.start : el.end])
    return out


def other_layer_words(doc: Document) -> list[str]:
    elsewhere = OTHER_LAYERS.get(doc.format, frozenset())
    return [w for el in doc.leaves() if el.kind in elsewhere for w in words(doc.text[el.start : el.end])]


def agreement(doc: Document, path: Path) -> Agreement:
    fmt = {".htm": "html", ".xhtml": "html"}.get(path.suffix, path.suffix[1:])
    data = path.read_bytes()
    if fmt == "docx":
        # Word's list numbers are ours to write (parsers/office/numbering.py; tests/parsers/
        # test_word_numbering.py checks them): docling reads the same numbered package.
        data = numbers_written_in(data)
    exported = docling_text(data, fmt, path.name)
    assert exported is not None, f"docling cannot read {path}"
    body, everything = exported
    furniture: Counter[str] = Counter()
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS or e.kind == IMAGE:
            held = words(doc.text[e.start : e.end])
            furniture.update(held)
            furniture.update(list(runs(held)))  # docling runs inline items together: "habitat" + "5"
    return Agreement(body_words(doc), words(body), furniture, Counter(words(everything)), other_layer_words(doc))
