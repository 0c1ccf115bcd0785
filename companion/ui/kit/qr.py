"""A QR code drawn on Kivy's canvas (its modules from qr_model), for a phone's camera to read:
the BG Stats link of a finished game, each player's link to their phone page."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from companion.ui.kit.qr_model import module_pixels


class QrCode(Widget):
    """The modules of `matrix` (rows from the top, True dark), black on white, each a whole
    number of pixels (`pixels`) so that a camera reads them sharp."""

    tag = StringProperty("qr")
    matrix = ListProperty()
    pixels = NumericProperty(0)

    def on_matrix(self, *_args: Any) -> None:
        self.redraw()

    def on_size(self, *_args: Any) -> None:
        self.redraw()

    def on_pos(self, *_args: Any) -> None:
        self.redraw()

    def redraw(self, *_args: Any) -> None:
        """One texel per module (white or black), scaled up without smoothing."""
        self.canvas.clear()
        count = len(self.matrix)
        self.pixels = module_pixels(min(self.size), count)
        if not self.pixels:
            return
        texels = bytes(channel for row in reversed(self.matrix) for dark in row
                       for channel in ((0, 0, 0, 255) if dark else (255, 255, 255, 255)))
        texture = Texture.create(size=(count, count), colorfmt="rgba")
        texture.blit_buffer(texels, colorfmt="rgba", bufferfmt="ubyte")
        texture.mag_filter = texture.min_filter = "nearest"
        side = count * self.pixels
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=texture, size=(side, side),
                      pos=(int(self.center_x - side / 2), int(self.center_y - side / 2)))
