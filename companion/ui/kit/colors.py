"""Colours that read (plain Python): the letter on a coloured dot or plate in black or white,
whichever contrasts more (WCAG 2)."""

from __future__ import annotations

from collections.abc import Sequence

WHITE, BLACK = (1.0, 1.0, 1.0), (0.0, 0.0, 0.0)


def luminance(rgb: Sequence[float]) -> float:
    """Relative luminance (WCAG 2)."""
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: Sequence[float], other: Sequence[float]) -> float:
    """The contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def letter_color(fill: Sequence[float]) -> tuple[float, float, float]:
    """Black or white, whichever reads better on `fill`."""
    return WHITE if contrast(WHITE, fill) >= contrast(BLACK, fill) else BLACK

