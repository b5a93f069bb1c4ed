"""Every name of a store takes the same lock (issue 39): a hard link to the store file bypassed its
lock (the lock was a file named after the path), and the store afterwards read "database disk image
is malformed"; a symlink got a lock of its own too."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from parsegate.store.schema import StoreError, StoreLock, connect


@pytest.mark.parametrize("link", [os.link, os.symlink])
def test_a_second_name_of_the_store_is_refused_while_the_first_holds_it(link, tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    connect(store).close()
    other = tmp_path / "elsewhere" / "alias.sqlite"
    other.parent.mkdir()
    link(store, other)
    refused = r"is in use by another parsegate run \((pid |holder unknown)"
    with StoreLock(store, "run"), pytest.raises(StoreError, match=refused):
        StoreLock(other, "run").__enter__()
    with StoreLock(other, "run"):  # released: the other name takes it now
        pass


def test_retire_on_a_store_that_is_not_there_makes_none(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    with pytest.raises(StoreError, match="no store here"):
        StoreLock(missing, "retire", create=False).__enter__()
    assert not missing.exists()
