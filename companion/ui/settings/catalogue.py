"""The catalogue screen (from home): every Hub, Sector, ship and Diplomacy level with each value
and its source in words (rulebook / inferred / entered / unknown); a value is corrected on the
value-entry component (values.py), a Sector's colour in one tap, and kept in the user's overlay
for all later games. What it shows comes from catalogue_model.py; layout in catalogue_screen.kv.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.rules.words import color_name
from companion.ui.kit.values import ask_value
from companion.ui.kit.widgets import BUTTON, SELECTED, SPECIES_RGBA, TagButton
from companion.ui.settings.catalogue_model import KIND_NAMES, CatalogueBrowser, ValueRow, kind_name


class ValueLine(BoxLayout):
    """One value: its field in words, the value with its source, the note (a rulebook quote
    with, in German, the German summary's words beside it), and how to correct it (tagged by
    the field's name)."""

    name = StringProperty("")
    words = StringProperty("")
    shown = StringProperty("")
    note = StringProperty("")
    rendering = StringProperty("")
    key = StringProperty("")


class CatalogueScreen(Screen):
    """Kinds as tabs, a kind's components, a component's values."""

    title = StringProperty("")
    message = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.browser: CatalogueBrowser | None = None
        self.kind = "sectors"
        self.record: str | None = None

    def refresh(self) -> None:
        """Show the kind's components, or the chosen component's values."""
        if self.browser is None:
            self.browser = CatalogueBrowser(App.get_running_app().overlay)
        self.message = self.browser.message
        tabs = self.ids.kinds
        tabs.clear_widgets()
        for kind in KIND_NAMES:
            tab = TagButton(text=kind_name(kind), tag=f"catalogue:kind:{kind}",
                            bg=SELECTED if kind == self.kind else BUTTON)
            tab.bind(on_release=lambda _b, k=kind: self.choose(k, None))
            tabs.add_widget(tab)
        body = self.ids.body
        body.clear_widgets()
        if self.record is None:
            self.title = _("Catalogue: {kind}").format(kind=kind_name(self.kind))
            body.cols = 3
            for row in self.browser.records(self.kind):
                text = (_("{component} · {count} unknown").format(component=row.label,
                                                                   count=row.unknown)
                        if row.unknown else row.label)
                button = TagButton(text=text, font_size=self._unit(15), shorten=False,
                                   tag=f"catalogue:record:{row.record}")
                button.bind(on_release=lambda _b, r=row.record: self.choose(self.kind, r))
                body.add_widget(button)
            return
        self.title = self.browser.label(self.kind, self.record)
        body.cols = 1
        for value in self.browser.values(self.kind, self.record):
            body.add_widget(self.value_line(value))

    def value_line(self, row: ValueRow) -> ValueLine:
        line = ValueLine(name=row.name, words=row.words, shown=row.shown, note=row.note,
                         rendering=row.rendering, key=row.key)
        actions = line.ids.actions
        for color in row.colors:
            button = TagButton(text=color_name(color), tag=f"catalogue:color:{color}",
                               bg=SPECIES_RGBA[color])
            button.bind(on_release=lambda _b, c=color: self.correct(row.key, c))
            actions.add_widget(button)
        if row.correctable and not row.colors:
            button = TagButton(text=_("Correct") if row.source != "unknown" else _("Enter"),
                               tag=f"catalogue:correct:{row.name}")
            button.bind(on_release=lambda _b: self.enter(row))
            actions.add_widget(button)
        return line

    def choose(self, kind: str, record: str | None) -> None:
        self.kind, self.record = kind, record
        self.ids.scroll.scroll_y = 1
        self.refresh()

    def enter(self, row: ValueRow) -> None:
        """A value on the value-entry component, kept in the overlay."""
        assert self.browser is not None

        def take(value: Any) -> str | None:
            if not self.keep(row.key, value):
                return self.browser.message if self.browser is not None else None
            Clock.schedule_once(lambda _dt: self.refresh(), 0)
            return None

        ask_value(self.browser.entry(row), take)

    def correct(self, key: str, value: Any) -> None:
        self.keep(key, value)
        self.refresh()

    def keep(self, key: str, value: Any) -> bool:
        """Keep a corrected value in the overlay and tell the session (the open game takes it);
        False: refused, the browser's message says why."""
        assert self.browser is not None
        if not self.browser.correct(key, value):
            return False
        App.get_running_app().session.catalogue_changed()
        return True

    def back(self) -> None:
        """From a component to its kind, from a kind to home."""
        if self.record is not None:
            self.choose(self.kind, None)
        else:
            App.get_running_app().open("home")

    @staticmethod
    def _unit(size: float) -> float:
        return App.get_running_app().unit * size

