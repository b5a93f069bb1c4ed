"""The same input gives the same bytes on every run: nothing an output holds may depend on the
interpreter's string-hash seed (set order, dict order of a set's items), which changes per run."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import GOLDEN

# Every golden input through the worker's path (parse, chunk, gate), its outcome and its lines,
# without the wall time.
_SCRIPT = """
import sys
from pathlib import Path
import orjson
from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.engines.work import outcome_dict, process

root = Path(sys.argv[1])
chunker = Chunker(ChunkConfig(max_tokens=64))
for path in sorted(root.rglob("input.*")):
    outcome, lines = process(path, path.relative_to(root).as_posix(), chunker)
    record = outcome_dict(outcome)
    record.pop("seconds", None)
    sys.stdout.buffer.write(orjson.dumps(record) + b"\\n" + b"\\n".join(lines) + b"\\n")
"""


def _outputs(seed: str, root: str) -> bytes:
    env = {"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", _SCRIPT, root], capture_output=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout


def test_outcomes_and_chunks_do_not_depend_on_the_hash_seed() -> None:
    """Golden inputs of every format at a small budget (faults in the gate's checks, context lines
    that do not all fit): a fault named from a set differed between runs before (in code)."""
    for folder in ("code", "text", "markdown", "pdf", "office"):
        first, second = _outputs("1", str(GOLDEN / folder)), _outputs("2", str(GOLDEN / folder))
        assert first and first == second, folder
