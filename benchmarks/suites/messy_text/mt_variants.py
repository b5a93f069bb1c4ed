"""The messy variants users feed us, each a chain of tracked edits on the clean text.

clean           the source as it is (.md or .txt)
lower           lower-cased
no_blank_lines  every blank line removed
wrapped80       prose lines hard-wrapped at 80 columns (list items keep their indent;
                fenced code and table rows untouched, as mdformat/pandoc --columns do)
plain           Markdown stripped to plain text (.txt): markers, links, emphasis, HTML tags,
                fences and admonition lines gone; table rows as tab-separated cells
flat_tables     tables flattened to ``a | b | c`` rows, no delimiter row, no outer pipes
lower_flat      plain text, lower-cased, tables as ``a | b | c`` rows (.txt): the held-out filings
pdf             clean text rendered to PDF by Chromium, text extracted with pypdfium2 (.txt)
concat          every English document's plain text in one file (.txt)
non_english     the German and Japanese documents as they are (.md)
"""

from __future__ import annotations

import re

from benchmarks.suites.messy_text.mt_model import Source
from benchmarks.suites.messy_text.mt_tracked import Tracked

WIDTH = 80
_LIST_MARKER = re.compile(r"^(\s*(?:[*+-]|\d+[.)])\s+|\s*>\s?)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_LINE = re.compile(r"^\s*\|")
_DELIMITER_ROW = re.compile(r"(?m)^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*\n")
_PIPE_ROW = re.compile(r"(?m)^([ \t]*\|[ \t]*)(.*?)([ \t]*\|[ \t]*)$")
_TAB_ROW = re.compile(r"(?m)^[^\t\n]*\t[^\n]*$")


def remove_blank_lines(t: Tracked) -> Tracked:
    return t.delete(r"(?m)^[ \t]*\n")


def hard_wrap(t: Tracked, markdown: bool, width: int = WIDTH) -> Tracked:
    edits: list[tuple[int, int, str]] = []
    in_fence = False
    for line in re.finditer(r"[^\n]+", t.text):
        s = line.group()
        if markdown and _FENCE.match(s):
            in_fence = not in_fence
            continue
        if len(s) <= width or (markdown and (in_fence or _TABLE_LINE.match(s) or s.startswith("#"))):
            continue
        marker = _LIST_MARKER.match(s) if markdown else None
        indent = (" " * len(marker.group()) if ">" not in marker.group() else "> ") if marker else ""
        line_start, extra, prev_end = 0, 0, None
        for word in re.finditer(r"\S+", s):
            if prev_end is not None and word.end() - line_start + extra > width and word.start() > line_start:
                edits.append((line.start() + prev_end, line.start() + word.start(), "\n" + indent))
                line_start, extra = word.start(), len(indent)
            prev_end = word.end()
    return t.edit(edits)


def flatten_pipe_rows(t: Tracked, sep: str) -> Tracked:
    """GFM rows ``| a | b |`` → ``a<sep>b``: outer pipes and cell padding gone."""
    t = t.delete(_DELIMITER_ROW)

    def row(m: re.Match[str]) -> list[tuple[int, int, str]]:
        edits = [(m.start(1), m.end(1), "")]
        base = m.start(2)
        edits += [(base + c.start(), base + c.end(), sep) for c in re.finditer(r"[ \t]*\|[ \t]*", m.group(2))]
        return [*edits, (m.start(3), m.end(3), "")]

    return t.sub(_PIPE_ROW, row)


def tabs_to_pipes(t: Tracked) -> Tracked:
    return t.sub(
        _TAB_ROW, lambda m: [(m.start() + c.start(), m.start() + c.end(), " | ") for c in re.finditer("\t", m.group())]
    )


def strip_markdown(t: Tracked, table_sep: str) -> Tracked:
    t = t.delete(r"(?m)^[ \t]*(?:```|~~~)[^\n]*\n")  # fence lines (the code stays)
    t = t.delete(r"(?m)^[ \t]*(?:///[^\n]*|\{\*[^\n]*\*\}|<!--[^\n]*-->)\n")  # admonitions, includes, comments
    t = flatten_pipe_rows(t, table_sep)
    t = t.delete(r"(?m)^[ \t]*#{1,6}[ \t]+")  # ATX heading markers
    t = t.delete(r"(?m)[ \t]*\{[ \t]*#[^}\n]*\}[ \t]*$")  # heading anchors { #id }
    t = t.delete(r"(?m)^[ \t]*(?:=+|-{3,})[ \t]*\n")  # setext underlines, rules
    t = t.delete(r"(?m)^[ \t]*>[ \t]?")  # block quote markers
    t = t.sub(
        r"(?m)^([ \t]*)[*+]([ \t]+)", lambda m: [(m.start() + len(m.group(1)), m.start() + len(m.group(1)) + 1, "-")]
    )
    t = t.sub(r"!?\[([^\]\n]*)\]\(([^)\n]*)\)(\{[^}\n]*\})?", _keep_group_1)  # links and images: their text
    t = t.delete(r"</?[A-Za-z][^>\n]*>")  # HTML tags
    t = t.delete(r"\*\*|__")  # strong
    t = t.sub(
        r"(?<![\w*])\*(?=\S)[^*\n]+?(?<=\S)\*(?![\w*])",
        lambda m: [(m.start(), m.start() + 1, ""), (m.end() - 1, m.end(), "")],
    )
    t = t.delete(r"`+")  # inline code marks
    return t


def _keep_group_1(m: re.Match[str]) -> list[tuple[int, int, str]]:
    return [(m.start(), m.start(1), ""), (m.end(1), m.end(), "")]


def transform(variant: str, source: Source) -> tuple[Tracked, str]:
    """The variant's tracked text and the suffix a user's file would have."""
    t = Tracked(source.text)
    md = source.markdown
    suffix = ".md" if md else ".txt"
    if variant in ("clean", "non_english"):
        return t, suffix
    if variant == "lower":
        return t.lower(), suffix
    if variant == "no_blank_lines":
        return remove_blank_lines(t), suffix
    if variant == "wrapped80":
        return hard_wrap(t, md), suffix
    if variant in ("plain", "concat"):
        return (strip_markdown(t, "\t") if md else t), ".txt"
    if variant == "flat_tables":
        return (flatten_pipe_rows(t, " | ") if md else tabs_to_pipes(t)), suffix
    if variant == "lower_flat":
        return (strip_markdown(t, " | ") if md else tabs_to_pipes(t)).lower(), ".txt"
    raise ValueError(variant)


def applies(variant: str, source: Source) -> bool:
    english = source.lang == "en"
    if variant == "non_english":
        return not english
    if variant == "plain":
        return english and source.markdown
    if variant in ("flat_tables", "lower_flat"):
        return english and bool(source.rows)
    return english
