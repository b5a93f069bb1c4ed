"""Golden expected files store no chunk ids: ids and links are recomputed from each chunk's set,
document, version and span; a changed chunk set (configuration, versions) is information, not a
failure; a changed span, text, embed_text, section path, tokens or kinds fails as before."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.cli.golden_render import print_reports
from parsegate.golden.add import update_case
from parsegate.golden.cases import CHUNK_SET, EXPECTED
from parsegate.golden.check import CaseReport, check_case, exit_code, to_json
from parsegate.golden.ids import check_ids
from parsegate.parsers.registry import parse_file
from tests.golden import CHAT, POLICY, case, cases, edit_json, golden_copies


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return golden_copies(tmp_path)


def rendered(report: CaseReport) -> str:
    console = Console(width=200, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    print_reports([report], console)
    console.file.close()
    return console.export_text()


class Tampered(Chunker):
    """A chunker whose records are changed after chunking by ``tamper(chunks)``."""

    def __init__(self, tamper, config: ChunkConfig) -> None:  # type: ignore[no-untyped-def]
        super().__init__(config)
        self.tamper = tamper

    def chunk(self, doc):  # type: ignore[no-untyped-def]
        chunks = super().chunk(doc)
        self.tamper(chunks)
        return chunks


def test_our_expected_files_store_no_ids() -> None:
    for c in cases():
        records = json.loads((c.path / EXPECTED / "chunks.json").read_text())
        stored = {k for r in records for k in r} & {"id", "chunk_set", "prev_id", "next_id", "parent_id", "doc_id"}
        assert not stored, f"{c.name}: chunks.json stores {sorted(stored)}"
        made_with = json.loads((c.path / EXPECTED / CHUNK_SET).read_text())
        assert list(made_with) == ["parser", "chunker", "tokenizer", "settings"], c.name


def test_a_wrong_id_fails_naming_the_span_and_the_recomputed_id(root: Path) -> None:
    target = case(root, CHAT)
    right = Chunker(target.config()).chunk(parse_file(target.source, target.doc_id))
    report = check_case(target, Tampered(lambda cs: setattr(cs[2], "id", "ch-old"), target.config()))
    assert report.diff is not None
    assert [(w["span"], w["field"], w["found"], w["expected"]) for w in report.diff.chunk_ids_wrong] == [
        ([158, 257], "id", "ch-old", right[2].id),
        # its neighbours still name the chunk by its right id, which no chunk has now
        ([100, 157], "next_id", right[2].id, "ch-old"),
        ([258, 302], "prev_id", right[2].id, "ch-old"),
    ]
    assert report.status == "changed" and report.failed("any") and not report.failed("evidence")
    assert exit_code([report], "evidence") == 0 and exit_code([report], "any") == 1
    assert to_json([report], "x")["cases"][0]["counts"] == {"chunk_ids_wrong": 3}
    assert f"chunk [158-257] id ch-old, recomputed {right[2].id}" in rendered(report)


def test_a_link_to_the_wrong_chunk_fails(root: Path) -> None:
    target = case(root, CHAT)
    report = check_case(target, Tampered(lambda cs: setattr(cs[0], "next_id", cs[2].id), target.config()))
    assert report.diff is not None
    (wrong,) = report.diff.chunk_ids_wrong
    assert (wrong["span"], wrong["field"], wrong["points_at"], wrong["should_point_at"]) == (
        [0, 99],
        "next_id",
        [158, 257],
        [100, 157],
    )
    assert report.failed("any")
    assert "chunk [0-99] next_id points at [158-257] (should: [100-157])" in rendered(report)


@pytest.mark.parametrize("strategy", ["structural", "recursive", "fixed", "parent-child", "semantic-lexical"])
def test_ids_and_links_recompute_for_every_strategy_on_every_golden_document(strategy: str, chunker_factory) -> None:
    """The recomputation is the chunker's own id scheme, for each strategy (the fixed baseline's
    section-relative ids included), with parent-child's two chains and its parents."""
    chunker = chunker_factory(strategy=strategy, max_tokens=64, fixed_size=300, fixed_overlap=40)
    children = whole_windows = 0
    for c in cases():
        doc = parse_file(c.source, c.doc_id)
        chunks = chunker.chunk(doc)
        assert check_ids(doc, chunks, chunker.config) == [], c.name
        children += sum(ch.parent_id is not None for ch in chunks)
        whole_windows += sum(not ch.id.startswith("ch-") for ch in chunks)
    assert (children > 50) == (strategy == "parent-child"), children
    assert (whole_windows > 50) == (strategy == "fixed"), whole_windows


def test_a_child_named_under_the_wrong_parent_fails(root: Path) -> None:
    target = case(root, POLICY)
    config = ChunkConfig(strategy="parent-child", max_tokens=30, parent_tokens=120)
    (target.path / "config.json").write_text(
        json.dumps({"strategy": "parent-child", "max_tokens": 30, "parent_tokens": 120})
    )
    update_case(target, check_case(target))
    records = json.loads((target.path / EXPECTED / "chunks.json").read_text())
    assert [r.get("parent") for r in records] == [None, 0, 0, 0, 0, 0]
    assert not check_case(target).changed  # (its evidence, split at 30 tokens, fails as it should)
    report = check_case(target, Tampered(lambda cs: setattr(cs[2], "parent_id", "ch-elsewhere"), config))
    assert report.diff is not None
    assert [(w["span"], w["field"]) for w in report.diff.chunk_ids_wrong] == [([97, 205], "parent_id")]
    assert [(f["span"], f["field"], f["before"], f["after"]) for f in report.diff.chunk_fields_changed] == [
        ([97, 205], "parent", 0, None)
    ]
    assert report.changed


def test_a_changed_chunk_set_is_information_not_a_failure(root: Path) -> None:
    """A fresh install with other library versions: every id differs, no span moved."""
    path = root / POLICY / EXPECTED / CHUNK_SET
    before = json.loads(path.read_text())
    edit_json(path, lambda made: made.update(parser="markdown 12+markdown-it-py/3.0.0"))
    report = check_case(case(root, POLICY))
    assert report.chunk_set_changed == [
        {"field": "parser", "before": "markdown 12+markdown-it-py/3.0.0", "after": before["parser"]}
    ]
    assert report.status == "ok" and not report.failed("any")
    assert exit_code([report], "any") == 0
    assert to_json([report], "x")["summary"]["chunk_sets_changed"] == 1
    assert "chunk set changed: parser markdown 12+markdown-it-py/3.0.0 → " in rendered(report)
    # a setting is named by its key
    edit_json(path, lambda made: made["settings"].update(max_tokens=40, parser="ignored"))
    fields = [c["field"] for c in check_case(case(root, POLICY)).chunk_set_changed]
    assert fields == ["parser", "settings.max_tokens", "settings.parser"]


def test_expected_files_with_ids_from_an_older_parsegate_check_by_content(root: Path) -> None:
    """Files that stored each chunk's id and chunk_set (before parsegate.golden-check/2): the ids
    are not compared, the chunk set's hash is reported once, as information."""
    target = case(root, CHAT)
    (target.path / EXPECTED / CHUNK_SET).unlink()
    edit_json(
        target.path / EXPECTED / "chunks.json",
        lambda records: [r.update(id=f"ch-old{k}", chunk_set="cs-old") for k, r in enumerate(records)],
    )
    report = check_case(target)
    today = report.snapshot.chunks[0].chunk_set if report.snapshot else None
    assert report.chunk_set_changed == [{"field": "chunk_set", "before": "cs-old", "after": today}]
    assert report.status == "ok" and exit_code([report], "any") == 0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("embed_text", "Expense Policy\n\nAlcohol is never reimbursed."),
        ("text", "Alcohol is never reimbursed."),
        ("section_path", ["Expense Policy"]),
        ("tokens", 33),
        ("kinds", ["list_item"]),
        ("lines", [7, 8]),
    ],
)
def test_a_changed_field_of_a_chunk_still_fails(root: Path, field: str, value: object) -> None:
    path = root / POLICY / EXPECTED / "chunks.json"
    edit_json(path, lambda records: records[1].update({field: value}))
    report = check_case(case(root, POLICY))
    assert report.diff is not None
    assert [(f["span"], f["field"], f["before"]) for f in report.diff.chunk_fields_changed] == [
        ([207, 342], field, value)
    ]
    assert report.diff.chunk_ids_wrong == []
    assert report.failed("any") and exit_code([report], "any") == 1


def test_a_recomputed_id_does_not_read_the_record_it_checks() -> None:
    """Guard against a check that trusts what it checks: an id recomputed from a moved span
    differs from the id the chunk carries."""
    c = next(iter(cases()))
    doc = parse_file(c.source, c.doc_id)
    chunks = Chunker(c.config()).chunk(doc)
    moved = [replace(chunks[0], end=chunks[0].end - 1), *chunks[1:]]
    assert [(w["span"], w["field"]) for w in check_ids(doc, moved, c.config())] == [
        ([chunks[0].start, chunks[0].end - 1], "id")
    ]


def test_a_rewrite_leaves_alone_a_file_whose_content_did_not_change(root: Path) -> None:
    """Regenerating rewrites only files whose content changed: keys a parser now emits in another
    order are no change (pdf/open-table's table data was one), so a rewrite's diff is the change."""
    target = case(root, POLICY)
    elements = target.path / EXPECTED / "elements.json"
    reordered = json.dumps(json.loads(elements.read_text()), indent=1, sort_keys=True)
    elements.write_text(reordered)
    edit_json(target.path / EXPECTED / "chunks.json", lambda records: records[1].update(tokens=1))
    update_case(target, check_case(target))
    assert elements.read_text() == reordered
    assert json.loads((target.path / EXPECTED / "chunks.json").read_text())[1]["tokens"] == 34
    assert not check_case(target).changed
