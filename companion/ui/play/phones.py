"""The players' phones: one QR code per player of the game on the table, each opening that
player's own page (companion.web, served by the app's PhonesBridge), with a line on how to
join, and Close."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import ColorProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.i18n import _
from companion.ui.kit.qr import QrCode  # noqa: F401 - the kv rule's widget
from companion.ui.kit.qr_model import qr_matrix
from companion.ui.kit.widgets import PLAYER_RGBA, PLAYER_TEXT

LAYOUT = str(Path(__file__).with_suffix(".kv"))


class PlayerCode(BoxLayout):
    """A player's name on their colour, over the QR code of their page's link."""

    name = StringProperty("")
    plate = ColorProperty((0, 0, 0, 1))
    ink = ColorProperty((1, 1, 1, 1))
    matrix = ListProperty()


class PhonesPopup(ModalView):
    """Each player scans their own code; the page needs the same network, nothing installed."""

    help = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        phones = App.get_running_app().phones
        codes = self.ids.codes
        for name, color, link in phones.links():
            codes.add_widget(PlayerCode(name=name, plate=PLAYER_RGBA[color],
                                        ink=PLAYER_TEXT[color], matrix=qr_matrix(link)))
        self.help = _("Each player scans their own code with their phone's camera: their "
                      "station, live, and their Diplomacy bonus to choose. Same Wi-Fi as the "
                      "table ({address}); nothing to install.").format(
                          address=phones.base_link())


if LAYOUT not in Builder.files:
    Builder.load_file(LAYOUT)
