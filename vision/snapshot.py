"""What a table source saw at one moment, in the engine-independent form every source shares.

The camera pipeline and the Tabletop Simulator reader both produce a ``TableSnapshot``; the
referee diffs two snapshots and asks the game's engine module to interpret the difference. A
snapshot reports observations with confidence, never rule decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Observation:
    """One thing seen on the table.

    ``component`` names the physical piece in the game's profile vocabulary (for example
    ``"pawn:blue"``, ``"tile"``, ``"card:E4"``, ``"die"``); ``region`` is the board region it lies
    in (``"row:2/slot:3"``, ``"seat:blue/column:2"``, ``"tray"``) or None when outside every
    region. ``attrs`` carries what the source could read of the piece (tile face, die value, ...).
    """

    component: str
    region: str | None = None
    board_xy: tuple[float, float] | None = None
    rotation_deg: float | None = None
    face_up: bool | None = None
    confidence: float = 1.0
    source_id: str | None = None
    attrs: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "component": self.component,
            "region": self.region,
            "board_xy": list(self.board_xy) if self.board_xy is not None else None,
            "rotation_deg": self.rotation_deg,
            "face_up": self.face_up,
            "confidence": self.confidence,
            "source_id": self.source_id,
            "attrs": dict(self.attrs),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Observation:
        xy = data.get("board_xy")
        return cls(
            component=str(data["component"]),
            region=data.get("region"),
            board_xy=(float(xy[0]), float(xy[1])) if xy is not None else None,
            rotation_deg=data.get("rotation_deg"),
            face_up=data.get("face_up"),
            confidence=float(data.get("confidence", 1.0)),
            source_id=data.get("source_id"),
            attrs=dict(data.get("attrs") or {}),
        )


@dataclass(frozen=True)
class TableSnapshot:
    """Everything one source saw at ``time`` (seconds, source clock)."""

    source: str
    time: float
    observations: tuple[Observation, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "time": self.time,
            "observations": [o.to_json() for o in self.observations],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSnapshot:
        return cls(
            source=str(data["source"]),
            time=float(data["time"]),
            observations=tuple(Observation.from_json(o) for o in data.get("observations", [])),
        )

    def in_region(self, region: str) -> tuple[Observation, ...]:
        return tuple(o for o in self.observations if o.region == region)
