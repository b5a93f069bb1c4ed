"""Where a PDF has an outline, it is the section tree (issue 35: R's admin manual filed appendices
A to C under "9 The standalone Rmath library", 158 of its 356 chunks carried that breadcrumb;
title-page author lines and contents entries became headings).

* A bookmark names the heading on the page it points to, and nowhere else (a contents entry
  with the same title is no heading); titles compare without their numbering, "Appendix A" or
  "Chapter 3" included ("Appendix A Installing from source" is the bookmark "A Installing from
  source").
* A heading the outline names takes the outline's level; one it does not name is a heading
  under the outline's last one, and before the outline's first only the document's title is.
* A run-in heading the outline names (LaTeX's \\paragraph: "Column The column(x) function ...",
  gnuplot's 66 missing headings) is cut from its paragraph; a part's label on a line of its own
  ("Part I") is part of the title under it.
"""

from __future__ import annotations

from pathlib import Path

import parsegate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "manual.pdf"  # manual.tex beside it
TITLE = "A Small Manual"


def test_the_outline_is_the_section_tree() -> None:
    doc = parsegate.parse(FIXTURE)
    headings = [(doc.text[e.start : e.end], e.level, e.section_path) for e in doc.elements if e.kind == "heading"]
    intro, library, unix = "1 Introduction and preliminaries", "2 The standalone library", "2.1 Unix-alikes"
    appendix, indexes = "Appendix A Installing from source", "Part I Indexes"
    # The title shares the part's type: the outline's top level is its level (the part is no
    # display type seen once, over every recurring one).
    assert headings == [
        (TITLE, 1, (TITLE,)),
        (intro, 1, (intro,)),
        ("1.1 The environment", 2, (intro, "1.1 The environment")),
        ("1.2 Related software and documentation", 2, (intro, "1.2 Related software and documentation")),
        (library, 1, (library,)),
        (unix, 2, (library, unix)),
        ("Column", 3, (library, unix, "Column")),  # a run-in heading, cut from its paragraph
        (appendix, 1, (appendix,)),
        ("A.1 Configuration options", 2, (appendix, "A.1 Configuration options")),
        (indexes, 1, (indexes,)),  # "Part I" over "Indexes", the bookmark "I Indexes"
        ("Function and variable index", 2, (indexes, "Function and variable index")),
        ("Index", 2, (indexes, "Index")),
    ]
    paragraphs = {doc.text[e.start : e.end]: e.section_path for e in doc.elements if e.kind == "paragraph"}
    assert paragraphs[
        "The column(x) function may be used only in the using specifier of a plot, splot, fit, or stats command."
    ] == (
        library,
        unix,
        "Column",
    )
    # The title page's subtitle and authors are text under the title, not sections.
    assert [doc.text[e.start : e.end] for e in doc.elements if e.page == 1 and e.kind == "paragraph"] == [
        "Notes on a programming environment, version 1.0",
        "W. N. Venables and the Core Team",
    ]
