"""Which files a run reads, what it leaves out and why, and each file's ``doc_id``.

The walk stays inside the corpus root: a symlink whose target lies outside it is not followed
unless ``follow_symlinks`` is set; a symlinked folder inside the root is not walked twice (its
files are read at their real path). Every path left out is counted with its reason: the run's
own output folder, hidden files and folders, symlinks leaving the corpus, symlinked folders,
folders that cannot be read, FIFOs, sockets and devices (which are never opened), what the
corpus's ``.gitignore`` files or ``--exclude`` patterns (gitignore syntax, relative to the corpus
folder) ignore, ``__pycache__``, version-control and virtualenv folders, and binary files no parser
claims by suffix (their first bytes are not text). A folder left out counts once.

``doc_id`` is the path relative to the root, with ``/`` separators. File names are bytes on
POSIX and need not be UTF-8: a byte that is not part of valid UTF-8 is written ``\\xNN`` and a
backslash ``\\\\``, so the name can always be recovered exactly (``doc_path``).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, BinaryIO

from parsegate.parsers.registry import looks_like_text, supported_suffixes

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec


# Patterns one .gitignore (or --exclude) may hold: all of them are compiled into one RE2 automaton,
# which matches every path in time linear in its length whatever the patterns (Python's regex
# backtracks: '*a*a*a*a*a*a*a*a*a*a*b' took minutes on a 48-letter name). RE2's set of patterns has a
# memory bound that about 2,500 patterns of a real .gitignore reach: more are refused, named.
MAX_IGNORE_PATTERNS = 2000


class IgnoreTooLarge(ValueError):
    """A .gitignore (or the --exclude patterns) cannot be matched in bounded time and memory."""


def ignore_spec(lines: list[str] | tuple[str, ...], where: str) -> GitIgnoreSpec:
    """The gitignore rules of ``lines``, matched by RE2 (google-re2): one automaton, linear time."""
    import re2
    from pathspec import GitIgnoreSpec

    patterns = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if len(patterns) > MAX_IGNORE_PATTERNS:
        raise IgnoreTooLarge(
            f"{where}: {len(patterns)} patterns, more than the {MAX_IGNORE_PATTERNS} parsegate matches in bounded "
            "time; leave it out with --no-gitignore (and name what to skip with --exclude)"
        )
    try:
        return GitIgnoreSpec.from_lines(list(lines), backend="re2")
    except re2.error as exc:
        raise IgnoreTooLarge(f"{where}: its patterns cannot be compiled into one automaton ({exc})") from None


@dataclass(frozen=True)
class Source:
    path: Path  # where the file is read
    doc_id: str  # what every record calls it
    member: str | None = None  # a mail's attachment, read out of the file (runner/members.py)


@dataclass
class Selection:
    """Which files under a corpus a run reads, and what it leaves out on purpose (said in
    run.json, never silently)."""

    patterns: tuple[str, ...] = ("*",)
    exclude: tuple[Path, ...] = ()
    include_hidden: bool = False
    follow_symlinks: bool = False
    excludes: tuple[str, ...] = ()  # --exclude: gitignore-style patterns, relative to the corpus folder
    gitignore: bool = True  # honour the corpus's .gitignore files
    left_out: dict[str, int] = field(default_factory=dict)
    followed_symlinks: int = 0  # symlinks out of the corpus that were followed (--follow-symlinks)

    def count(self, reason: str) -> None:
        self.left_out[reason] = self.left_out.get(reason, 0) + 1

    def matches(self, doc_id: str) -> bool:
        return any(PurePosixPath(doc_id).match(g) for g in self.patterns)


HIDDEN = "hidden (use --include-hidden)"
OUTPUT = "output folder"
SYMLINK_OUT = "symlink leaving the corpus (use --follow-symlinks)"
SYMLINKED_FOLDER = "symlinked folder inside the corpus (read at its real path)"
NO_GLOB = "not matching --glob"
EXCLUDED = "matching --exclude"
GITIGNORED = "ignored by .gitignore"
PYCACHE = "__pycache__ folder"
VCS = "version-control folder"
VIRTUALENV = "virtualenv folder"
BINARY = "binary file (no parser for its suffix, content not text)"  # nor a format parsers/detect knows
_VCS_NAMES = frozenset({".git", ".hg", ".svn", ".bzr", ".jj", "CVS", "_darcs"})
_HEAD = 8192  # bytes read to tell a binary file from text


def discover(corpus: Path, selection: Selection | None = None, root: Path | None = None) -> list[Source]:
    """Files under ``corpus`` the selection wants, in sorted order, with their doc ids
    (relative to ``root``: by default the corpus folder, or a single file's folder)."""
    selection = selection or Selection()
    corpus = corpus.resolve()
    if root is None:
        root = corpus.parent if corpus.is_file() else corpus
    root = root.resolve()
    if corpus.is_file():
        return [Source(corpus, doc_id(corpus, root))]
    walk = _Walk(root, selection, corpus)
    walk.folder(corpus)
    return [source for _, source in sorted(walk.found, key=lambda found: found[0])]  # by the name it is listed under


class _Walk:
    def __init__(self, root: Path, selection: Selection, corpus: Path) -> None:
        self.root = root
        self.real_root = os.path.realpath(root)
        self.corpus = corpus
        self.selection = selection
        self.found: list[tuple[Path, Source]] = []  # (the path it is listed under, the source)
        self.exclude = {Path(os.path.realpath(e)) for e in selection.exclude}
        self.excludes = ignore_spec(selection.excludes, "--exclude") if selection.excludes else None
        # Each folder's .gitignore rules, with the folder they are relative to (outermost first).
        self.ignores: dict[Path, list[tuple[Path, GitIgnoreSpec]]] = {}
        self.suffixes = frozenset(supported_suffixes())

    def folder(self, start: Path) -> None:
        # Explicit stack, and (device, inode) of every folder walked: followed symlinks cannot loop.
        stack = [start]
        seen: set[tuple[int, int]] = set()
        while stack:
            folder = stack.pop()
            try:
                info = os.stat(folder)
                if (info.st_dev, info.st_ino) in seen:
                    continue
                seen.add((info.st_dev, info.st_ino))
                entries = list(os.scandir(folder))
            except OSError as exc:
                self.selection.count(f"unreadable folder ({exc.strerror or exc})")
                continue
            self.read_gitignore(folder, entries)
            for entry in entries:
                sub = self.entry(Path(entry.path), entry)
                if sub is not None:
                    stack.append(sub)

    def entry(self, path: Path, entry: os.DirEntry[str]) -> Path | None:
        """Take a file, or return a folder to walk."""
        count = self.selection.count
        if path in self.exclude:
            count(OUTPUT)
            return None
        if not self.selection.include_hidden and entry.name.startswith("."):
            count(HIDDEN)
            return None
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        ignored = self.ignored(path, is_dir)
        if ignored:
            count(ignored)
            return None
        try:
            if entry.is_symlink():
                return self.symlink(path)
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError as exc:
            count(f"unreadable ({exc.strerror or exc})")
            return None
        if stat.S_ISDIR(mode):
            skipped = _tool_folder(path)
            if skipped:
                count(skipped)
                return None
            return path
        if not stat.S_ISREG(mode):
            count(f"not a regular file ({_kind(mode)})")
            return None
        self.file(path)
        return None

    def read_gitignore(self, folder: Path, entries: list[os.DirEntry[str]]) -> None:
        rules = self.ignores.get(folder.parent, []) if folder != self.corpus else []
        if self.selection.gitignore and any(e.name == ".gitignore" and e.is_file() for e in entries):
            try:
                lines = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                lines = []
            rules = [*rules, (folder, ignore_spec(lines, str(folder / ".gitignore")))]
        self.ignores[folder] = rules

    def ignored(self, path: Path, is_dir: bool) -> str | None:
        """The reason --exclude or a .gitignore leaves this path out, if one does."""
        tail = "/" if is_dir else ""
        if self.excludes is not None and self.excludes.match_file(_relative(path, self.corpus) + tail):
            return EXCLUDED
        verdict = None
        for base, spec in self.ignores.get(path.parent, []):  # a deeper .gitignore has the last word
            result = spec.check_file(_relative(path, base) + tail).include
            if result is not None:
                verdict = result
        return GITIGNORED if verdict else None

    def symlink(self, path: Path) -> Path | None:
        target = os.path.realpath(path)
        inside = target == self.real_root or target.startswith(self.real_root.rstrip(os.sep) + os.sep)
        if not inside:
            if not self.selection.follow_symlinks:
                self.selection.count(SYMLINK_OUT)
                return None
            self.selection.followed_symlinks += 1
        if os.path.isdir(target):
            if inside:
                self.selection.count(SYMLINKED_FOLDER)
                return None
            return path
        if os.path.exists(target):
            mode = os.stat(target).st_mode
            if not stat.S_ISREG(mode):
                self.selection.count(f"not a regular file ({_kind(mode)})")
                return None
        # Named by the link, read at its target (a worker follows no link: one found there was
        # swapped in after the listing). A broken symlink inside the corpus is listed: it ends as a
        # failure with its reason.
        self.file(path, Path(target))
        return None

    def file(self, path: Path, read_at: Path | None = None) -> None:
        ident = doc_id(path, self.root)
        if not self.selection.matches(ident):
            if self.selection.patterns != ("*",):
                self.selection.count(NO_GLOB)
        elif path.suffix.lower() not in self.suffixes and _binary(path):
            self.selection.count(BINARY)
        else:
            self.found.append((path, Source(read_at or path, ident)))


def _relative(path: Path, base: Path) -> str:
    return os.path.relpath(path, base).replace(os.sep, "/")


def _tool_folder(path: Path) -> str | None:
    """Folders of tools, not documents: bytecode caches, version control, virtualenvs."""
    if path.name == "__pycache__":
        return PYCACHE
    if path.name in _VCS_NAMES:
        return VCS
    if (path / "pyvenv.cfg").is_file() or (path / "conda-meta").is_dir():
        return VIRTUALENV
    return None


def _binary(path: Path) -> bool:
    """A non-empty file whose first bytes are not text (an image, a .pyc, an archive) nor a
    format a parser reads (a PDF or an Office file without its suffix: parsers/detect). Read
    errors are left to the parser, which reports them with their reason."""
    try:
        with open(path, "rb") as f:
            head = f.read(_HEAD)
            return bool(head) and not looks_like_text(head) and not _a_known_format(head, f)
    except OSError:
        return False


def _a_known_format(head: bytes, file: BinaryIO) -> bool:
    """Binary content a parser reads all the same (a PDF or an Office file with no suffix)."""
    from parsegate.parsers.detect import Detected, sniff

    return isinstance(sniff(head, file), Detected)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "special file"


def doc_id(path: Path, root: Path) -> str:
    """The path relative to ``root``, escaped losslessly (see the module docstring). A path
    outside ``root`` (a followed symlink's folder is walked under its link's name) keeps its
    name under the root."""
    try:
        relative = path.relative_to(root)
    except ValueError:
        relative = Path(os.path.relpath(path, root))
    return escape(relative.as_posix())


def escape(name: str) -> str:
    """A file name (str with surrogate escapes, as os.fsdecode gives) → valid UTF-8 text:
    backslash → ``\\\\``, each byte that is not valid UTF-8 → ``\\xNN``."""
    raw = os.fsencode(name)
    if b"\\" not in raw:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return raw.replace(b"\\", b"\\\\").decode("utf-8", "backslashreplace")


_ESCAPE = re.compile(r"\\(\\|x[0-9a-f]{2})")


def doc_path(ident: str) -> str:
    """The exact file name (with surrogate escapes) a doc_id stands for: the inverse of escape."""
    if "\\" not in ident:
        return ident
    raw = bytearray()
    pos = 0
    for match in _ESCAPE.finditer(ident):
        raw += ident[pos : match.start()].encode("utf-8")
        code = match.group(1)
        raw += b"\\" if code == "\\" else bytes([int(code[1:], 16)])
        pos = match.end()
    raw += ident[pos:].encode("utf-8")
    return os.fsdecode(bytes(raw))


def source_of(root: Path, ident: str) -> Path | None:
    """Where the document ``ident`` of a corpus rooted at ``root`` is read, or None when the id
    would lead outside the root (an absolute path, a '..' segment, a symlinked folder out of it):
    ids read back from disk (run.json, the store) are checked before any file is opened."""
    name = doc_path(ident)
    parts = PurePosixPath(name).parts
    if not parts or PurePosixPath(name).is_absolute() or ".." in parts:
        return None
    base = root.resolve()
    path = base / name
    try:
        real = path.resolve()
    except (OSError, RuntimeError):
        return None
    return path if real.is_relative_to(base) else None
