"""report.html in a real headless browser (Debian's chromium): it loads with no console
errors and shows the failing document of a fixture run."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parsegate.cli import app
from tests.conftest import IN_CI

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
    "--virtual-time-budget=5000",
    "--dump-dom",
]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if IN_CI:
            pytest.fail("chromium is missing in CI: .ci/run (dev.sh test) installs Debian's chromium")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


def render(page: Path) -> tuple[str, list[str]]:
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", page.as_uri()],
            capture_output=True,
            text=True,
            timeout=120,
        )
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, console


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    (root / "good.md").write_text(
        "# Guide\n\nA paragraph that mentions </script><script>alert('x')</script> as plain text.\n\n"
        "| Key | Value |\n|---|---|\n| a | 1 |\n"
    )
    (root / "bad.txt").write_text("\n\n".join(["The very same paragraph is repeated in this file."] * 6))
    (root / "broken.md").write_bytes(b"caf\xe9")
    out = tmp_path_factory.mktemp("out")
    result = CliRunner().invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "20"])
    assert result.exit_code == 1, result.output
    return out


def test_report_loads_without_console_errors_and_shows_the_failing_document(fixture_run: Path) -> None:
    dom, console = render(fixture_run / "report.html")
    assert console == [], console
    assert 'data-ready="yes"' in dom
    assert "gate FAIL" in dom
    detail = dom[dom.index('id="detail"') :]
    # Failures sort first (by path), and the first one is opened with its metrics and reasons.
    assert detail.startswith('id="detail"><h2>bad.txt</h2>')
    assert "not valid UTF-8" in dom
    assert "duplicate_rate 0.833 (needs ≤ 0.1)" in dom


def test_report_embeds_document_text_as_data_not_markup(fixture_run: Path) -> None:
    html = (fixture_run / "report.html").read_text()
    data = html[html.index('id="data">') + len('id="data">') : html.index("</script>", html.index('id="data">'))]
    payload = json.loads(data)
    assert "alert('x')" in payload["details"]["good.md"]["text"]
    assert not re.search(r"<script>alert", html)
    assert payload["details"]["bad.txt"]["chunks"][0]["tokens"] > 0
