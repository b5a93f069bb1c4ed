"""An element: one span of ``Document.text`` with its kind, place in the structure and provenance."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsegate.parsers.model.kinds import CONTAINER_KINDS, KIND_DATA, Data, TextData, data_class


# Slotted, as their data: tens of thousands per document, made and read over and over (a slotted
# instance is made in half the time and its fields are read faster).
@dataclass(slots=True)
class Element:
    id: str
    kind: str
    start: int
    end: int
    level: int | None = None
    section_path: tuple[str, ...] = ()
    parent: str | None = None
    lines: tuple[int, int] | None = None  # 1-based, inclusive
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    data: Data = field(default_factory=TextData)

    def __post_init__(self) -> None:
        if self.kind in KIND_DATA and type(self.data) is TextData and self.data == TextData():
            self.data = KIND_DATA[self.kind]()  # no data given: the kind's own, empty

    def with_kind(self, kind: str) -> Element:
        """The same span as another kind (a heading read as a paragraph), with that kind's data."""
        self.kind = kind
        if not isinstance(self.data, data_class(kind)):
            old = self.data
            self.data = data_class(kind)(ref=old.ref, inline=old.inline, ocr_confidence=old.ocr_confidence)
        return self

    @property
    def is_container(self) -> bool:
        return self.kind in CONTAINER_KINDS

    def to_dict(self, text: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "text": text[self.start : self.end],
            "level": self.level,
            "section_path": list(self.section_path),
            "parent": self.parent,
            "lines": list(self.lines) if self.lines else None,
        }
        if self.page is not None:
            out["page"] = self.page
            out["bbox"] = list(self.bbox) if self.bbox else None
        data = self.data.to_json()
        if data:
            out["data"] = data
        return out
