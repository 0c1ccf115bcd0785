"""The setup screen: the setup wizard (setup_model.py) one decision at a time, on full-height
panels with a progress bar, Back, and the keypad for numbers. Layout in setup.kv.

It plays the app's open game (`app.session.game`, a new one when none is open) and, when setup
is done, goes to the table (`app.open("table")`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.rules.words import color_name
from companion.ui.kit.values import ValueCard, ask_card
from companion.ui.kit.widgets import (
    ACCENT,
    BUTTON,
    PANEL,
    PLAYER_RGBA,
    PLAYER_TEXT,
    SELECTED,
    SPECIES_RGBA,
    SPECIES_TEXT,
    KeypadPopup,
    NamePopup,
    TagButton,
    TagLabel,
    TagToggle,
    text_on,
)
from companion.ui.setup import setup_model as model

DIM = (0.6, 0.63, 0.7, 1)  # the text of a name not typed yet, and of a choice taken


def next_text(step: Any) -> str:
    """The words of the step's Next button ("" when it has none), in the language spoken
    now."""
    if isinstance(step, model.Bonuses):
        return _("Confirm") if step.ask is None else ""
    return {model.LayOut: _("Next"), model.Values: _("Next"),
            model.Start: _("To the table")}.get(type(step), "")


class SetupScreen(Screen):
    """A game's setup, from the players to the first turn."""

    title = StringProperty("")
    message = StringProperty("")
    next_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.wizard: model.SetupWizard | None = None
        self._shown = ""  # the title shown last
        self._card: ValueCard | None = None  # the values step's card, while it is open

    # -- the frame --------------------------------------------------------------------------

    def refresh(self) -> None:
        """Show the current step (a new game is begun when none is open)."""
        session = App.get_running_app().session
        if session.game is None:
            self.message = session.new_game()
            if session.game is None:
                return
        if self.wizard is None or self.wizard.game is not session.game:
            stored = session.store.games() if session.store is not None else []
            self.wizard = model.SetupWizard(session.game, session.send,
                                            [info.players for info in stored])
            if self.wizard.name == "Players":  # a new game: the first name is typed first
                Clock.schedule_once(lambda _dt: self.name_keyboard(0), 0)
        step = self.wizard.step
        self.title = step.title
        self.message = self.wizard.message
        self.next_text = next_text(step)
        self._progress()
        if self.title != self._shown:
            self.ids.scroll.scroll_y = 1  # a new question starts at the top
            self._shown = self.title
        body = self.ids.body
        body.clear_widgets()
        body.cols = 1
        SHOW[type(step)](self, step)

    def _progress(self) -> None:
        bar = self.ids.progress
        bar.clear_widgets()
        steps = self.wizard.steps()
        now = steps.index(self.wizard.name)
        for index, name in enumerate(steps):
            label = TagLabel(text=model.step_name(name), tag=f"setup:progress:{name}",
                             font_size=self._unit(13), shorten=False)
            label.bind(size=lambda lb, size: setattr(lb, "text_size", (size[0], None)))
            label.bg = ACCENT if index == now else (SELECTED if index < now else (0, 0, 0, 0))
            if index <= now:  # on a fill of its own: black or white by contrast
                label.color = text_on(label.bg)
            label.bold = index == now
            bar.add_widget(label)

    @staticmethod
    def _unit(size: float) -> float:
        return App.get_running_app().unit * size

    def act(self, action: Callable[[], Any]) -> None:
        """Do something on the wizard, then show where it leads."""
        action()
        self.refresh()

    def back(self) -> None:
        self.act(self.wizard.back)

    def next(self) -> None:
        """The Next / Confirm / To the table button."""
        step = self.wizard.step
        if isinstance(step, model.Start):
            App.get_running_app().open("table")
        elif isinstance(step, model.Bonuses):
            self.act(step.confirm)
        elif isinstance(step, model.Values):
            self.act(step.next)
        else:
            self.act(step.done)

    # -- building blocks --------------------------------------------------------------------

    def _grid(self, cols: int, height: float = 56) -> GridLayout:
        grid = GridLayout(cols=cols, spacing=self._unit(6), size_hint_y=None,
                          row_force_default=True, row_default_height=self._unit(height))
        grid.bind(minimum_height=grid.setter("height"))
        self.ids.body.add_widget(grid)
        return grid

    def _line(self, text: str, tag: str = "", height: float = 34) -> None:
        label = TagLabel(text=text, tag=tag, halign="left", size_hint_y=None,
                         height=self._unit(height), font_size=self._unit(18))
        self.ids.body.add_widget(label)

    def _button(self, grid: GridLayout, text: str, tag: str, on_tap: Callable[[], Any],
                **style: Any) -> TagButton:
        button = TagButton(text=text, tag=tag, **style)
        button.bind(on_release=lambda _b: self.act(on_tap))
        grid.add_widget(button)
        return button

    def keypad(self, title: str, take: Callable[[int], Any], value: int | None = None) -> None:
        """Ask a number; `take` returns True when accepted (else the wizard says why)."""
        def accept(number: int) -> str | None:
            if not take(number) and self.wizard.message:
                return self.wizard.message
            Clock.schedule_once(lambda _dt: self.refresh(), 0)
            return None
        KeypadPopup(title, value, accept).open()

    # -- the steps ---------------------------------------------------------------------------

    def show_players(self, step: model.Players) -> None:
        for index, player in enumerate(step.players):
            row = self._grid(6)
            row.cols_minimum = {0: self._unit(190)}
            name = player["name"]
            field = self._button(row, name or _("Player {number}").format(number=index + 1),
                                 f"setup:name:{index}", lambda i=index: self.name_keyboard(i),
                                 bg=PANEL, font_size=self._unit(22))
            field.color = (1, 1, 1, 1) if name else DIM
            for color in step.colors:
                chosen = player["color"] == color
                said = color_name(color)
                button = self._button(row, f"[b]{said.upper()}[/b]" if chosen else said,
                                      f"setup:color:{index}:{color}",
                                      lambda i=index, c=color: step.set_color(i, c))
                button.bg = PLAYER_RGBA[color] if chosen else [c * 0.45 for c in
                                                               PLAYER_RGBA[color][:3]] + [1]
                button.color = PLAYER_TEXT[color] if chosen else (1, 1, 1, 1)
            self._button(row, _("Remove"), f"setup:remove:{index}",
                         lambda i=index: step.remove(i))
        if len(step.players) < max(step.counts):
            self._button(self._grid(1), _("Add a player"), "setup:add",
                         lambda: self.add_player(step))
        self._line(_("How do you play? (tap to go on)"), "setup:how")
        modes = self._grid(len(step.modes) + 1, height=60)
        modes.cols_minimum = {0: self._unit(140)}
        friendly = TagToggle(text=_("Friendly variant"), tag="setup:option:friendly",
                             state="down" if step.choices["friendly"] else "normal",
                             font_size=self._unit(16), shorten=False, size_hint_x=None,
                             width=self._unit(140))
        friendly.bind(on_release=lambda _b: self.act(step.toggle_friendly))
        modes.add_widget(friendly)
        for mode, words in step.modes.items():
            self._button(modes, f"[b]{words}[/b]", f"setup:mode:{mode}",
                         lambda m=mode: step.done(m), bg=ACCENT, font_size=self._unit(16),
                         shorten=False)

    def add_player(self, step: model.Players) -> None:
        """A row for one more player, their name typed at once."""
        self.act(step.add)
        self.name_keyboard(len(step.players) - 1)

    def name_keyboard(self, index: int) -> None:
        """Type player `index`'s name on the on-screen keyboard (a USB keyboard types there
        too; the wizard says what is wrong with it, if anything); OK goes on to the next
        player without a name."""
        step = self.wizard.step if self.wizard is not None else None
        if not isinstance(step, model.Players) or index >= len(step.players):
            return

        def take(name: str) -> str | None:
            problem = step.name_problem(index, name)
            if problem is None:
                step.set_name(index, name)
                Clock.schedule_once(lambda _dt: self._after_name(index), 0)
            return problem
        NamePopup(_("Player {number}'s name").format(number=index + 1),
                  step.players[index]["name"], take, step.recent(index)).open()

    def _after_name(self, index: int) -> None:
        self.refresh()
        step = self.wizard.step
        after = step.unnamed(index) if isinstance(step, model.Players) else None
        if after is not None:
            self.name_keyboard(after)

    def show_lay_out(self, step: model.LayOut) -> None:
        for number, line in enumerate(step.lines):
            self._line(line, f"setup:line:{number}", height=28)
        self._line(_("Aliens counted: {counted} of {count}").format(
            counted=step.counted, count=step.table["aliens"]), "setup:counted", height=28)
        for color, count in step.aliens.items():
            row = self._grid(len(step.numbers) + 2, height=50)
            said = color_name(color)
            shown = said if count is None else f"{said}: {count}"
            if color == step.rest:  # what the others leave: in italics
                shown = f"[i]{shown}[/i]"
            label = TagLabel(text=f"[b]{shown}[/b]", markup=True, bg=SPECIES_RGBA[color],
                             color=SPECIES_TEXT.get(color, (1, 1, 1, 1)),
                             tag=f"setup:aliens:{color}", font_size=self._unit(17))
            row.add_widget(label)
            row.cols_minimum = {0: self._unit(110), len(step.numbers) + 1: self._unit(90)}
            for number in step.numbers:
                chosen = number == count
                self._button(row, f"[b]{number}[/b]" if chosen else str(number),
                             f"setup:aliens:{color}:{number}",
                             lambda c=color, n=number: step.set_aliens(c, n),
                             bg=SELECTED if chosen else BUTTON)
            other = TagButton(text=_("Other…"), tag=f"setup:aliens:{color}:other",
                              font_size=self._unit(17))
            other.bind(on_release=lambda _b, c=color: self.keypad(
                _("How many {color} Aliens were drawn?").format(color=color_name(c)),
                lambda n, c=c: step.set_aliens(c, n) or True, step.aliens[c]))
            row.add_widget(other)

    def show_display(self, step: model.Display) -> None:
        laid = self._grid(3, height=30)
        for index, (stack, numbers) in enumerate(step.laid()):
            level, color = stack
            shown = ", ".join(map(str, numbers)) if numbers else "–"
            laid.add_widget(TagLabel(
                text=_("Level-{level} {color}: {numbers}").format(
                    level=level, color=model.stack_color(color), numbers=shown),
                tag=f"setup:stack:{index}", halign="left", font_size=self._unit(15),
                bg=SELECTED if stack == step.stack else PANEL))
        picked = step.picked
        grid = self._grid(4, height=64)
        for number in step.numbers:
            chosen = number in picked
            self._button(grid, f"[b]{number}[/b]", f"setup:sector:{number}",
                         lambda n=number: step.tap(n), bg=ACCENT if chosen else BUTTON,
                         font_size=self._unit(28))

    def show_picks(self, step: Any) -> None:
        if isinstance(step, model.Pick):
            self._line(_("Snake order: {players}").format(players=", ".join(step.order)),
                       "setup:order")
        if isinstance(step, model.Reveal) and step.entries:
            self._line(_("So far: {value}").format(
                value=", ".join(map(step.describe, step.entries))), "setup:so-far")
        choices = step.choices
        cols = 1 if isinstance(step, model.Sets) else 3 if len(choices) < 10 else 6
        grid = self._grid(cols)
        for choice in choices:
            button = self._button(grid, choice.words, f"setup:choice:{choice.value}",
                                  lambda c=choice.value: step.choose(c),
                                  font_size=self._unit(18 if cols < 6 else 17), shorten=False)
            button.disabled = not choice.free
            if not choice.free:
                button.bg, button.color = PANEL, DIM

    def show_values(self, step: model.Values) -> None:
        """The current component's card over the screen (values.ask_card): taken, skipped or
        left for play, the wizard moves on and the next card opens."""
        component = step.current
        if component is None:
            self._line(_("The catalogue knows every value these components need."))
            return
        self._line(step.progress, "setup:values-progress")
        if self._card is not None:
            return

        def taken(values: dict[str, Any]) -> str | None:
            if not step.take(values):
                return self.wizard.message if self.wizard else None
            self._moved()
            return None

        def moved(move: Callable[..., Any]) -> Callable[..., None]:
            return lambda *values: (move(*values), self._moved())

        self._card = ask_card(step.card(), taken, skip=moved(step.skip_component),
                              later=moved(step.done), back=moved(self.wizard.back),
                              progress=step.progress, done=step.part_done)

    def _moved(self) -> None:
        """The values card closed: the next card (or step) once it is gone."""
        self._card = None
        Clock.schedule_once(lambda _dt: self.refresh(), 0)

    def show_bonuses(self, step: model.Bonuses) -> None:
        ask = step.ask
        if ask is None:
            for number, line in enumerate(step.lines):
                self._line(line, f"setup:line:{number}")
            if not step.lines:
                self._line(_("Hub {hub}'s resources and bonuses, as on its back.").format(
                    hub=step.hub))
            return
        sectors = all(isinstance(choice, int) for choice in ask.offered)
        grid = self._grid(6 if sectors and len(ask.offered) > 8 else 4,
                          height=64 if sectors else 56)
        style = {"font_size": self._unit(28)} if sectors else {}
        for choice in ask.offered:  # a Sector by the number on its tile, as on display
            self._button(grid, f"[b]{choice}[/b]" if sectors else step.describe(choice),
                         f"setup:choice:{choice}", lambda c=choice: step.choose(c), **style)

    def show_answer(self, step: model.Answer) -> None:
        """The component's card over the screen at once (values.ask_card); closed with
        Cancel, the button opens it again."""
        grid = self._grid(1)
        button = TagButton(text=_("Enter what the tile prints"), tag="setup:card", bg=ACCENT)
        button.bind(on_release=lambda _b: self._answer_card(step))
        grid.add_widget(button)
        if self._card is None:
            self._answer_card(step)

    def _answer_card(self, step: model.Answer) -> None:
        def taken(values: dict[str, Any]) -> str | None:
            if not step.enter(values) and self.wizard and self.wizard.message:
                return self.wizard.message  # refused: said on the card, kept open
            self._moved()  # sent, or the engine asks another value: the next panel
            return None

        self._card = ask_card(step.card(), taken)
        self._card.bind(on_dismiss=lambda *_a: setattr(self, "_card", None))

    def show_start(self, step: model.Start) -> None:
        for number, line in enumerate(step.lines):
            self._line(line, f"setup:line:{number}")


SHOW: dict[type, Callable[[SetupScreen, Any], None]] = {
    model.Players: SetupScreen.show_players,
    model.LayOut: SetupScreen.show_lay_out, model.Display: SetupScreen.show_display,
    model.Sets: SetupScreen.show_picks, model.DealHubs: SetupScreen.show_picks,
    model.Reveal: SetupScreen.show_picks, model.Pick: SetupScreen.show_picks,
    model.ChooseHub: SetupScreen.show_picks, model.Values: SetupScreen.show_values,
    model.Bonuses: SetupScreen.show_bonuses, model.Answer: SetupScreen.show_answer,
    model.Start: SetupScreen.show_start,
}
