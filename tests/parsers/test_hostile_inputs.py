"""Files that would inflate or decode past every limit are refused before any library inflates
or decodes them (parsers/bytes/preflight.py), and nothing legitimate is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.suites.hostile import files as make
from parsegate.parsers.bytes.preflight import preflight
from parsegate.parsers.model import ParseError
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.registry import parse_file
from tests.conftest import GOLDEN, corpus_dir
from tests.cpu import ratio


def refused(path: Path, options: ParseOptions = DEFAULTS) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_file(path, options=options)
    return info.value


@pytest.mark.parametrize("real", [3_000_000, 10_000_000])  # within one 4 MB inflation step, and past it
def test_a_zip_directory_that_lies_about_sizes_is_caught_while_inflating(real: int, tmp_path: Path) -> None:
    path = tmp_path / "lying.docx"
    path.write_bytes(make.lying_zip_docx(real=real, claimed=1000))
    error = refused(path)
    assert error.code == "zip_bomb"
    assert "word/document.xml inflates to more than the 1000 bytes the zip directory claims" in error.message


def test_zip_members_are_counted_while_inflating_and_stopped_at_the_limit(
    tmp_path: Path,
) -> None:
    path = tmp_path / "lying.docx"
    path.write_bytes(make.lying_zip_docx(real=50_000_000, claimed=1000))  # the directory claims 1 KB in all
    error = refused(path, ParseOptions(max_inflated_mb=1))
    assert error.code == "zip_bomb" and "inflates past the 1 MB limit" in error.message
    assert "at member word/document.xml" in error.message
    # Stopped near 1 MB, not after 50 MB: no dearer than a member that inflates to 2 MB.
    small = tmp_path / "small.docx"
    small.write_bytes(make.lying_zip_docx(real=2_000_000, claimed=1000))
    assert refused(small, ParseOptions(max_inflated_mb=1)).code == "zip_bomb"
    took = ratio(
        lambda: refused(path, ParseOptions(max_inflated_mb=1)), lambda: refused(small, ParseOptions(max_inflated_mb=1))
    )
    assert took < 4, f"50 MB inflated took {took:.1f}x the time of 2 MB"


def test_a_flate_bomb_pdf_stops_at_the_inflation_limit_before_pdfium(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(make.flate_bomb_pdf(256 << 20))  # 256 MiB of spaces in a 250 KB file
    error = refused(path, ParseOptions(max_inflated_mb=8))
    assert error.code == "inflation_limit" and "past the 8 MB limit" in error.message and "object 4" in error.message
    # Stopped at 8 MB, not after 256 MiB: no dearer than a stream of 16 MiB.
    small = tmp_path / "small.pdf"
    small.write_bytes(make.flate_bomb_pdf(16 << 20))
    took = ratio(
        lambda: refused(path, ParseOptions(max_inflated_mb=8)), lambda: refused(small, ParseOptions(max_inflated_mb=8))
    )
    assert took < 4, f"256 MiB took {took:.1f}x the time of 16 MiB"


@pytest.mark.parametrize(
    "name, build, where",
    [
        ("big.docx", lambda: make.big_image_docx(2000), "word/media/image1.png is 2000×2000 pixels"),
        ("big.pdf", lambda: make.huge_image_pdf(2000, 2000), "image object 6 is 2000×2000 pixels"),
        ("big.html", lambda: make.data_uri_html(2000), "inline image 1 is 2000×2000 pixels"),
    ],
)
def test_images_over_the_pixel_limit_are_refused_before_decoding(name: str, build, where: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(build())
    error = refused(path, ParseOptions(max_image_pixels=1_000_000))
    assert error.code == "image_too_large" and where in error.message


def test_nothing_legitimate_is_refused() -> None:
    """Every PDF and Office file of the real-world corpus and the golden documents passes."""
    paths = [p for p in corpus_dir("pdf").iterdir() if p.suffix == ".pdf"]
    paths += [p for p in corpus_dir("office").iterdir() if p.is_file()]
    paths += [p for p in GOLDEN.rglob("input.*") if p.suffix in (".pdf", ".docx", ".pptx", ".xlsx", ".html")]
    assert len(paths) > 30
    for path in paths:
        preflight(path.read_bytes(), path.suffix)
