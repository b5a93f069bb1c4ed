from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app

runner = CliRunner()
GOOD = "# Guide\n\nFirst paragraph. Second sentence.\n\n## Part\n\n- one thing to remember\n- two more things to do\n"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    (root / "good.md").write_text(GOOD)
    (root / "sub" / "notes.txt").write_text("Notes\n\nPlain text here.\n")
    (root / "empty.md").write_bytes(b"")
    (root / "binary.md").write_bytes(b"\x00\x01\x02PNG")
    # Latin-1, not UTF-8: read as Windows-1252 (as browsers read such a page), with a warning.
    (root / "latin1.md").write_bytes(
        b"# Caf\xe9 menu\n\nCaf\xe9 au lait costs three euros, the cr\xe8me br\xfbl\xe9e five.\n"
    )
    (root / "image.gif").write_bytes(b"GIF89a\x01\x00\x01\x00")  # binary, no parser: left out (counted in run.json)
    (root / "blank.dat").write_bytes(b"")  # no parser, no content to sniff: unsupported
    (root / "gone.md").symlink_to(root / "nowhere.md")
    return root


def test_run_accounts_for_every_file_and_continues_past_bad_ones(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(corpus), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 1  # some files failed
    run = json.loads((out / "run.json").read_text())
    outcomes = {f["path"]: (f["status"], f["code"]) for f in run["files"]}
    assert outcomes == {
        "binary.md": ("failed", "binary"),
        "empty.md": ("chunked", None),
        "gone.md": ("failed", "unreadable"),
        "good.md": ("chunked", None),
        "blank.dat": ("skipped", "unsupported"),
        "latin1.md": ("chunked", None),
        "sub/notes.txt": ("chunked", None),
    }
    summary = run["summary"]
    assert summary["files"] == summary["chunked"] + summary["skipped"] + summary["failed"] == 7
    assert run["left_out"] == {"binary file (no parser for its suffix, content not text)": 1}
    assert run["schema"] == "parsegate.run/1" and run["chunk_set"].startswith("cs-")
    records = [json.loads(line) for line in (out / "chunks.jsonl").read_text().splitlines()]
    assert {r["doc_id"] for r in records} == {"good.md", "sub/notes.txt", "latin1.md"}
    assert any("Café au lait costs three euros, the crème brûlée five." in r["text"] for r in records)
    assert summary["chunks"] == len(records)
    empty = next(f for f in run["files"] if f["path"] == "empty.md")
    assert [w["code"] for w in empty["warnings"]] == ["empty"]
    latin = next(f for f in run["files"] if f["path"] == "latin1.md")
    assert [w["code"] for w in latin["warnings"]] == ["not_utf8"]
    assert "byte 0xe9 at offset 5" in latin["warnings"][0]["message"]
    # Nothing is lost: whatever is not in chunks.jsonl is in quarantine.jsonl, with its reason.
    # An empty file has nothing to say: it passes, counted as empty (issue 36).
    quarantine = {q["doc_id"]: q for q in map(json.loads, (out / "quarantine.jsonl").read_text().splitlines())}
    assert {k: q["reason"] for k, q in quarantine.items()} == {
        "binary.md": "parse_failed",
        "gone.md": "parse_failed",
        "blank.dat": "unsupported",
    }
    assert empty["verdict"] == "pass" and empty["chunks"] == 0
    report = json.loads((out / "report.json").read_text())
    assert report["schema"] == "parsegate.report/1" and report["verdict"] == "fail"
    assert report["counts"]["quarantined"] == 3 and report["counts"]["gate_passed"] == 4
    assert report["counts"]["empty"] == 1
    assert [d["doc_id"] for d in report["documents"][:2]] == ["binary.md", "gone.md"]


def test_run_never_overwrites_a_previous_run(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["run", str(corpus), "--out", str(out), "--workers", "1", "--allow-failures"]
    assert runner.invoke(app, args).exit_code == 0
    first = (out / "chunks.jsonl").read_bytes()
    assert runner.invoke(app, [*args, "--max-tokens", "64"]).exit_code == 0
    history = list((out / "history").iterdir())
    assert len(history) == 1 and (history[0] / "chunks.jsonl").read_bytes() == first
    assert {p.name for p in history[0].iterdir()} == {
        "chunks.jsonl",
        "quarantine.jsonl",
        "run.json",
        "report.json",
        "report.html",
    }


def test_run_with_workers_gives_the_same_chunks(corpus: Path, tmp_path: Path) -> None:
    for name in ("a", "b", "c", "d"):
        (corpus / f"{name}.md").write_text(GOOD.replace("Guide", name))
    runner.invoke(app, ["run", str(corpus), "--out", str(tmp_path / "one"), "-w", "1", "--allow-failures"])
    runner.invoke(app, ["run", str(corpus), "--out", str(tmp_path / "two"), "-w", "2", "--allow-failures"])
    assert (tmp_path / "one" / "chunks.jsonl").read_bytes() == (tmp_path / "two" / "chunks.jsonl").read_bytes()


def test_parse_prints_elements(tmp_path: Path) -> None:
    path = tmp_path / "g.md"
    path.write_text(GOOD)
    result = runner.invoke(app, ["parse", str(path)])
    assert result.exit_code == 0
    elements = [json.loads(line) for line in result.stdout.splitlines()]
    assert [e["kind"] for e in elements] == ["heading", "paragraph", "heading", "list", "list_item", "list_item"]
    assert elements[1] == {
        "id": "e1",
        "kind": "paragraph",
        "start": 9,
        "end": 42,
        "text": "First paragraph. Second sentence.",
        "level": None,
        "section_path": ["Guide"],
        "parent": None,
        "lines": [3, 3],
    }


def test_chunk_writes_records_and_respects_options(tmp_path: Path) -> None:
    path = tmp_path / "g.md"
    path.write_text(GOOD)
    out = tmp_path / "c.jsonl"
    result = runner.invoke(app, ["chunk", str(path), "-o", str(out), "--max-tokens", "20", "--tokenizer", "words"])
    assert result.exit_code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["text"] for r in records] == [
        "# Guide\n\nFirst paragraph. Second sentence.",
        "## Part\n\n- one thing to remember\n- two more things to do",
    ]
    assert all(r["tokenizer"] == "words" and r["tokens"] <= 20 for r in records)


@pytest.mark.parametrize(
    "args, message",
    [
        (["chunk", "missing.md"], "no such file"),
        (["chunk", "{bin}"], "binary content"),
        (["chunk", "{good}", "--strategy", "magic"], "'magic' is not one of 'structural'"),
        (["chunk", "{good}", "--max-tokens", "3"], "leaves no room"),
        (["chunk", "{good}", "--tokenizer", "/nowhere/tokenizer.json"], "neither chars, words"),
        (["chunk", "{good}", "--strategy", "fixed", "--fixed-size", "10", "--fixed-overlap", "10"], "overlap must"),
    ],
)
def test_clear_errors_not_tracebacks(args: list[str], message: str, tmp_path: Path) -> None:
    (tmp_path / "b.md").write_bytes(b"\x00\x00")
    (tmp_path / "g.md").write_text(GOOD)
    args = [a.format(bin=tmp_path / "b.md", good=tmp_path / "g.md") for a in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_inspect_shows_boundaries_and_token_counts(tmp_path: Path) -> None:
    path = tmp_path / "g.md"
    path.write_text(GOOD)
    result = runner.invoke(app, ["inspect", str(path), "--max-tokens", "24"])
    assert result.exit_code == 0
    assert "chunk 1/2" in result.output and "/24 tokens" in result.output and "Guide > Part" in result.output


def test_a_good_and_a_bad_document_are_routed_and_the_run_fails(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "good.md").write_text(GOOD)
    # Six identical paragraphs in one section: at a small budget, duplicate chunks.
    (root / "bad.txt").write_text("\n\n".join(["The very same paragraph is repeated in this file."] * 6))
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "20"])
    assert result.exit_code == 1
    assert {json.loads(x)["doc_id"] for x in (out / "chunks.jsonl").read_text().splitlines()} == {"good.md"}
    (bad,) = [json.loads(x) for x in (out / "quarantine.jsonl").read_text().splitlines()]
    assert bad["doc_id"] == "bad.txt" and bad["reason"] == "gate_failed"
    assert [c["check"] for c in bad["failed_checks"]] == ["max_duplicate_rate"]
    assert bad["failed_checks"][0]["value"] == pytest.approx(5 / 6, abs=1e-6) and len(bad["chunks"]) == 6
    assert "FAIL bad.txt: duplicate_rate 0.833 (needs ≤ 0.1)" in result.output


def test_gate_re_evaluates_a_run_without_parsing(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "good.md").write_text(GOOD)
    (root / "bad.txt").write_text("\n\n".join(["The very same paragraph is repeated in this file."] * 6))
    out = tmp_path / "out"
    runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "20"])
    (root / "good.md").unlink()  # re-gating must not need the sources
    result = runner.invoke(app, ["gate", str(out), "--set", "max_duplicate_rate=0.9"])
    assert result.exit_code == 0, result.output
    passed = [json.loads(x) for x in (out / "chunks.jsonl").read_text().splitlines()]
    assert {c["doc_id"] for c in passed} == {"good.md", "bad.txt"}
    assert (out / "quarantine.jsonl").read_text() == ""
    assert len(list((out / "history").iterdir())) == 1
    run = json.loads((out / "run.json").read_text())
    assert run["gate"]["default"]["max_duplicate_rate"] == 0.9 and "regated_at" in run
    strict = runner.invoke(app, ["gate", str(out), "--set", "max_duplicate_rate=0.1"])
    assert strict.exit_code == 1
    assert [json.loads(x)["doc_id"] for x in (out / "quarantine.jsonl").read_text().splitlines()] == ["bad.txt"]


def test_gate_on_a_folder_without_a_run(tmp_path: Path) -> None:
    result = runner.invoke(app, ["gate", str(tmp_path)])
    assert result.exit_code == 2 and "no run.json here" in result.output


def test_run_reads_thresholds_from_parsegate_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "front-only.md").write_text("---\ntitle: Notes\n---\n")  # text, and no chunk: fails unless min_chunks = 0
    (tmp_path / "parsegate.toml").write_text("[gate]\nmin_chunks = 0\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["run", str(root), "--out", str(tmp_path / "out"), "-w", "1"])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out" / "run.json").read_text())["gate"]["source"].endswith("parsegate.toml")


def test_run_leaves_out_its_own_output_and_hidden_folders_and_says_so(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text("[core]\n")
    (root / "guide.md").write_text(GOOD)
    out = root / "out"
    args = ["run", str(root), "--out", str(out), "-w", "1"]
    assert runner.invoke(app, args).exit_code == 0
    second = runner.invoke(app, args)  # the first run's outputs now sit inside the corpus
    assert second.exit_code == 0, second.output
    run = json.loads((out / "run.json").read_text())
    assert [f["path"] for f in run["files"]] == ["guide.md"]
    # A folder counts once; OUTDIR and the chunk store's folder beside it (repo/.parsegate) are output.
    assert run["left_out"] == {"hidden (use --include-hidden)": 1, "output folder": 2}
    assert "left out on purpose: 1 paths (hidden" in second.output
    (root / ".notes.md").write_text("Notes\n\nOther text, so that no chunk repeats another.\n")
    hidden = runner.invoke(app, [*args, "--include-hidden"])
    run = json.loads((out / "run.json").read_text())
    # hidden files are read; a version-control folder never is, nor the chunk store (output)
    assert [f["path"] for f in run["files"]] == [".notes.md", "guide.md"]
    assert run["left_out"] == {"version-control folder": 1, "output folder": 2}
    assert hidden.exit_code == 0
