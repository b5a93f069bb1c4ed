"""The Python API: parsegate.parse, parsegate.chunk, parsegate.run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import parsegate
from parsegate.chunkers import ConfigError

DOC = "# Travel\n\n## Booking\n\nBook trains at least 14 days ahead.\n\n## Refunds\n\nRefunds take 30 days.\n"


def test_parse_takes_str_paths_paths_and_bytes(tmp_path: Path) -> None:
    path = tmp_path / "travel.md"
    path.write_text(DOC)
    by_str, by_path = parsegate.parse(str(path)), parsegate.parse(path)
    by_bytes = parsegate.parse(DOC.encode(), doc_id="policy/travel.md")
    assert by_str.doc_id == by_path.doc_id == "travel.md" and by_bytes.doc_id == "policy/travel.md"
    assert by_str.text == by_bytes.text == DOC
    assert [(e.kind, DOC[e.start : e.end]) for e in by_bytes.elements][:2] == [
        ("heading", "# Travel"),
        ("heading", "## Booking"),
    ]
    # bytes with no suffix to go by: the content decides (its ATX headings), unless format says otherwise
    assert parsegate.parse(DOC.encode()).format == "markdown"
    assert parsegate.parse(DOC.encode(), format="txt").format == "text"


def test_chunk_a_document_or_a_path(tmp_path: Path) -> None:
    doc = parsegate.parse(DOC.encode(), doc_id="travel.md")
    chunks = parsegate.chunk(doc, max_tokens=20)
    assert [c.text for c in chunks] == [
        "# Travel\n\n## Booking\n\nBook trains at least 14 days ahead.",
        "## Refunds\n\nRefunds take 30 days.",
    ]
    assert all(c.text == doc.text[c.start : c.end] and c.tokens <= 20 for c in chunks)
    path = tmp_path / "travel.md"
    path.write_text(DOC)
    assert [c.to_dict() for c in parsegate.chunk(str(path), max_tokens=20)] == [c.to_dict() for c in chunks]


def test_chunk_refuses_a_budget_over_the_model_maximum_unless_allowed() -> None:
    doc = parsegate.parse(DOC.encode(), doc_id="travel.md")
    with pytest.raises(ConfigError, match=r"maximum sequence length \(256\)"):
        parsegate.chunk(doc, max_tokens=512)
    assert parsegate.chunk(doc, max_tokens=512, allow_over_model_max=True)


def test_run_returns_the_verdict_and_raises_on_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "travel.md").write_text(DOC)
    result = parsegate.run(corpus, tmp_path / "out", workers=1)
    assert (result.exit_code, result.verdict, result.passed) == (0, "pass", True)
    assert result.summary["files"] == result.summary["chunked"] == 1
    assert {json.loads(line)["doc_id"] for line in result.chunks_path.read_text().splitlines()} == {"travel.md"}
    (corpus / "front-only.md").write_text(
        "---\ntitle: Notes\n---\n"
    )  # no chunks: fails the gate, and half the documents failed
    failed = parsegate.run(corpus, tmp_path / "out", workers=1)
    assert (failed.exit_code, failed.verdict) == (1, "fail")
    assert json.loads(failed.quarantine_path.read_text())["doc_id"] == "front-only.md"
    with pytest.raises(parsegate.CommandError, match="is the corpus folder") as refused:
        parsegate.run(corpus, corpus)
    assert refused.value.code == 2
    assert capsys.readouterr().err == ""  # the library prints nothing


def test_a_users_own_parsers_chunkers_and_quality_gates_packages_do_not_shadow_ours(tmp_path) -> None:
    # parsegate's code lives under one namespace: a project with its own top-level packages of
    # these generic names (first on sys.path) neither breaks parsegate nor is imported by it.
    import subprocess
    import sys

    for name in ("parsers", "chunkers", "quality_gates"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('the user project {name} was imported')\n")
    code = (
        "import parsegate, sys; doc = parsegate.parse(b'# T\\n\\nBody text.\\n', format='md'); "
        "print(len(parsegate.chunk(doc)), sorted(m for m in ('parsers', 'chunkers', 'quality_gates') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)}
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "[]"]


def test_parse_options_apply_to_one_parse_and_the_environment_to_none(monkeypatch) -> None:
    from parsegate.parsers.model import ParseError
    from tests.conftest import GOLDEN

    two_pages = (GOLDEN / "pdf" / "table-two-pages" / "input.pdf").read_bytes()
    with pytest.raises(ParseError) as info:
        parsegate.parse(two_pages, format="pdf", options=parsegate.ParseOptions(pdf_max_pages=1))
    assert info.value.code == "too_many_pages" and "limit of 1" in info.value.message
    assert parsegate.parse(two_pages, format="pdf").elements  # the option held for that parse only
    monkeypatch.setenv("PARSEGATE_PDF_MAX_PAGES", "1")  # the command line's variable: the library does not read it
    assert parsegate.parse(two_pages, format="pdf").elements
    with pytest.raises(ParseError):  # unless the caller asks for it
        parsegate.parse(
            two_pages, format="pdf", options=parsegate.ParseOptions.from_env({"PARSEGATE_PDF_MAX_PAGES": "1"})
        )


def test_gate_checks_chunks_against_the_source_it_is_given() -> None:
    source = b"# Travel\n\nEmployees may claim 45 EUR per day for meals.\n"
    doc = parsegate.parse(source, format="md")
    chunks = parsegate.chunk(doc)
    verdict = parsegate.gate(doc, chunks, source=source)
    assert verdict.passed and not verdict.not_measured
    # without the source, the checks against it are not measured, never passed
    assert set(parsegate.gate(doc, chunks).not_measured) == {"heading_inheritance", "localization", "extraction_recall"}
    # a source that says something else: the chunks no longer match it
    altered = parsegate.gate(doc, chunks, source=source.replace(b"45", b"90"))
    assert not altered.passed
    assert "min_localization" in [c.check for c in altered.checks if not c.passed]
    # thresholds as a mapping; a budget below the chunk's size fails it
    assert not parsegate.gate(doc, chunks, source=source, max_tokens=5).passed
    assert parsegate.gate(doc, chunks, source=source, thresholds={"max_short_chunk_rate": 1.0}).passed


def test_a_run_through_the_api_imports_no_command_line_module(tmp_path: Path) -> None:
    # parsegate.run builds RunSettings and calls runner.run_corpus: the command line (click, rich,
    # parsegate.cli) is not on its path, and it returns the verdict instead of exiting.
    import subprocess
    import sys

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "travel.md").write_text(DOC)
    code = (
        "import json, sys, parsegate\n"
        f"result = parsegate.run({str(corpus)!r}, {str(tmp_path / 'out')!r}, workers=1)\n"
        "shown = sorted(m for m in sys.modules if m.startswith('parsegate.cli') or m.split('.')[0] in ('click', 'rich'))\n"
        "print(json.dumps([result.exit_code, result.summary['chunked'], shown]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [0, 1, []]
    assert done.stderr == ""


def test_text_is_parsed_as_text_and_a_str_is_always_a_path() -> None:
    doc = parsegate.parse(text=DOC, format="md")
    assert doc.format == "markdown" and doc.text == DOC and doc.doc_id == "document.md"
    chunks = parsegate.chunk(text=DOC, format="md", max_tokens=20)
    assert [c.text for c in chunks] == [c.text for c in parsegate.chunk(doc, max_tokens=20)]
    from parsegate.parsers.model import ParseError

    with pytest.raises(ParseError, match=r"no such file \(to parse a string, pass text=\.\.\.\)") as refused:
        parsegate.parse(DOC)  # a document's text given where a path is expected: said, not guessed
    assert refused.value.code == "not_found"
    with pytest.raises(TypeError, match="one of them"):
        parsegate.parse(DOC.encode(), text=DOC)
