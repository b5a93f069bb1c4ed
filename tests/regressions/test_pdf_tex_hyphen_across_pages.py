"""A word hyphenated at the foot of a page went on at the head of the next as a paragraph of its
own ("FAT filesys" / "tems commonly used ...": issue 35, in 8 of 12 manuals counting the breaks
at listings). A line-final hyphen before a lower-case continuation joins the word whatever lies
between (the page's footnote, its folio): the word's rest goes to the paragraph before, never a
paragraph break inside a word. The rest of the text stays on its own page (an element has one
page: the gate reads each page's words against the chunks that name it)."""

from __future__ import annotations

from pathlib import Path

import parsegate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "hyphen.pdf"  # hyphen.tex beside it


def test_a_word_hyphenated_across_a_page_break_is_one_word() -> None:
    doc = parsegate.parse(FIXTURE)
    assert [(e.kind, e.page, doc.text[e.start : e.end]) for e in doc.elements] == [
        (
            "paragraph",
            1,
            "File names are case-sensitive on most Unix-alikes, but not on Windows or macOS.1 Even on a "
            "Unix-alike, some file systems are not: the FAT filesystems",
        ),
        (
            "paragraph",
            2,
            "commonly used on removable storage are not normally case-sensitive, and all file paths may be "
            "mapped to lower case.",
        ),
        ("footnote", 1, "1Both keep the case a file was created with."),
        ("furniture", 1, "1"),
        ("furniture", 2, "2"),
    ]
