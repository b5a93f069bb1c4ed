"""PDF pages for report.html, drawn in a child process under the run's per-document limits.

The parent of a run holds every outcome and writes every output: a page it renders itself for
the report (a 1 x 2000 pt page drawn 560 pixels wide is a million pixels tall; inline images of
30000² decoded by PDFium) could take it, and with it the whole run, past any memory or time. So
the pages are drawn by ``python -m parsegate.runner.render`` with the worker's address-space
limit and the document's time limit; a child that fails costs only that document's pictures,
with a note the page shows.

    python -m parsegate.runner.render MEMORY_BYTES   # the request on stdin, the pages on stdout
"""

from __future__ import annotations

import base64
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

from parsegate.engines.base import Limits
from parsegate.engines.local.worker import limit_memory

_TAIL = 300  # characters of the child's stderr kept for the note


def draw_pages(
    data: bytes,
    chunks: list[dict[str, Any]],
    furniture: list[dict[str, Any]],
    lost: list[dict[str, Any]],
    count: int,
    limits: Limits,
    name: str,
    password: str | None = None,
) -> tuple[list[dict[str, Any]], str | None]:
    """The first ``count`` pages drawn (an encrypted PDF opened with ``password``), or none and why."""
    request = orjson.dumps(
        {
            "data": base64.b64encode(data).decode("ascii"),
            "chunks": chunks,
            "furniture": furniture,
            "lost": lost,
            "count": count,
            "password": password,
        }
    )
    seconds = limits.seconds_for(Path(name))
    memory = limits.memory_mb * 1024 * 1024
    try:
        done = subprocess.run(
            [sys.executable, "-m", "parsegate.runner.render", str(memory)],
            input=request,
            capture_output=True,
            timeout=seconds or None,
        )
    except subprocess.TimeoutExpired:
        return [], f"Pages not drawn: drawing them took longer than the {seconds:g} s limit."
    except OSError as exc:
        return [], f"Pages not drawn: the renderer could not start ({exc.strerror or exc})."
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = said[-1][-_TAIL:] if said else f"exit status {done.returncode}"
        if "MemoryError" in why or done.returncode < 0:
            why = f"over the {limits.memory_mb} MB memory limit" if "MemoryError" in why else why
        return [], f"Pages not drawn: the renderer failed ({why})."
    pages: list[dict[str, Any]] = orjson.loads(done.stdout)
    return pages, None


def main() -> None:
    limit_memory(int(sys.argv[1]))
    from parsegate.quality_gates.report.pages import page_images

    request = orjson.loads(sys.stdin.buffer.read())
    pages = page_images(
        base64.b64decode(request["data"]),
        request["chunks"],
        request["furniture"],
        request["lost"],
        request["count"],
        request["password"],
    )
    sys.stdout.buffer.write(orjson.dumps(pages))


if __name__ == "__main__":
    main()
