"""``parsegate run`` and ``parsegate gate``: the command line's side of runner.run_corpus and
runner.regate — flags into RunSettings, a progress bar, the summary, the exit status."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import click

from parsegate.cli.params import (
    PATH,
    allow_over_model_max,
    chunk_config,
    chunking_options,
    gate_options,
    load_gate,
    ocr_office_images_option,
    parse_options,
    password_option,
)
from parsegate.errors import CommandError


@click.command("run")
@click.argument("corpus", type=PATH)
@click.option(
    "--out",
    "-o",
    type=PATH,
    required=True,
    help="Output folder: chunks.jsonl (documents that passed the gate), quarantine.jsonl (everything else, "
    "with reasons), run.json, report.json, report.html. A previous run there is moved to OUTDIR/history/, "
    "never overwritten. While the run works, finished documents are in *.partial files.",
)
@chunking_options
@allow_over_model_max
@click.option(
    "--workers",
    "-w",
    type=int,
    default=0,
    help="Worker processes. Default (0): as many as the corpus is worth, up to all cores (one for a handful "
    "of small files).",
)
@click.option(
    "--glob",
    "-g",
    multiple=True,
    help="Only files whose name matches this pattern (repeatable), e.g. '*.md'. Default: every file; files "
    "no parser reads are quarantined as unsupported.",
)
@click.option(
    "--exclude",
    "-x",
    multiple=True,
    help="Leave out paths matching this gitignore-style pattern, relative to the corpus folder (repeatable), "
    "e.g. '*.css', 'node_modules/', 'docs/old/'. The corpus's .gitignore files are honoured too, and "
    "__pycache__, version-control and virtualenv folders and binary files no parser claims are always left "
    "out; run.json counts each with its reason.",
)
@click.option("--no-gitignore", is_flag=True, help="Read files that the corpus's .gitignore files ignore.")
@gate_options
@click.option(
    "--gate-sample",
    type=click.FloatRange(0.0, 1.0),
    default=1.0,
    show_default=True,
    metavar="FRACTION",
    help="Take the gate's expensive reference (docling's own export of Office files and web pages, which "
    "costs about the parse for an Office file and 18x the parse and chunk for a web page) on this fraction "
    "of the documents only, a seeded sample by document id (the same documents in every run, with any "
    "number of workers); every check with a cheap reference is measured on every document. Outside the "
    "sample a web page is checked against libxml2's reading alone, and an Office document's localization "
    "and extraction recall are reported not measured (never passed); so is the OCR recall of a scanned "
    "document, whose second OCR reading (RapidOCR: about 6 CPU-seconds a page) is taken in the sample only. "
    "report.json, report.html and run.json say which reference measured each document. 1: every document.",
)
@click.option(
    "--gate-seed",
    type=int,
    default=0,
    show_default=True,
    help="The seed of --gate-sample's sample: another seed, other documents.",
)
@click.option("--allow-empty", is_flag=True, help="A run with no document to read passes (by default it fails).")
@password_option
@ocr_office_images_option
@click.option(
    "--include-hidden",
    is_flag=True,
    help="Also read hidden files and folders (.git, .venv, …), which are left out by default; run.json "
    "counts what was left out and why.",
)
@click.option(
    "--follow-symlinks",
    is_flag=True,
    help="Follow symlinks whose target lies outside the corpus (by default they are left out and counted).",
)
@click.option(
    "--root",
    type=PATH,
    help="Document ids are paths relative to this folder (default: the corpus folder, or a single file's "
    "folder), so a sub-folder run alone gives the same ids as the whole corpus.",
)
@click.option(
    "--time-limit",
    multiple=True,
    metavar="[FORMAT=]SECONDS",
    help="Wall-clock seconds per document (default 120), or FORMAT=SECONDS for one format: a suffix (html, "
    "pdf, docx, md…) or a parser (office, pdf, markdown, text, code). Repeatable. A document over its limit "
    "is stopped (its worker killed) and fails as 'timeout'. 0: no limit.",
)
@click.option(
    "--memory-limit",
    type=int,
    default=2048,
    show_default=True,
    help="Address space per worker process in MB (RLIMIT_AS; 0: no limit). A document that needs more "
    "fails as 'memory'.",
)
@click.option(
    "--store",
    type=PATH,
    help="The chunk store (SQLite) the run records into and reuses from: a file whose content hash the same "
    "configuration has read is not parsed again. Default: .parsegate/store.sqlite beside OUTDIR.",
)
@click.option("--no-store", is_flag=True, help="Record nothing, reuse nothing: parse every file.")
@click.option(
    "--engine",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where documents are parsed: 'local' (worker processes on this machine) or 'ray' (Ray actors: a local "
    "Ray instance with --workers CPUs, or the cluster at --ray-address). Same outputs either way. 'ray' needs "
    "the ray extra: pip install 'parsegate[ray]'.",
)
@click.option(
    "--ray-address",
    envvar="RAY_ADDRESS",
    help="With --engine ray: an existing Ray cluster (e.g. ray://head:10001, or 'auto' on a cluster node). "
    "Default: start a local Ray instance for this run.",
)
@click.option(
    "--output-format",
    "-F",
    type=click.Choice(["jsonl", "parquet"]),
    default="jsonl",
    help="'parquet' also writes OUTDIR/chunks.parquet (pyarrow: the parquet extra; the columns of 'parsegate "
    "export --format parquet'); chunks.jsonl is always written ('gate' re-reads it).",
)
def run_command(corpus: Path, out: Path, **given: Any) -> int:
    """Parse, chunk and gate every file under CORPUS into OUTDIR.

    CORPUS is a folder (searched recursively) or one file. Documents that pass the quality gate go
    to chunks.jsonl; documents that fail it, files that fail to parse and files no parser reads go
    to quarantine.jsonl with every reason. Exit status 1 when the gate fails (more than
    max_failed_share of the documents failed, or no document at all), 2 for a usage or output
    error, 130 when interrupted (Ctrl-C, SIGTERM)."""
    from parsegate.cli import console
    from parsegate.quality_gates.sample import GateSample
    from parsegate.runner.run import run_corpus
    from parsegate.runner.settings import RunSettings

    settings = RunSettings(
        corpus=corpus,
        out=out,
        chunking=chunk_config(given),
        gate=load_gate(given["gate_file"], given["overrides"]),
        gate_sample=GateSample(given["gate_sample"], given["gate_seed"]),
        parsing=parse_options(given["password"], given["ocr_office_images"]),
        glob=tuple(given["glob"]) or ("*",),
        exclude=tuple(given["exclude"]),
        gitignore=not given["no_gitignore"],
        include_hidden=given["include_hidden"],
        follow_symlinks=given["follow_symlinks"],
        root=given["root"],
        workers=given["workers"],
        limits=parse_limits(given["time_limit"], given["memory_limit"]),
        store=given["store"],
        use_store=not given["no_store"],
        engine=given["engine"],
        ray_address=given["ray_address"],
        output_format=given["output_format"],
        allow_failures=given["allow_failures"],
        allow_empty=given["allow_empty"],
        allow_over_model_max=given["allow_over_model_max"],
    )
    bar = console.ProgressBar()
    try:
        with sigterm_as_interrupt():
            result = run_corpus(settings, bar)
    finally:
        bar.stop()
    console.print_run(result)
    return result.exit_code


@click.command("gate")
@click.argument("outdir", type=PATH)
@gate_options
def gate_command(outdir: Path, gate_file: Path | None, overrides: tuple[str, ...], allow_failures: bool) -> int:
    """Re-evaluate an earlier run under other thresholds, without parsing again.

    OUTDIR is the --out folder of an earlier 'parsegate run'. Documents move between chunks.jsonl
    and quarantine.jsonl as the new verdicts say; the run's previous outputs move to
    OUTDIR/history/."""
    from parsegate.cli import console
    from parsegate.runner.regate import regate

    result = regate(outdir, load_gate(gate_file, overrides), allow_failures)
    console.print_run(result)
    return result.exit_code


def parse_limits(time_limit: tuple[str, ...], memory_limit: int) -> Any:
    from parsegate.engines.base import Limits

    seconds, per_format = 120.0, []
    for item in time_limit:
        key, _, value = item.rpartition("=")
        try:
            number = float(value)
        except ValueError:
            raise CommandError(f"--time-limit {item}: expected SECONDS or FORMAT=SECONDS (e.g. 120, pdf=600)") from None
        if key:
            per_format.append((key.lower().lstrip("."), number))
        else:
            seconds = number
    return Limits(seconds, tuple(per_format), memory_limit)


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (what `timeout`, CI and service managers send) stops a run like Ctrl-C does."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
