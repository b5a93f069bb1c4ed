"""Thresholds: one field per check's threshold (and parameter) in the table of checks, and the
run's own ``max_failed_share``; a document passes when every applicable check passes, a run when
no more than ``max_failed_share`` of its documents failed.

Thresholds come from ``parsegate.toml`` (table ``[gate]``) or ``pyproject.toml`` (table
``[tool.parsegate.gate]``), with per-format tables beneath (``[gate.text]``), and from
``--set key=value`` / ``--set format.key=value`` on the command line, in that order.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsegate.parsers.formats import all_formats
from parsegate.quality_gates.checks import LIMITS
from parsegate.quality_gates.checks.base import Limit

# Run level: the share of documents that may fail before the run fails.
FAILED_SHARE = Limit("max_failed_share", 0.0)
FIELDS: dict[str, Limit] = {limit.name: limit for limit in (*LIMITS, FAILED_SHARE)}


class GateConfigError(ValueError):
    pass


class Thresholds:
    """Every field of the table of checks, by name (``Thresholds(max_short_chunk_rate=0.4)``,
    ``thresholds.max_short_chunk_rate``); frozen."""

    def __init__(self, **values: Any) -> None:
        unknown = sorted(set(values) - FIELDS.keys())
        if unknown:
            raise TypeError(f"Thresholds has no field {', '.join(map(repr, unknown))}")
        # The fields are the instance's own attributes (read at attribute speed; set only here).
        self.__dict__.update({name: values.get(name, f.default) for name, f in FIELDS.items()})

    def __getattr__(self, name: str) -> Any:  # only for a name that is no field
        raise AttributeError(f"Thresholds has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Thresholds are frozen: use replace()")

    def __reduce__(self) -> tuple[Any, ...]:
        return _thresholds, (self.to_dict(),)

    def __getitem__(self, name: str) -> Any:
        return self.__dict__[name]

    def replace(self, **changes: Any) -> Thresholds:
        return Thresholds(**{**self.__dict__, **changes})

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Thresholds) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.items()))

    def __repr__(self) -> str:
        return "Thresholds(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()) + ")"


def _thresholds(values: dict[str, Any]) -> Thresholds:
    return Thresholds(**values)


@dataclass(frozen=True)
class GateConfig:
    default: Thresholds = field(default_factory=Thresholds)
    formats: dict[str, Thresholds] = field(default_factory=dict)
    source: str = "built-in defaults"

    def for_format(self, fmt: str) -> Thresholds:
        return self.formats.get(fmt, self.default)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "default": self.default.to_dict(),
            "formats": {k: v.to_dict() for k, v in sorted(self.formats.items())},
        }


# The formats a document can have (Document.format), for per-format thresholds: a table for
# another name (a typo such as [gate.markdwn]) would never apply, so it is refused.
FORMATS = all_formats()  # parsers/formats.py; the LibreOffice-converted ones keep the name given


def _coerce(name: str, value: Any) -> Any:
    limit = FIELDS.get(name)
    if limit is None:
        known = ", ".join(sorted(FIELDS))
        raise GateConfigError(f"unknown gate threshold '{name}' (known: {known})")
    if limit.kind is tuple:
        items = value.split(",") if isinstance(value, str) else list(value)
        return tuple(str(v).strip() for v in items if str(v).strip())
    if value in (None, "none", "off"):
        if not limit.optional:
            raise GateConfigError(f"gate threshold '{name}' cannot be switched off")
        return None
    try:
        return int(value) if limit.kind is int else float(value)
    except (TypeError, ValueError):
        raise GateConfigError(f"gate threshold '{name}' must be a number, got {value!r}") from None


def _apply(base: Thresholds, table: dict[str, Any]) -> Thresholds:
    return base.replace(**{k: _coerce(k, v) for k, v in table.items() if not isinstance(v, dict)})


def load_gate_config(directory: Path, explicit: Path | None = None, overrides: list[str] | None = None) -> GateConfig:
    """Thresholds from an explicit file, else parsegate.toml or pyproject.toml in ``directory``."""
    table: dict[str, Any] = {}
    source = "built-in defaults"
    candidates = [explicit] if explicit else [directory / "parsegate.toml", directory / "pyproject.toml"]
    for path in candidates:
        if path is None or not path.is_file():
            if explicit:
                raise GateConfigError(f"{explicit}: no such config file")
            continue
        try:
            data = tomllib.loads(path.read_text())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise GateConfigError(f"{path}: not valid TOML: {exc}") from None
        found = data.get("tool", {}).get("parsegate", {}) if path.name == "pyproject.toml" else data
        # A table parsegate does not read (say [chunk]) is a mistake to name, not to ignore.
        unknown = sorted(set(found) - {"gate"})
        if unknown:
            where = "[tool.parsegate] in " if path.name == "pyproject.toml" else ""
            raise GateConfigError(
                f"{path}: unknown table or key {', '.join(map(repr, unknown))} in {where}the config "
                "(parsegate reads only [gate])"
            )
        if "gate" in found or explicit:
            table, source = found.get("gate", {}), str(path)
            break
    for item in overrides or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise GateConfigError(f"--set takes key=value or format.key=value, got '{item}'")
        scope, _, name = key.strip().rpartition(".")
        target = table.setdefault(scope, {}) if scope else table
        target[name] = value.strip()
        source += " + --set"
    default = _apply(Thresholds(), table)
    formats = {fmt: _apply(default, sub) for fmt, sub in table.items() if isinstance(sub, dict)}
    unknown_formats = sorted(set(formats) - FORMATS)
    if unknown_formats:
        raise GateConfigError(
            f"unknown format {', '.join(map(repr, unknown_formats))} for gate thresholds in {source} "
            f"(formats: {', '.join(sorted(FORMATS))})"
        )
    return GateConfig(default, formats, source)
