"""Listings in typewriter type (TeX's verbatim, Texinfo's @example) and prose that quotes code.

* A listing whose comments line up in a column was read as a table: its word spaces, one
  character wide in every row, made blank strips through all the rows (gnuplot's manual: 55
  tables, most of them listings). A block wholly in a monospaced font is a listing: one code
  element, its lines and their spacing kept.
* A line of prose mostly in typewriter type (a path, a URL) was taken for a line of a listing,
  cut from its paragraph and emitted as code, which also tore the word hyphenated at its end
  from the rest on the next line ("con" / "taining": issue 35, 32 split words in 8 of 12
  manuals). A line is a listing's only when (nearly) no letter of it is in a text font, and a
  line wholly in typewriter type at its paragraph's edge and line spacing goes on with it.
* A listing whose lines are numbered in a text font (AMC's manual) was a two-column table.
"""

from __future__ import annotations

from pathlib import Path

import parsegate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "listing.pdf"  # listing.tex beside it

LISTING = """\
set term wxt 123         # create first plot window
plot $FOO
lower                    # lower the only plot window that exists so far
set term wxt 456         # create 2nd plot window may occlude the first one
plot $BAZ
raise 123                # raise first plot window"""


# The numbers in a text font, the code in typewriter type, the closing brace in a math font.
NUMBERED = """\
1  \\documentclass[a4paper]{article}
2  \\usepackage[box]{automultiplechoice}
3  \\begin{document}
4  \\onecopy{10}{
5    \\noindent{\\bf QCM  \\hfill TEST}
6  }"""


def _elements() -> list[tuple[str, str]]:
    doc = parsegate.parse(FIXTURE)
    return [(e.kind, doc.text[e.start : e.end]) for e in doc.elements]


def test_a_listing_with_aligned_comments_is_code_not_a_table() -> None:
    assert _elements()[:2] == [
        ("paragraph", "Windows are raised and lowered from the command line:"),
        ("code", LISTING),
    ]


def test_a_prose_line_mostly_in_typewriter_type_stays_in_its_paragraph() -> None:
    assert _elements()[2:4] == [
        (
            "paragraph",
            "The package archive at bin/windows/contrib/x.y/R-x.y.z.tar.gz containing the binary "
            "packages is kept for each release of R.",
        ),
        (
            "paragraph",
            "The manuals are also on the web, at https://cran.r-project.org/doc/manuals/r-release/R-admin.html "
            "and on every CRAN mirror.",
        ),
    ]


def test_a_listing_with_its_lines_numbered_in_a_text_font_is_code_not_a_table() -> None:
    assert _elements()[4:] == [
        ("paragraph", "A sheet’s source, its lines numbered:"),
        ("code", NUMBERED),
    ]
