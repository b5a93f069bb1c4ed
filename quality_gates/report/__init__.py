"""Reports people can read: report.json (``build``), a single self-contained report.html
(``html``, with PDF pages drawn by ``pages``), and the gate's table as plain rows (``rows``) for a
terminal to print (parsegate/cli/gate_table.py: the library prints nothing)."""

from __future__ import annotations

from parsegate.quality_gates.report.build import REPORT_SCHEMA, build_report
from parsegate.quality_gates.report.html import render_html

__all__ = ["REPORT_SCHEMA", "build_report", "render_html"]
