"""Tables of contents and indexes were indexed as evidence (issue 35: 471 of 4,790 chunks of twelve
Debian manuals were dot-leader listings, "NaN . . . . 11 NA . . . . 11 ncol . . . . 24"; gnuplot's
contents became 18 tables whose cells are single dots). They match many queries and answer none:
their entries (a title with dot leaders to a page number, a title with its page number in the
page's number column, "term, 24, 81, 137") are navigation furniture, set aside and declared like
running heads, and so is the "Contents" title over them."""

from __future__ import annotations

import re
from pathlib import Path

import parsegate
from parsegate.parsers.model import FurnitureData

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "manual.pdf"  # manual.tex beside it
LEADER = re.compile(r"(\. ?){4,}")


def test_contents_and_index_entries_are_navigation_furniture() -> None:
    doc = parsegate.parse(FIXTURE)
    body = [e for e in doc.elements if e.kind != "furniture"]
    navigation = [e for e in doc.elements if isinstance(e.data, FurnitureData) and e.data.reason == "navigation"]
    assert [e.page for e in navigation] == [2, 5, 6]  # the contents, the two indexes
    contents, functions, index = (doc.text[e.start : e.end] for e in navigation)
    assert contents.split("\n") == [
        "Contents",
        "1 Introduction and preliminaries 2",
        "1.1 The environment . . . . . . . . . . . . . . . . . . . . . . . . . . . 2",
        "1.2 Related software and documentation . . . . . . . . . . . . . . . . 2",
        "2 The standalone library 2",
        "2.1 Unix-alikes . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 2",
        "Appendix A Installing from source 3",
        "A.1 Configuration options . . . . . . . . . . . . . . . . . . . . . . . . 3",
        "I Indexes 3",
        "Function and variable index 4",
        "Index 5",
    ]
    assert functions.split("\n")[:2] == [
        "NA . . . . . . . . . . . . . . . . . 11",
        "NaN . . . . . . . . . . . . . . 11",
    ]
    assert len(functions.split("\n")) == 16
    assert index.split("\n")[:2] == ["clip, 4, 21, 37", "clip1in, 19"]
    assert len(index.split("\n")) == 17
    assert not [e for e in body if e.kind in ("table", "table_row")]
    assert not [e for e in body if LEADER.search(doc.text[e.start : e.end]) or ", 19\n" in doc.text[e.start : e.end]]
    # The indexes' own titles are the outline's: headings, with nothing under them.
    assert [doc.text[e.start : e.end] for e in body if e.page in (5, 6)] == ["Function and variable index", "Index"]
