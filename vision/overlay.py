"""Overlay: a copy of the frame with each die outlined and labelled, for the expedition screen."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import cv2
import numpy as np

from vision.faces import Reading
from vision.frames import as_bgr

FACE_COLOURS = {  # BGR
    "food": (40, 170, 40),
    "water": (230, 140, 20),
    "metal": (150, 150, 150),
    "human": (30, 30, 220),
}
UNSURE_COLOUR = (0, 220, 255)  # BGR yellow: a die read with too little confidence
LINE = 2
FONT = cv2.FONT_HERSHEY_SIMPLEX


def hershey(text: str) -> str:
    """Text OpenCV's Hershey font can draw (ASCII): "Würfel" -> "Wuerfel"."""
    text = text.translate(str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe",
                                         "Ü": "Ue", "ß": "ss"}))
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def draw_overlay(frame: np.ndarray, reading: Reading,
                 name: Callable[[str], str] = str) -> np.ndarray:
    """The frame with a coloured box and a 'value face' label per die (an uncertain one
    outlined in yellow, its label ending in "?"), plus any hint; `name` words a face in the
    player's language."""
    out = as_bgr(frame).copy()
    scale = max(0.4, max(out.shape[:2]) / 1600)
    for die in reading.dice:
        x0, y0, x1, y1 = die.box
        colour = FACE_COLOURS.get(die.face, (0, 255, 255))
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, LINE)
        label = hershey(f"{die.value} {name(die.face)}" if die.value is not None
                        else name(die.face))
        if die.uncertain:  # to be checked: a yellow outline around the box, and a "?"
            cv2.rectangle(out, (x0 - 2 * LINE, y0 - 2 * LINE), (x1 + 2 * LINE, y1 + 2 * LINE),
                          UNSURE_COLOUR, LINE)
            label += " ?"
        (tw, th), base = cv2.getTextSize(label, FONT, scale, 1)
        ty = y0 - 3 if y0 - th - base - 3 >= 0 else y1 + th + 3
        cv2.rectangle(out, (x0, ty - th - 2), (x0 + tw + 2, ty + base - 1), colour, cv2.FILLED)
        cv2.putText(out, label, (x0 + 1, ty - 1), FONT, scale, (255, 255, 255), 1, cv2.LINE_AA)
    if reading.hint:
        cv2.putText(out, hershey(reading.hint), (10, 30), FONT, 2 * scale, (0, 0, 255), 2,
                    cv2.LINE_AA)
    return out
