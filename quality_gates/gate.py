"""Thresholds → verdicts. A document passes when every applicable check passes; a run
passes when no more than ``max_failed_share`` of its documents failed.

Thresholds come from ``parsegate.toml`` (table ``[gate]``) or ``pyproject.toml`` (table
``[tool.parsegate.gate]``), with per-format tables beneath (``[gate.text]``), and from
``--set key=value`` / ``--set format.key=value`` on the command line, in that order.
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from parsegate.quality_gates.facts import MAX_FAULTS
from parsegate.quality_gates.metrics import DocFacts, not_measured, rates, short_chunks


class GateConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Thresholds:
    min_chunks: int = 1  # a document that yields no chunk is quarantined, not silently absent
    max_empty_chunk_rate: float = 0.0
    short_chunk_tokens: int = 8  # a chunk under this many tokens (of its text) is abnormally short...
    max_short_chunk_rate: float = 0.25  # ...in a document with more than one chunk
    min_heading_inheritance: float = 0.95
    min_table_header_coverage: float = 1.0
    min_localization: float = 1.0
    min_budget_compliance: float = 1.0
    min_token_count_accuracy: float = 1.0  # the record's ``tokens`` equals the real count
    max_duplicate_rate: float = 0.1  # per document, and over the whole run (run level)
    min_text_coverage: float = 0.99
    min_extraction_recall: float = 0.99
    max_code_overlaps: int = 0
    min_code_parse: float = 1.0
    max_overhead: float | None = None  # index size cap (overlap raises it); off by default
    max_context_share: float | None = None  # of embedded tokens spent on context prefixes; off by default
    fail_on_warnings: tuple[str, ...] = ()  # warning codes that fail a document, e.g. needs_ocr
    max_failed_share: float = 0.0  # run level: share of documents that may fail before the run fails


# (metric, comparison, threshold field). A metric that does not apply (None) passes.
CHECKS: tuple[tuple[str, str, str], ...] = (
    ("chunks", ">=", "min_chunks"),
    ("empty_chunk_rate", "<=", "max_empty_chunk_rate"),
    ("short_chunk_rate", "<=", "max_short_chunk_rate"),
    ("heading_inheritance", ">=", "min_heading_inheritance"),
    ("table_header_coverage", ">=", "min_table_header_coverage"),
    ("localization", ">=", "min_localization"),
    ("budget_compliance", ">=", "min_budget_compliance"),
    ("token_count_accuracy", ">=", "min_token_count_accuracy"),
    ("duplicate_rate", "<=", "max_duplicate_rate"),
    ("text_coverage", ">=", "min_text_coverage"),
    ("extraction_recall", ">=", "min_extraction_recall"),
    ("code_overlaps", "<=", "max_code_overlaps"),
    ("code_parse", ">=", "min_code_parse"),
    ("overhead", "<=", "max_overhead"),
    ("context_share", "<=", "max_context_share"),
)
# Run level: checks over all documents of a run together.
RUN_CHECKS: tuple[tuple[str, str, str], ...] = (("duplicate_rate", "<=", "max_duplicate_rate"),)
# Which check's faults (DocFacts.faults) show the chunks and spans behind each metric.
FAULTS = {
    "empty_chunk_rate": "empty",
    "text_coverage": "text_coverage",
    "localization": "localization",
    "heading_inheritance": "heading_inheritance",
    "budget_compliance": "budget",
    "token_count_accuracy": "token_count",
    "duplicate_rate": "duplicates",
    "extraction_recall": "extraction_recall",
    "code_overlaps": "code_overlaps",
    "code_parse": "code_parse",
    "table_header_coverage": "table_header",
}


@dataclass(frozen=True)
class GateConfig:
    default: Thresholds = field(default_factory=Thresholds)
    formats: dict[str, Thresholds] = field(default_factory=dict)
    source: str = "built-in defaults"

    def for_format(self, fmt: str) -> Thresholds:
        return self.formats.get(fmt, self.default)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "default": asdict(self.default),
            "formats": {k: asdict(v) for k, v in sorted(self.formats.items())},
        }


@dataclass
class Check:
    check: str
    metric: str
    value: float | int | None
    threshold: float | int | None
    passed: bool
    faults: list[dict[str, Any]] = field(default_factory=list)  # the chunks and spans at fault


@dataclass
class Verdict:
    doc_id: str
    format: str
    passed: bool
    metrics: dict[str, float | int | None]
    checks: list[Check]
    not_measured: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "format": self.format,
            "verdict": "pass" if self.passed else "fail",
            "metrics": self.metrics,
            "failed_checks": [asdict(c) for c in self.failed],
            "not_measured": self.not_measured,
        }


def evaluate(facts: DocFacts, thresholds: Thresholds) -> Verdict:
    metrics = rates(facts, thresholds.short_chunk_tokens)
    checks = []
    for metric, op, name in CHECKS:
        limit = getattr(thresholds, name)
        value = metrics.get(metric)
        if limit is None or value is None:
            continue
        ok = value >= limit if op == ">=" else value <= limit
        faults = [] if ok else facts.faults.get(FAULTS.get(metric, ""), [])
        if not ok and metric == "short_chunk_rate":
            faults = _short_faults(facts, thresholds.short_chunk_tokens)
        checks.append(Check(name, metric, value, limit, ok, faults))
    for code in thresholds.fail_on_warnings:
        count = facts.warnings.get(code, 0)
        checks.append(Check("fail_on_warnings", f"warnings.{code}", count, 0, count == 0))
    passed = all(c.passed for c in checks)
    return Verdict(facts.doc_id, facts.format, passed, metrics, checks, not_measured(facts))


def _short_faults(facts: DocFacts, limit: int) -> list[dict[str, Any]]:
    short = short_chunks(facts, limit)
    return [{"chunk_index": i, "why": f"{t} tokens of text (under {limit})"} for i, t in short[:MAX_FAULTS]]


def run_checks(overall: dict[str, float | int | None], thresholds: Thresholds) -> list[Check]:
    """Checks of the run as a whole (say, the same text embedded from four copies of a file)."""
    out = []
    for metric, op, name in RUN_CHECKS:
        limit, value = getattr(thresholds, name), overall.get(metric)
        if limit is None or value is None:
            continue
        out.append(Check(name, f"run.{metric}", value, limit, value >= limit if op == ">=" else value <= limit))
    return out


def run_passes(failed_docs: int, total_docs: int, thresholds: Thresholds, checks: list[Check] | None = None) -> bool:
    """A run passes when no more than max_failed_share of its documents failed and every
    run-level check passes."""
    share_ok = total_docs == 0 or failed_docs / total_docs <= thresholds.max_failed_share
    return share_ok and all(c.passed for c in checks or [])


# -- configuration ---------------------------------------------------------------------


# The formats a document can have (Document.format), for per-format thresholds: a table for
# another name (a typo such as [gate.markdwn]) would never apply, so it is refused.
FORMATS = frozenset(
    {"markdown", "text", "code", "pdf", "docx", "pptx", "xlsx", "html", "docling"}
    | {"doc", "dot", "rtf", "odt", "ppt", "pps", "odp", "xls", "ods"}  # converted by LibreOffice, named as given
)


def _coerce(name: str, value: Any) -> Any:
    kinds = {f.name: f.type for f in fields(Thresholds)}
    if name not in kinds:
        known = ", ".join(sorted(kinds))
        raise GateConfigError(f"unknown gate threshold '{name}' (known: {known})")
    kind = str(kinds[name])
    if "tuple" in kind:
        items = value.split(",") if isinstance(value, str) else list(value)
        return tuple(str(v).strip() for v in items if str(v).strip())
    if value in (None, "none", "off"):
        if "None" not in kind:
            raise GateConfigError(f"gate threshold '{name}' cannot be switched off")
        return None
    try:
        return int(value) if kind.startswith("int") else float(value)
    except (TypeError, ValueError):
        raise GateConfigError(f"gate threshold '{name}' must be a number, got {value!r}") from None


def _apply(base: Thresholds, table: dict[str, Any]) -> Thresholds:
    return replace(base, **{k: _coerce(k, v) for k, v in table.items() if not isinstance(v, dict)})


def load_gate_config(directory: Path, explicit: Path | None = None, overrides: list[str] | None = None) -> GateConfig:
    """Thresholds from an explicit file, else parsegate.toml or pyproject.toml in ``directory``."""
    table: dict[str, Any] = {}
    source = "built-in defaults"
    candidates = [explicit] if explicit else [directory / "parsegate.toml", directory / "pyproject.toml"]
    for path in candidates:
        if path is None or not path.is_file():
            if explicit:
                raise GateConfigError(f"{explicit}: no such config file")
            continue
        try:
            data = tomllib.loads(path.read_text())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise GateConfigError(f"{path}: not valid TOML: {exc}") from None
        found = data.get("tool", {}).get("parsegate", {}) if path.name == "pyproject.toml" else data
        # A table parsegate does not read (say [chunk]) is a mistake to name, not to ignore.
        unknown = sorted(set(found) - {"gate"})
        if unknown:
            where = "[tool.parsegate] in " if path.name == "pyproject.toml" else ""
            raise GateConfigError(
                f"{path}: unknown table or key {', '.join(map(repr, unknown))} in {where}the config "
                "(parsegate reads only [gate])"
            )
        if "gate" in found or explicit:
            table, source = found.get("gate", {}), str(path)
            break
    for item in overrides or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise GateConfigError(f"--set takes key=value or format.key=value, got '{item}'")
        scope, _, name = key.strip().rpartition(".")
        target = table.setdefault(scope, {}) if scope else table
        target[name] = value.strip()
        source += " + --set"
    default = _apply(Thresholds(), table)
    formats = {fmt: _apply(default, sub) for fmt, sub in table.items() if isinstance(sub, dict)}
    unknown_formats = sorted(set(formats) - FORMATS)
    if unknown_formats:
        raise GateConfigError(
            f"unknown format {', '.join(map(repr, unknown_formats))} for gate thresholds in {source} "
            f"(formats: {', '.join(sorted(FORMATS))})"
        )
    return GateConfig(default, formats, source)
