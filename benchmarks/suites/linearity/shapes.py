"""The shapes issue 39 found slow, each a function of its size ``n``: a file whose cost should
grow linearly with ``n``. The hostile suite's generators (hostile/files.py) are reused where they
already build the shape; ``SHAPES`` names each with the ``n`` its benchmark starts at (about a
second or two of the worker's whole path here) and the file name it is run under.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.suites.hostile import files


def md_deep_list(n: int) -> bytes:
    """A list nested as deep as about ``n`` bytes allow (indented two spaces a level: √n deep),
    so that its size in bytes doubles with ``n`` (issue 39: 2,000 deep)."""
    return files.deep_lists_md(math.isqrt(n))


def md_sections(n: int) -> bytes:
    """``n`` short sections, a heading each (issue 39: 40k sections, 0.96 MB, 60 s)."""
    return "".join(f"## Section {i}\n\nText {i}.\n\n" for i in range(n)).encode()


def py_functions(n: int) -> bytes:
    """``n`` small top-level functions (issue 39: 100k, 4.4 MB)."""
    return "".join(f"def function_{i}(x):\n    return x + {i}\n\n\n" for i in range(n)).encode()


def py_string_literal(n: int) -> bytes:
    """One string literal of about ``n`` bytes of words (issue 39: 5 MB)."""
    words = files.long_line_txt(n).decode()
    return f'TEXT = "{words}"\n'.encode()


def ul_nested_html(n: int) -> bytes:
    """A ``ul`` nested ``n`` deep, an item at each level (issue 39: 5,000 deep, 90 KB)."""
    return b"<html><body>" + b"<ul><li>item" * n + b"</li></ul>" * n + b"</body></html>"


def unclosed_nav_html(n: int) -> bytes:
    """``n`` ``<nav>`` never closed, after a paragraph (issue 39: 100k, docling's reference)."""
    return b"<html><body><p>Some text here.</p>" + b"<nav>" * n + b"<p>after</p></body></html>"


def docx_paragraphs(n: int) -> bytes:
    """A DOCX of ``n`` short paragraphs (issue 39: 100k, 450 KB), written as raw WordprocessingML."""
    body = "".join(f"<w:p><w:r><w:t>Paragraph {i} says a little.</w:t></w:r></w:p>" for i in range(n))
    return _zip(
        {
            "[Content_Types].xml": _TYPES.format(
                '<Override PartName="/word/document.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
            ),
            "_rels/.rels": _RELS.format("officeDocument", "word/document.xml"),
            "word/document.xml": f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document '
            f'xmlns:w="{_W}"><w:body>{body}</w:body></w:document>',
        }
    )


def pptx_slides(n: int) -> bytes:
    """A PPTX of ``n`` slides with a title and a line each (issue 39: 5,000 slides)."""
    from pptx import Presentation

    deck = Presentation()
    layout = deck.slide_layouts[1]
    for i in range(n):
        slide = deck.slides.add_slide(layout)
        slide.shapes.title.text = f"Slide {i}"
        slide.placeholders[1].text = f"Point {i} of the talk."
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
    'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>{}</Types>'
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/{}" Target="{}"/></Relationships>'
)


def _zip(members: dict[str, str]) -> bytes:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return out.getvalue()


@dataclass(frozen=True)
class Shape:
    name: str
    file_name: str
    make: Callable[[int], bytes]
    n: int  # the smallest size measured; the suite doubles it
    unit: str  # what n counts


SHAPES = [
    Shape("Markdown list nested √n deep (n bytes)", "deep.md", md_deep_list, 2_000_000, "bytes"),
    Shape("Markdown, n sections", "sections.md", md_sections, 20_000, "sections"),
    Shape("minified JavaScript of n bytes", "min.js", files.minified_javascript, 250_000, "bytes"),
    Shape("JavaScript, n nested functions", "nested.js", files.nested_javascript, 4_000, "functions"),
    Shape("Python, n small functions", "many.py", py_functions, 5_000, "functions"),
    Shape("Python string literal of n bytes", "literal.py", py_string_literal, 500_000, "bytes"),
    Shape("PPTX of n slides", "deck.pptx", pptx_slides, 250, "slides"),
    Shape("DOCX of n paragraphs", "long.docx", docx_paragraphs, 5_000, "paragraphs"),
    Shape("HTML ul nested n deep", "deep.html", ul_nested_html, 1_500, "levels"),
    Shape("HTML, n unclosed nav", "navs.html", unclosed_nav_html, 2_000, "elements"),
]
