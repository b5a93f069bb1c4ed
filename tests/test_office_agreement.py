"""Our text against docling's own export of every file of ../shared/corpus/office: the same words
in the same order, nothing added or lost (tests/docling_agreement.py says how words compare).

For DOCX, PPTX and XLSX the word runs are equal; headings we make up (a sheet's name) are not
counted. For HTML, where our pass keeps site chrome out of the body, every word docling's body has
that ours lacks must be furniture we declared with its reason, and every word ours has must be
somewhere in docling's document.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.registry import parse_file
from tests.conftest import CORPUS, corpus_dir
from tests.docling_agreement import agreement

FILES = sorted(p.name for p in (CORPUS / "office").iterdir()) if (CORPUS / "office").is_dir() else ["absent"]


@pytest.mark.parametrize("name", FILES)
def test_same_words_in_the_same_order_as_docling(name: str) -> None:
    path: Path = corpus_dir("office") / name
    doc = parse_file(path)
    found = agreement(doc, path)
    lost, added = found.unexplained()
    assert (lost, added) == ([], []), f"lost {lost[:20]}, added {added[:20]}"
    if path.suffix != ".html":
        assert found.same_run(), f"agreement {found.ratio:.4f}"


def test_a_lost_run_of_words_is_reported(tmp_path: Path) -> None:
    """The check itself: a parser that drops a paragraph docling has, or adds words, fails it."""
    path = corpus_dir("office") / "lorem_ipsum.docx"
    doc = parse_file(path)
    paragraph = next(e for e in doc.elements if e.kind == "paragraph")
    doc.elements.remove(paragraph)
    found = agreement(doc, path)
    assert not found.same_run() and found.unexplained()[0]
    doc.text += "\n\nzebrafish quokka"
    doc.elements.append(type(paragraph)("x", "paragraph", len(doc.text) - 16, len(doc.text)))
    assert agreement(doc, path).unexplained()[1] == ["zebrafish", "quokka"]
