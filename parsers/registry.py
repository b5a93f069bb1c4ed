"""Which parser handles which file: by suffix first, then by its content (parsers/detect: a
file with no suffix or one no parser claims, stdin, bytes, a string).

Built-in parsers are registered through the same seam third-party parsers use:
an object (usually a module) with ``NAME``, ``VERSION``, ``SUFFIXES`` and
``parse(data: bytes, doc_id: str, options: ParseOptions) -> Document``, published
under the entry-point group ``parsegate.parsers``. The built-in ones are built from the format table
(parsers/formats.py).
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from parsegate.parsers.bytes.decode import looks_like_text as looks_like_text  # where discovery takes it
from parsegate.parsers.bytes.decode import refuse_garbage
from parsegate.parsers.bytes.preflight import preflight
from parsegate.parsers.formats import FORMATS, FormatSpec
from parsegate.parsers.model import Document, ParseError, ParseWarning
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.versions import light_version

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from parsegate.parsers.detect import Detected, Unrecognised

ENTRY_POINT_GROUP = "parsegate.parsers"


class Parser(Protocol):
    NAME: str
    VERSION: str
    SUFFIXES: tuple[str, ...]

    def parse(self, data: bytes, doc_id: str, options: ParseOptions) -> Document: ...


class _Builtin:
    """A built-in parser, known by its entry in parsers/formats.py; its module (and the libraries
    behind it: markdown-it, tree-sitter, docling, PDFium) is imported the first time it parses or
    is asked for anything but its name, suffixes and version (parsers.versions gives that), so
    that parsing one file imports one parser. A test checks all three against the modules' own."""

    VERSION: str  # parsers.versions, or the module's own once imported (__getattr__)

    def __init__(self, spec: FormatSpec) -> None:
        self.spec, self.module, self.NAME, self.SUFFIXES = spec, spec.module, spec.name, spec.suffixes
        self._loaded: ModuleType | None = None

    def load(self) -> ModuleType:
        if self._loaded is None:
            if all(form.needs_extra for form in self.spec.forms):  # the module imports the extra's libraries
                self.require_extra()
            self._loaded = importlib.import_module(self.module)
        return self._loaded

    def parse(self, data: bytes, doc_id: str, options: ParseOptions, suffix: str | None = None) -> Document:
        """``suffix``: the one the file is read as (a form of this parser's), when ``doc_id``'s
        is not it (stdin, bytes, a file named by its content)."""
        doc: Document = self.load().parse(data, doc_id, options, suffix=suffix)
        return doc

    def __getattr__(self, name: str) -> Any:
        if name == "VERSION":
            return self._version()
        return getattr(self.load(), name)

    def _version(self) -> str:
        """The module's VERSION, from parsers.versions without importing it (a run names every
        parser's version; the imports cost a sixth of an unchanged re-run) unless it is loaded."""
        light = None if self._loaded is not None else light_version(self.NAME)
        if light is not None:
            return light
        try:
            return str(self.load().VERSION)
        except MissingExtra as exc:  # a run names every parser's version, installed or not
            return f"not installed ({exc.message})"

    def require_extra(self, suffix: str | None = None) -> None:
        """MissingExtra, naming the extra to install, when a top-level module of the extra this
        parser needs for ``suffix`` (for all of its forms: None) is not installed; found without
        importing anything (pdfplumber is imported only for a page with rules), before the file
        is inflated or parsed. The core install reads Markdown, plain text and web pages; PDF,
        Office and code are the pdf, office and code extras."""
        form = None if suffix is None else self.spec.form_for(suffix)
        if self.spec.extra is None or (form is not None and not form.needs_extra):
            return
        for module in self.spec.extra_modules:
            if importlib.util.find_spec(module) is None:
                raise MissingExtra(
                    "missing_extra",
                    f"reading {self.NAME} files needs {module}, which is not installed: "
                    f"pip install 'parsegate[{self.spec.extra}]'",
                )


class MissingExtra(ParseError):
    """A format's libraries (an optional extra) are not installed."""


_BUILTIN: tuple[_Builtin, ...] = tuple(_Builtin(spec) for spec in FORMATS)
_CODE, _TEXT = ({p.NAME: p for p in _BUILTIN}[name] for name in ("code", "text"))
_loaded: list[Parser] | None = None
_found: tuple[list[Parser], list[tuple[str, str]]] | None = None  # a _loaded, and its entry points
_given: list[tuple[str, str]] | None = None  # entry points another process found (use_plugins)


def parsers() -> list[Parser]:
    global _loaded, _found
    if _loaded is None:
        points = _entry_points()
        _loaded = [*_BUILTIN, *(ep.load() for ep in points)]
        _found = (_loaded, [(ep.name, ep.value) for ep in points])
    return _loaded


def _entry_points() -> list[EntryPoint]:
    """The plugin parsers' entry points: the ones given (use_plugins), else those the installed
    packages declare."""
    if _given is not None and not _given:
        return []  # importlib.metadata is not imported: about 9 ms of a worker's start
    from importlib.metadata import EntryPoint, entry_points  # here: a third of `parsegate formats`

    if _given is None:
        return list(entry_points(group=ENTRY_POINT_GROUP))
    return [EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in _given]


def plugins() -> list[tuple[str, str]]:
    """The entry points (name, value) of the plugin parsers this process uses, for a worker
    process (``use_plugins``): searching every installed package's metadata again took 5 ms of
    each worker's start."""
    loaded = parsers()
    if _found is not None and _found[0] is loaded:
        return list(_found[1])
    return [(ep.name, ep.value) for ep in _entry_points()]  # the list was set from outside: a test


def use_plugins(points: list[tuple[str, str]]) -> None:
    """Use these plugin parsers (``plugins()`` of the parent process, whose sys.path the worker
    has) instead of searching the installed packages; each is loaded on first use, as before."""
    global _loaded, _given
    _loaded, _given = None, [(str(name), str(value)) for name, value in points]


def by_name(name: str) -> Parser:
    for parser in parsers():
        if name == parser.NAME:
            return parser
    raise KeyError(name)


@dataclass(frozen=True)
class Choice:
    """The parser for a file, the suffix it reads the file as, and what the content showed when
    the name did not decide (None when the suffix did)."""

    parser: Parser
    suffix: str
    detected: Detected | None = None


def parser_for(path: Path, head: bytes = b"") -> Parser | None:
    """The parser for a file: by suffix, then by content (``head``: its first bytes; see
    ``choose``). None for content no parser claims, or no content to go by."""
    choice = choose(path, head)
    return choice.parser if isinstance(choice, Choice) else None


def choose(path: Path, data: bytes) -> Choice | Unrecognised | None:
    """The parser for a file named ``path`` holding ``data`` (all of it, or its first bytes):
    the one whose suffix it has; else the content's (parsers/detect), read as text without the
    code extra; ``Unrecognised`` (what was seen) for binary content no parser reads; None when
    there is no content to go by."""
    suffix = path.suffix.lower()
    for parser in reversed(parsers()):  # later registrations override built-ins
        if suffix in parser.SUFFIXES:
            return Choice(parser, suffix)
    return _by_content(data)


def _by_content(data: bytes) -> Choice | Unrecognised | None:
    # here, not at the top: a file named by its suffix (nearly all of them) needs none of it
    from parsegate.parsers.detect import Detected, Unrecognised, sniff

    if not data:
        return None
    found = sniff(data)
    if isinstance(found, Unrecognised):
        return found
    if found.format == "code" and _CODE.spec.extra_modules and not _has_modules(_CODE.spec.extra_modules):
        by = f"{found.by}; read as text: the code extra is not installed (pip install 'parsegate[code]')"
        found = Detected("text", ".txt", by)
    for parser in reversed(parsers()):
        if found.suffix in parser.SUFFIXES:
            return Choice(parser, found.suffix, found)
    return Unrecognised(f"{found.format}, which no installed parser reads")


def _has_modules(modules: tuple[str, ...]) -> bool:
    return all(importlib.util.find_spec(module) is not None for module in modules)


def supported_suffixes() -> list[str]:
    return sorted({s for p in parsers() for s in p.SUFFIXES})


def parse_file(path: Path, doc_id: str | None = None, options: ParseOptions = DEFAULTS) -> Document:
    """Read and parse one file; every failure is a ParseError with a reason."""
    return parse_data(read_regular_file(path), path, doc_id, options)


def parse_data(data: bytes, path: Path, doc_id: str | None = None, options: ParseOptions = DEFAULTS) -> Document:
    """Parse a file's bytes (``path`` chooses the parser by its suffix, else the content does:
    ``Document.metadata["format_detected"]`` then says what it was read as and why) under
    ``options`` (a PDF password, page, time and size limits)."""
    choice = choose(path, data)
    if not isinstance(choice, Choice):
        raise ParseError("unsupported", _unsupported(path, choice))
    parser, suffix = choice.parser, choice.suffix
    if isinstance(parser, _Builtin):
        parser.require_extra(suffix)  # the format's extra (parsers/formats.py) is installed
    # Checks on what the file would inflate to (zip members, PDF streams, image pixels), before
    # any parser library inflates or decodes it.
    preflight(data, suffix, options)
    try:
        if isinstance(parser, _Builtin):
            doc = parser.parse(data, doc_id or path.name, options, suffix)
        else:
            doc = parser.parse(data, doc_id or path.name, options)
    except ParseError as exc:
        raise _reworded(exc, options) from None
    # Whatever the parser, text that is mostly control or replacement characters means nothing.
    refuse_garbage(doc.text)
    if choice.detected is not None:
        doc.metadata["format_detected"] = choice.detected.note()
    if path.suffix and path.suffix.lower() not in parser.SUFFIXES:
        doc.warnings.append(  # why: metadata["format_detected"]
            ParseWarning("unknown_format", f"no parser for '{path.suffix}' files; read as {doc.format}")
        )
    return doc


def _unsupported(path: Path, seen: Unrecognised | None) -> str:
    """Why no parser reads a file, and how to name its format."""
    if seen is None:  # no content
        return f"no parser for '{path.suffix or path.name}' files"
    what = f"no parser for '{path.suffix}' files" if path.suffix else f"'{path.name}' has no suffix"
    return (
        f"{what}, and its content is no format parsegate reads ({seen.seen}); if it is one, name it "
        "(--format pdf on the command line, format='pdf' in Python)"
    )


def read_regular_file(path: Path, follow_symlinks: bool = True) -> bytes:
    """The bytes of a regular file. A FIFO, a device or a socket is refused without reading it
    (a FIFO would block the run; /dev/zero would never end). Without ``follow_symlinks`` a
    symbolic link is refused too: a run reads what its listing found (a file swapped for a link to
    a file outside the corpus after the listing must not be read)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if not follow_symlinks and exc.errno == errno.ELOOP:
            raise ParseError("not_a_file", "a symbolic link where the listing found a file; not followed") from None
        raise ParseError("unreadable", exc.strerror or str(exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ParseError("not_a_file", f"not a regular file ({_kind(mode)}); not read")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    except OSError as exc:
        raise ParseError("unreadable", exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def _reworded(exc: ParseError, options: ParseOptions) -> ParseError:
    """A PDF that stays locked although a password was given: the password is wrong."""
    if exc.code == "encrypted" and options.password:
        return ParseError("wrong_password", "encrypted, and the password given (--password) does not open it")
    return exc
