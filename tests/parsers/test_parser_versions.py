"""parsers.versions gives each built-in parser's VERSION without importing it (a run names every
parser's version in its chunk set id): it must be the module's own, or chunk ids would change
with whether a module happened to be imported."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from importlib.metadata import PackageNotFoundError

import pytest

from parsegate.parsers import registry, versions

NAMES = [p.NAME for p in registry._BUILTIN]


def test_every_light_version_is_the_modules_own_version() -> None:
    """In a fresh interpreter, the light versions before any parser is imported."""
    script = (
        "import importlib, json\n"
        "from parsegate.parsers import versions\n"
        f"names = {NAMES!r}\n"
        "light = {n: versions.light_version(n) for n in names}\n"
        "own = {n: importlib.import_module(f'parsegate.parsers.{n}').VERSION for n in names}\n"
        "print(json.dumps([light, own]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    light, own = json.loads(done.stdout)
    assert light == own
    assert (
        own["markdown"] == f"{versions.OUTPUT_VERSIONS['markdown']}+markdown-it-py/{versions.version('markdown-it-py')}"
    )


def test_each_parser_takes_its_output_version_from_the_one_table() -> None:
    for name in NAMES:
        module = importlib.import_module(f"parsegate.parsers.{name}")
        assert versions.OUTPUT_VERSIONS[name] == module.OUTPUT_VERSION
        assert str(module.VERSION).startswith(str(versions.OUTPUT_VERSIONS[name]))


def test_the_registry_names_versions_without_importing_a_parser() -> None:
    script = (
        "import sys\n"
        "from parsegate.parsers.registry import parsers\n"
        "[p.VERSION for p in parsers()]\n"
        "print(sorted(m for m in sys.modules if m.split('.')[:3] in (['parsegate', 'parsers', n] for n in "
        f"{NAMES!r})))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_parser_whose_library_is_missing_falls_back_to_the_import(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(package: str) -> str:
        raise PackageNotFoundError(package)

    monkeypatch.setattr(versions, "version", missing)
    assert versions.light_version("pdf") is None
    assert versions.light_version("text") == str(versions.OUTPUT_VERSIONS["text"])
