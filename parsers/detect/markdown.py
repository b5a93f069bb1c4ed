"""Markdown told by its block syntax, conservatively: plain prose, a text with dashes for bullets
or underlined titles, and a configuration file or a script whose comments start with "#" stay text.

Signals, read line by line (outside fenced blocks): ATX headings (``# Title``; a run of "#" lines
is a comment block, not headings), fenced code blocks that close, pipe tables (a header row and
its ``|---|---|`` delimiter row), YAML front matter, list items, inline links, setext headings,
strong emphasis and code spans. Markdown is a fence, a table or two headings; or one heading with
another signal; or front matter with one. Text a fifth of whose characters are on lines that look like
program code or configuration (ending in ``;`` ``{`` ``}``, opening with ``def``, ``import``,
``#include``, an assignment, ``key: value``...) is not Markdown, however many "#" lines it has."""

from __future__ import annotations

import re

_ATX = re.compile(r" {0,3}#{1,6}[ \t]+\S")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_TABLE_DELIMITER = re.compile(r" {0,3}\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$|"
                              r" {0,3}\|[ \t]*:?-{3,}:?[ \t]*\|[ \t]*$")  # fmt: skip
_LIST = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+\S")
_LINK = re.compile(r"!?\[[^\]\n]+\]\((?:[^()\s]+|<[^>\n]*>)(?:[ \t]+\"[^\"\n]*\")?\)")
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")
_EMPHASIS = re.compile(r"(\*\*|__)[^\s*_][^\n]*?[^\s*_]\1|``?[^`\n]+``?")
_FRONT_KEY = re.compile(r"[A-Za-z_][\w-]*:(?:\s|$)")
_PREPROCESSOR = re.compile(r"[ \t]*#[ \t]*(?:define|include|if|ifdef|ifndef|endif|else|elif|undef|pragma|error)\b")
_CODE_LINE = re.compile(
    r".*[;{}\\][ \t]*$|[ \t]*(?:def |class \w+.*:$|import |from [\w.]+ import |"
    r"(?:raise|pass|yield|break|continue|try:|except\b|finally:|with .*:$|elif .*:$|else:$)|"
    r"[\w.\[\]'\"]+[ \t]*[-+*/|&]?=[ \t]*\S|"  # an assignment
    r"-?[ \t]*[\w.-]+:[ \t]+\S{1,60}$|"  # "key: value" (YAML)
    r"function\b|var |let |const |package |public |private |return\b|fn |func |use |using |"
    # shell and configuration files: their comments start with "#" too
    r"(?:if|then|else|elif|fi|do|done|case|esac|while|for|echo|export|local|set|exit|shift)\b|"
    r"[A-Za-z_][\w.]*=\S|\[[\w. \"-]+\][ \t]*$|[\w.-]+:[ \t]*$)"
)
_MAX_CODE_SHARE = 0.2
_BLOCK_OPENERS = ("|", "`", "~", ">")  # a table, a fence, a quote right under a heading
_MAX_LINES = 4000


def markdown_signals(text: str) -> str | None:
    """Why ``text`` is Markdown ("content: 3 ATX headings, a list..."), or None."""
    lines = text.splitlines()[:_MAX_LINES]
    counts = _signals(lines)
    heads, fences, tables, links = counts["heading"], counts["fence"], counts["table"], counts["link"]
    # Code or configuration, unless fenced blocks or tables say otherwise (a Markdown page of
    # examples: YAML history in comments, "key: value" lines)
    if counts["code"] > _MAX_CODE_SHARE * max(counts["chars"], 1) and fences < 2 and not tables:
        return None
    others = counts["list"] + links + counts["setext"] + counts["emphasis"]
    front, title = counts["front"], counts["title"]
    if not (
        fences
        or tables
        or heads >= 2
        or title
        or (heads and (others or front))
        or (front and others)
        or (links >= 2 and counts["list"] + counts["setext"] + counts["emphasis"])
        or (links and counts["setext"])
    ):
        return None
    parts = [
        "a title heading" if title and heads < 2 else _plural(heads, "ATX heading"),
        _plural(fences, "fenced code block"),
        _plural(tables, "pipe table"),
        "YAML front matter" if front else "",
        _plural(counts["list"], "list item"),
        _plural(counts["link"], "link"),
        _plural(counts["setext"], "setext heading"),
        _plural(counts["emphasis"], "emphasis or code span"),
    ]
    return "content: Markdown block syntax: " + ", ".join(p for p in parts if p)


def _plural(n: int, what: str) -> str:
    if n == 0:
        return ""
    if n == 1:
        return ("an " if what[0] in "AEIOUaeiou" else "a ") + what
    return f"{n} {what}s"


def _signals(lines: list[str]) -> dict[str, int]:
    names = ("chars", "heading", "title", "fence", "table", "front", "list", "link", "setext", "emphasis", "code")
    counts = dict.fromkeys(names, 0)
    start = _front_matter(lines)
    counts["front"] = int(start > 0)
    first = next((n for n in range(start, len(lines)) if lines[n].strip()), None)
    # A document that opens with "# Title" and a blank line.
    after = first + 1 if first is not None else 0
    counts["title"] = int(
        first is not None and bool(_ATX.match(lines[first])) and (after == len(lines) or not lines[after].strip())
    )
    fence: str | None = None
    previous = ""
    for n in range(start, len(lines)):
        line = lines[n]
        opened = _FENCE.match(line)
        if fence is not None:
            if (
                opened
                and opened.group(1)[0] == fence[0]
                and len(opened.group(1)) >= len(fence)
                and not line.strip().strip(fence[0])
            ):
                counts["fence"] += 1
                fence = None
            previous = line
            continue
        if opened and not (opened.group(1)[0] == "`" and "`" in line[opened.end() :]):
            fence = opened.group(1)
            previous = line
            continue
        if not line.strip():
            previous = line
            continue
        counts["chars"] += len(line)
        _count_line(counts, line, previous, lines[n + 1] if n + 1 < len(lines) else "")
        previous = line
    return counts


def _count_line(counts: dict[str, int], line: str, previous: str, following: str) -> None:
    if _PREPROCESSOR.match(line):
        counts["code"] += len(line)
        return
    if _ATX.match(line):
        # A heading stands alone: a run of "#" lines is a comment block (a script, a
        # configuration file), and so is a "#" line right above a statement.
        alone = not previous.lstrip().startswith("#") and not following.lstrip().startswith("#")
        if alone and (not following.strip() or _LIST.match(following) or following.lstrip()[:1] in _BLOCK_OPENERS):
            counts["heading"] += 1
        return
    if _CODE_LINE.match(line):
        counts["code"] += len(line)
    if "|" in previous and _TABLE_DELIMITER.match(line):
        counts["table"] += 1
    elif _SETEXT.match(line) and previous.strip() and not _LIST.match(previous) and len(line.strip()) >= 3:
        counts["setext"] += 1
    if _LIST.match(line):
        counts["list"] += 1
    counts["link"] += len(_LINK.findall(line))
    counts["emphasis"] += len(_EMPHASIS.findall(line))


def _front_matter(lines: list[str]) -> int:
    """The line after YAML front matter (``---``, ``key: value`` lines, ``---`` or ``...``), else 0."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    keys = 0
    for n, line in enumerate(lines[1:60], start=1):
        if line.rstrip() in ("---", "..."):
            return n + 1 if keys else 0
        keys += bool(_FRONT_KEY.match(line))
    return 0
