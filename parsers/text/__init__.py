"""Plain text → Document: paragraphs, a title line, and speaker turns in transcripts.

Blocks are separated by blank lines, except a blank line inside a sentence (text taken
from a PDF puts one where a page ended, pdftotext the page's running head and number too:
signals/text_blocks.py). A file in which many lines open with a speaker
label (``Alice: …``, ``[10:02] Bob: …``, ``<carol> …``, and lower-case chat handles where
the same few open most lines) is read as a transcript: each turn runs from its label to
the next label, so a speaker's later paragraphs stay with the speaker. Tables that lost
their markup are found in signals/flat_tables.py. Sentences are found by the chunker, which splits
a block only when it is alone over budget.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator

from parsegate.parsers.bytes.decode import decode_noted
from parsegate.parsers.formats import spec
from parsegate.parsers.model import (
    CodeData,
    Document,
    Element,
    ListData,
    ParseWarning,
    TableData,
    TurnData,
    content_version,
    line_starts,
    trim_span,
)
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.signals.flat_tables import (
    CellTable,
    carry,
    find_cell_tables,
    find_tables,
    label_above,
    table_elements,
)
from parsegate.parsers.signals.text_blocks import blocks_of, join_run_ons
from parsegate.parsers.signals.wiki_headings import split_wiki_headings

NAME = "text"
SPEC = spec(NAME)  # parsers/formats.py: suffixes, output version
OUTPUT_VERSION = SPEC.output_version
VERSION = str(OUTPUT_VERSION)
SUFFIXES = SPEC.suffixes

_SPEAKER = re.compile(
    r"[ \t]*(?:(?P<time>[\[(]?(?:\d{4}-\d\d-\d\d[ T])?\d{1,2}:\d\d(?::\d\d)?[\])]?)[ \t]+)?"
    r"(?:<(?P<nick>[^>\s]{1,32})>|(?P<name>[A-Z][\w.'’-]*(?:[ \t][A-Z][\w.'’-]*){0,3})[ \t]*:"
    # A chat handle in lower case ("[09:04] oskar:", "dev_ops_bot:"): a speaker after a time
    # stamp, or where the same few handles open most lines (_is_chat).
    r"|(?P<handle>[a-z][\w.-]{0,31}):)[ \t]+\S"
)
# Labels that introduce content rather than a speaker.
_NOT_SPEAKERS = frozenset(
    {"note", "warning", "example", "tip", "important", "caution", "step", "answer", "question"}
    | {"from", "to", "cc", "bcc", "subject", "date", "sent", "reply-to"}  # a message's header fields
)
_TITLE_MAX = 80
_MAX_TURN_PARAGRAPHS = 4  # paragraphs without a speaker label that may still belong to a turn
_CHAT_MIN_TURNS = 4
_MIN_TURNS = 3
_TURN_SHARE = 0.25  # of the non-blank lines, or of the paragraphs, that open with a speaker
_MIN_RUN = 3  # lines in a row that open with a speaker: a conversation among other text
_TURN_CHANGES = 0.5  # of consecutive labelled lines whose speaker changes (turns, not records)
_CHAT_TURNS_PER_HANDLE = 2  # on average each handle speaks at least twice
_CHAT_LINE_SHARE = 0.3  # of the non-blank lines open with a handle
_COLUMN_GAP = re.compile(r"\S(?:\t|[ \t]{3,})\S")  # a tab, or three spaces, between words


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """``options`` and ``suffix`` change nothing here: one form, no limit applies."""
    text, encoding_note = decode_noted(data)
    starts = line_starts(text)
    lines = list(_lines(text, starts))
    speakers = [_speaker(text, s, e) for s, e in lines]
    blank = [not text[s:e].strip() for s, e in lines]
    transcript = _is_transcript(speakers, blank)
    if not transcript:
        handles = [_speaker(text, s, e, handles=True) for s, e in lines]
        if _is_chat(handles, blank.count(False)):
            speakers = handles
            transcript = _is_transcript(speakers, blank)
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format="text",
        text=text,
        elements=[],
        parser=f"{NAME} {VERSION}",
    )
    if transcript:
        doc.elements = _transcript_elements(text, lines, speakers)
    else:
        doc.elements = _prose_elements(text, lines)
    new_ids = {el.id: f"e{n}" for n, el in enumerate(doc.elements)}
    for el in doc.elements:
        el.id = new_ids[el.id]
        el.parent = new_ids.get(el.parent) if el.parent else None
        if isinstance(el.data, TableData) and el.data.lead_in is not None:
            el.data.lead_in = new_ids[el.data.lead_in]
        el.lines = doc.lines_of(el.start, el.end)
    title = next((e for e in doc.elements if e.kind == "heading"), None)
    if title is not None:
        doc.metadata["title"] = text[title.start : title.end]
    split_wiki_headings(doc)  # a wiki's text: its '= Title =' lines are its headings
    if not text.strip():
        doc.warnings.append(ParseWarning("empty", "the document has no text"))
    if encoding_note is not None:
        doc.warnings.insert(0, encoding_note)
    return doc


def _lines(text: str, starts: list[int]) -> Iterator[tuple[int, int]]:
    """(start, end) of each line without its line break."""
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(text)
        while end > start and text[end - 1] in "\r\n":
            end -= 1
        yield start, end


def _speaker(text: str, start: int, end: int, handles: bool = False) -> str | None:
    """The speaker a line opens with; a lower-case handle only after a time stamp, or with
    ``handles`` (for a file that _is_chat)."""
    match = _SPEAKER.match(text, start, end)
    if match is None:
        return None
    if match.group("handle") and not (match.group("time") or handles):
        return None
    name = match.group("nick") or match.group("name") or match.group("handle")
    if name.lower() in _NOT_SPEAKERS or name.split()[0].lower() in _NOT_SPEAKERS:
        return None
    return name


def _is_transcript(speakers: list[str | None], blank: list[bool]) -> bool:
    """Speakers take turns, and their turns make the document. Turns: the label changes from one
    labelled line to the next more often than not (an info file's tag table, "Node: Top",
    "Node: Overview", ..., is a list of records). The document: a good share of its lines, or of
    its paragraphs, open with a speaker, or a run of lines does (a chat pasted among other text).
    A manual whose "Stability:" or "Default:" lines open a paragraph here and there is no
    transcript."""
    labelled = [s for s in speakers if s]
    if len(labelled) < _MIN_TURNS or len(set(labelled)) < 2:
        return False
    if sum(1 for a, b in itertools.pairwise(labelled) if a != b) < _TURN_CHANGES * (len(labelled) - 1):
        return False
    lines = [n for n, b in enumerate(blank) if not b]
    paragraphs = [n for n in lines if n == 0 or blank[n - 1]]
    return (
        len(labelled) >= _TURN_SHARE * len(lines)
        or sum(1 for n in paragraphs if speakers[n]) >= _TURN_SHARE * len(paragraphs)
        or _conversation(speakers, lines)
    )


def _conversation(speakers: list[str | None], lines: list[int]) -> bool:
    """Whether some run of consecutive non-blank lines all open with a speaker: two at least, one
    of them speaking again (a message's "From:", "To:", "Subject:" header names each once)."""
    run: set[str] = set()
    length = 0
    for n in [*lines, -1]:
        speaker = speakers[n] if n >= 0 else None
        if speaker:
            run.add(speaker)
            length += 1
            continue
        if length >= _MIN_RUN and 2 <= len(run) < length:
            return True
        run, length = set(), 0
    return False


def _is_chat(handles: list[str | None], non_blank: int) -> bool:
    """A chat export without time stamps ("oskar: backup finished."): the same few lower-case
    handles open a good share of the lines. A glossary of "term: definition" lines has as many
    labels as lines; a page with a "note:" here and there has too few."""
    labelled = [h for h in handles if h]
    distinct = len(set(labelled))
    return (
        len(labelled) >= _CHAT_MIN_TURNS
        and 2 <= distinct <= len(labelled) / _CHAT_TURNS_PER_HANDLE
        and len(labelled) >= _CHAT_LINE_SHARE * non_blank
    )


def _looks_like_title(text: str, start: int, end: int, line_count: int) -> bool:
    """A short first line that ends no sentence, and is one run of words: a line set in columns
    ("LESS(1)    General Commands Manual    LESS(1)", a man page's running header) is no title,
    and as one it would ride in the context of every chunk of the document."""
    line = text[start:end].strip()
    return (
        line_count == 1
        and 0 < len(line) <= _TITLE_MAX
        and line[-1] not in ".!?:;,"
        and line[0].isalnum()
        and _COLUMN_GAP.search(line) is None
    )


def _prose_elements(
    text: str,
    lines: list[tuple[int, int]],
    more_follows: bool = False,
    section: tuple[str, ...] = (),
    prefix: str = "",
    titled: bool = True,
) -> list[Element]:
    """Paragraphs, lists and tables of the lines; the first block may be the document's title
    (``titled``: not for text that follows a chat, whose later turns no title would stand over)."""
    entries = _entries(text, list(blocks_of(text, lines)))
    elements: list[Element] = []
    for n, entry in enumerate(entries):
        if isinstance(entry, CellTable):
            block = _cell_table_elements(text, entry, section, len(elements))
        else:
            start, end, count = entry
            start, end = trim_span(text, start, end)
            several = len(entries) > 1 or more_follows
            if n == 0 and titled and not section and several and _looks_like_title(text, start, end, count):
                section = (text[start:end],)
                elements.append(Element(f"{prefix}h0", "heading", start, end, level=1, section_path=section))
                continue
            block = _block_elements(text, lines, start, end, section, len(elements))
        for el in block:
            el.id = f"{prefix}{el.id}"
            el.parent = f"{prefix}{el.parent}" if el.parent else None
            if isinstance(el.data, (ListData, TableData, CodeData)) and el.data.lead_in is not None:
                el.data.lead_in = f"{prefix}{el.data.lead_in}"  # the same element, by its new name
        elements.extend(block)
    return elements


def _entries(text: str, blocks: list[tuple[int, int, int]]) -> list[tuple[int, int, int] | CellTable]:
    """The blocks in order, with the runs that are a table written a cell per paragraph
    (pdftotext's) in their place; the other blocks joined where a sentence runs on."""
    out: list[tuple[int, int, int] | CellTable] = []
    cursor = 0
    previous: CellTable | None = None
    for table in find_cell_tables(text, blocks):
        before = blocks[cursor : table.first]
        if before:
            before[-1], table = label_above(text, before[-1], table)
        if table.continues and previous is not None:
            table = carry(text, previous, table)
        out.extend(join_run_ons(text, before))
        out.append(table)
        cursor = table.last + 1
        previous = table
    out.extend(join_run_ons(text, blocks[cursor:]))
    return out


def _cell_table_elements(text: str, found: CellTable, section: tuple[str, ...], ids: int) -> list[Element]:
    parts = table_elements(text, found.table, section, ids * 1000 + 999)
    assert isinstance(parts[0].data, TableData)
    # Its header spans paragraphs ("(in millions)", "2022", "2021"): as context, one line.
    parts[0].data.header_text = " ".join((parts[0].data.header_text or "").split())
    return parts


def _block_elements(
    text: str, lines: list[tuple[int, int]], start: int, end: int, section: tuple[str, ...], ids: int
) -> list[Element]:
    """A block is a paragraph, unless some of its lines are the rows of a flattened table."""
    # The block's own lines, found by bisection: a scan of every line for every block made a
    # 5 MB text file of 9,000 paragraphs take 8 s here alone.
    own = []
    first = bisect.bisect_left(lines, (start, -1))
    if first and lines[first - 1][1] > start:
        first -= 1  # the block's start is trimmed: its first line starts before it, when indented
    for k in range(first, len(lines)):  # not islice: it walks from 0
        if lines[k][1] > end:
            break
        own.append(lines[k])
    out: list[Element] = []
    cursor = start
    for n, table in enumerate(find_tables(text, own)):
        before = _paragraph(text, cursor, table.lines[0][0], section, f"p{ids}.{n}")
        parts = table_elements(text, table, section, ids * 1000 + n)
        if before and text[before[0].start : before[0].end].rstrip().endswith(":"):
            assert isinstance(parts[0].data, TableData)
            parts[0].data.lead_in = before[0].id  # "Net revenue by segment:" leads into it
        out.extend(before + parts)
        cursor = table.lines[-1][1]
    out.extend(_paragraph(text, cursor, end, section, f"p{ids}"))
    return out


def _paragraph(text: str, start: int, end: int, section: tuple[str, ...], ident: str) -> list[Element]:
    start, end = trim_span(text, start, end)
    return [Element(ident, "paragraph", start, end, section_path=section)] if end > start else []


def _transcript_elements(text: str, lines: list[tuple[int, int]], speakers: list[str | None]) -> list[Element]:
    first_turn = next(n for n, s in enumerate(speakers) if s)
    head = _prose_elements(text, lines[:first_turn], more_follows=True)
    section = next((e.section_path for e in head if e.kind == "heading"), ())
    elements = list(head)
    turn_starts = [n for n, s in enumerate(speakers) if s] + [len(lines)]
    for a, b in itertools.pairwise(turn_starts):
        stop = _turn_end(text, lines, a, b)
        start, end = trim_span(text, lines[a][0], lines[stop - 1][1])
        elements.append(
            Element(f"u{a}", "turn", start, end, section_path=section, data=TurnData(speaker=speakers[a] or ""))
        )
        if stop < b:  # what follows is no longer the speaker's: a document pasted after the chat
            elements.extend(_prose_elements(text, lines[stop:b], section=section, prefix=f"x{a}.", titled=False))
    return elements


def _turn_end(text: str, lines: list[tuple[int, int]], a: int, b: int) -> int:
    """Where the turn that starts at line ``a`` ends (exclusive): at the next speaker's line ``b``,
    unless more than a few paragraphs without a speaker come first. A speaker's later paragraphs
    stay with the speaker; pages of text after a chat (files concatenated) do not. A paragraph
    indented under the speaker's label (a FAQ's "A:" answer, its examples set deeper still) is
    the speaker's, however many there are: only paragraphs at the margin are counted."""
    blocks = 0
    own_end = b
    at_margin = True  # the paragraph being read: the turn's own line opens the first
    indented_only = True  # no paragraph at the margin has followed the turn's own yet
    for n in range(a + 1, b):
        line = text[lines[n][0] : lines[n][1]]
        after_blank = not text[lines[n - 1][0] : lines[n - 1][1]].strip()
        if not line.strip():
            if not after_blank:  # a paragraph ended on the line before
                blocks += at_margin
                if own_end == b or indented_only:
                    own_end = n
        elif after_blank:
            at_margin = not line[:1].isspace()
            indented_only = indented_only and not at_margin
    return b if blocks <= _MAX_TURN_PARAGRAPHS else own_end
