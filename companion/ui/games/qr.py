"""BG Stats on a phone: a finished game's createPlay link (companion.export) as a QR code drawn
on Kivy's canvas, in a pop-up with one line saying what to do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion import export
from companion.i18n import _
from companion.ui.games.qr_model import module_pixels, qr_matrix

LAYOUT = str(Path(__file__).with_suffix(".kv"))


class QrCode(Widget):
    """The modules of `matrix` (rows from the top, True dark), black on white, each a whole
    number of pixels (`pixels`) so that a camera reads them sharp."""

    tag = StringProperty("qr")
    matrix = ListProperty()
    pixels = NumericProperty(0)

    def on_matrix(self, *_args: Any) -> None:
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


class QrPopup(ModalView):
    """A link as a QR code over the whole screen, with what to do and Close."""

    link = StringProperty("")

    def __init__(self, link: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.link = link
        self.ids.code.matrix = qr_matrix(link)


def show_bgstats_link(game_id: int) -> str:
    """Open the pop-up with a finished game's BG Stats link (the config's BoardGameGeek id);
    "" or what went wrong."""
    app = App.get_running_app()
    try:
        link = export.create_play_link(app.session.store, game_id, app.settings.bgstats.bgg_id)
    except Exception as error:  # a damaged or unfinished game: say so, nothing changes
        return _("No BG Stats link: {error}").format(error=error)
    QrPopup(link).open()
    return ""


if LAYOUT not in Builder.files:
    Builder.load_file(LAYOUT)
