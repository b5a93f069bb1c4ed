"""Extraction recall of a CSV or TSV file: its records as the ``csv`` module reads them
(quality_gates/references/table.py), each against the parser's rows.

Words by position in the source (recall.py's reading of the other text formats) cannot see a
dropped row: a chunk's span runs from its first row to its last, over a row the parser lost in
between. Here a record is found when a row element of the parser holds exactly its words and
lies inside a chunk; its words count as lost otherwise (a dropped row, two records read as one,
a record cut in two, a row at the wrong offsets, a row no chunk holds). Rows and records are
matched by their words as a multiset, so a file's repeated rows count once each.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from parsegate.parsers.model import RowData
from parsegate.quality_gates.references.table import Records, row_key
from parsegate.quality_gates.words import words

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.parsers.model import Document
    from parsegate.quality_gates.checks.base import Faults


def by_record(faults: Faults, key: str, doc: Document, chunks: Sequence[Chunk], records: Records) -> tuple[int, int]:
    """(words of the records, words of the records found); each run of lost records is a fault
    under ``key``, by its lines."""
    held = _chunked_rows(doc, chunks)
    total = found = 0
    lost: list[list[int]] = []  # runs of lost records: first line, last line, records, words, index
    listed = zip(records.lines, records.last_lines, records.word_counts, records.keys, strict=True)
    for i, (line, last, count, row) in enumerate(listed):
        total += count
        if held[row] > 0:
            held[row] -= 1
            found += count
        elif lost and lost[-1][4] == i - 1:
            run = lost[-1]
            run[1], run[2], run[3], run[4] = last, run[2] + 1, run[3] + count, i
        else:
            lost.append([line, last, 1, count, i])
    for first, last, count, lost_words, _ in lost:
        faults.add(key, lines=[first, last], records=count, words=lost_words, why=_WHY)
    return total, found


_WHY = "records of the file (as the csv module reads it) that no row of a chunk holds"


def _chunked_rows(doc: Document, chunks: Sequence[Chunk]) -> Counter[int]:
    """The keys of the parser's rows that lie inside the chunks' spans. A row alone over budget
    is in pieces, in chunks that follow each other with at most whitespace between them."""
    text = doc.text
    merged: list[list[int]] = []
    for start, end in sorted((c.start, c.end) for c in chunks):
        if merged and (start <= merged[-1][1] or text[merged[-1][1] : start].isspace()):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    starts = [s for s, _ in merged]
    held: Counter[int] = Counter()
    for e in doc.elements:
        if not isinstance(e.data, RowData):
            continue
        i = bisect.bisect_right(starts, e.start) - 1
        if i >= 0 and merged[i][1] >= e.end:
            held[row_key(words(text[e.start : e.end]))] += 1
    return held
