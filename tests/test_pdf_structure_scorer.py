"""The PDF structure benchmark's scorer on hand-made sequences (no engines, no PDFs).

Each metric is shown to move when exactly the thing it measures is broken.
"""

from __future__ import annotations

import pytest

from benchmarks.suites.pdf_structure import score
from benchmarks.suites.pdf_structure.textnorm import words


def test_words_join_what_engines_split_and_fold_what_they_change() -> None:
    assert words("some\ufffehow") == ["somehow"]  # PDFium's mark for a hyphen at a line end
    assert words("manip-\nulation") == ["manipulation"]
    assert words("sub-dependencies") == ["subdependencies"]  # the same word whichever hyphen it was
    assert words("ﬁne “quoted” Don’t") == ["fine", "quoted", "don", "t"]
    assert words("Breaking Changes -\nUpgrade") == ["breaking", "changes", "upgrade"]


def test_order_drops_when_blocks_are_swapped_not_when_equal() -> None:
    pytest.importorskip("rapidfuzz")
    truth = "a b c d e f g h".split()
    assert score.order_similarity(truth, truth) == 1.0
    swapped = "e f g h a b c d".split()
    assert score.order_similarity(truth, swapped) == 0.0  # every position differs
    assert score.order_similarity(truth, "a b c d e f g x".split()) == 1 - 1 / 8


def test_floating_blocks_are_cut_only_where_whole() -> None:
    seq = "a b note one c d".split()
    assert score.cut_floating(seq, [["note", "one"]]) == "a b c d".split()
    assert score.cut_floating("a note b one".split(), [["note", "one"]]) == "a note b one".split()


def test_headings_ignore_numbers_and_count_fakes_and_levels() -> None:
    truth = [{"text": "Title", "level": 0}, {"text": "2.1 Scope", "level": 2}, {"text": "Usage", "level": 1}]
    truth = [{**h, "text": h["text"].split(" ", 1)[-1]} for h in truth]  # the truth keeps numbers apart
    good = [{"text": "Title", "level": 1}, {"text": "2.1 Scope", "level": 3}, {"text": "Usage", "level": 2}]
    counts = score.heading_counts(truth, good)
    assert (counts["matched"], counts["predicted"], counts["truth"]) == (3, 3, 3)
    assert score.level_accuracy(counts["level_pairs"]) == 1.0  # one shift for all
    twice = score.heading_counts(truth, [*good, {"text": "Usage", "level": 2}])
    assert (twice["matched"], twice["predicted"]) == (3, 4)  # a truth heading matches once
    fake = score.heading_counts(truth, [*good, {"text": "A body line", "level": 2}])
    assert score.prf(fake["matched"], fake["predicted"], fake["truth"])["precision"] == 0.75
    flat = score.heading_counts(truth, [{**h, "level": 1} for h in good])
    assert score.level_accuracy(flat["level_pairs"]) == pytest.approx(1 / 3)


def test_table_cells_align_rows_and_count_a_dropped_column() -> None:
    rows = [["Name", "Size", "Owner"], ["alpha", "12", "ann"], ["beta", "7.5", "bob"], ["gamma", "3", "cy"]]
    truth = [{"style": "ruled", "rows": rows}]
    perfect = score.table_counts(truth, [rows])["tables"][0]
    assert perfect["matched"] == perfect["truth"] == perfect["predicted"] == 12
    merged = [rows[0], rows[1], ["beta gamma", "7.5 3", "bob cy"]]  # two rows read as one
    assert score.table_counts(truth, [merged])["tables"][0]["matched"] == 6
    missing_row = score.table_counts(truth, [[rows[0], rows[2], rows[3]]])["tables"][0]
    assert missing_row["matched"] == 9  # the rows after the gap still count
    no_column = score.table_counts(truth, [[r[:2] for r in rows]])["tables"][0]
    assert (no_column["matched"], no_column["predicted"]) == (8, 8)
    assert score.table_counts(truth, [])["tables"][0]["matched"] == 0
    spurious = score.table_counts(truth, [rows, [["Box", "Arrow"], ["x", "y"]]])
    assert spurious["unpaired_cells"] == 4


def test_furniture_counts_only_what_the_truth_body_does_not_hold() -> None:
    furniture = ["Field Notes 12", "Page 1", "Field Notes 12", "Page 2"]
    body = "field notes 12 is cited here".split()
    assert score.furniture_counts(furniture, body, body) == (0, 4)
    leaked = [*body, "page", "1", "field", "notes", "12"]
    assert score.furniture_counts(furniture, body, leaked) == (2, 4)


def test_a_folio_number_in_a_footnote_is_no_leak() -> None:
    pytest.importorskip("rapidfuzz")
    truth = {"words": "the body of the page".split(), "floating": ["A token lasts, say, 1 week."],
             "furniture": ["Technical Memo", "1"], "headings": [], "tables": []}  # fmt: skip
    note = {"body": ["The body of the page.", "A token lasts, say, 1 week."]}
    assert score.score_document(truth, note, False)["furniture"] == (0, 2)
    leaked = {"body": ["The body of the page.", "A token lasts, say, 1 week.", "1"]}
    assert score.score_document(truth, leaked, False)["furniture"] == (1, 2)
