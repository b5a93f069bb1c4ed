"""The opt-in mypyc build's stamp: an edit to a compiled module's source after the build is
reported at import (Python would run the compiled code and ignore the edit)."""

from __future__ import annotations

import hashlib
import json
import warnings

import pytest

from parsegate import _compiled


@pytest.fixture
def built(tmp_path, monkeypatch):
    (tmp_path / "chunkers").mkdir()
    source = tmp_path / "chunkers" / "packing.py"
    source.write_text("X = 1\n")
    stamp = tmp_path / "_compiled.json"
    stamp.write_text(json.dumps({"chunkers/packing.py": hashlib.sha256(source.read_bytes()).hexdigest()}))
    monkeypatch.setattr(_compiled, "_HERE", str(tmp_path))
    monkeypatch.setattr(_compiled, "_STAMP", str(stamp))
    return source


def test_a_build_that_matches_its_sources_says_nothing(built) -> None:
    assert _compiled.stale_sources() == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _compiled.warn_if_stale()


def test_a_source_edited_after_the_build_is_named(built) -> None:
    built.write_text("X = 2\n")
    assert _compiled.stale_sources() == ["chunkers/packing.py"]
    with pytest.warns(RuntimeWarning, match=r"older than 1 of its sources \(chunkers/packing.py\).*dev.sh compile"):
        _compiled.warn_if_stale()


def test_no_build_no_stamp_nothing_read(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(_compiled, "_STAMP", str(tmp_path / "_compiled.json"))
    assert _compiled.stale_sources() == []
