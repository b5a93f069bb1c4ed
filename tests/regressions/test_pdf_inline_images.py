"""Inline images (BI … ID … EI in a content stream) are held to the pixel limit as image XObjects
are (issue 39: a 45000² inline image in a 2 MB file was not refused, and the worker died decoding
it). The preflight reads their dictionaries in the content streams, inflated or not."""

from __future__ import annotations

import zlib

import pytest

import parsegate
from parsegate.parsers.bytes.preflight import preflight
from parsegate.parsers.model import ParseError
from tests.pdf_samples import assemble


def _pdf(content: bytes, *, compress: bool) -> bytes:
    """A one-page PDF whose content stream is ``content`` (Flate-compressed or as it is)."""
    stream = zlib.compress(content) if compress else content
    filters = b" /Filter /FlateDecode" if compress else b""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
        b"<< /Length %d%s >>\nstream\n" % (len(stream), filters) + stream + b"\nendstream",
    ]
    return assemble(objects)


def _inline(width: int, height: int, keys: tuple[bytes, bytes] = (b"/W", b"/H")) -> bytes:
    return b"q 100 0 0 100 0 0 cm\nBI %s %d %s %d /CS /G /BPC 8\nID \x00\x00\x00\x00\nEI\nQ\n" % (
        keys[0],
        width,
        keys[1],
        height,
    )


@pytest.mark.parametrize("compress", [True, False], ids=["flate", "plain"])
@pytest.mark.parametrize("keys", [(b"/W", b"/H"), (b"/Width", b"/Height")], ids=["short", "long"])
def test_an_inline_image_over_the_pixel_limit_is_refused_before_decoding(
    compress: bool, keys: tuple[bytes, bytes]
) -> None:
    data = _pdf(_inline(45000, 45000, keys), compress=compress)
    with pytest.raises(ParseError) as refused:
        preflight(data, ".pdf")
    assert refused.value.code == "image_too_large"
    assert "inline image in stream object 4 is 45000×45000 pixels" in refused.value.message


def test_an_inline_image_cut_between_two_inflated_pieces_is_still_read() -> None:
    """The dictionary lands across the 4 MB pieces the preflight inflates at a time."""
    filler = b"0 0 m 1 1 l S\n" * ((1 << 22) // 14)  # about 4 MB of drawing before it
    data = _pdf(filler[: (1 << 22) - 9] + _inline(45000, 45000), compress=True)
    with pytest.raises(ParseError, match="inline image"):
        preflight(data, ".pdf")


def test_a_small_inline_image_passes_and_the_page_is_read() -> None:
    pytest.importorskip("pypdfium2")
    shown = b"BT /F1 12 Tf 10 10 Td (BIG BI /W 99999 /H 99999 words) Tj ET\n"
    data = _pdf(_inline(2, 2) + shown + b"0 0 m 1 1 l S\n" * 200, compress=True)
    preflight(data, ".pdf")  # a string that spells a dictionary is no inline image
    doc = parsegate.parse(data, format="pdf")
    assert doc.format == "pdf"
