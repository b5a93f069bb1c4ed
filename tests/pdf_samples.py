"""Test material for the PDF parser.

* ``one_page``: small PDFs written by hand, for tests that need exact control over the content
  stream and the ToUnicode map (which fpdf2 and reportlab do not give): one page, Helvetica, text
  objects placed with Td. Each string is (x, y, size, text) in PDF points; bytes 0x80-0xFF are
  mapped through ``extra_map`` (code → Unicode scalar) so a test can make a glyph PDFium leaves
  out of its text (U+0002) or one above U+FFFF.
* ``assemble``: a PDF of given objects, with its xref table (hostile structures).
* ``glyph_line``, ``box_line``: synthetic lines for the steps that never touch PDFium.
"""

from __future__ import annotations

from typing import Any

from parsegate.parsers.pdf.layout import Glyph, Line, Style

Run = tuple[float, float, float, bytes]


def _escape(text: bytes) -> bytes:
    return text.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _utf16_hex(codepoint: int) -> bytes:
    return chr(codepoint).encode("utf-16-be").hex().upper().encode()


def _cmap(extra_map: dict[int, int]) -> bytes:
    chars = b"".join(b"<%02X> <%s>\n" % (code, _utf16_hex(cp)) for code, cp in sorted(extra_map.items()))
    return (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        b"/CMapName /Custom def /CMapType 2 def\n1 begincodespacerange <00> <FF> endcodespacerange\n"
        + (b"%d beginbfchar\n" % len(extra_map) + chars + b"endbfchar\n" if extra_map else b"")
        + b"1 beginbfrange\n<20> <7E> <0020>\nendbfrange\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end"
    )


def one_page(runs: list[Run], extra_map: dict[int, int] | None = None, width: int = 595, height: int = 842) -> bytes:
    content = b"\n".join(b"BT /F1 %g Tf %g %g Td (%s) Tj ET" % (size, x, y, _escape(text)) for x, y, size, text in runs)
    cmap = _cmap(extra_map or {})
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>" % (width, height),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap),
    ]
    return assemble(objects)


def assemble(objects: list[bytes]) -> bytes:
    """A PDF of these objects (numbered from 1, the first the catalog), with its xref table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


# -- synthetic lines for the pure steps (no PDF) ----------------------------------------------------

_CHAR = 5.0  # width of every glyph of a synthetic line, in points


def glyphs(text: str, x0: float, top: float, index: int = 0, size: float = 10.0, **style: Any) -> list[Glyph]:
    """Glyphs _CHAR wide each, spaces included, from x0 (what the read step gives)."""
    look = Style("Body", size, **style)
    return [
        Glyph(" " if c == " " else c, x0 + n * _CHAR, top, x0 + (n + 1) * _CHAR, top + size, look, index + n)
        for n, c in enumerate(text)
    ]


def glyph_line(
    text: str, x0: float, top: float, index: int = 0, size: float = 10.0, row: int = 0, **style: Any
) -> Line:
    """A line whose glyphs are _CHAR wide each, spaces included, from x0; one style."""
    look = Style("Body", size, **style)
    run = glyphs(text, x0, top, index, size, **style)
    return Line(1, text, x0, top, x0 + len(text) * _CHAR, top + size, look, True, index, row, glyphs=run)


def box_line(x0: float, top: float, x1: float, index: int, size: float = 10.0, text: str = "words") -> Line:
    """A line known only by its box (for the reading order, which never looks at glyphs)."""
    return Line(1, text, x0, top, x1, top + size, Style("Body", size), True, index, index)
