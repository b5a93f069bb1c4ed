"""PDF pages for report.html, drawn in a child process under the run's per-document limits.

The parent of a run holds every outcome and writes every output: a page it renders itself for
the report (a 1 x 2000 pt page drawn 560 pixels wide is a million pixels tall; inline images of
30000² decoded by PDFium) could take it, and with it the whole run, past any memory or time. So
the pages are drawn by ``python -m parsegate.runner.render`` with the worker's address-space
limit, one document at a time under that document's time limit. One child draws the report's
documents in turn (a child per document paid Python's, parsegate's and PDFium's start each time:
a quarter of a run's CPU on a corpus of small PDFs); a document that fails it (time, memory, a
crash) costs only that document's pictures, with a note the page shows, and the next document
gets a new child.

    python -m parsegate.runner.render MEMORY_BYTES   # requests on stdin, pages on stdout, framed
"""

from __future__ import annotations

import base64
import contextlib
import os
import select
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import orjson

from parsegate.engines.base import Limits
from parsegate.engines.local.worker import limit_memory

_TAIL = 300  # characters of the child's stderr kept for the note
_FRAME = struct.Struct(">Q")  # every message: its length, then its JSON


class PageDrawer:
    """Draws the first pages of one PDF after another in a limited child (started on first use,
    started again after a document that failed it). Close it, or use it in a ``with``."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.child: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> PageDrawer:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self.child is not None:
            child, self.child = self.child, None
            with contextlib.suppress(OSError):
                assert child.stdin is not None
                child.stdin.close()
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
            for stream in (child.stdout, child.stderr):
                if stream is not None:
                    stream.close()

    def draw(
        self,
        data: bytes,
        chunks: list[dict[str, Any]],
        furniture: list[dict[str, Any]],
        lost: list[dict[str, Any]],
        count: int,
        name: str,
        password: str | None = None,
        marks: dict[str, Any] | None = None,
        image: bool = False,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """``count`` pages drawn (an encrypted PDF opened with ``password``; ``image``: the frames
        of an image file), those ``marks`` names first (quality_gates/report/pages.py), or none and why."""
        request = orjson.dumps(
            {
                "data": base64.b64encode(data).decode("ascii"),
                "chunks": chunks,
                "furniture": furniture,
                "lost": lost,
                "count": count,
                "password": password,
                "marks": marks,
                "image": image,
            }
        )
        seconds = self.limits.seconds_for(Path(name))
        try:
            child = self._child()
        except OSError as exc:
            return [], f"Pages not drawn: the renderer could not start ({exc.strerror or exc})."
        assert child.stdin is not None and child.stdout is not None
        deadline = time.monotonic() + seconds if seconds else None
        try:
            child.stdin.write(_FRAME.pack(len(request)) + request)
            child.stdin.flush()
            answer = orjson.loads(_read_frame(child.stdout, deadline))
        except TimeoutError:
            self._discard()
            return [], f"Pages not drawn: drawing them took longer than the {seconds:g} s limit."
        except (OSError, EOFError, orjson.JSONDecodeError):
            return [], f"Pages not drawn: the renderer failed ({self._discard()})."
        if "error" in answer:
            return [], f"Pages not drawn: the renderer failed ({answer['error'][-_TAIL:]})."
        pages: list[dict[str, Any]] = answer["pages"]
        return pages, None

    def _child(self) -> subprocess.Popen[bytes]:
        if self.child is None or self.child.poll() is not None:
            self._discard()
            memory = self.limits.memory_mb * 1024 * 1024
            self.child = subprocess.Popen(
                [sys.executable, "-m", "parsegate.runner.render", str(memory)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        return self.child

    def _discard(self) -> str:
        """Stop the child (after a failure): what it said last, as the reason."""
        child, self.child = self.child, None
        if child is None:
            return "it stopped"
        if child.poll() is None:
            child.kill()
        child.wait()
        said = child.stderr.read().decode("utf-8", "replace").strip().splitlines() if child.stderr else []
        for stream in (child.stdin, child.stdout, child.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        why = said[-1][-_TAIL:] if said else f"exit status {child.returncode}"
        if "MemoryError" in why:
            return f"over the {self.limits.memory_mb} MB memory limit"
        return why


def _read_frame(stream: IO[bytes], deadline: float | None) -> bytes:
    """One framed message from the child, within the deadline (TimeoutError), or EOFError."""
    head = _read_exactly(stream, _FRAME.size, deadline)
    (size,) = _FRAME.unpack(head)
    return _read_exactly(stream, size, deadline)


def _read_exactly(stream: IO[bytes], size: int, deadline: float | None) -> bytes:
    fd = stream.fileno()
    parts: list[bytes] = []
    left = size
    while left:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            raise TimeoutError
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            raise TimeoutError
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            raise EOFError
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def main() -> None:
    limit_memory(int(sys.argv[1]))
    from parsegate.quality_gates.report.pages import Marks, image_pages, page_images

    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while head := source.read(_FRAME.size):
        request = orjson.loads(source.read(_FRAME.unpack(head)[0]))
        try:
            data, marks = base64.b64decode(request["data"]), Marks.from_dict(request.get("marks"))
            if request.get("image"):
                pages = image_pages(data, request["chunks"], request["count"], marks)
            else:
                pages = page_images(
                    data,
                    request["chunks"],
                    request["furniture"],
                    request["lost"],
                    request["count"],
                    request["password"],
                    marks,
                )
            answer: dict[str, Any] = {"pages": pages}
        except MemoryError:
            raise  # the child's state is not to be trusted past it: the parent starts another
        except Exception as exc:  # a page PDFium or Pillow cannot draw: this document's pictures only
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        body = orjson.dumps(answer)
        sink.write(_FRAME.pack(len(body)) + body)
        sink.flush()


if __name__ == "__main__":
    main()
