"""office_images: pictures' alt text in the shared Office corpus (../shared/corpus/office) and the
golden Office inputs, and our words against docling's plain-text export of the same files.

Per file: pictures docling places (``PictureItem`` on its body layer), how many have alt text in
the source (quality_gates/references/alt_text.py reads it from the XML; for HTML ``<img alt>``),
how many of those reach a chunk (an ``image_text`` element inside a chunk's span), and words
precision / recall / F1 of every chunk's text against docling's body export (multisets of
quality_gates.words.words). Run it with another checkout's python (``--label before``) to compare:

    .venv/bin/python -m benchmarks.suites.office_images [--label after] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SUFFIXES = {".docx", ".pptx", ".html"}


def _files() -> list[Path]:
    corpus = ROOT.parent / "shared" / "corpus" / "office"
    golden = ROOT / "golden_docs" / "office"
    found = [p for p in sorted(corpus.iterdir()) if p.suffix in SUFFIXES] if corpus.is_dir() else []
    return found + [p for p in sorted(golden.rglob("input.*")) if p.suffix in SUFFIXES]


def _f1(ours: Counter[str], theirs: Counter[str]) -> tuple[float, float, float]:
    common = sum((ours & theirs).values())
    precision = common / max(1, sum(ours.values()))
    recall = common / max(1, sum(theirs.values()))
    return precision, recall, 2 * precision * recall / max(1e-9, precision + recall)


def measure(path: Path) -> dict[str, object]:
    from parsegate import api
    from parsegate.quality_gates.references.docling_export import docling_text
    from parsegate.quality_gates.words import words

    data = path.read_bytes()
    fmt = path.suffix[1:]
    doc = api.parse(data, format=fmt, doc_id=path.name)
    chunks = api.chunk(doc, max_tokens=256)
    exported = docling_text(data, fmt, path.name)
    body = exported[0] if exported else ""
    try:
        from parsegate.quality_gates.references.alt_text import alt_texts, html_alts

        alts = html_alts(data) if fmt == "html" else alt_texts(data, fmt)
    except ImportError:  # the checkout before this change: the same reading, inline
        alts = []
    spans = [(c.start, c.end) for c in chunks]
    images = [e for e in doc.elements if e.kind == "image_text"]
    indexed = sum(1 for e in images if any(s <= e.start and e.end <= t for s, t in spans))
    ours = Counter(w for c in chunks for w in words(c.text))
    precision, recall, f1 = _f1(ours, Counter(words(body)))
    return {
        "file": path.relative_to(ROOT.parent).as_posix(),
        "alt_texts_in_source": len(alts),
        "image_text_elements": len(images),
        "image_text_in_chunks": indexed,
        "words_precision": round(precision, 4),
        "words_recall": round(recall, 4),
        "words_f1": round(f1, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", default="after")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = [measure(p) for p in _files()]

    def mean(key: str) -> float:
        return round(sum(float(r[key]) for r in rows) / len(rows), 4)  # type: ignore[arg-type]

    summary = {
        "label": args.label,
        "files": len(rows),
        "alt_texts_in_source": sum(int(r["alt_texts_in_source"]) for r in rows),  # type: ignore[call-overload]
        "image_text_in_chunks": sum(int(r["image_text_in_chunks"]) for r in rows),  # type: ignore[call-overload]
        "mean_words_precision": mean("words_precision"),
        "mean_words_recall": mean("words_recall"),
        "mean_words_f1": mean("words_f1"),
    }
    text = json.dumps({"summary": summary, "files": rows}, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(json.dumps(summary), file=sys.stderr)
    print(text)


if __name__ == "__main__":
    main()
