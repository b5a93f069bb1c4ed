"""The install matrix: the wheel, installed as a user installs it, with each extra, every command run.

Each venv resolves its dependencies fresh from the package index (pip's cache may serve the files;
nothing of the test environment is visible), so that a pin which only the development environment's
other packages satisfy (docling-core held typer below 0.27 there, while a plain install took 0.29 and
crashed at import) fails here. Every command's ``--help`` runs, and ``chunk``, ``run``, ``gate``,
``golden check`` and ``eval`` on a small mixed corpus: a format whose extra is not installed must end
in its ``missing_extra`` message naming the ``pip install`` line, never a traceback (exit 3).

Needs the package index (CI's machines reach PyPI); about 2-4 minutes for the five installs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "golden_docs"
COMMANDS = (
    "parse",
    "chunk",
    "run",
    "gate",
    "inspect",
    "formats",
    "golden",
    "eval",
    "store",
    "diff",
    "export",
    "retire",
)
# One file per format family, and the extra that reads it (None: the core install).
CORPUS = {
    "a.md": ("markdown/policy-exception/input.md", None),
    "b.html": ("office/html/mdbook-chapter/input.html", None),
    "c.txt": ("text/plain-policy/input.txt", None),
    "d.py": ("code/python/input.py", "code"),
    "e.pdf": ("pdf/footnote/input.pdf", "pdf"),
    "f.docx": ("office/docx/" + "{docx}/input.docx", "office"),
}
EXTRAS = {"": set(), "pdf": {"pdf"}, "code": {"code"}, "office": {"office"}, "all": {"pdf", "code", "office"}}

pytestmark = pytest.mark.slow


def _docx_case() -> str:
    return sorted(p.name for p in (GOLDEN / "office" / "docx").iterdir() if (p / "input.docx").exists())[0]


_ANYWHERE = shutil.ignore_patterns("__pycache__", "*.egg-info")
_TOP = {".git", ".venv", "out", "benchmarks", "build", "dist"}  # at the top only: parsers/build/ is a package


def _not_shipped(folder: str, names: list[str]) -> set[str]:
    return set(_ANYWHERE(folder, names)) | (_TOP & set(names) if Path(folder) == REPO else set())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    src = tmp_path_factory.mktemp("src") / "parsegate"
    shutil.copytree(
        REPO,
        src,
        ignore=_not_shipped,
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(src)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("parsegate-*.whl")
    return built


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    docx = _docx_case()
    for name, (source, _extra) in CORPUS.items():
        shutil.copy2(GOLDEN / source.format(docx=docx), root / name)
    return root


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A golden tree of one case per format family."""
    root = tmp_path_factory.mktemp("golden")
    for case in ("markdown/policy-exception", "code/python", "pdf/footnote", "office/xlsx/ducks-and-budget"):
        shutil.copytree(GOLDEN / case, root / case)
    return root


def _install(wheel: Path, extra: str, where: Path) -> Path:
    env_dir = where / "venv"
    venv.create(env_dir, with_pip=False, symlinks=True)
    python = env_dir / "bin" / "python"
    target = f"{wheel}[{extra}]" if extra else str(wheel)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", target],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    check = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "check"], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout
    return env_dir / "bin"


def _run(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARSEGATE_", "PYTHON"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        [str(bin_dir / "parsegate"), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=600
    )


def _no_crash(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode != 3, result.stderr[-3000:]
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr[-3000:]


@pytest.mark.parametrize("extra", list(EXTRAS))
def test_every_command_in_a_fresh_install(extra: str, wheel: Path, corpus: Path, golden: Path, tmp_path: Path) -> None:
    bin_dir = _install(wheel, extra, tmp_path)
    have = EXTRAS[extra]
    work = tmp_path / "work"
    work.mkdir()

    top = _run(bin_dir, "--help", cwd=work)
    assert top.returncode == 0, top.stderr
    for command in COMMANDS:
        shown = _run(bin_dir, command, "--help", cwd=work)
        assert shown.returncode == 0, (command, shown.stderr[-2000:])
        assert f"parsegate {command}" in shown.stdout

    for name, (_source, needs) in CORPUS.items():
        chunked = _run(bin_dir, "chunk", str(corpus / name), cwd=work)
        _no_crash(chunked)
        if needs is None or needs in have:
            assert chunked.returncode == 0, (name, chunked.stderr[-2000:])
            records = [json.loads(line) for line in chunked.stdout.splitlines()]
            assert records and all(r["schema"] == "parsegate.chunk/1" for r in records)
        else:
            assert chunked.returncode == 2, (name, chunked.stderr)
            assert "[missing_extra]" in chunked.stderr and f"pip install 'parsegate[{needs}]'" in chunked.stderr

    out = work / "out"
    ran = _run(bin_dir, "run", str(corpus), "--out", str(out), cwd=work)
    _no_crash(ran)
    missing = {needs for _s, needs in CORPUS.values() if needs is not None and needs not in have}
    assert ran.returncode == (1 if missing else 0), ran.stderr[-3000:]
    quarantined = [json.loads(line) for line in (out / "quarantine.jsonl").read_text().splitlines()]
    reasons = {r["doc_id"]: r for r in quarantined}
    for name, (_source, needs) in CORPUS.items():
        if needs in missing:
            assert f"pip install 'parsegate[{needs}]'" in json.dumps(reasons[name]), reasons.get(name)
        else:
            assert name not in reasons, reasons[name]

    gated = _run(bin_dir, "gate", str(out), cwd=work)
    _no_crash(gated)
    assert gated.returncode == ran.returncode, gated.stderr[-3000:]

    checked = _run(bin_dir, "golden", "check", str(golden), cwd=work)
    _no_crash(checked)
    assert checked.returncode in (0, 1), checked.stderr[-3000:]
    shown = checked.stdout + checked.stderr
    for family, needs in (("code/python", "code"), ("pdf/footnote", "pdf"), ("office/xlsx", "office")):
        if needs not in have:
            assert f"{family}" in shown and f"pip install 'parsegate[{needs}]'" in shown, shown[-3000:]

    scored = _run(bin_dir, "eval", str(golden / "markdown"), cwd=work)
    _no_crash(scored)
    assert scored.returncode == 0, scored.stderr[-3000:]
