"""BG Stats on a phone: a finished game's createPlay link (companion.export) as a QR code
(kit.qr), in a pop-up with one line saying what to do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from companion import export
from companion.i18n import _
from companion.ui.kit.qr import QrCode  # noqa: F401 - the kv rule's widget
from companion.ui.kit.qr_model import qr_matrix

LAYOUT = str(Path(__file__).with_suffix(".kv"))


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
