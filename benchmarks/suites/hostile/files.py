"""Hostile files, generated: each function returns the bytes of one file built to hurt a parser
(a bomb, a lie, a pathological nesting, garbage). ``generate(folder)`` writes the whole corpus
that the hostile suite runs (``python -m benchmarks.suites.hostile``); the tests build their
small fixtures with the same functions.
"""

from __future__ import annotations

import io
import os
import random
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

# -- building blocks ----------------------------------------------------------------------------


def png(width: int, height: int) -> bytes:
    """A valid grey PNG of any size: its rows are zeros, so it compresses to almost nothing."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    deflate = zlib.compressobj(9)
    row = b"\x00" * (width + 1)
    compressed = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", compressed) + chunk(b"IEND", b"")


def deflated(byte: bytes, size: int) -> bytes:
    """``size`` bytes of ``byte``, zlib-compressed (a PDF Flate stream)."""
    deflate = zlib.compressobj(9)
    block = byte * (1 << 20)
    parts = [deflate.compress(block) for _ in range(size >> 20)]
    parts.append(deflate.compress(byte * (size & ((1 << 20) - 1))))
    return b"".join(parts) + deflate.flush()


def pdf(objects: list[bytes]) -> bytes:
    """A PDF whose objects are given (1 is the catalog), with a correct cross-reference table."""
    body = b"%PDF-1.4\n"
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(body))
        body += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(body)
    body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    body += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    body += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return body


def one_page_pdf(
    content: bytes, extra: list[bytes] | None = None, size: tuple[int, int] = (612, 792), xobjects: bytes = b""
) -> bytes:
    """One page (content stream object 4, Helvetica as /F1 object 5, ``extra`` objects from 6 on)."""
    resources = b"/Resources << /Font << /F1 5 0 R >> " + xobjects + b">>"
    media = b"/MediaBox [0 0 %d %d] " % size
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R " + media + resources + b" /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content) + content + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            *(extra or []),
        ]
    )


def ooxml(parts: dict[str, bytes]) -> bytes:
    """A zip with the given members (enough of a DOCX for the checks that run before docling)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", b'<?xml version="1.0"?><Types/>')
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


# -- the hostile files ---------------------------------------------------------------------------


def flate_bomb_pdf(inflated: int = 1 << 30) -> bytes:
    """One content stream that inflates to ``inflated`` bytes of spaces (1 GiB: a 1 MB file)."""
    return one_page_pdf(deflated(b" ", inflated))


def huge_image_pdf(width: int = 60_000, height: int = 60_000) -> bytes:
    image = b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray " % (width, height)
    data = deflated(b"\x00", 1024)
    image += b"/BitsPerComponent 8 /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream"
    content = zlib.compress(b"q 600 0 0 600 0 0 cm /Im1 Do Q BT /F1 12 Tf 72 720 Td (An image page) Tj ET")
    return one_page_pdf(content, [image], xobjects=b"/XObject << /Im1 6 0 R >> ")


def grid_pdf(n: int = 301, step: float = 5.0) -> bytes:
    """The ruled-table stress case (issue 12, point 2): n+1 vertical and n+1 horizontal lines
    ``step`` pt apart, and a few text objects between them, on one page large enough to hold them."""
    lines = []
    for i in range(n + 1):
        x = 20 + i * step
        lines.append(f"{x:.1f} 20 m {x:.1f} {20 + n * step:.1f} l S")
        lines.append(f"20 {x:.1f} m {20 + n * step:.1f} {x:.1f} l S")
    text = " ".join(f"BT /F1 4 Tf {22 + k * 100} {22 + k * 100} Td (c{k}) Tj ET" for k in range(10))
    side = int(40 + n * step)
    return one_page_pdf(zlib.compress(("\n".join(lines) + "\n" + text).encode()), size=(side, side))


def lying_zip_docx(real: int = 50_000_000, claimed: int = 1000) -> bytes:
    """word/document.xml inflates to ``real`` bytes; the central directory says ``claimed``."""
    data = bytearray(ooxml({"word/document.xml": b"<w:document>" + b"a" * real + b"</w:document>"}))
    directory = data.rfind(b"PK\x01\x02")  # the last member's directory entry
    struct.pack_into("<I", data, directory + 24, claimed)
    return bytes(data)


def declared_bomb_docx(members: int = 30, each: int = 10_000_000) -> bytes:
    return ooxml({f"word/media/blob{n}.bin": b"\x00" * each for n in range(members)})


def big_image_docx(side: int = 12_000) -> bytes:
    return ooxml({"word/document.xml": b"<w:document/>", "word/media/image1.png": png(side, side)})


def xxe_docx() -> bytes:
    doc = b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:document>&x;</w:document>'
    return ooxml({"word/document.xml": doc})


def data_uri_html(side: int = 12_000) -> bytes:
    import base64

    image = base64.b64encode(png(side, side))
    return b'<html><body><p>An image:</p><img src="data:image/png;base64,' + image + b'"></body></html>'


def nav_comment_html(navs: int = 100_000) -> bytes:
    return b"<p>x</p><!--" + b"<nav>" * navs + b"-->"


def nested_divs_html(depth: int = 500) -> bytes:
    return b"<html><body>" + b"<div>" * depth + b"<p>deep text</p>" + b"</div>" * depth + b"</body></html>"


def nested_python(depth: int = 600) -> bytes:
    return ("".join("    " * i + f"def f{i}(x):\n" for i in range(depth)) + "    " * depth + "return x\n").encode()


def nested_javascript(depth: int = 600) -> bytes:
    return ("".join(f"function f{i}(x) {{\n" for i in range(depth)) + "return x;\n" + "}\n" * depth).encode()


def minified_javascript(size: int = 2_000_000) -> bytes:
    out, n = [], 0
    while sum(map(len, out)) < size:
        out.append(f"function a{n}(b){{return b+'é'+{n}}};")
        n += 1
    return "".join(out).encode()


def random_bytes(size: int = 200_000, seed: int = 1) -> bytes:
    return random.Random(seed).randbytes(size)


def nul_after_8k() -> bytes:
    return b"# Title\n\n" + b"word " * 4000 + b"\x00tail\n"


def utf16(text: str = "# Notes\n\nText saved as UTF-16 by an editor.\n", bom: bool = True) -> bytes:
    return text.encode("utf-16" if bom else "utf-16-le")


def mojibake() -> bytes:
    return ("\ufffd\ufffd\ufffd ok " * 2000).encode()


def deep_lists_md(depth: int = 1000) -> bytes:
    return "".join("  " * i + f"- item {i}\n" for i in range(depth)).encode()


def deep_quotes_md(depth: int = 5000) -> bytes:
    return b">" * depth + b" deep\n"


def long_line_txt(size: int = 10_000_000) -> bytes:
    words = "alpha beta gamma delta epsilon zeta eta theta".split()
    rng = random.Random(5)
    out: list[str] = []
    total = 0
    while total < size:
        out.append(rng.choice(words))
        total += len(out[-1]) + 1
    return " ".join(out).encode()


def big_table_md(rows: int = 100_000) -> bytes:
    return ("| id | value |\n|---|---|\n" + "".join(f"| {i} | v{i} |\n" for i in range(rows))).encode()


def deep_parentheses_py(depth: int = 10_000) -> bytes:
    return ("x = " + "(" * depth + "1" + ")" * depth + "\n").encode()


HOSTILE: dict[str, Callable[[], bytes]] = {
    "pdf/flate_bomb_1gib.pdf": flate_bomb_pdf,
    "pdf/image_60000x60000.pdf": huge_image_pdf,
    "pdf/grid_301x301.pdf": grid_pdf,
    "pdf/random_bytes.pdf": lambda: b"%PDF-1.7\n" + random_bytes(100_000),
    "pdf/truncated.pdf": lambda: flate_bomb_pdf(1 << 20)[:600],
    "office/lying_directory.docx": lying_zip_docx,
    "office/declared_bomb.docx": declared_bomb_docx,
    "office/image_12000x12000.docx": big_image_docx,
    "office/xxe.docx": xxe_docx,
    "office/not_a_zip.docx": lambda: random_bytes(50_000, 2),
    "office/random.xlsx": lambda: random_bytes(50_000, 3),
    "html/nav_in_comment.html": nav_comment_html,
    "html/divs_500_deep.html": nested_divs_html,
    "html/data_uri_20000px.html": data_uri_html,
    "html/random_bytes.html": random_bytes,
    "code/nested_600.py": nested_python,
    "code/nested_600.js": nested_javascript,
    "code/minified_2mb.js": minified_javascript,
    "code/parentheses_10000.py": deep_parentheses_py,
    "text/nul_after_8k.md": nul_after_8k,
    "text/utf16_bom.md": utf16,
    "text/utf16_no_bom.txt": lambda: utf16(bom=False),
    "text/mojibake.txt": mojibake,
    "text/random_bytes.txt": lambda: random_bytes(100_000, 4),
    "text/latin1.md": lambda: "café crème\n".encode("latin-1"),
    "text/empty.md": lambda: b"",
    "text/deep_lists.md": deep_lists_md,
    "text/deep_quotes.md": deep_quotes_md,
    "text/one_line_10mb.txt": long_line_txt,
    "text/table_100k_rows.md": big_table_md,
}


def generate(folder: Path) -> list[str]:
    """Write the hostile corpus, including what a file cannot hold: a FIFO, symlinks out of the
    corpus and in a loop, and a file name that is not UTF-8. Returns the names written."""
    for name, make in HOSTILE.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(make())
    odd = folder / "odd"
    odd.mkdir(exist_ok=True)
    os.mkfifo(odd / "fifo.md")
    (odd / "passwd.txt").symlink_to("/etc/passwd")
    (odd / "zero.txt").symlink_to("/dev/zero")
    (odd / "loop").symlink_to(odd, target_is_directory=True)
    with open(os.fsencode(odd) + b"/name\xff\xfe.md", "wb") as f:
        f.write(b"# A name that is not UTF-8\n\nIts text is fine.\n")
    from benchmarks.suites.hostile.round_two import generate_round_two  # issue 39's attacks

    later = generate_round_two(folder)
    return [*HOSTILE, "odd/fifo.md", "odd/passwd.txt", "odd/zero.txt", "odd/loop", "odd/name\\xff\\xfe.md", *later]
