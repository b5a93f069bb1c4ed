"""Figure geometry shared by the renderers: boxes with a label each, joined by arrows, and the
raster picture (no text in it) that "image" figures set their labels over.

Sizes are in points on a 300 × 120 pt canvas; each renderer scales them to its own units.
"""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 300.0, 120.0


@dataclass(frozen=True)
class Box:
    x: float
    y: float  # from the top
    w: float
    h: float
    label: str


def boxes(labels: list[str]) -> list[Box]:
    """Label boxes zig-zagging across the canvas, so the labels sit at different heights."""
    n = len(labels)
    w = min(80.0, (WIDTH - 10.0 * (n + 1)) / n)
    return [Box(10 + i * (w + 10), 15 + (i % 2) * 55, w, 30, label) for i, label in enumerate(labels)]


def arrows(bs: list[Box]) -> list[tuple[float, float, float, float]]:
    """Arrows from each box's right side to the next box's left side."""
    return [(a.x + a.w, a.y + a.h / 2, b.x, b.y + b.h / 2) for a, b in itertools.pairwise(bs)]


def raster_png(labels: list[str], scale: int = 3) -> bytes:
    """A picture of the figure without its labels: filled boxes and lines, as a PNG."""
    img = Image.new("RGB", (int(WIDTH * scale), int(HEIGHT * scale)), (246, 244, 236))
    draw = ImageDraw.Draw(img)
    for n, b in enumerate(boxes(labels)):
        fill = ((205, 225, 245), (245, 220, 200), (215, 240, 210))[n % 3]
        draw.rectangle(
            [b.x * scale, b.y * scale, (b.x + b.w) * scale, (b.y + b.h) * scale],
            fill=fill,
            outline=(60, 60, 60),
            width=scale,
        )
    for x0, y0, x1, y1 in arrows(boxes(labels)):
        draw.line([x0 * scale, y0 * scale, x1 * scale, y1 * scale], fill=(60, 60, 60), width=scale)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
