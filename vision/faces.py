"""Dice results shared by the readers: expedition faces, the pip face map, a die and a reading."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

FACES = ("food", "water", "metal", "human")
UNCERTAIN_BELOW = 0.9  # a die read with less confidence is shown to the player as uncertain
DEFAULT_FACE_MAP: dict[int, str] = {1: "food", 2: "food", 3: "water", 4: "water", 5: "metal",
                                    6: "human"}


class FaceMapError(ValueError):
    """A face map that does not give one known face to each of the values 1..6."""


def parse_face_map(spec: str | Mapping[int, str] | None) -> dict[int, str]:
    """Face map from a mapping or a spec like "1-2=food,3-4=water,5=metal,6=human"."""
    if spec is None:
        return dict(DEFAULT_FACE_MAP)
    if isinstance(spec, Mapping):
        mapping = {int(k): str(v).lower() for k, v in spec.items()}
    else:
        mapping = {}
        for part in spec.split(","):
            values, sep, face = part.strip().partition("=")
            if not sep:
                raise FaceMapError(f"face map part {part.strip()!r} is not VALUES=FACE")
            lo, _, hi = values.strip().partition("-")
            try:
                first, last = int(lo), int(hi or lo)
            except ValueError as exc:
                raise FaceMapError(f"face map part {part.strip()!r}: values are not 1..6") from exc
            for value in range(first, last + 1):
                mapping[value] = face.strip().lower()
    if sorted(mapping) != [1, 2, 3, 4, 5, 6]:
        raise FaceMapError(f"face map must cover exactly 1..6, got {sorted(mapping)}")
    unknown = sorted({f for f in mapping.values() if f not in FACES})
    if unknown:
        raise FaceMapError(f"unknown face(s) {unknown}; expected one of {list(FACES)}")
    return mapping


def face_map_text(mapping: Mapping[int, str]) -> str:
    """A face map as `parse_face_map` reads it, runs of one face joined ("1-2=food,...")."""
    parts: list[tuple[int, int, str]] = []
    for value in range(1, 7):
        face = mapping[value]
        if parts and parts[-1][2] == face and parts[-1][1] == value - 1:
            parts[-1] = (parts[-1][0], value, face)
        else:
            parts.append((value, value, face))
    return ",".join(f"{lo}={face}" if lo == hi else f"{lo}-{hi}={face}" for lo, hi, face in parts)


@dataclass(frozen=True)
class Die:
    """One die read from a frame: pip value (None for icon dice), face, pixel box, confidence."""

    value: int | None
    face: str
    box: tuple[int, int, int, int]
    confidence: float

    @property
    def centre(self) -> tuple[float, float]:
        """Centre of the box, in pixels."""
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    @property
    def uncertain(self) -> bool:
        """Read with less than UNCERTAIN_BELOW confidence: to be confirmed by the player."""
        return self.confidence < UNCERTAIN_BELOW

    def to_json(self) -> dict[str, object]:
        """The documented JSON shape of one die."""
        return {"value": self.value, "face": self.face, "box": list(self.box),
                "confidence": round(self.confidence, 3), "uncertain": self.uncertain}


@dataclass(frozen=True)
class Reading:
    """All dice read from one frame, and a hint for the player when the frame is unusable."""

    dice: tuple[Die, ...] = ()
    hint: str | None = None
    faces: dict[str, int] = field(default_factory=dict, compare=False)
    die_px: float | None = field(default=None, compare=False)  # die size the reader settled on

    def __post_init__(self) -> None:
        counts = {face: 0 for face in FACES}
        for die in self.dice:
            counts[die.face] = counts.get(die.face, 0) + 1
        object.__setattr__(self, "faces", counts)
