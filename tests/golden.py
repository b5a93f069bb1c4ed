"""Our own golden cases: golden_docs/<format>/<case>/ checked by the same code as
`parsegate golden check` (parsegate.golden).

Expected outputs are rewritten only on purpose, after reading the diff:
`parsegate golden update` (shows the diff, asks), or for the test suite
PARSEGATE_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/golden/test_golden.py. Both are refused in CI.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parsegate.golden.cases import Case, discover

REGENERATE_FLAG = "PARSEGATE_REGENERATE_GOLDEN"
GOLDEN = Path(__file__).resolve().parent.parent / "golden_docs"


def cases() -> list[Case]:
    return discover(GOLDEN)


def regenerate_requested() -> bool:
    return os.environ.get(REGENERATE_FLAG) == "1"


# -- a golden tree of copies, for the tests of `parsegate golden` itself -------------------------

POLICY = "markdown/policy-exception"
CHAT = "text/chat-transcript"


def golden_copies(folder: Path) -> Path:
    """A golden tree holding copies of two of our cases, at the same relative paths (so the
    same document ids, hence the same chunk ids)."""
    for name in (POLICY, CHAT):
        shutil.copytree(GOLDEN / name, folder / name)
    return folder


def case(root: Path, name: str) -> Case:
    return next(c for c in discover(root) if c.name == name)


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))
