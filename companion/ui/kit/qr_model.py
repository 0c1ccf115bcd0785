"""A QR code as a grid of modules (plain Python, tested without Kivy): qrcode computes the
matrix, the QR widget (qr.py) draws it."""

from __future__ import annotations

import qrcode
from qrcode.constants import ERROR_CORRECT_L

QUIET = 4  # the quiet zone's width in modules, as the QR standard asks


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of `text` (error correction L: a screen is clean), the quiet zone included,
    as rows of modules from the top, True for dark."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_L, border=QUIET)
    code.add_data(text)
    code.make(fit=True)
    return code.get_matrix()


def module_pixels(side: float, modules: int) -> int:
    """Whole pixels per module for `modules` modules across `side` pixels (0: they do not
    fit)."""
    return int(side // modules) if modules else 0
