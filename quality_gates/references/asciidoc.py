"""AsciiDoc read on its own: asciidoc-py (the ``asciidoc`` package, the asciidoc extra) converts
the file to DocBook, and the text nodes of that XML, as lxml reads them, are what a reader of the
rendered document sees. The recall check counts those words against the words of the chunks (as
multisets): a block the parser drops or cuts short loses its words. Comments and attribute
entries are not in the rendering (asciidoc-py drops them too); a word an attribute entry gives
(``:product: Widget`` … ``{product}``) is counted found where the parser declared the entry.

asciidoc-py runs in its safe mode (no ``sys::``, ``eval::`` or system attributes), with its core
and DocBook configuration only (``--no-conf``: none of its filters, which run programs through a
shell, and no conf file found beside the input); ``include::`` lines and ``{include:}``
attributes are blanked before it reads the text, so it never opens another file either. It is pure
Python and about 80 ms a git manual page here; where it is not installed, or refuses a file, the
reference is the source file by position, as for other text formats.
"""

from __future__ import annotations

import importlib.util
import io
import re
from pathlib import Path

# An include line, with the title and attribute lines above it (the included block's, as the
# parser reads them: no block of the file's own).
_INCLUDE = re.compile(r"^(?:(?:\.[^.\s].*|\[.*\])\r?\n)*[ \t]*include1?::.*$", re.MULTILINE)
_INCLUDE_ATTRIBUTE = re.compile(r"\{include1?:")  # the {include:file} system attribute
_CONF_FILES = ("asciidoc.conf", "docbook45.conf", "lang-en.conf")
_MARKS = re.compile(r"^[ \t]*=+[ \t]+|[ \t]+=+[ \t]*$|\[\[[^\[\]]*\]\]")


def section_title(heading: str) -> str:
    """A section title as a reader sees it: the heading's first line without its ``=`` marks
    and inline anchors (``[[id]]``; a two-line title's underline is its second line)."""
    first = heading.splitlines()[0] if heading else ""
    return _MARKS.sub("", first).strip()


_TITLE = re.compile(r"=[ \t]+(\S.*?)[ \t]*$")
_BEFORE_TITLE = re.compile(r"[ \t]*$|//|:!?\w[\w\-]*!?:|\[")  # blank lines, comments, attribute entries


def document_title(text: str) -> tuple[int, int, str] | None:
    """The document title (``= Title``, the first line that is no comment, blank line or
    attribute entry) with its line's span, read here on its own: the parser keeps it as metadata."""
    start = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        m = _TITLE.match(body)
        if m:
            return start, start + len(body), section_title(body)
        if not _BEFORE_TITLE.match(body):
            return None
        start += len(line)
    return None


def available() -> bool:
    return importlib.util.find_spec("asciidoc") is not None


def rendered_texts(text: str) -> list[str] | None:
    """The text nodes of asciidoc-py's DocBook rendering of ``text``; None when asciidoc-py is
    not installed or cannot read it."""
    if not available():
        return None
    import asciidoc
    from asciidoc.api import AsciiDocAPI
    from lxml import etree

    api = AsciiDocAPI()
    api.options("--no-header-footer")
    api.options("--safe")
    # No configuration found on its own: its filters (graphviz, latex, music, source-highlight)
    # run programs through a shell, and a conf file beside the input or in the working folder
    # could name any. The core and DocBook configuration only, from the package itself.
    api.options("--no-conf")
    resources = Path(asciidoc.__file__).parent / "resources"
    for conf in _CONF_FILES:
        api.options("--conf-file", str(resources / conf))
    source = _INCLUDE_ATTRIBUTE.sub("{no-include:", _INCLUDE.sub("", text))
    out = io.StringIO()
    try:
        api.execute(io.StringIO(source), out, backend="docbook45")
    except (Exception, SystemExit):  # asciidoc-py ends a failure in sys.exit: no reading then
        return None
    try:
        root = etree.fromstring(f"<doc>{out.getvalue()}</doc>".encode(), etree.XMLParser(recover=True))
    except etree.XMLSyntaxError:
        return None
    if root is None:
        return None
    return [t for t in root.itertext() if t.strip()]
