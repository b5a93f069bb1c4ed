"""AsciiDoc's line patterns: what a line is, read alone (AsciiDoc is line-oriented). The block
scanner (blocks.py) decides what a run of lines makes from these."""

from __future__ import annotations

import re

# `= Title` .. `====== Title` (a trailing run of `=` is the symmetric form's, no part of the title).
SECTION = re.compile(r"(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$")
# Setext (two-line) titles: the underline's character gives the level.
UNDERLINE_LEVELS = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}
UNDERLINE = re.compile(r"([=\-~^+])\1+[ \t]*$")
TITLE_LINE = re.compile(r"[\w\"'(`]")  # how a two-line title's first line begins
ATTRIBUTE_ENTRY = re.compile(r":(!?[\w][\w\-]*!?):(?:[ \t]+(.*?))?[ \t]*$")
BLOCK_ATTRIBUTES = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\][ \t]*$")  # [source,python], [[anchor]], [NOTE]
BLOCK_TITLE = re.compile(r"\.([^.\s\t].*)$")
COMMENT_LINE = re.compile(r"//(?!//)")
DELIMITER = re.compile(r"(-{4,}|\.{4,}|_{4,}|={4,}|\*{4,}|\+{4,}|/{4,}|--|`{3}.*)[ \t]*$")
TABLE_DELIMITER = re.compile(r"([|,:!])={3,}[ \t]*$")
DIRECTIVE = re.compile(r"(?:include|ifdef|ifndef|ifeval|endif)::\S*\[.*\][ \t]*$")
BREAK = re.compile(r"(?:'{3,}|<{3,}|\*\*\*|- - -|\* \* \*)[ \t]*$")  # thematic and page breaks
CONTINUATION = "+"
INLINE_ANCHOR = re.compile(r"\[\[[^\[\]]*\]\]")
ADMONITION_STYLES = frozenset({"NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"})

# List items: their marker and their text.
UNORDERED = re.compile(r"[ \t]*(\*{1,5}|-)[ \t]+(\S.*)$")
ORDERED = re.compile(r"[ \t]*(\.{1,5}|\d+\.|[a-zA-Z]\.|[ivxIVX]+\))[ \t]+(\S.*)$")
CALLOUT = re.compile(r"[ \t]*(<(?:\d+|\.)>)[ \t]+(\S.*)$")
# `term:: description`, `term::` alone (its description on the lines after), `question;;`.
DESCRIPTION = re.compile(r"[ \t]*(?!//)(\S.*?)(:{2,4}|;;)(?:[ \t]+(\S.*))?[ \t]*$")


def is_blank(line: str) -> bool:
    return not line.strip()


def item_marker(line: str) -> tuple[str, str, str] | None:
    """A list item's (kind, marker, text): kind is "unordered", "ordered", "callout" or the
    description list's delimiter (``::``, ``:::``, ``;;``); for a description item the marker is
    its term."""
    for kind, pattern in (("unordered", UNORDERED), ("ordered", ORDERED), ("callout", CALLOUT)):
        m = pattern.match(line)
        if m:
            return kind, m.group(1), m.group(2)
    m = DESCRIPTION.match(line)
    stripped = line.strip()
    if m and not DIRECTIVE.match(stripped) and not BLOCK_ATTRIBUTES.match(stripped) and stripped[0] not in ".|":
        return m.group(2), without_anchors(m.group(1)), m.group(3) or ""
    return None


def without_anchors(title: str) -> str:
    """A title or term without its inline anchors (``[[def_DAG]]DAG`` → ``DAG``)."""
    return INLINE_ANCHOR.sub("", title).strip()


def list_key(kind: str, marker: str) -> str:
    """What tells one list level from another: the marker's form (`*`, `**`, `-`, `1.`, `::`)."""
    if kind == "ordered":
        if marker[0].isdigit():
            return "1."
        if marker.endswith(")"):
            return "i)"
        return marker if set(marker) == {"."} else "a."
    if kind in ("unordered", "callout"):
        return marker if kind == "unordered" else "<1>"
    return kind  # `::`, `:::`, `;;`


def attributes(line: str) -> tuple[str | None, list[str], dict[str, str]]:
    """A block attribute line's style (first positional attribute), its positional attributes and
    its named ones (``cols``, ``options``): ``[source,python]`` → ("source", ["source", "python"])."""
    inner = line.strip()[1:-1]
    positional: list[str] = []
    named: dict[str, str] = {}
    for part in re.findall(r'(?:[^,"]|"[^"]*")+|(?<=,)(?=,|$)|^(?=,)', inner):
        part = part.strip()
        if "=" in part and re.match(r"[\w\-]+=", part):
            name, value = part.split("=", 1)
            named[name.strip()] = value.strip().strip('"')
        else:
            positional.append(part.strip('"'))
    style = positional[0] if positional and positional[0] else None
    if style is not None:  # `[%header]`, `[source%linenums,python]`, `[#id.role]`: the style alone
        style = re.split(r"[#.%]", style, maxsplit=1)[0] or None
        for option in re.findall(r"%([\w\-]+)", positional[0]):
            named.setdefault("options", "")
            named["options"] += "," + option
    return style, positional, named


def underline_of(title: str, underline: str) -> int | None:
    """A two-line title's level, when ``underline`` underlines ``title`` (lengths within two)."""
    title = title.rstrip()
    m = UNDERLINE.match(underline)
    if m is None or not TITLE_LINE.match(title) or abs(len(underline.rstrip()) - len(title)) > 2:
        return None
    if len(underline.rstrip()) < 2 or DELIMITER.match(title):
        return None
    return UNDERLINE_LEVELS[m.group(1)]


NON_BODY = frozenset({"front_matter", "furniture"})  # kinds that take no block's opening lines
