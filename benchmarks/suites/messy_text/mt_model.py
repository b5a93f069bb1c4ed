"""The benchmark's own document model: clean text with its known structure.

A ``Source`` is a clean document whose sentence boundaries and table rows are known
*from the source itself* (by construction for generated text, from the Markdown block
structure plus a conservative rule on cased text for real text) — never from a
segmenter under test. Offsets are character offsets into ``Source.text``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    block: int  # sentences of one block (paragraph, message, turn) may form one span


@dataclass(frozen=True)
class Row:
    start: int  # the row line, without its newline
    end: int
    header_start: int  # the table's header line
    header_end: int


@dataclass
class Source:
    name: str  # unique, path-like: "fastapi/advanced/events.md"
    group: str  # fastapi, golden, filing, chat, speech, encyclopedia, papers, german, japanese
    lang: str  # en, de, ja
    markdown: bool  # the clean form is Markdown (.md) or plain text (.txt)
    text: str
    licence: str
    origin: str
    sentences: list[Sentence] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)


class Builder:
    """Writes a document piece by piece and records where each sentence and row lands."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.sentences: list[Sentence] = []
        self.rows: list[Row] = []
        self.blocks = 0

    def raw(self, text: str) -> None:
        self.parts.append(text)
        self.pos += len(text)

    def para(self, sentences: list[str], prefix: str = "", end: str = "\n\n", sep: str = " ") -> None:
        """One block: ``prefix`` (a speaker, a list marker) then the sentences."""
        self.raw(prefix)
        for i, sentence in enumerate(sentences):
            if i:
                self.raw(sep)
            self.sentences.append(Sentence(self.pos, self.pos + len(sentence), self.blocks))
            self.raw(sentence)
        self.raw(end)
        self.blocks += 1

    def table(self, header: list[str], rows: list[list[str]], style: str = "gfm", end: str = "\n") -> None:
        """A table: GFM (``| a | b |`` with a delimiter row) or ``tab`` (cells joined by tabs)."""
        if style == "gfm":
            header_line = "| " + " | ".join(header) + " |"
            delimiter = "| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |"
            lines = ["| " + " | ".join(r) + " |" for r in rows]
        else:
            header_line, delimiter, lines = "\t".join(header), "", ["\t".join(r) for r in rows]
        header_start = self.pos
        self.raw(header_line + "\n")
        if delimiter:
            self.raw(delimiter + "\n")
        for line in lines:
            self.rows.append(Row(self.pos, self.pos + len(line), header_start, header_start + len(header_line)))
            self.raw(line + "\n")
        self.raw(end)

    def source(self, name: str, group: str, lang: str, markdown: bool, licence: str, origin: str) -> Source:
        text = "".join(self.parts)
        return Source(name, group, lang, markdown, text, licence, origin, self.sentences, self.rows)
