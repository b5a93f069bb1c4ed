"""Our own golden cases: golden_docs/<format>/<case>/ checked by the same code as
`parsegate golden check` (parsegate.golden).

Expected outputs are rewritten only on purpose, after reading the diff:
`parsegate golden update` (shows the diff, asks), or for the test suite
PARSEGATE_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden/test_golden.py. Both are refused in CI.
"""

from __future__ import annotations

import os
from pathlib import Path

from parsegate.golden.cases import Case, discover

REGENERATE_FLAG = "PARSEGATE_REGENERATE_GOLDEN"
GOLDEN = Path(__file__).resolve().parent.parent / "golden_docs"


def cases() -> list[Case]:
    return discover(GOLDEN)


def regenerate_requested() -> bool:
    return os.environ.get(REGENERATE_FLAG) == "1"
