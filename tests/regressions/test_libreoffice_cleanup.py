"""LibreOffice left running (issue 39): when the worker converting a legacy file was killed (its
document's time limit), `soffice` kept running in its own session and a copy of the document
stayed in /tmp/parsegate-soffice-*. The supervisor now kills the conversion's process group and
removes its folder when a worker dies. A stand-in `soffice` on PATH that never finishes plays
LibreOffice here."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.parsers.office.legacy import clean_after

pytest.importorskip("docling")  # .doc files are read through the office extra


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().split(")")[-1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process groups from /proc")
def test_a_worker_killed_in_a_conversion_takes_libreoffice_and_the_copy_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    soffice = bin_dir / "soffice"
    # Its arguments name the conversion's folder, as LibreOffice's do; it records its pid and hangs.
    soffice.write_text(
        "#!/usr/bin/env python3\nimport os, time\n"
        f"open({str(tmp_path / 'soffice.pid')!r}, 'w').write(str(os.getpid()))\ntime.sleep(300)\n"
    )
    soffice.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(2040))
    before = set(Path(tempfile.gettempdir()).glob("parsegate-soffice-*"))
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["run", str(corpus), "--out", str(out), "--no-store", "-w", "1", "--time-limit", "3", "--allow-failures"]
    )
    assert result.exit_code == 0, result.output
    (outcome,) = json.loads((out / "run.json").read_text())["files"]
    assert outcome["code"] == "timeout"
    pid = int((tmp_path / "soffice.pid").read_text())
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid)
    assert set(Path(tempfile.gettempdir()).glob("parsegate-soffice-*")) <= before


def test_clean_after_spares_a_group_that_is_no_longer_the_conversion(tmp_path: Path) -> None:
    """A folder whose recorded group id now belongs to another process (the id was reused) is
    removed without killing that process."""
    folder = Path(tempfile.mkdtemp(prefix=f"parsegate-soffice-{999_999_999}-"))
    (folder / "pgid").write_text(str(os.getpgrp()))  # this test's own group: must survive
    assert clean_after(999_999_999) == 1
    assert not folder.exists()
    # (had this process group been sent SIGKILL, this line would not run)
