"""An optional mypyc build of the chunking hot path (pyproject.toml holds everything else).

Without PARSEGATE_MYPYC=1 this adds nothing: the package stays pure Python, as ``pip install -e .``
(dev.sh) installs it. With it, the modules below are compiled to C extensions by mypyc (it ships
with mypy; a C compiler is needed), and Python imports the .so before the .py next to it:

    PARSEGATE_MYPYC=1 .venv/bin/python setup.py build_ext --inplace   # in a checkout
    PARSEGATE_MYPYC=1 pip install --no-build-isolation .               # a wheel (mypy installed)

benchmarks/mypyc_speed.py measures what it gives; the output is byte-identical (dump_records.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup

# The Markdown parse + structural chunk path, profiled on the fastapi docs (benchmarks/mypyc_speed.py).
# Compiled classes cannot be monkeypatched, given new attributes or subclassed in Python. Left out:
# parsers/model.py (the public Document model; the PDF parser subclasses its TextBuilder, mypyc
# makes its dataclass ClassVars fields, and compiling it measured no faster).
COMPILED = [
    "parsegate/chunkers/blocks.py",
    "parsegate/chunkers/boundaries.py",
    "parsegate/chunkers/budget.py",
    "parsegate/chunkers/chunk.py",
    "parsegate/chunkers/context.py",
    "parsegate/chunkers/kinds.py",
    "parsegate/chunkers/packing.py",
    "parsegate/chunkers/records.py",
    "parsegate/chunkers/sentences.py",
    "parsegate/chunkers/structural.py",
    "parsegate/chunkers/tokens.py",
    "parsegate/chunkers/units.py",
    "parsegate/chunkers/wordpieces.py",
    "parsegate/parsers/build.py",
    "parsegate/parsers/flat_tables.py",
    "parsegate/parsers/headings.py",
    "parsegate/parsers/markdown.py",
    "parsegate/parsers/markdown_it_walk.py",
    "parsegate/parsers/markdown_pyromark.py",
]


def ext_modules() -> list[object]:
    if os.environ.get("PARSEGATE_MYPYC") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # pip's isolated build environment holds setuptools alone
        raise SystemExit(
            "PARSEGATE_MYPYC=1 needs mypy (which ships mypyc) where the build runs: install mypy, then"
            " pip install --no-build-isolation ."
        ) from None

    only = os.environ.get("PARSEGATE_MYPYC_ONLY")  # a comma-separated subset, to measure one module's share
    paths = [p for p in COMPILED if not only or any(p.endswith(f"/{m}.py") for m in only.split(","))]
    _stamp(paths)
    return list(mypycify(paths, opt_level="3", group_name="parsegate"))


def _stamp(paths: list[str]) -> None:
    """What the build compiled, by content: parsegate warns at import when a source changed since
    (Python would run the compiled module and ignore the edit; parsegate/_compiled.py)."""
    digests = {p.removeprefix("parsegate/"): hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in paths}
    with open("parsegate/_compiled.json", "w") as out:
        json.dump(digests, out, indent=1, sort_keys=True)


setup(ext_modules=ext_modules())
