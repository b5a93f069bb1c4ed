"""A plain-text mail body → elements, its text kept as decoded (line breaks and the blank runs
between blocks too: the body stands in ``Document.text`` as the mail's part has it).

Blocks are runs of lines between blank lines. Quoted text is marked, never dropped: a run of
``>`` lines is a ``blockquote`` whose paragraphs (split at ``>`` lines with nothing else on them)
are of kind ``quoted``; the attribution that introduces it ("On Mon, 1 Dec 2026, Ann wrote:", a
block of at most three lines ending in "wrote:") is its first ``quoted`` element, inside it; an
Outlook-style "-----Original Message-----" line opens a quote that runs to the end of the body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parsegate.parsers.build.document import PARAGRAPH_SEP, DocBuilder

QUOTED = "quoted"
_QUOTE = re.compile(r"[ \t]*>")
_ATTRIBUTION = re.compile(r"(?:wrote|writes|schrieb|a écrit|escribió|scrisse|skrev)\s*:\s*$", re.IGNORECASE)
_ORIGINAL = re.compile(r"^\s*-{2,}\s*(?:Original Message|Forwarded message)\s*-{2,}\s*$", re.IGNORECASE)


@dataclass
class _Block:
    start: int  # offsets into the body
    end: int
    quoted: bool
    lines: int


def blocks(body: str) -> list[_Block]:
    """Runs of non-blank lines, a quoted (``>``) run apart from an unquoted one; in a quoted run
    a ``>`` line with nothing else on it ends a paragraph."""
    out: list[_Block] = []
    pos = 0
    current: _Block | None = None
    for line in body.splitlines(keepends=True):
        content = line.rstrip("\n")
        quoted = bool(_QUOTE.match(content))
        empty = not content.strip() or (quoted and not content.strip().lstrip(">").strip())
        if empty:
            current = None
        elif current is not None and current.quoted == quoted:
            current.end, current.lines = pos + len(content), current.lines + 1
        else:
            current = _Block(pos, pos + len(content), quoted, 1)
            out.append(current)
        pos += len(line)
    return out


def emit_plain(b: DocBuilder, body: str, first_sep: str = PARAGRAPH_SEP) -> int:
    """The body's blocks as elements; the text between them is the body's own. Returns how
    many quoted elements it made."""
    found = blocks(body)
    quote = None
    quoted = 0
    previous_end: int | None = None
    original_at = next(
        (n for n, blk in enumerate(found) if _ORIGINAL.match(body[blk.start : blk.end].split("\n", 1)[0])), None
    )
    for n, blk in enumerate(found):
        sep = first_sep if previous_end is None else body[previous_end : blk.start]
        starts_quote = blk.quoted or (original_at is not None and n >= original_at)
        attribution = (
            not blk.quoted
            and blk.lines <= 3
            and n + 1 < len(found)
            and found[n + 1].quoted
            and _ATTRIBUTION.search(body[blk.start : blk.end]) is not None
        )
        if quote is not None and not starts_quote:
            b.close(quote)
            quote = None
        opened = quote is None and (starts_quote or attribution)
        if opened:
            quote = b.open("blockquote")
        kind = QUOTED if quote is not None else "paragraph"
        el = b.emit(kind, body[blk.start : blk.end], sep)
        if opened and quote is not None:
            quote.start = el.start  # where its first element starts (the gap before it is the body's)
        quoted += kind == QUOTED
        previous_end = blk.end
    if quote is not None:
        b.close(quote)
    return quoted
