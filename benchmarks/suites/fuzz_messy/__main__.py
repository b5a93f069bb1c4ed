"""fuzz_messy: mutated real documents through parse, chunk and gate: what breaks an invariant?

Takes real inputs (the fastapi docs, the golden cases, stdlib modules, the corpus's web pages and
Word files), makes them messy the way exports and scrapes do (lower-cased, blank lines dropped,
lines joined or re-wrapped, cut short, spliced together, repeated; Markdown, HTML, table and
control characters inserted at random places, an invalid byte appended now and then; a Word
file's XML edited: runs, paragraphs and tables repeated or removed, text and markup inserted) and runs each through
``parsegate.engines.work.process`` — the worker's path — with a random strategy and budget. A case
fails when the run raises or ends in ``internal_error``, or when one of the gate's invariants is
off: every chunk within budget on a fresh count, localized in the source, body text covered, no
empty chunk, token counts exact, and (for web pages) extraction recall against docling's export
and libxml2's reading of the file. Failing inputs are kept in ``--out`` to read and to turn into
tests.

With ``--browser``, each recall fault of a web page is also looked up in what headless Chromium
makes of the file (``--dump-dom``): a fault whose words the browser's DOM does not have is a
false alarm of the gate's references, not a loss.

    python -m benchmarks.suites.fuzz_messy --minutes 10 --seed 7 --formats md,txt
    python -m benchmarks.suites.fuzz_messy --minutes 10 --seed 11 --formats html --browser

Not a test (it runs for minutes, and what it finds is read by a person first). The tally (cases,
failing cases, by invariant) goes to benchmarks/results/fuzz_messy.json (--result).
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import time
import traceback
import zipfile
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report
from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.engines.work import FileOutcome, process
from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.references.web import text_nodes
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import Verdict, evaluate
from parsegate.quality_gates.words import words

REPO = harness.ROOT
SHARED = harness.SHARED
STRATEGIES = ("structural", "structural", "structural", "parent-child", "recursive", "semantic-lexical")
BUDGETS = (48, 64, 128, 200, 256, 512)
INVARIANTS = {
    "budget_compliance": 1.0,
    "localization": 1.0,
    "text_coverage": 1.0,
    "token_count_accuracy": 1.0,
    "empty_chunk_rate": 0.0,
}
SNIPPETS = (
    "#", "# ", "## ", "|", " | ", "```", "```\n", "~~~", "---\n", "===\n", "* ", "- ", "1. ", "> ", "\t",
    "    ", "\n", "\n\n", "\r\n", "\x0b", "\x0c", "\u2028", "\u00a0", "東京都は日本の首都です。", "🙂👍🏽",
    "x" * 300, "<div>", "</div>", "<!--", "-->", "[link](http://a.b)", "![img](a.png)", "**", "_", "`",
    "| a | b |\n|---|---|\n| 1 | 2 |\n", "Speaker 1: ", "Q: ", "e.g. ", "z.B. ", "...", "; ", "— ",
    "<table><tr><td>x</td></tr></table>", "$$\n", "[^1]: note\n", "<details>",
)  # fmt: skip


def sources(formats: set[str]) -> list[Path]:
    found: list[Path] = []
    if formats & {"md", "txt"}:
        found += sorted((SHARED / "markdown").rglob("*.md"))
        found += [p for p in sorted((REPO / "golden_docs").rglob("input.*")) if p.suffix in (".md", ".txt")]
    if "code" in formats:
        stdlib = Path(sysconfig.get_paths()["stdlib"])
        found += sorted(stdlib.glob("*.py"))[:150] + sorted((REPO / "golden_docs" / "code").rglob("input.*"))
    if "html" in formats:
        found += sorted((SHARED / "office").glob("*.html")) + sorted((REPO / "golden_docs").rglob("input.html"))
    if "docx" in formats:
        found += sorted((SHARED / "office").glob("*.docx")) + sorted((REPO / "golden_docs").rglob("input.docx"))
    return [p for p in found if p.stat().st_size < 60_000]


_RUN_TEXT = re.compile(r"<w:t[^>]*>")
_BLOCK = re.compile(r"<w:(r|p|tbl)[ >].*?</w:\1>", re.S)
_XML_SNIPPETS = ("&amp;", "\u00a0", "東京", "🙂", "\t", "x" * 200, "</w:t><w:t>", "</w:t></w:r><w:r><w:t>", "<w:br/>")


def mutate_docx(data: bytes, rng: random.Random) -> bytes:
    """A DOCX with its body and notes edited as XML: text inserted into runs (some of it markup),
    paragraphs, runs and tables repeated or removed, a few bytes cut (the XML may break)."""
    archive, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in archive.infolist():
            part = archive.read(info.filename)
            if info.filename in ("word/document.xml", "word/footnotes.xml"):
                part = _mutate_xml(part.decode("utf-8", "replace"), rng).encode("utf-8", "surrogatepass")
            target.writestr(info, part)
    return out.getvalue()


def _mutate_xml(xml: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 8)):
        roll = rng.random()
        texts = [m.end() for m in _RUN_TEXT.finditer(xml)]
        blocks = [m.span() for m in _BLOCK.finditer(xml)]
        if roll < 0.5 and texts:
            at = rng.choice(texts)
            xml = xml[:at] + rng.choice(_XML_SNIPPETS) + xml[at:]
        elif roll < 0.7 and blocks:
            start, end = rng.choice(blocks)
            xml = xml[:end] + xml[start:end] * rng.randint(1, 3) + xml[end:]
        elif roll < 0.9 and blocks:
            start, end = rng.choice(blocks)
            xml = xml[:start] + xml[end:]
        else:
            at = rng.randrange(len(xml))
            xml = xml[:at] + xml[at + rng.randint(1, 50) :]
    return xml


def mutate(text: str, rng: random.Random, pool: list[Path]) -> str:
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.1:
            text = text.lower()
        elif roll < 0.18:
            text = "\n".join(line for line in text.split("\n") if line.strip())
        elif roll < 0.24:
            text = text.replace("\n", " ")
        elif roll < 0.3:
            width = rng.choice([40, 80, 120])
            text = "\n".join(textwrap.fill(p, width) for p in text.split("\n\n"))
        elif roll < 0.36:
            text = text[: rng.randrange(len(text) + 1)]
        elif roll < 0.42:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + text[at + rng.randint(1, 2000) :]
        elif roll < 0.5:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(pool).read_text(errors="replace")[: rng.randint(0, 5000)] + text[at:]
        elif roll < 0.55:
            text = text * rng.randint(2, 4)
        else:
            for _ in range(rng.randint(1, 40)):
                at = rng.randrange(len(text) + 1)
                text = text[:at] + rng.choice(SNIPPETS) + text[at:]
    return text


def problems(outcome: FileOutcome | None, error: str) -> tuple[list[str], Verdict | None]:
    if outcome is None:
        return [f"raised: {error}"], None
    if outcome.code == "internal_error":
        return [f"internal_error: {outcome.reason}"], None
    if outcome.status != "chunked" or outcome.facts is None:
        return [], None
    verdict = evaluate(DocFacts.from_dict(outcome.facts), Thresholds())
    found = [
        f"{k}={verdict.metrics.get(k)}" for k, want in INVARIANTS.items() if verdict.metrics.get(k) not in (None, want)
    ]
    recall = verdict.metrics.get("extraction_recall")
    if outcome.format == "html" and recall is not None and recall < Thresholds().min_extraction_recall:
        found.append(f"extraction_recall={recall}")
    return found, verdict


def browser_check(path: Path, verdict: Verdict, tally: collections.Counter[str]) -> None:
    """Each recall fault: do the words of it appear in Chromium's DOM of the file?"""
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", path.resolve().as_uri()],
        capture_output=True,
        timeout=60,
    ).stdout
    shown = set(words(" ".join(text_nodes(dom) or [])))
    for check in verdict.failed:
        if check.metric != "extraction_recall":
            continue
        for fault in check.faults:
            held = words(str(fault.get("words", "")))
            seen = sum(w in shown for w in held)
            tally[
                "recall fault the browser shows" if seen * 2 >= len(held) else "recall fault the browser does not"
            ] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--formats", default="md,txt", help="comma-separated: md, txt, code, html, docx")
    parser.add_argument("--out", type=Path, default=Path("out") / "fuzz", help="where failing inputs are kept")
    parser.add_argument("--browser", action="store_true", help="look recall faults of web pages up in Chromium")
    parser.add_argument("--result", type=Path, default=None, help="the tally's result file")
    args = parser.parse_args()
    formats = set(args.formats.split(","))
    if args.browser and shutil.which("chromium") is None:
        sys.exit("--browser needs Debian's chromium")
    rng = random.Random(args.seed)
    pool = sources(formats)
    if not pool:
        sys.exit("no inputs found (is ../shared/corpus there?)")
    suffixes = sorted({".md" if "md" in formats else "", ".txt" if "txt" in formats else ""} - {""})
    args.out.mkdir(parents=True, exist_ok=True)
    chunkers: dict[tuple[str, int], Chunker] = {}

    def chunker(strategy: str, budget: int) -> Chunker:
        if (strategy, budget) not in chunkers:
            chunkers[strategy, budget] = Chunker(ChunkConfig(strategy=strategy, max_tokens=budget))
        return chunkers[strategy, budget]

    tally: collections.Counter[str] = collections.Counter()
    end, cases = time.monotonic() + args.minutes * 60, 0
    while time.monotonic() < end:
        source = rng.choice(pool)
        suffix = rng.choice(suffixes) if source.suffix in (".md", ".txt") and suffixes else source.suffix
        if suffix == ".docx":
            raw = mutate_docx(source.read_bytes(), rng)
        else:
            texts = [p for p in pool if p.suffix != ".docx"]
            raw = mutate(source.read_text(errors="replace"), rng, texts).encode("utf-8", "surrogatepass")
            if rng.random() < 0.05:
                raw += b"\xff\xfe"  # a broken byte at the end, as a cut download leaves
        path = args.out / f"case{suffix}"
        path.write_bytes(raw)
        strategy, budget = rng.choice(STRATEGIES), rng.choice(BUDGETS)
        cases += 1
        error, outcome = "", None
        try:
            outcome, _ = process(path, path.name, chunker(strategy, budget))
        except Exception:  # the worker's own guard is what is under test: anything here is a finding
            error = traceback.format_exc(limit=3)
        found, verdict = problems(outcome, error)
        if not found:
            continue
        tally["failing cases"] += 1
        kept = args.out / f"fail{tally['failing cases']}{suffix}"
        kept.write_bytes(raw)
        for item in found:
            tally[item.split("=")[0].split(":")[0]] += 1
        if args.browser and verdict is not None and suffix == ".html":
            browser_check(kept, verdict, tally)
        print(json.dumps({"case": str(kept), "strategy": strategy, "budget": budget, "found": found})[:600], flush=True)
    print(json.dumps({"seed": args.seed, "formats": sorted(formats), "cases": cases, **tally}, indent=1))
    report = Report("fuzz_messy")
    corpus = f"mutated {','.join(sorted(formats))} inputs (seed {args.seed}, {args.minutes:g} min)"
    report.add("parsegate worker path", corpus, "cases", cases, "cases")
    report.add("parsegate worker path", corpus, "failing_cases", tally["failing cases"], "cases")
    report.details = {"seed": args.seed, "formats": sorted(formats), "minutes": args.minutes, "tally": dict(tally)}
    print(f"written to {report.write(args.result)}")


if __name__ == "__main__":
    main()
