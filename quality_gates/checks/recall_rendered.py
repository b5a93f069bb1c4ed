"""Extraction recall of an AsciiDoc file against asciidoc-py's rendering of it
(references/asciidoc.py): the words of the rendered text nodes against the words of the chunks'
text, as multisets. The chunks hold the source with its markup, so they may hold more words than
the rendering (``[source,python]``, ``link:``): only the rendering's words are asked for. An
underscore separates words on both sides (emphasis ``_not_`` is rendered ``not``). A word
that an attribute entry of the source gives (``:product: Widget``, rendered wherever
``{product}`` stands), or the document title (``{doctitle}``), counts as found: the entry is
declared metadata, not chunk text."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from parsegate.quality_gates.references.asciidoc import document_title
from parsegate.quality_gates.words import words

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.quality_gates.checks.base import Faults
    from parsegate.quality_gates.references import Reference

_ENTRY = re.compile(r"^:!?\w[\w\-]*!?:[ \t]+(.*)$", re.MULTILINE)


def _words(text: str) -> list[str]:
    """Words with ``_`` a separator on both sides: the source's ``_not_`` is rendered ``not``."""
    return words(text.replace("_", " "))


def by_rendered_words(faults: Faults, name: str, chunks: Sequence[Chunk], ref: Reference) -> tuple[int, int]:
    assert ref.rendered is not None
    reference: Counter[str] = Counter()
    for text in ref.rendered:
        reference.update(_words(text))
    chunked: Counter[str] = Counter()
    for c in chunks:
        chunked.update(_words(c.text))
    given = {w for m in _ENTRY.finditer(ref.text) for w in _words(m.group(1))}
    title = document_title(ref.text)  # {doctitle} is rendered where it stands
    given.update(_words(title[2]) if title is not None else ())
    lost = Counter({w: n for w, n in (reference - chunked).items() if w not in given})
    if lost:
        faults.add(name, words=" ".join(sorted(lost.elements()))[:400], count=lost.total())
    return reference.total(), reference.total() - lost.total()
