"""A file with no parser for its suffix (README, NEWS, a changelog) is read as text when it is
text: UTF-8, or a legacy encoding with no control byte but whitespace and ESC (binary formats
have them in their first kilobytes and would decode as Windows-1252 all the same)."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pytest

from parsegate.parsers.registry import looks_like_text
from parsegate.runner.discover import Selection, discover

LATIN_1_NEWS = (
    "Changes in 2.1\n\n* Fixed the r\u00e9sum\u00e9 export; thanks to J\u00f6rg Schr\u00f6der.\n\x0c\n".encode("cp1252")
)
KOI8_README = (
    "Добро пожаловать в систему TeX Live. Дистрибутив предлагает полную систему TeX для ряда платформ.\n"
).encode("koi8_r")


@pytest.mark.parametrize(
    ("head", "text"),
    [
        (b"Plain UTF-8 notes.\n", True),
        (LATIN_1_NEWS, True),  # a form feed is whitespace, old NEWS files page with it
        (KOI8_README, True),
        ("\x1b[1mbold\x1b[0m in a build log of the caf\u00e9 menu\n".encode("cp1252"), True),  # ESC: colours
        (b"\x89PNG\r\n\x1a\n" + bytes(range(32, 256)) * 4, False),  # \x1a, no NUL in this sample
        (gzip.compress(b"x" * 1000)[:4] + bytes(range(128, 256)), False),  # gzip's \x1f\x8b
        (zlib.compress(LATIN_1_NEWS * 20), False),
        (LATIN_1_NEWS[:20] + b"\x01\x02" + LATIN_1_NEWS[20:], False),  # control bytes in 8-bit text: binary
        (b"\x89PNG\r\n", False),  # not UTF-8 and too short to tell
    ],
)
def test_an_unnamed_file_is_text_when_it_decodes_without_control_bytes(head: bytes, text: bool) -> None:
    assert looks_like_text(head) is text


def test_a_legacy_readme_without_a_suffix_is_read_not_left_out(tmp_path: Path) -> None:
    (tmp_path / "NEWS").write_bytes(LATIN_1_NEWS)
    (tmp_path / "README").write_bytes(KOI8_README)
    (tmp_path / "logo").write_bytes(b"GIF89a\x10\x00\x1a" + bytes(range(32, 256)) * 4)  # a PNG is read by OCR
    selection = Selection()
    assert [s.doc_id for s in discover(tmp_path, selection)] == ["NEWS", "README"]
    assert selection.left_out == {"binary file (no parser for its suffix, content not text)": 1}
