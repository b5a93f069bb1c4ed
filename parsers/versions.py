"""Each built-in parser's version, known without importing the parser.

A run names every parser's version in its chunk set id; importing every parser module (and
markdown-it, tree-sitter, PDFium, docling behind them) only to read ``VERSION`` was about a
sixth of an unchanged re-run. Here the output versions come from the format table
(parsers/formats.py), which the parser modules take their ``OUTPUT_VERSION`` from too, and the
libraries' versions are read from their installed metadata (``importlib.metadata``, which
names the same versions the modules do).
tests/parsers/test_parser_versions.py holds each light version equal to the module's ``VERSION``.
"""

from __future__ import annotations

from functools import cache

from parsegate.parsers.formats import FORMATS

# Bumped (in parsers/formats.py) whenever the elements a parser makes can change (tests/test_versions.py
# checks them against the golden outputs), so that the same span under changed code gets new chunk ids.
OUTPUT_VERSIONS = {spec.name: spec.output_version for spec in FORMATS}


def light_version(name: str) -> str | None:
    """The ``VERSION`` the built-in parser ``name`` would have once imported, or None when it
    cannot be had without the import (a library not installed: the import words that)."""
    # Imported here, not with this module: a worker process imports the registry (and so this
    # module) but never asks for a version, and importlib.metadata took 9 ms of its start.
    from importlib.metadata import PackageNotFoundError

    try:
        return _VERSIONS[name]()
    except (KeyError, PackageNotFoundError):
        return None


@cache
def version(package: str) -> str:
    """An installed package's version (a run asks for each twice; they do not change under it)."""
    from importlib.metadata import version as installed_version

    return installed_version(package)


def _markdown() -> str:
    return f"{OUTPUT_VERSIONS['markdown']}+markdown-it-py/{version('markdown-it-py')}"


def _text() -> str:
    return str(OUTPUT_VERSIONS["text"])


def _code() -> str:
    tree_sitter, pack = version("tree-sitter"), version("tree-sitter-language-pack")
    return f"{OUTPUT_VERSIONS['code']}+tree-sitter/{tree_sitter}+language-pack/{pack}"


def _office() -> str:
    return f"{OUTPUT_VERSIONS['office']}; docling-slim {version('docling-slim')}; lxml {version('lxml')}"


def _pdf() -> str:
    return f"{OUTPUT_VERSIONS['pdf']}+pypdfium2/{version('pypdfium2')}+pdfplumber/{version('pdfplumber')}"


def _image() -> str:
    return f"{OUTPUT_VERSIONS['image']}+pdf/{_pdf()}+pillow/{version('pillow')}"


def _csv() -> str:
    return str(OUTPUT_VERSIONS["csv"])


def _notebook() -> str:
    """Its cells are read by the Markdown and (with the code extra) the code parser: their versions too."""
    from importlib.metadata import PackageNotFoundError

    try:
        code = _code()
    except PackageNotFoundError:
        code = "none"
    return f"{OUTPUT_VERSIONS['notebook']}+markdown/{_markdown()}+code/{code}"


def _epub() -> str:
    return str(OUTPUT_VERSIONS["epub"])


def _mail() -> str:
    return str(OUTPUT_VERSIONS["mail"])


def _rst() -> str:
    return f"{OUTPUT_VERSIONS['rst']}+docutils/{version('docutils')}"


def _asciidoc() -> str:
    return str(OUTPUT_VERSIONS["asciidoc"])


_VERSIONS = {
    "markdown": _markdown,
    "text": _text,
    "code": _code,
    "office": _office,
    "pdf": _pdf,
    "notebook": _notebook,
    "csv": _csv,
    "image": _image,
    "epub": _epub,
    "mail": _mail,
    "rst": _rst,
    "asciidoc": _asciidoc,
}
