"""Writes sources/encyclopedia/*.txt: articles from Python's own documentation (the
``pydoc_data.topics`` module of the standard library, PSF licence), shaped like encyclopedia
articles exported to text: a title line, subsection title lines, and prose paragraphs each
on one line, separated by *single* line breaks. Grammar and code blocks (indented) are left
out. Run once with the Python whose docs you want; the output is committed.

    python -m benchmarks.suites.messy_text.make_encyclopedia
"""

from __future__ import annotations

import pydoc_data.topics
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "sources" / "encyclopedia"
TOPICS = [
    "execmodel",
    "exceptions",
    "import",
    "naming",
    "types",
    "datamodel",
    "customization",
    "typesseq",
    "compound",
    "try",
    "with",
    "function",
    "class",
    "attribute-access",
    "floating",
    "formatstrings",
]
MAX_CHARS = 140_000


def article(raw: str) -> str:
    lines = raw.split("\n")
    out: list[str] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append(" ".join(para))
            para.clear()

    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if re.fullmatch(r"[*=\-~^]{3,}", line.strip()):
            continue
        if re.fullmatch(r"[*=\-~^]{3,}", nxt.strip()) and line.strip():
            flush()
            out.append(line.strip())  # a (sub)section title
        elif not line.strip() or line.startswith((" ", "\t")):
            flush()  # blank line, or an indented grammar/code block: left out
        else:
            para.append(line.strip())
    flush()
    return "\n".join(out) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    topics = pydoc_data.topics.topics
    total = 0
    for name in TOPICS:
        if name not in topics:
            continue
        text = article(topics[name])
        if total + len(text) > MAX_CHARS:
            break
        (OUT / f"{name}.txt").write_text(text, encoding="utf-8")
        total += len(text)
    print(f"{total} chars from Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
