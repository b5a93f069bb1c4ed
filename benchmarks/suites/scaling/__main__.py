"""scaling: memory and time per input MB, per format, at 1, 10 and 100 MB: one generated document of each
size goes through what a worker does for it (read, parse, chunk, measure), in a child process
of its own under the run's default limits (120 s, 2 GB of address space), and the child's peak
resident memory (ru_maxrss) and wall time are taken.

Inputs are ordinary documents, not hostile ones: Markdown with sections, lists and tables;
plain text; a Python module; a PDF of dense text pages (fpdf2, uncompressed content, at most
2,000 pages); DOCX paragraphs and tables (python-docx); HTML; XLSX rows (openpyxl). A cell that
ends over a limit says so: that is the limit doing its job.

    python -m benchmarks.suites.scaling [--sizes 1 10 100] [--formats md txt py pdf docx html xlsx]

A run of every format at the default sizes writes benchmarks/results/scaling.json; a subset writes
benchmarks/results/scaling.partial.tmp (not committed), so that it never stands in for the whole.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report

WORDS = (
    "policy travel employee approval manager budget limit receipt claim hotel flight meal report "
    "section rule exception deadline quarter revenue forecast table value system process data"
).split()
SECONDS, MEMORY = 120, 2048 * 1024 * 1024  # the run's defaults


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18))).capitalize() + "."


def paragraphs(size: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    out, total = [], 0
    while total < size:
        out.append(" ".join(sentence(rng) for _ in range(rng.randint(2, 6))))
        total += len(out[-1]) + 2
    return out


def markdown(size: int) -> bytes:
    rng, out = random.Random(2), []
    for n, para in enumerate(paragraphs(size)):
        if n % 12 == 0:
            out.append(f"## Section {n}")
        elif n % 12 == 5:
            out.append("\n".join(f"- {sentence(rng)}" for _ in range(4)))
        elif n % 12 == 9:
            rows = "".join(f"| {i} | {rng.choice(WORDS)} | {rng.randint(1, 999)} |\n" for i in range(8))
            out.append("| id | name | value |\n|---|---|---|\n" + rows.rstrip())
        out.append(para)
    return "\n\n".join(out).encode()


def text(size: int) -> bytes:
    return "\n\n".join(paragraphs(size, 3)).encode()


def python(size: int) -> bytes:
    rng, out, total, n = random.Random(4), ["import os\nimport sys\n"], 0, 0
    while total < size:
        body = "\n".join(f"        v{i} = x + {rng.randint(1, 99)}  # {sentence(rng)}" for i in range(12))
        doc = sentence(rng)
        unit = f'class Unit{n}:\n    """{doc}"""\n\n    def run(self, x):\n{body}\n        return v11\n'
        out.append(unit)
        total += len(unit)
        n += 1
    return "\n\n".join(out).encode()


def pdf(size: int) -> bytes:
    from fpdf import FPDF

    doc = FPDF(format="A4")
    doc.set_compression(False)
    doc.set_font("Helvetica", size=5)
    per_page = max(4000, size // 2000)  # never more than 2,000 pages (the PDF parser's page limit)
    text_per_page = paragraphs(size, 5)
    page, length = [], 0
    for para in text_per_page:
        page.append(para)
        length += len(para)
        if length >= per_page:
            doc.add_page()
            doc.multi_cell(0, 2.2, "\n".join(page))
            page, length = [], 0
            if len(doc.pages) >= 2000:
                break
    if page:
        doc.add_page()
        doc.multi_cell(0, 2.2, "\n".join(page))
    return bytes(doc.output())


def docx(size: int) -> bytes:
    """python-docx's empty document with a generated body (python-docx itself is too slow for
    100 MB): headings, paragraphs and a table every 25 paragraphs."""
    import io
    import zipfile
    from xml.sax.saxutils import escape

    import docx as python_docx

    template = io.BytesIO()
    python_docx.Document().save(template)
    rng = random.Random(6)
    body = []
    for n, para in enumerate(paragraphs(size * 4, 6)):  # the zip holds about a quarter of its XML
        if n % 10 == 0:
            body.append(f'<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Section {n}</w:t></w:r></w:p>')
        body.append(f"<w:p><w:r><w:t>{escape(para)}</w:t></w:r></w:p>")
        if n % 25 == 24:
            cells = "".join(f"<w:tc><w:p><w:r><w:t>{rng.choice(WORDS)}</w:t></w:r></w:p></w:tc>" for _ in range(3))
            body.append("<w:tbl>" + f"<w:tr>{cells}</w:tr>" * 4 + "</w:tbl>")
    out = io.BytesIO()
    with zipfile.ZipFile(template) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "word/document.xml":
                head, _, rest = data.partition(b"<w:body>")
                data = head + b"<w:body>" + "".join(body).encode() + b"<w:sectPr/>" + rest[rest.index(b"</w:body>") :]
            target.writestr(item, data)
    return out.getvalue()


def html(size: int) -> bytes:
    body = "".join(
        (f"<h2>Section {n}</h2>" if n % 10 == 0 else "") + f"<p>{para}</p>"
        for n, para in enumerate(paragraphs(size, 7))
    )
    return f"<html><head><title>Generated</title></head><body>{body}</body></html>".encode()


def xlsx(size: int) -> bytes:
    import io

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    rng = random.Random(8)
    sheet.append(["id", "name", "region", "value", "note"])
    for i in range(max(10, size // 40)):  # about 40 bytes of zip per row
        sheet.append([i, rng.choice(WORDS), rng.choice(WORDS), rng.randint(1, 10_000), sentence(rng)])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


FORMATS: dict[str, Callable[[int], bytes]] = {
    "md": markdown,
    "txt": text,
    "py": python,
    "pdf": pdf,
    "docx": docx,
    "html": html,
    "xlsx": xlsx,
}


def high_water_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited from the
    process that started it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(path: Path) -> None:
    """In the child: what a worker does for one document, under the run's memory limit."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.engines.work import process

    chunker = Chunker(ChunkConfig())
    chunker.chunk(__import__("parsegate.parsers.text", fromlist=["parse"]).parse(b"Warm up.\n", "w.txt"))
    baseline = high_water_mb()
    started = time.perf_counter()
    outcome, _ = process(path, path.name, chunker)
    seconds = time.perf_counter() - started
    peak = high_water_mb()
    print(
        json.dumps({"seconds": seconds, "status": outcome.status, "code": outcome.code, "peak": peak, "base": baseline})
    )


def measure(path: Path) -> dict[str, object]:
    env = {**os.environ, "MALLOC_ARENA_MAX": "2"}
    command = [sys.executable, "-m", "benchmarks.suites.scaling", "--one", str(path)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env, cwd=harness.ROOT)
    try:
        out, _ = proc.communicate(timeout=SECONDS * 2)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        return {"seconds": SECONDS * 2, "status": "failed", "code": f"over {SECONDS * 2} s (stopped)"}
    if not out.strip():
        return {"status": "failed", "code": f"died (exit {proc.returncode})"}
    child = json.loads(out.strip().splitlines()[-1])
    result: dict[str, object] = {
        "seconds": round(child["seconds"], 2),
        "status": child["status"],
        "code": child["code"],
        "peak_mb": round(child["peak"]),
        "baseline_mb": round(child["base"]),
    }
    if child["seconds"] > SECONDS:
        result["code"] = f"took over {SECONDS} s: a run stops it as timeout"
    return result


def row(fmt: str, real_mb: float, cell: dict[str, object]) -> str:
    outcome = (
        cell["status"] if cell["status"] == "chunked" and not cell.get("code") else f"{cell['status']}: {cell['code']}"
    )
    if "peak_mb" not in cell:
        return f"| {fmt} | {real_mb:.1f} | {cell.get('seconds', '–')} | – | – | – | {outcome} |"
    seconds, peak, base = float(cell["seconds"]), float(cell["peak_mb"]), float(cell["baseline_mb"])  # type: ignore[arg-type]
    return (
        f"| {fmt} | {real_mb:.1f} | {seconds:.1f} | {seconds / real_mb:.2f} | {peak:.0f} | "
        f"{(peak - base) / real_mb:.0f} | {outcome} |"
    )


SIZES, FORMAT_NAMES = [1, 10, 100], list(FORMATS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--formats", nargs="+", default=FORMAT_NAMES)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.one:
        one(args.one)
        return
    report = Report("scaling")
    print("| format | input MB | seconds | s/MB | peak RSS MB | (peak − baseline) per input MB | outcome |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.formats:
            for mb in args.sizes:
                path = Path(folder) / f"input.{fmt}"
                path.write_bytes(FORMATS[fmt](mb * 1_000_000))
                real_mb = path.stat().st_size / 1e6
                cell = {"input_mb": round(real_mb, 2), **measure(path)}
                corpus = f"{fmt} {mb} MB (generated)"
                report.add("parsegate worker path", corpus, "seconds", cell.get("seconds"), "s", statistic="one run")
                report.add("parsegate worker path", corpus, "peak_mb", cell.get("peak_mb"), "MB")
                report.details.setdefault("cells", {})[f"{fmt} {mb}"] = cell
                print(row(fmt, real_mb, cell), flush=True)
                path.unlink()
    report.details["limits"] = {"seconds": SECONDS, "memory_bytes": MEMORY}
    whole = args.sizes == SIZES and args.formats == FORMAT_NAMES
    print(f"written to {report.write(args.out or (None if whole else harness.RESULTS / 'scaling.partial.tmp'))}")


if __name__ == "__main__":
    main()
