"""Where a PDF has an outline, it is the section tree (issue 35: R's admin manual filed appendices
A to C under "9 The standalone Rmath library", 158 of its 356 chunks carried that breadcrumb;
title-page author lines and contents entries became headings).

* A bookmark names the heading on the page it points to, and nowhere else (a contents entry
  with the same title is no heading); titles compare without their numbering, "Appendix A" or
  "Chapter 3" included ("Appendix A Installing from source" is the bookmark "A Installing from
  source").
* A heading the outline names takes the outline's level; one it does not name is a heading
  under the outline's last one, and before the outline's first only the document's title is.
"""

from __future__ import annotations

from pathlib import Path

import parsegate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "manual.pdf"  # manual.tex beside it
TITLE = "A Small Manual"


def test_the_outline_is_the_section_tree() -> None:
    doc = parsegate.parse(FIXTURE)
    headings = [(doc.text[e.start : e.end], e.level, e.section_path) for e in doc.elements if e.kind == "heading"]
    intro, library, appendix = (
        "1 Introduction and preliminaries",
        "2 The standalone library",
        "Appendix A Installing from source",
    )
    assert headings == [
        (TITLE, 1, (TITLE,)),
        (intro, 2, (TITLE, intro)),
        ("1.1 The environment", 3, (TITLE, intro, "1.1 The environment")),
        ("1.2 Related software and documentation", 3, (TITLE, intro, "1.2 Related software and documentation")),
        (library, 2, (TITLE, library)),
        ("2.1 Unix-alikes", 3, (TITLE, library, "2.1 Unix-alikes")),
        (appendix, 2, (TITLE, appendix)),
        ("A.1 Configuration options", 3, (TITLE, appendix, "A.1 Configuration options")),
        ("Function and variable index", 2, (TITLE, "Function and variable index")),
        ("Index", 2, (TITLE, "Index")),
    ]
    # The title page's subtitle and authors are text under the title, not sections.
    assert [doc.text[e.start : e.end] for e in doc.elements if e.page == 1 and e.kind == "paragraph"] == [
        "Notes on a programming environment, version 1.0",
        "W. N. Venables and the Core Team",
    ]
