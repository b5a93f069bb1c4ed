"""Each metric has a fixture that breaks it: the metric moves, the others do not, and the
verdict flips with exactly that reason."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.record import Chunk
from parsegate.parsers import markdown, text
from parsegate.quality_gates.checks.code_context import CodeContextFacts
from parsegate.quality_gates.checks.duplicates import DuplicateFacts
from parsegate.quality_gates.checks.localization import LocalizationFacts
from parsegate.quality_gates.checks.recall import RecallFacts
from parsegate.quality_gates.checks.short import ShortFacts, short_chunks
from parsegate.quality_gates.checks.table_header import TableFacts
from parsegate.quality_gates.checks.text_coverage import CoverageFacts
from parsegate.quality_gates.checks.warnings import WarningFacts
from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.thresholds import GateConfigError, Thresholds, load_gate_config
from parsegate.quality_gates.verdict import aggregate, evaluate, not_measured, rates, run_passes

SOURCE = b"""# Handbook

Intro paragraph for the handbook. It explains what follows.

## Targets

Targets depend on severity:

| Severity | Acknowledge within |
|---|---|
| P1 | 15 minutes |
| P2 | 1 hour |
| P3 | 4 hours |
| P4 | 1 business day |
| P5 | 5 business days |

## Escalation

Page the secondary if the primary has not acknowledged. However, never page during a drill.
"""
BUDGET = 40


@pytest.fixture(scope="module")
def fixture():
    doc = markdown.parse(SOURCE, "handbook.md")
    chunker = Chunker(ChunkConfig(max_tokens=BUDGET))
    return doc, chunker, chunker.chunk(doc)


def facts_of(fixture, records) -> DocFacts:
    doc, chunker, _ = fixture
    return measure(doc, records, chunker.counter, BUDGET, SOURCE)


def honest(fixture, chunk: Chunk) -> Chunk:
    """A hand-edited chunk whose ``tokens`` still tells the truth (so only the edit is wrong)."""
    chunk.tokens = fixture[1].counter.count(chunk.embed_text)
    return chunk


def moved(before: dict, after: dict) -> set[str]:
    return {k for k in before if before[k] != after[k]}


def test_the_fixture_passes_every_check(fixture) -> None:
    _, _, records = fixture
    facts = facts_of(fixture, records)
    verdict = evaluate(facts, Thresholds())
    assert verdict.passed, verdict.failed
    metrics = verdict.metrics
    assert metrics["table_header_coverage"] == 1.0 and facts.get(TableFacts).table_chunks >= 2
    assert metrics["heading_inheritance"] == metrics["localization"] == metrics["budget_compliance"] == 1.0
    assert metrics["text_coverage"] == metrics["extraction_recall"] == metrics["token_count_accuracy"] == 1.0
    assert metrics["empty_chunk_rate"] == metrics["duplicate_rate"] == 0.0
    recall = facts.get(RecallFacts)
    assert recall.recall_words == 51 and recall.recall_source == "source file"


def check_breaks(fixture, records, expected_metrics: set[str], expected_check: str) -> dict:
    base = rates(facts_of(fixture, fixture[2]), Thresholds())
    facts = facts_of(fixture, records)
    verdict = evaluate(facts, Thresholds())
    # Counts and sizes describe the chunks; they move with any edit.
    changed = moved(base, verdict.metrics) - {"chunks", "largest_chunk_tokens", "context_share"}
    assert changed == expected_metrics
    assert [c.check for c in verdict.failed] == [expected_check]
    return verdict.metrics


def test_an_empty_chunk_moves_only_the_empty_rate(fixture) -> None:
    records = copy.deepcopy(fixture[2])
    first = records[0]
    records.insert(
        0,
        honest(fixture, replace(first, start=0, end=0, text="", embed_text="", section_path=[], lines=(1, 1))),
    )
    metrics = check_breaks(fixture, records, {"empty_chunk_rate"}, "max_empty_chunk_rate")
    assert metrics["empty_chunk_rate"] == pytest.approx(1 / len(records), abs=1e-6)


def test_a_table_piece_missing_its_header(fixture) -> None:
    records = copy.deepcopy(fixture[2])
    header = "| Severity | Acknowledge within |"
    piece = next(c for c in records if "table_row" in c.kinds and not c.text.startswith(header))
    piece.embed_text = piece.embed_text.replace(header + "\n", "")
    honest(fixture, piece)
    metrics = check_breaks(fixture, records, {"table_header_coverage"}, "min_table_header_coverage")
    assert metrics["table_header_coverage"] < 1.0


def test_offsets_off_by_one(fixture) -> None:
    records = copy.deepcopy(fixture[2])
    records[1].start -= 1  # the character before is the blank line: text no longer matches
    # One more indexed character is the only other thing that moves (overhead has no default threshold).
    metrics = check_breaks(fixture, records, {"localization", "overhead"}, "min_localization")
    assert metrics["localization"] == pytest.approx(1 - 1 / len(records), abs=1e-6)


def test_an_over_budget_chunk(fixture) -> None:
    records = copy.deepcopy(fixture[2])
    last = records[-1]
    last.embed_text = "padding " * BUDGET + last.embed_text
    honest(fixture, last)  # honest about its count: only the budget fails
    check_breaks(fixture, records, {"budget_compliance"}, "min_budget_compliance")


def test_a_wrong_tokens_field_moves_only_token_count_accuracy(fixture) -> None:
    records = copy.deepcopy(fixture[2])
    records[0].tokens -= 3
    metrics = check_breaks(fixture, records, {"token_count_accuracy"}, "min_token_count_accuracy")
    assert metrics["token_count_accuracy"] == pytest.approx(1 - 1 / len(records), abs=1e-6)


def test_a_duplicated_chunk(fixture) -> None:
    records = copy.deepcopy(fixture[2])
    records.append(replace(records[-1], id="ch-copy"))
    # An identical chunk is index overhead by definition, so overhead moves with it.
    metrics = check_breaks(fixture, records, {"duplicate_rate", "overhead"}, "max_duplicate_rate")
    assert metrics["duplicate_rate"] == pytest.approx(1 / len(records), abs=1e-6)
    failed = evaluate(facts_of(fixture, records), Thresholds()).failed[0]
    assert [f["chunk"] for f in failed.faults] == ["ch-copy"]  # the report points at the copy


def test_the_same_text_under_another_section_is_not_a_duplicate(fixture) -> None:
    """Duplicates compare embed_text: the same words with other context embed differently."""
    records = copy.deepcopy(fixture[2])
    twin = replace(records[-1], id="ch-twin")
    twin.embed_text = "Another section\n\n" + twin.text
    honest(fixture, twin)
    records.append(twin)
    assert evaluate(facts_of(fixture, records), Thresholds()).metrics["duplicate_rate"] == 0.0


def test_a_dropped_chunk_loses_text_coverage(fixture) -> None:
    records = copy.deepcopy(fixture[2])
    del records[1]
    facts = facts_of(fixture, records)
    verdict = evaluate(facts, Thresholds())
    assert verdict.metrics["text_coverage"] < 0.99
    assert "min_text_coverage" in [c.check for c in verdict.failed]


def test_short_chunks_count_only_in_documents_with_more_than_one_chunk() -> None:
    chunker = Chunker(ChunkConfig(max_tokens=16))
    doc = text.parse(b"Yes.\n\nNo.\n\nA much longer paragraph that takes the rest of the budget here.", "s.txt")
    facts = measure(doc, chunker.chunk(doc), chunker.counter, 16)
    assert facts.get(LocalizationFacts).localized is None and "localization" in not_measured(facts)  # no source
    short = rates(facts, Thresholds())["short_chunk_rate"]
    assert short is not None and short > 0
    single = text.parse(b"Yes.", "one.txt")
    one = measure(single, chunker.chunk(single), chunker.counter, 16)
    assert rates(one, Thresholds())["short_chunk_rate"] == 0.0


def test_a_chunk_that_holds_a_whole_short_section_is_not_abnormally_short() -> None:
    # A deck of slides, a reference page: a section of one short line is short because the source
    # is. A chunk cut from a longer section, or a heading alone, still counts.
    source = (
        b"# Review\n\n## Agenda\n\nResults\n\n## Results\n\nRevenue grew 12% over the quarter, and churn "
        b"fell to 2.1% in every region we sell in, which is the best figure since 2019.\n\n## Questions\n"
    )
    chunker = Chunker(ChunkConfig(max_tokens=24))
    doc = markdown.parse(source, "deck.md")
    records = chunker.chunk(doc)
    facts = measure(doc, records, chunker.counter, 24)
    texts = [c.text for c in records]
    agenda = texts.index("# Review\n\n## Agenda\n\nResults")  # the title glued to the first section
    own = facts.get(ShortFacts)
    assert own.text_tokens[agenda] < 8 and agenda in (own.whole_sections or [])
    short = [texts[i] for i, _ in short_chunks(facts, 8)]
    assert short == ["## Questions"]  # a heading alone is no section with text of its own
    # Without the sections the same chunk counts (the check can fail).
    facts.put(replace(own, whole_sections=None))
    assert texts[agenda] in [texts[i] for i, _ in short_chunks(facts, 8)]


def test_warnings_can_fail_a_document() -> None:
    facts = DocFacts(
        "x",
        "text",
        1,
        [ShortFacts([20]), WarningFacts({"needs_ocr": 2}), LocalizationFacts(1), CoverageFacts(10, 10)],
    )
    assert evaluate(facts, Thresholds()).passed
    failed = evaluate(facts, Thresholds(fail_on_warnings=("needs_ocr",))).failed
    assert [(c.metric, c.value) for c in failed] == [("warnings.needs_ocr", 2)]


def test_aggregates_sum_counts_and_find_duplicates_across_documents() -> None:
    a = DocFacts("a", "text", 2, [LocalizationFacts(2), DuplicateFacts(embed_hashes=["h1", "h2"]), ShortFacts([9, 9])])
    b = DocFacts("b", "text", 1, [LocalizationFacts(0), DuplicateFacts(embed_hashes=["h1"]), ShortFacts([9])])
    overall = aggregate([a, b], Thresholds())
    assert overall["localization"] == pytest.approx(2 / 3, abs=1e-6)
    assert overall["duplicate_rate"] == pytest.approx(1 / 3, abs=1e-6)


def test_run_verdict_uses_the_failed_share() -> None:
    assert run_passes(0, 10, Thresholds())
    assert not run_passes(1, 10, Thresholds())
    assert run_passes(1, 10, Thresholds(max_failed_share=0.1))


def test_config_from_parsegate_toml_with_format_tables_and_overrides(tmp_path: Path) -> None:
    (tmp_path / "parsegate.toml").write_text(
        "[gate]\nmax_short_chunk_rate = 0.5\nfail_on_warnings = ['needs_ocr']\n\n[gate.text]\nmin_heading_inheritance = 0\n"
    )
    config = load_gate_config(tmp_path, overrides=["max_duplicate_rate=0.2", "text.min_text_coverage=0.9"])
    assert config.default.max_short_chunk_rate == 0.5 and config.default.max_duplicate_rate == 0.2
    assert config.default.fail_on_warnings == ("needs_ocr",)
    text_thresholds = config.for_format("text")
    assert text_thresholds.min_heading_inheritance == 0 and text_thresholds.min_text_coverage == 0.9
    assert text_thresholds.max_short_chunk_rate == 0.5  # inherited from the defaults
    assert config.for_format("markdown").min_text_coverage == 0.99
    assert config.source.endswith("parsegate.toml + --set + --set")


def test_config_from_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname='x'\n\n[tool.parsegate.gate]\nmax_overhead = 1.2\n")
    assert load_gate_config(tmp_path).default.max_overhead == 1.2
    assert load_gate_config(tmp_path / "nowhere").source == "built-in defaults"


@pytest.mark.parametrize(
    "overrides, message",
    [
        (["max_dupes=1"], "unknown gate threshold 'max_dupes'"),
        (["max_duplicate_rate=lots"], "must be a number"),
        (["novalue"], "--set takes key=value"),
        (["min_localization=off"], "cannot be switched off"),
    ],
)
def test_config_errors_are_clear(tmp_path: Path, overrides: list[str], message: str) -> None:
    with pytest.raises(GateConfigError, match=message):
        load_gate_config(tmp_path, overrides=overrides)


def test_code_chunks_hold_whole_definitions_and_carry_their_context() -> None:
    from parsegate.parsers import code

    source = b"import json\n\n\nclass Store:\n    def load(self, raw):\n        return json.loads(raw)\n\n    def size(self):\n        return 0\n"
    doc = code.parse(source, "store.py")
    chunker = Chunker(ChunkConfig(max_tokens=32))
    records = chunker.chunk(doc)
    facts = measure(doc, records, chunker.counter, 32)
    metrics = rates(facts, Thresholds())
    assert facts.get(CodeContextFacts).code_chunks == len(records) and metrics["code_with_context"] == 1.0
    load = next(c for c in records if "def load" in c.text)
    assert "class Store:" in load.embed_text and "import json" in load.embed_text
    broken = copy.deepcopy(records)
    for c in broken:
        c.embed_text = c.embed_text.replace("class Store:\n", "")
    with_context = rates(measure(doc, broken, chunker.counter, 32), Thresholds())["code_with_context"]
    assert with_context is not None and with_context < 1.0
    whole = Chunker(ChunkConfig(max_tokens=256))
    one = whole.chunk(doc)
    assert rates(measure(doc, one, whole.counter, 256), Thresholds())["code_whole_definitions"] == 1.0


def test_a_chunk_missing_its_imports_is_faulted_for_the_first_one_in_source_order() -> None:
    """The fault names one missing line: the first in the file, on every run (it came from a set,
    whose order changed with the interpreter's hash seed between runs)."""
    from parsegate.parsers import code

    names = ["json", "os", "re", "sys", "abc", "csv", "ast", "io", "gc", "uu"]
    imports = "".join(f"import {n}\n" for n in names)
    body = "def use(x):\n    return " + " + ".join(f"{n}.x" for n in names) + "\n"
    doc = code.parse((imports + "\n\n" + body).encode(), "use.py")
    chunker = Chunker(ChunkConfig(max_tokens=256))
    records = chunker.chunk(doc)
    for c in records:
        c.embed_text = c.embed_text.replace("import ", "imp0rt ")
    facts = measure(doc, records, chunker.counter, 256)
    assert [f["why"] for f in facts.faults["code_context"]] == ["lacks 'import json'"]


def test_context_share_is_measured_and_can_fail(fixture) -> None:
    """The share of embedded tokens that context prefixes take, from real counts of embed_text
    and text; a prefix padded with noise raises it past a threshold."""
    records = fixture[2]
    base = facts_of(fixture, records)
    share = rates(base, Thresholds())["context_share"]
    assert share is not None and 0 < share < 0.3
    padded = copy.deepcopy(records)
    for c in padded:
        c.embed_text = "noise " * 20 + "\n\n" + c.embed_text
        honest(fixture, c)
    verdict = evaluate(facts_of(fixture, padded), Thresholds(max_context_share=0.4))
    assert verdict.metrics["context_share"] > 0.4
    assert "max_context_share" in [c.check for c in verdict.failed]


def test_a_wide_tables_header_cut_to_the_context_budget_still_counts_a_cut_to_nothing_does_not(fixture) -> None:
    from parsegate.quality_gates.checks.table_header import carries_header

    header = "| Severity | Acknowledge within | Resolve within | Status page |"
    assert carries_header(f"Doc\n{header}\n\n| P1 |", header)
    assert carries_header("Doc\n| Severity | Acknowledge within | …\n\n| P1 |", header)
    assert not carries_header("Doc\n| Severity …\n\n| P1 |", header)  # two words: not a header any more
    assert not carries_header("Doc\n| Severity | Resolve within | …\n\n| P1 |", header)  # not its start


def test_a_threshold_table_for_a_format_that_does_not_exist_is_refused(tmp_path) -> None:
    # [gate.markdwn] would never apply to any document: a typo to name, not to ignore.

    (tmp_path / "parsegate.toml").write_text("[gate.markdwn]\nmax_short_chunk_rate = 0.5\n")
    with pytest.raises(GateConfigError, match="unknown format 'markdwn'"):
        load_gate_config(tmp_path)
    with pytest.raises(GateConfigError, match="unknown format 'txt'"):
        load_gate_config(tmp_path / "nowhere", None, ["txt.max_short_chunk_rate=0.5"])
    (tmp_path / "parsegate.toml").write_text(
        "[gate.markdown]\nmax_short_chunk_rate = 0.5\n[gate.odt]\nmin_chunks = 0\n"
    )
    config = load_gate_config(tmp_path)
    assert config.for_format("markdown").max_short_chunk_rate == 0.5 and "odt" in config.formats
