"""report.html: one self-contained page (template.html), the report's data in it as JSON, and the
rows of its metric tables, their labels and thresholds taken from the table of checks."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from parsegate.quality_gates.checks import BY_METRIC

# The page's metric rows after the count of chunks (which it shows as a count, without its
# threshold), in the order the page has always shown them: it lists neither context share nor
# the rows in the table's order, so that report.html stays what it was. Listed by metric only.
PAGE_ROWS = (
    "empty_chunk_rate",
    "short_chunk_rate",
    "heading_inheritance",
    "table_header_coverage",
    "localization",
    "budget_compliance",
    "largest_chunk_tokens",
    "duplicate_rate",
    "text_coverage",
    "overhead",
    "extraction_recall",
    "token_count_accuracy",
    "code_overlaps",
    "code_parse",
    "code_whole_definitions",
    "code_with_context",
)


def page_rows() -> list[tuple[str, str, str | None]]:
    """(metric, label, threshold field) of each row of the page's metric tables."""
    rows: list[tuple[str, str, str | None]] = [("chunks", BY_METRIC["chunks"].label or "chunks", None)]
    for metric in PAGE_ROWS:
        check = BY_METRIC[metric]
        rows.append((metric, check.label or metric, check.limit.name if check.limit else None))
    return rows


def _script(value: str) -> str:
    """JSON inside a <script> block: no "<" may reach the HTML parser ("</script>" would end it)."""
    return value.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def _template() -> str:
    """The page with its rows written in, two to a line."""
    page = resources.files("parsegate.quality_gates.report").joinpath("template.html").read_text(encoding="utf-8")
    rows = [json.dumps(list(row)) for row in page_rows()]
    lines = ["  " + ", ".join(rows[i : i + 2]) + "," for i in range(0, len(rows), 2)]
    return page.replace("/*__METRICS__*/null", _script("[\n" + "\n".join(lines) + "\n]"))


def render_html(report: dict[str, Any], details: dict[str, dict[str, Any]]) -> str:
    """One self-contained page: the report, and for the documents in ``details`` their source
    text (when available) and chunk spans. Data travels as JSON; the page builds its DOM with
    textContent, so document text can never become markup."""
    payload = _script(json.dumps({"report": report, "details": details}, ensure_ascii=False))
    return _template().replace("/*__DATA__*/null", payload)
