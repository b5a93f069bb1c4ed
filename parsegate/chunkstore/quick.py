"""An unchanged re-run, answered before the command line is built.

A ``parsegate run`` whose outputs are already up to date (chunkstore/current.py) parses, routes
and renders nothing, yet building its settings imports the command line, the chunker, the gate
and rich (about 0.15 s, most of such a run). So a run with a store leaves a note in OUTDIR
(``.parsegate-current.json``, written by ``remember``) that names what its settings were made of
and what it read:

- the invocation: a hash of the arguments, the working folder, the whole environment (less the
  shell's own bookkeeping), the terminal's size (or that stderr is not one: the summary is kept as
  rendered), the interpreter, parsegate's files (name, size, mtime) and the
  installed distributions (their ``*.dist-info`` names carry the versions the parsers' versions
  are read from), and of every file the settings read (the gate's config file, or the
  ``parsegate.toml`` and ``pyproject.toml`` that would be read in the working folder);
- the corpus: a hash of every entry under the corpus folder (name and kind) and of every regular
  file's bytes (sha256, read whole), taken *before* the run listed the corpus, so a file added,
  removed, renamed or edited at any time since changes it;
- the documents (id and version) and the run's fingerprint (run.json ``outputs``), and the
  summary the terminal would show for an up-to-date run.

``rerun`` (called by the console script before anything else is imported) re-derives the first
two and, when both are equal, the settings and the corpus are those of the run that wrote the
note, so its fingerprint is this run's: the rest is what the full path checks. The outputs are
verified by hash against run.json (``current.up_to_date``), the store must still hold the chunk
set and every document's result (retired: the full path), the documents' memberships are
recorded as seen (and the corpus's missing ones marked gone) as the full path records them, and
run.json is written again with this run's timings and store counts. Anything that differs, or
any doubt (a symlink in the corpus, a lock held, an unreadable file), returns None: the full
path runs and decides as always. No stat shortcut: every file's bytes are hashed (a stat-equal
file can still have changed, and hashing the fastapi docs' 155 files takes about 3 ms).
"""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import stat
import sys
import time
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

import orjson

from parsegate.chunkstore.current import up_to_date
from parsegate.chunkstore.schema import StoreError, StoreLock, connect
from parsegate.chunkstore.writer import Doc, in_scope, mark_gone, record_reused
from parsegate.store import PARTIAL_FILES, OutputBusy, OutputLock, pretty_json, write_atomic

NOTE = ".parsegate-current.json"
NOTE_SCHEMA = "parsegate.current/1"
SECONDS_MARK = "in 0.0s"  # the summary's title as the note renders it: "… files in 0.0s"
# The shell's bookkeeping, which says nothing about a run (PWD: the working folder is hashed itself).
_VOLATILE = frozenset({"_", "OLDPWD", "PWD", "SHLVL"})
_SKIP_FOLDERS = frozenset({"__pycache__", ".git", ".hg", ".svn", ".bzr", ".jj", "CVS", "_darcs"})
_PACKAGE = Path(__file__).resolve().parent.parent


class Unsupported(Exception):
    """The corpus holds what the note cannot vouch for (a symlink): no note, the full path."""


# -- what a run's settings were made of --------------------------------------------------------


def invocation(argv: list[str], cwd: str, inputs: list[str]) -> str:
    """One hash of the command line, the working folder, the environment, the interpreter, the
    code and the installed distributions, and the bytes of each input file (absent: named so)."""
    digest = hashlib.sha256()
    env = sorted((k, v) for k, v in os.environ.items() if k not in _VOLATILE)
    parts: list[Any] = [argv, cwd, env, sys.version, sys.executable, _code(), _installed(), _terminal()]
    digest.update(_text(parts))
    for path in inputs:
        digest.update(_text(path))
        try:
            digest.update(_file_digest(path).encode())
        except FileNotFoundError:
            digest.update(b"absent")
    return digest.hexdigest()


def _terminal() -> tuple[int, int] | None:
    """The terminal's size (the note keeps the summary as rendered for it), or None: not one."""
    try:
        return tuple(os.get_terminal_size(2)) if os.isatty(2) else None  # type: ignore[return-value]
    except OSError:
        return None


def _code() -> list[tuple[str, int, int]]:
    """parsegate's files (its data included), by name, size and modification time."""
    found = []
    for folder, subfolders, names in os.walk(_PACKAGE):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(names):
            info = os.stat(os.path.join(folder, name))
            found.append((os.path.join(folder, name), info.st_size, info.st_mtime_ns))
    return found


def _installed() -> list[str]:
    """Every installed distribution's metadata folder (name and version) on the import path."""
    found: list[str] = []
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        found.extend(n for n in names if n.endswith((".dist-info", ".egg-info", ".pth")))
    return sorted(found)


def _text(value: object) -> bytes:
    """Bytes to hash for names and lists of names: a file name need not be UTF-8 (repr escapes
    its undecodable bytes, which JSON could not carry)."""
    return repr(value).encode("utf-8", "backslashreplace") + b"\n"


def _file_digest(path: str) -> str:
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


# -- what the corpus holds ---------------------------------------------------------------------


def corpus_state(corpus: str, skip: list[str], include_hidden: bool) -> tuple[str, dict[str, str]]:
    """A hash of every entry under ``corpus`` (its name, its kind, a regular file's sha256) and
    each regular file's sha256 by path. Folders the run never looks into are named, not walked:
    ``skip`` (its outputs), bytecode and version-control folders, and hidden folders unless
    ``include_hidden``; a hidden file is named, not read, except a ``.gitignore`` (whose rules
    the run reads). A symlink raises Unsupported."""
    digest = hashlib.sha256()
    files: dict[str, str] = {}
    if not os.path.isdir(corpus):
        files[corpus] = _regular(corpus)
        digest.update(_text([corpus, files[corpus]]))
        return digest.hexdigest(), files
    stack = [corpus]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        for entry in entries:
            digest.update(_text([entry.path, _entry(entry, skip, include_hidden, files, stack)]))
    return digest.hexdigest(), files


def _entry(entry: os.DirEntry[str], skip: list[str], hidden: bool, files: dict[str, str], stack: list[str]) -> str:
    mode = entry.stat(follow_symlinks=False).st_mode
    if stat.S_ISLNK(mode):
        raise Unsupported(entry.path)
    looked_into = hidden or not entry.name.startswith(".")
    if stat.S_ISDIR(mode):
        if looked_into and entry.name not in _SKIP_FOLDERS and entry.path not in skip:
            stack.append(entry.path)
        return "folder"
    if not stat.S_ISREG(mode):
        return f"special {stat.S_IFMT(mode)}"
    if not looked_into and entry.name != ".gitignore":
        return "hidden file"
    files[entry.path] = _file_digest(entry.path)
    return files[entry.path]


def _regular(path: str) -> str:
    if os.path.islink(path):
        raise Unsupported(path)
    return _file_digest(path)


# -- the note, written by a run with a store ---------------------------------------------------


def remember(out: Path, note: dict[str, Any], files: dict[str, str], documents: list[tuple[str, str, str]]) -> None:
    """Write OUTDIR's note, unless a document's version is not the bytes the corpus hash saw
    (a file edited during the run: the next run takes the full path)."""
    for path, _doc_id, version in documents:
        if files.get(path) != version.removeprefix("sha256:"):
            return
    note = {**note, "schema": NOTE_SCHEMA, "documents": [[d, v] for _p, d, v in documents]}
    try:
        text = pretty_json(note)
    except orjson.JSONEncodeError:
        return  # a path that is not UTF-8 (the corpus's, OUTDIR's): no note, the full path
    write_atomic(out / NOTE, text)


def forget(out: Path) -> None:
    """Before a run changes OUTDIR: no note outlives the outputs it vouched for."""
    (out / NOTE).unlink(missing_ok=True)


# -- the re-run --------------------------------------------------------------------------------


def rerun(argv: list[str]) -> int | None:
    """The exit status of an unchanged re-run done here, or None: the full path decides."""
    if len(argv) < 2 or "run" not in argv:
        return None
    started, clock = datetime.now(UTC), time.perf_counter()
    try:
        previous = signal.signal(signal.SIGTERM, _interrupt)  # as the full path: SIGTERM stops it like Ctrl-C
    except ValueError:  # not the main thread
        return None
    try:
        for out in _out_candidates(argv):
            done = _rerun_in(Path(out), argv, started, clock)
            if done is not None:
                status, shown = done
                sys.stderr.write(shown)  # after the work: a closed stderr cannot send it down the full path
                return status
    except KeyboardInterrupt:
        sys.stderr.write("parsegate: error: interrupted before any document was read; nothing was written\n")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    return None


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _out_candidates(argv: list[str]) -> list[str]:
    """Where OUTDIR may be. A guess is safe: the note there must name this exact command line,
    which click parses to that same OUTDIR."""
    found = []
    for n, arg in enumerate(argv):
        if arg in ("--out", "-o") and n + 1 < len(argv):
            found.append(argv[n + 1])
        elif arg.startswith("--out="):
            found.append(arg[len("--out=") :])
        elif arg.startswith("-o") and len(arg) > 2 and not arg.startswith("--"):
            found.append(arg[2:])
    return found


def _rerun_in(out: Path, argv: list[str], started: datetime, clock: float) -> tuple[int, str] | None:
    try:
        written = (out / NOTE).read_bytes()
        note = orjson.loads(written)
        if note.get("schema") != NOTE_SCHEMA or note["out"] != str(out.resolve()):
            return None
        if note["invocation"] != invocation(argv, os.getcwd(), note["inputs"]):
            return None
        with OutputLock(out, "run"), StoreLock(Path(note["store"])):
            if (out / NOTE).read_bytes() != written:
                return None  # a run finished in OUTDIR meanwhile
            return _current_run(out, note, started, clock)
    except (OSError, ValueError, KeyError, TypeError, OutputBusy, StoreError, sqlite3.Error, Unsupported):
        return None  # the full path reads, refuses or reports it with its reason


def _current_run(out: Path, note: dict[str, Any], started: datetime, clock: float) -> tuple[int, str] | None:
    """The exit status and what to print, once run.json and the store say this run happened."""
    state, _files = corpus_state(note["corpus"], note["skip"], note["include_hidden"])
    if state != note["corpus_state"]:
        return None
    run = up_to_date(out, note["fingerprint"], PARTIAL_FILES)
    if run is None or not run.keys() >= _RUN_KEYS:
        return None
    store = Path(note["store"])
    with closing(connect(store)) as db:
        if not _holds(db, note["chunk_set"], note["documents"]):
            return None  # retired since: the full path parses and records it again
        verdicts = {f["path"]: f for f in run["files"]}
        reused = [
            (Doc(doc_id, "", version, 0), {k: verdicts[doc_id][k] for k in ("verdict", "failed_checks")})
            for doc_id, version in note["documents"]
        ]
        record_reused(db, note["chunk_set"], note["root"], reused)
        scope = in_scope(Path(note["corpus"]), Path(note["root"]), tuple(note["patterns"]))
        gone = mark_gone(db, note["chunk_set"], note["root"], {d for d, _v in note["documents"]}, scope)
    seconds = time.perf_counter() - clock
    run.update(
        started_at=started.isoformat(timespec="seconds"),
        workers=note["workers"],
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
        seconds=round(seconds, 3),
        workers_replaced=0,
        store={"path": str(store.resolve()), "reused": len(reused), "parsed": 0, "not_stored": 0, "gone": len(gone)},
    )
    write_atomic(out / "run.json", pretty_json(run))
    # The terminal's summary as the run that wrote the note rendered it for an up-to-date re-run,
    # with this run's time in its title.
    return int(note["exit"]), str(note["shown"]).replace(SECONDS_MARK, f"in {seconds:.1f}s", 1)


# What run.json says of this run rather than of its outputs, rewritten in place (key order kept).
_RUN_KEYS = frozenset({"started_at", "workers", "finished_at", "seconds", "workers_replaced", "store"})


def _holds(db: sqlite3.Connection, chunk_set: str, documents: list[list[str]]) -> bool:
    """The chunk set and each document's result are still in the store."""
    if db.execute("SELECT 1 FROM chunk_sets WHERE id = ?", (chunk_set,)).fetchone() is None:
        return False
    stored = set(db.execute("SELECT doc_id, version FROM results WHERE chunk_set = ?", (chunk_set,)))
    return all((doc_id, version) in stored for doc_id, version in documents)
