"""report.html in a real headless browser (Debian's chromium): it loads with no console
errors and shows the failing document of a fixture run."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from tests.conftest import GOLDEN, IN_CI

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
    "--virtual-time-budget=5000",
    "--dump-dom",
]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if IN_CI:
            pytest.fail("chromium is missing in CI: .ci/run (dev.sh test) installs Debian's chromium")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


def render(page: Path) -> tuple[str, list[str]]:
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", page.as_uri()],
            capture_output=True,
            text=True,
            timeout=120,
        )
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, console


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    (root / "good.md").write_text(
        "# Guide\n\nA paragraph that mentions </script><script>alert('x')</script> as plain text.\n\n"
        "| Key | Value |\n|---|---|\n| a | 1 |\n"
    )
    (root / "bad.txt").write_text("\n\n".join(["The very same paragraph is repeated in this file."] * 6))
    (root / "broken.md").write_bytes(b"caf\x00")
    out = tmp_path_factory.mktemp("out")
    result = CliRunner().invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "20"])
    assert result.exit_code == 1, result.output
    return out


def test_report_loads_without_console_errors_and_shows_the_failing_document(fixture_run: Path) -> None:
    dom, console = render(fixture_run / "report.html")
    assert console == [], console
    assert 'data-ready="yes"' in dom
    assert "gate FAIL" in dom
    detail = dom[dom.index('id="detail"') :]
    # Failures sort first (by path), and the first one is opened with its metrics and reasons.
    assert detail.startswith('id="detail"><h2>bad.txt</h2>')
    assert "binary content" in dom
    assert "duplicate_rate 0.833 (needs ≤ 0.1)" in dom


def test_report_embeds_document_text_as_data_not_markup(fixture_run: Path) -> None:
    html = (fixture_run / "report.html").read_text()
    data = html[html.index('id="data">') + len('id="data">') : html.index("</script>", html.index('id="data">'))]
    payload = json.loads(data)
    assert "alert('x')" in payload["details"]["good.md"]["text"]
    assert not re.search(r"<script>alert", html)
    assert payload["details"]["bad.txt"]["chunks"][0]["tokens"] > 0


def test_report_details_hold_every_chunk_of_the_documents_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parsegate.runner import reports

    monkeypatch.setattr(reports, "DETAIL_DOCS", 2)  # fewer documents in detail than the run has
    root = tmp_path / "docs"
    root.mkdir()
    for name in ("a", "b", "c", "d"):
        parts = [
            f"## Part {n} of {name}\n\nA paragraph of {name} about part {n}, long enough to fill." for n in range(6)
        ]
        (root / f"{name}.md").write_text(f"# {name}\n\n" + "\n\n".join(parts) + "\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "24"])
    assert result.exit_code == 0, result.output
    html = (out / "report.html").read_text()
    data = html[html.index('id="data">') + len('id="data">') : html.index("</script>", html.index('id="data">'))]
    details = json.loads(data)["details"]
    records = [json.loads(line) for line in (out / "chunks.jsonl").read_text().splitlines()]
    assert sorted(details) == ["a.md", "b.md"]
    for doc_id in ("a.md", "b.md"):  # each has several chunks: all of them, from chunks.jsonl
        expected = sorted((r["start"], r["end"], r["id"]) for r in records if r["doc_id"] == doc_id)
        assert len(expected) > 2
        assert [(c["start"], c["end"], c["id"]) for c in details[doc_id]["chunks"]] == expected


# -- in a driven browser: the reader clicks -------------------------------------------


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Forty Markdown pages (a long documents table), a PDF with a table and a Python file."""
    root = tmp_path_factory.mktemp("mixed")
    for n in range(40):
        (root / f"page-{n:02d}.md").write_text(f"# Page {n}\n\nThis page explains item {n} in a sentence or two.\n")
    shutil.copy(GOLDEN / "pdf" / "table-two-pages" / "input.pdf", root / "zz-table.pdf")
    (root / "zz-store.py").write_text(
        "import json\n\n\nclass Store:\n    def load(self, raw):\n        return json.loads(raw)\n"
    )
    out = tmp_path_factory.mktemp("mixed-out")
    result = CliRunner().invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "48"])
    assert result.exit_code in (0, 1), result.output
    return out


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = chromium()
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS[1:9])
        yield launched
        launched.close()


def test_clicking_a_document_opens_its_detail_in_view(mixed_run: Path, browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((mixed_run / "report.html").as_uri())
    page.wait_for_selector("body[data-ready=yes]")
    row = page.locator('tr.doc[data-doc="page-01.md"]')
    row.scroll_into_view_if_needed()
    table = page.locator("#documents").bounding_box()
    assert table is not None and table["y"] + table["height"] > 1600  # below the table is far out of view
    row.click()
    detail = page.locator("#detail")
    assert detail.locator("h2").first.inner_text() == "page-01.md"
    box = detail.bounding_box()
    assert box is not None and 0 <= box["y"] < 800, box  # the detail starts inside the viewport
    page.locator('tr.doc[data-doc="zz-table.pdf"]').click()
    # The PDF's first page: PDFium's image with the chunks' boxes, alternating colours.
    pdf_page = page.locator("#pdf-page-1")
    assert pdf_page.locator("img").get_attribute("src").startswith("data:image/jpeg;base64,")
    assert pdf_page.locator(".pbox.c0").count() > 0 and pdf_page.locator(".pbox.c1").count() > 0
    page.locator('tr.doc[data-doc="zz-store.py"]').click()
    assert page.locator("#detail table.chunks code").first.inner_text() == "Store"  # code chunks show their symbol
    assert errors == []


def test_a_failed_check_links_to_the_chunk_at_fault(run_with_duplicates: Path, browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto((run_with_duplicates / "report.html").as_uri())
    page.wait_for_selector("body[data-ready=yes]")
    faults = page.locator("#detail ul.faults li")
    assert faults.count() == 5 and "same embed_text as" in faults.first.inner_text()
    faults.first.locator("a.go", has_text="chunk #2").click()
    assert "flash" in (page.locator("#chunk-row-1").get_attribute("class") or "")
    faults.first.locator("a.go", has_text="source").click()
    assert page.locator(".source .seg.flash").count() >= 1


@pytest.fixture(scope="module")
def run_with_duplicates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("dupes")
    (root / "bad.txt").write_text("\n\n".join(["The very same paragraph is repeated in this file."] * 6))
    out = tmp_path_factory.mktemp("dupes-out")
    CliRunner().invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "20"])
    return out


def test_a_pdf_shows_every_chunk_text_and_a_code_file_its_source(mixed_run: Path, browser) -> None:
    # Issue 37: the page meant for deciding whether to ingest showed no chunk text for formats
    # without a source view (a PDF). Each chunk row holds its context prefix and its text. Code is a
    # text format (parsers/formats.py: its Document.text is the file): it has the source view.
    records = [json.loads(line) for line in (mixed_run / "chunks.jsonl").read_text().splitlines()]
    quarantined = [json.loads(line) for line in (mixed_run / "quarantine.jsonl").read_text().splitlines()]
    records += [c for q in quarantined for c in q.get("chunks", [])]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto((mixed_run / "report.html").as_uri())
    page.wait_for_selector("body[data-ready=yes]")
    page.locator('tr.doc[data-doc="zz-table.pdf"]').click()
    shown = page.locator("#detail table.chunks .chunk-text").all_inner_texts()
    expected = [
        r["text"] for r in sorted((r for r in records if r["doc_id"] == "zz-table.pdf"), key=lambda r: r["start"])
    ]
    assert [" ".join(t.split()) for t in shown] == [" ".join(t.split()) for t in expected]
    page.locator('tr.doc[data-doc="zz-store.py"]').click()
    segments = page.locator("#detail .source .seg").all_text_contents()  # the file, cut at the chunks
    assert (
        "".join(segments) == "import json\n\n\nclass Store:\n    def load(self, raw):\n        return json.loads(raw)\n"
    )
    assert page.evaluate("[fmt(0.9998), fmt(0.0004), fmt(0.5), fmt(1)]") == ["0.9998", "0.0004", "0.5", "1"]


def test_a_value_just_short_of_its_bound_shows_the_digits_that_fail() -> None:
    from parsegate.quality_gates.report.rows import fmt

    assert [fmt(v) for v in (0.9998, 0.99999, 0.0004, 0.5, 1.0, 0.123456)] == [
        "0.9998", "0.99999", "0.0004", "0.5", "1", "0.123"
    ]  # fmt: skip


@pytest.fixture(scope="module")
def run_with_a_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("copies")
    text = "# Review\n\nBackups run every night at two.\n\n## Costs\n\nStorage costs rose by a tenth this year.\n"
    (root / "review.md").write_text(text)
    (root / "review copy.md").write_text(text)
    out = tmp_path_factory.mktemp("copies-out")
    CliRunner().invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "16"])
    return out


def test_a_failed_run_check_names_the_copy_and_links_its_chunks(run_with_a_copy: Path, browser) -> None:
    """Issue 37: the page said only that the run failed on duplicates. It lists the document at
    fault and the one it repeats, with chunk ids; each document's detail links its own chunks."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((run_with_a_copy / "report.html").as_uri())
    page.wait_for_selector("body[data-ready=yes]")
    listed = page.locator("#run-faults ul.run-faults li")
    assert listed.count() == 1
    assert listed.first.inner_text().startswith("review.md: 2 of its 2 chunks embed the same text as review copy.md's")
    assert listed.first.inner_text().count("ch-") == 4  # two pairs of chunk ids
    listed.first.locator("a.go", has_text="review copy.md").click()
    detail = page.locator("#detail")
    assert detail.locator("h2").first.inner_text() == "review copy.md"
    item = detail.locator("ul.run-faults li").first
    assert item.inner_text().startswith("review.md embeds the same text as 2 of this document's chunks")
    item.locator("a.go", has_text="chunk #2").click()
    assert "flash" in (page.locator("#chunk-row-1").get_attribute("class") or "")
    assert errors == []


def test_a_sampled_run_says_which_reference_measured_each_document(tmp_path: Path, browser) -> None:
    """--gate-sample: the page's top says how many documents the sample held and which reference
    measured how many; a document's detail names its reference and whether the sample held it."""
    pytest.importorskip("docling")
    root = tmp_path / "docs"
    root.mkdir()
    for name in ("article", "api-toc"):
        shutil.copy(GOLDEN / "office" / "html" / name / "input.html", root / f"{name}.html")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--gate-sample", "0"])
    assert result.exit_code in (0, 1), result.output
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto((out / "report.html").as_uri())
    page.wait_for_selector("body[data-ready=yes]")
    assert page.locator("#gate-sample").inner_text() == (
        "gate sample 0 (seed 0): docling's export on 0 of the 2 documents it reads; measured against: "
        "libxml2 reading (not in the gate's sample: docling's export not taken) 2"
    )
    page.locator('tr.doc[data-doc="article.html"]').click()
    assert page.locator("#detail p.reference").inner_text() == (
        "reference: libxml2 reading (not in the gate's sample: docling's export not taken) · not in the gate's "
        "sample: docling's export was not taken"
    )
