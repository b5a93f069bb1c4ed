"""Another revision of parsegate, installed in a venv of its own, for the suites that compare
revisions (benchmarks/harness.py holds the rest of what the suites share).

The layout is the product card's (parsers/, chunkers/, quality_gates/ at the top level, installed
as parsegate.* through setuptools' package-dir), so a checkout put on sys.path imports nothing
right: a revision is installed instead. ``git archive REV`` (or this checkout's product files as
they are on disk) goes through ``pip install --no-deps --no-build-isolation`` into a fresh venv
without pip, whose dependencies are the running venv's: a .pth file names a folder of links to
its site-packages, every parsegate (editable or not) and .pth file left out, as
tests/test_install.py does. Venvs are kept in benchmarks/.cache/revisions/ (delete to rebuild);
a revision that needs a library this venv lacks fails at import: install it into this venv.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.harness import CACHE, PRODUCT, ROOT, child_env, commit_of, git

# Not linked into a revision's venv: every parsegate this venv has (editable or not) and .pth files.
HIDDEN = ("parsegate", "parsers", "chunkers", "quality_gates", "__editable__", "_parsegate")


@dataclass(frozen=True)
class Revision:
    label: str  # what a row calls it: the short commit, "+changes" for the checkout's own edits
    commit: str  # full commit, or "worktree:<hash of the product files>"
    prefix: Path  # the venv

    @property
    def python(self) -> Path:
        return self.prefix / "bin" / "python"

    def script(self, name: str = "parsegate") -> Path:
        return self.prefix / "bin" / name


def revision(rev: str | None = None, cache: Path = CACHE / "revisions") -> Revision:
    """``rev`` (any git revision; None: this checkout's files as they are on disk) installed into its
    own venv under ``cache``, once: a later call with the same commit or files reuses it."""
    if rev is None:
        tree = _product_hash()[:12]
        key, label, commit = f"worktree-{tree}", commit_of(), f"worktree:{tree}"
    else:
        commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
        key, label = commit, commit[:7]
    # The dependencies are the running venv's: a venv of another suite's (messy_text's) is another key.
    key += "-" + hashlib.sha256(sys.prefix.encode()).hexdigest()[:8]
    prefix = cache / key / "venv"
    if not (cache / key / "installed.json").is_file():
        shutil.rmtree(cache / key, ignore_errors=True)
        source = cache / key / "src"
        _export(rev, source)
        _make_venv(prefix, cache / key / "deps")
        _install(source, prefix / "bin" / "python")
        (cache / key / "installed.json").write_text(json.dumps({"rev": rev, "commit": commit, "label": label}) + "\n")
    return Revision(label, commit, prefix)


def _product_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(_product_files()):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _product_files() -> list[Path]:
    found = []
    for name in PRODUCT:
        item = ROOT / name
        if item.is_file():
            found.append(item)
        elif item.is_dir():
            found += [p for p in item.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return [p for p in found if not any(part.endswith(".egg-info") for part in p.parts)]


def _export(rev: str | None, into: Path) -> None:
    """The revision's files: ``git archive REV``, or this checkout's product files."""
    into.mkdir(parents=True)
    if rev is None:
        for path in _product_files():
            target = into / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
        return
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def _make_venv(prefix: Path, deps: Path) -> None:
    """A venv without pip whose site-packages reaches this venv's packages through a .pth file."""
    venv.create(prefix, with_pip=False, symlinks=True)
    ours = Path(sysconfig.get_paths()["purelib"])
    deps.mkdir()
    for entry in ours.iterdir():
        if not entry.name.lower().startswith(HIDDEN) and entry.suffix != ".pth":
            (deps / entry.name).symlink_to(entry)
    purelib = subprocess.run(
        [str(prefix / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "benchmark-deps.pth").write_text(f"{deps}\n")


def _install(source: Path, python: Path) -> None:
    """``pip install --no-deps`` of the revision, built offline with this venv's setuptools."""
    command = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps"]
    command += ["--no-index", "--no-build-isolation", str(source)]
    done = subprocess.run(command, capture_output=True, text=True, env=child_env())
    if done.returncode != 0:
        raise RuntimeError(f"installing {source} failed:\n{done.stderr[-3000:]}")


def in_revision(rev: Revision, module: str, args: Sequence[str]) -> int:
    """``python -m module args`` under the revision's python: its parsegate, this checkout's
    benchmarks (a folder holding only a link to benchmarks/ is put on PYTHONPATH)."""
    launch = CACHE / "launch"
    launch.mkdir(parents=True, exist_ok=True)
    if not (launch / "benchmarks").exists():
        (launch / "benchmarks").symlink_to(ROOT / "benchmarks")
    env = child_env(PYTHONPATH=str(launch), PARSEGATE_BENCH_REVISION=rev.label)
    return subprocess.run([str(rev.python), "-m", module, *args], env=env, check=False).returncode


def rerun_in(rev: str | None, module: str) -> None:
    """With ``--revision REV``: run this suite again under REV's venv, with the same arguments but
    that one, and exit with its status (nothing when ``rev`` is None or this is that run)."""
    if rev is None or os.environ.get("PARSEGATE_BENCH_REVISION"):
        return
    args, skip = [], False
    for arg in sys.argv[1:]:
        if skip or arg.startswith("--revision="):
            skip = False
            continue
        if arg == "--revision":
            skip = True
            continue
        args.append(arg)
    sys.exit(in_revision(revision(rev), module, args))
