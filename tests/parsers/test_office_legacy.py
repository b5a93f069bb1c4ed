"""Legacy and open formats (.doc .odt .rtf .xls .ods .ppt .odp) through LibreOffice: converted to
their OOXML form, then read as such; without LibreOffice, a refusal that says what to install."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from parsegate.parsers import office
from parsegate.parsers.model import ParseError
from parsegate.parsers.office import legacy
from parsegate.parsers.options import ParseOptions
from tests.conftest import GOLDEN, IN_CI

DOCX = GOLDEN / "office" / "docx" / "incident-policy" / "input.docx"
XLSX = GOLDEN / "office" / "xlsx" / "ducks-and-budget" / "input.xlsx"


def _soffice() -> str:
    program = legacy.soffice()
    if program is None:
        if IN_CI:
            pytest.fail("LibreOffice (soffice) is missing in CI: dev.sh installs it")
        pytest.skip("LibreOffice (soffice) is not installed here")
    return program


def _converted(source: Path, target: str, tmp_path: Path) -> bytes:
    """The golden input converted by LibreOffice itself into a legacy or open format."""
    program = _soffice()
    subprocess.run(
        [program, "--headless", "--convert-to", target, "--outdir", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
        timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    return (tmp_path / f"input.{target}").read_bytes()


@pytest.mark.parametrize("target", ["doc", "odt", "rtf"])
def test_word_processor_formats_read_like_the_docx_they_came_from(target: str, tmp_path: Path) -> None:
    data = _converted(DOCX, target, tmp_path)
    doc = office.parse(data, f"policy.{target}")
    from_docx = office.parse(DOCX.read_bytes(), "policy.docx")
    assert doc.format == target and doc.doc_id == f"policy.{target}"
    assert doc.metadata["converted"]["from"] == target and doc.metadata["converted"]["to"] == "docx"
    assert doc.metadata["converted"]["by"].startswith("LibreOffice")
    headings = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "heading"]
    assert headings == [from_docx.text[e.start : e.end] for e in from_docx.elements if e.kind == "heading"]
    table = next(e for e in doc.elements if e.kind == "table")
    assert table.data.header == ["Severity", "Acknowledge within", "Resolve within"]


def test_a_spreadsheet_in_ods_keeps_its_sheets_and_tables(tmp_path: Path) -> None:
    doc = office.parse(_converted(XLSX, "ods", tmp_path), "ducks.ods")
    sheets = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "heading"]
    assert sheets == ["Ducks", "Budget"]
    assert [t.data.header for t in doc.elements if t.kind == "table"] == [
        ["Year", "Freshwater Ducks"],
        ["Item", "Cost", "Owner"],
    ]


def test_without_libreoffice_the_refusal_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(legacy, "soffice", lambda: None)
    with pytest.raises(ParseError) as info:
        office.parse(b"\xd0\xcf\x11\xe0legacy", "old.xls")
    assert info.value.code == "needs_libreoffice"
    assert "apt-get install libreoffice-calc-nogui" in info.value.message and ".xlsx" in info.value.message


def test_a_file_libreoffice_cannot_read_is_a_clear_error() -> None:
    _soffice()
    with pytest.raises(ParseError) as info:
        office.parse(b"PK\x03\x04 not really a presentation", "broken.odp")
    assert info.value.code == "corrupt" and "LibreOffice could not convert" in info.value.message


def test_the_conversion_is_killed_at_its_time_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _soffice()
    # This test's own conversion folder (other runs on the machine may convert at the same time).
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    tempfile.tempdir = None
    try:
        with pytest.raises(ParseError) as info:
            office.parse(DOCX.read_bytes(), "slow.odt", ParseOptions(soffice_seconds=0.2))
    finally:
        tempfile.tempdir = None
    assert info.value.code == "timeout"
    leftovers = subprocess.run(["pgrep", "-f", f"{tmp_path}/parsegate-soffice-"], capture_output=True, text=True).stdout
    assert not leftovers.strip(), "a LibreOffice process outlived its time limit"


def test_a_conversion_past_its_time_limit_is_killed_not_awaited(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A stand-in LibreOffice that would take 3 s, and then leave a mark: a conversion awaited to
    # its end (or a parse that ended only the shell, not its group) finds the mark written.
    finished = tmp_path / "finished"
    programs = tmp_path / "bin"
    programs.mkdir()
    stand_in = programs / "soffice"
    stand_in.write_text(f"#!/bin/sh\n(sleep 3 && touch '{finished}') &\nsleep 3\ntouch '{finished}'\n")
    stand_in.chmod(0o755)
    monkeypatch.setenv("PATH", f"{programs}{os.pathsep}{os.environ.get('PATH', '')}")
    assert legacy.soffice() == str(stand_in)
    with pytest.raises(ParseError) as info:
        office.parse(DOCX.read_bytes(), "slow.odt", ParseOptions(soffice_seconds=0.2))
    assert info.value.code == "timeout"
    assert "more than 0.2 s to convert this '.odt' file" in info.value.message
    subprocess.run(["sleep", "3.5"], check=True)  # past the stand-in's 3 s: nothing of its group is left to write
    assert not finished.exists(), "the conversion ran to its end past its time limit"


def test_macros_are_disabled_in_the_conversion_profile() -> None:
    assert "<value>3</value>" in legacy._NO_MACROS and "DisableMacrosExecution" in legacy._NO_MACROS
    assert shutil.which("soffice") is None or legacy.soffice() is not None


def test_a_presentation_in_ppt_keeps_its_slides(tmp_path: Path) -> None:
    pptx = GOLDEN / "office" / "pptx" / "quarterly-review" / "input.pptx"
    doc = office.parse(_converted(pptx, "ppt", tmp_path), "review.ppt")
    slides = [(doc.text[e.start : e.end], e.page) for e in doc.elements if e.kind == "heading"]
    assert slides == [("Quarterly Review", 1), ("Regional Results", 2)]
