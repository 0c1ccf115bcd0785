"""Labelled dice folders (`labels.json` beside the photos), shared by the bench and training."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.files import JsonFileError, read_json, write_atomically, write_text_atomically
from companion.i18n import _
from vision.faces import FACES
from vision.limits import (
    MAX_DICE_PER_PHOTO,
    MAX_LABELS_BYTES,
    MAX_PHOTOS,
    MAX_SIDE,
    TooLarge,
    check_file_size,
)


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: its pip value and/or its face, and its box in pixels; `hard` when its
    top face cannot fairly be read (mostly hidden, cut by the frame, seen nearly edge-on, a
    die cocked on another): the bench neither demands it nor counts a reading of it extra;
    `sides`: the boxes of the side faces a steep camera shows large (rendered photos say
    where; training takes them as "not a die")."""

    value: int | None
    box: tuple[float, float, float, float]
    face: str | None = None
    hard: bool = False
    sides: tuple[tuple[float, float, float, float], ...] = ()

    @property
    def key(self) -> int | str:
        """What a reading must give for this die: the value when labelled, else the face."""
        return self.value if self.value is not None else self.face


@dataclass(frozen=True)
class LabelledImage:
    """One photo of a labelled folder with its dice."""

    path: Path
    width: int
    height: int
    dice: tuple[LabelledDie, ...]


def box_side(box: tuple[float, float, float, float]) -> float:
    """A box's side: the root of its area (a die's size, however its box is drawn)."""
    return math.sqrt((box[2] - box[0]) * (box[3] - box[1]))


class DatasetError(ValueError):
    """A dataset folder that cannot be read as `labels.json` plus images."""


def load_dataset(folder: str | Path) -> list[LabelledImage]:
    """Read `folder/labels.json` (boxes normalised 0..1) into pixel boxes, sorted by file name."""
    folder = Path(folder)
    labels_path = folder / "labels.json"
    if not labels_path.is_file():
        raise DatasetError(f"{folder}: no labels.json in this folder")
    try:
        check_file_size(labels_path, MAX_LABELS_BYTES, "labels.json")
        raw = read_json(labels_path)
    except (JsonFileError, TooLarge) as exc:
        raise DatasetError(str(exc)) from None
    except OSError as exc:
        raise DatasetError(f"{labels_path}: {exc.strerror or exc}") from None
    if not isinstance(raw, dict):
        raise DatasetError(f"{labels_path}: expected an object of file name -> labels")
    if len(raw) > MAX_PHOTOS:
        raise DatasetError(_("{file}: {count} photos, more than the {most} one folder may "
                             "have; split the folder").format(file=labels_path, count=len(raw),
                                                             most=MAX_PHOTOS))
    images = []
    for name in sorted(raw):
        entry = raw[name]
        if Path(name).name != name or name in ("", ".", ".."):
            raise DatasetError(f"{labels_path}: {name!r} is not a file name in this folder")
        try:
            if not isinstance(entry, dict) or not isinstance(entry.get("dice"), list):
                raise TypeError(_("expected an object with width, height and a list of dice"))
            width, height = _side(entry, "width"), _side(entry, "height")
            if len(entry["dice"]) > MAX_DICE_PER_PHOTO:
                raise ValueError(_("{count} dice, more than the {most} one photo may have; "
                                   "label fewer").format(count=len(entry["dice"]),
                                                         most=MAX_DICE_PER_PHOTO))
            dice = tuple(
                LabelledDie(
                    value=int(d["value"]) if "value" in d else None,
                    box=_pixel_box(d, width, height),
                    face=_face(d),
                    hard=_hard(d),
                    sides=_sides(d, width, height),
                )
                for d in entry["dice"]
            )
        except (KeyError, TypeError, IndexError, ValueError, OverflowError) as exc:
            raise DatasetError(f"{labels_path}: bad entry for {name!r} ({exc})") from exc
        images.append(LabelledImage(folder / name, width, height, dice))
    return images


def _side(entry: dict, key: str) -> int:
    """A photo's width or height: a whole number of pixels, 1 to MAX_SIDE (ValueError)."""
    value = entry[key]
    if type(value) is not int or not 1 <= value <= MAX_SIDE:
        raise ValueError(_("{key} must be a whole number of pixels from 1 to {most}, got "
                           "{value}").format(key=key, most=MAX_SIDE, value=repr(value)[:40]))
    return value


def _pixel_box(die: dict, width: int, height: int) -> tuple[float, float, float, float]:
    """A die's box [x0, y0, x1, y1] (parts of the photo, 0..1, x0 < x1 and y0 < y1) in pixels;
    TypeError/ValueError for anything else (strings, 1e300, a box of no size)."""
    if not isinstance(die, dict):
        raise TypeError(_("a die must be an object with a box"))
    return _box_in_pixels(die["box"], width, height)


def _sides(die: dict, width: int, height: int) -> tuple[tuple[float, float, float, float], ...]:
    """A label's optional `"sides"`: a list of boxes as `box` is given, in pixels."""
    sides = die.get("sides", [])
    if not isinstance(sides, list) or len(sides) > 4:
        raise ValueError(f"sides must be a list of at most 4 boxes, got {repr(sides)[:80]}")
    return tuple(_box_in_pixels(box, width, height) for box in sides)


def _box_in_pixels(box: object, width: int, height: int) -> tuple[float, float, float, float]:
    """A box [x0, y0, x1, y1] in parts of the photo, in pixels (ValueError if it is none)."""
    if not isinstance(box, list) or len(box) != 4 or not all(
            type(v) in (int, float) and math.isfinite(v) and -0.01 <= v <= 1.01 for v in box) \
            or not (box[0] < box[2] and box[1] < box[3]):
        raise ValueError(_("a die's box must be four numbers [x0, y0, x1, y1] from 0 to 1, "
                           "x0 < x1 and y0 < y1, got {value}").format(value=repr(box)[:80]))
    return (box[0] * width, box[1] * height, box[2] * width, box[3] * height)


def add_photo(folder: str | Path, frame: np.ndarray, dice: list[LabelledDie],
              keep: int = 200) -> Path:
    """Add a photo and its labelled dice (pixel boxes) to a labelled folder, the way
    `load_dataset` reads it (a reading confirmed at the table: calibration material); only the
    newest `keep` photos stay. The photo is written first, labels.json atomically after it."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    labels_path = folder / "labels.json"
    labels = read_json(labels_path) if labels_path.is_file() else {}
    name = f"dice-{time.strftime('%Y%m%d-%H%M%S')}-{time.time_ns() % 1_000_000_000:09d}.jpg"
    encoded, jpeg = cv2.imencode(".jpg", frame)
    if not encoded:
        raise OSError(f"{folder / name}: the photo could not be encoded")
    write_atomically(folder / name, jpeg.tobytes())  # never through a link put in its place
    height, width = frame.shape[:2]
    labels[name] = {"width": width, "height": height, "dice": [
        {**({"value": d.value} if d.value is not None else {}),
         **({"face": d.face} if d.face is not None else {}),
         **({"hard": True} if d.hard else {}),
         "box": [round(d.box[0] / width, 5), round(d.box[1] / height, 5),
                 round(d.box[2] / width, 5), round(d.box[3] / height, 5)]} for d in dice]}
    dropped = sorted(labels)[:-keep] if len(labels) > keep else []
    for old in dropped:
        del labels[old]
    write_text_atomically(labels_path, json.dumps(labels, indent=1))
    for old in dropped:
        (folder / old).unlink(missing_ok=True)
    return folder / name


def _face(die: dict) -> str | None:
    """A label's face, checked; a label needs a value 1..6 or a face (KeyError/ValueError)."""
    face = die.get("face")
    if face is None and "value" not in die:
        raise KeyError("value or face")
    if face is not None and face not in FACES:
        raise ValueError(f"face {face!r} is not one of {list(FACES)}")
    if "value" in die and int(die["value"]) not in range(1, 7):
        raise ValueError(f"value {die['value']!r} is not 1..6")
    return face


def _hard(die: dict) -> bool:
    """A label's optional `"hard"` flag: true or false (ValueError for anything else)."""
    hard = die.get("hard", False)
    if not isinstance(hard, bool):
        raise ValueError(f"hard {hard!r} is not true or false")
    return hard


def is_held_out(index: int, count: int) -> bool:
    """Whether the image at `index` (of `count`, sorted by name) belongs to the held-out split.

    The held-out split is two contiguous blocks (the last tenth of each half of the folder; in
    d6-tray the end of each shooting day), so near-duplicate consecutive shots do not leak.
    """
    half = count // 2
    block = max(1, count // 10)
    return (half - block) <= index < half or (count - block) <= index < count
