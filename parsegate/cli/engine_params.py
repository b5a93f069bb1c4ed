"""The options of ``parsegate run`` that choose its engine."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer


class EngineName(StrEnum):
    local = "local"
    ray = "ray"


EngineOpt = Annotated[
    EngineName,
    typer.Option(
        "--engine",
        metavar="[local|ray]",
        help="Where documents are parsed: 'local' (worker processes on this machine) or 'ray' (Ray Data: a "
        "local Ray instance with --workers CPUs, or the cluster at --ray-address). Same outputs either way. "
        "'ray' needs the ray extra: pip install 'parsegate[ray]'.",
    ),
]
RayAddress = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        envvar="RAY_ADDRESS",
        help="With --engine ray: an existing Ray cluster (e.g. ray://head:10001, or 'auto' on a cluster "
        "node). Default: start a local Ray instance for this run.",
    ),
]
