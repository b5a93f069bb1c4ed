"""Start-up: parsing one PDF imports the PDF parser only, and pdfplumber's table code only for a
page with rules (`parsegate parse one.pdf` used to import every parser and pdfminer)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from parsegate.parsers import registry
from tests.conftest import GOLDEN

PROBE = """
import json, sys
from pathlib import Path
from parsegate.parsers.registry import parse_file
parse_file(Path(sys.argv[1]))
heavy = ("markdown_it", "tree_sitter", "tree_sitter_language_pack", "docling", "pdfminer", "pdfplumber")
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def imported_after_parsing(path: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, path], capture_output=True, text=True, check=True)
    result: list[str] = json.loads(done.stdout)
    return result


def test_a_pdf_without_rules_imports_no_other_parser_and_no_pdfminer() -> None:
    assert imported_after_parsing(str(GOLDEN / "pdf" / "footnote" / "input.pdf")) == []


def test_a_pdf_with_a_ruled_table_imports_pdfplumber_and_still_no_other_parser() -> None:
    imported = imported_after_parsing(str(GOLDEN / "pdf" / "table-two-pages" / "input.pdf"))
    assert imported == ["pdfminer", "pdfplumber"]


@pytest.mark.parametrize("builtin", registry._BUILTIN, ids=lambda p: p.NAME)
def test_the_registry_knows_each_builtin_parser_by_its_own_name_and_suffixes(builtin: registry.Parser) -> None:
    module = importlib.import_module(f"parsegate.parsers.{builtin.NAME}")
    assert (builtin.NAME, builtin.SUFFIXES) == (module.NAME, module.SUFFIXES)
    assert builtin.VERSION == module.VERSION
