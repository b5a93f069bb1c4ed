"""Whether the opt-in mypyc build (setup.py, PARSEGATE_MYPYC=1) still matches its sources.

Python imports a module's compiled extension before the .py beside it, so after an edit to a
compiled module the old compiled code runs and the edit is silently ignored. The build writes
the sources' SHA-256 to _compiled.json; on import, a source that no longer matches gets a
warning that says how to rebuild or go back to pure Python. Without a build there is no stamp
and nothing is read.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings

_HERE = os.path.dirname(__file__)
_STAMP = os.path.join(_HERE, "_compiled.json")


def stale_sources() -> list[str]:
    """The compiled modules whose source changed since the build (none without a build)."""
    try:
        with open(_STAMP, encoding="utf-8") as f:
            built: dict[str, str] = json.load(f)
    except (OSError, ValueError):
        return []
    stale = []
    for name, digest in sorted(built.items()):
        try:
            with open(os.path.join(_HERE, name), "rb") as source:
                if hashlib.sha256(source.read()).hexdigest() != digest:
                    stale.append(name)
        except OSError:
            continue  # a wheel may ship the compiled module alone
    return stale


def warn_if_stale() -> None:
    stale = stale_sources()
    if stale:
        warnings.warn(
            f"parsegate's compiled build is older than {len(stale)} of its sources ({', '.join(stale[:3])}"
            f"{', ...' if len(stale) > 3 else ''}): Python runs the compiled code, not the edit. "
            "Rebuild with './dev.sh compile', or remove the build with './dev.sh pure'.",
            RuntimeWarning,
            stacklevel=3,
        )
