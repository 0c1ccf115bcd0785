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
from kivy.uix.textinput import TextInput

from companion.i18n import _
from companion.rules.words import color_name
from companion.ui.kit.values import ValueCard, ask_card, ask_value
from companion.ui.kit.values_model import ValueEntry
from companion.ui.kit.widgets import (
    ACCENT,
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


def next_text(step: Any) -> str:
    """The words of the step's Next button ("" when it has none), in the language spoken
    now."""
    if isinstance(step, model.Bonuses):
        return _("Confirm") if step.ask is None else ""
    return {model.Players: _("Next"), model.Options: _("Next"), model.LayOut: _("Start"),
            model.Values: _("Next"), model.Start: _("To the table")}.get(type(step), "")


class TagInput(TextInput):
    """A one-line text field with a tag (names, typed on a USB keyboard)."""

    tag = StringProperty("")


class NameKeyboard(NamePopup):
    """The on-screen name keyboard with the letters German names need (Ü Ö Ä ß): a table with
    only a touchscreen types its names here."""

    ROWS = ("QWERTYUIOPÜ", "ASDFGHJKLÖÄ", "ZXCVBNMß-")


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
            self.wizard = model.SetupWizard(session.game, session.send)
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

    def _grid(self, cols: int) -> GridLayout:
        grid = GridLayout(cols=cols, spacing=self._unit(6), size_hint_y=None,
                          row_force_default=True, row_default_height=self._unit(56))
        grid.bind(minimum_height=grid.setter("height"))
        self.ids.body.add_widget(grid)
        return grid

    def _line(self, text: str, tag: str = "") -> None:
        label = TagLabel(text=text, tag=tag, halign="left", size_hint_y=None,
                         height=self._unit(34), font_size=self._unit(18))
        self.ids.body.add_widget(label)

    def _button(self, grid: GridLayout, text: str, tag: str, on_tap: Callable[[], Any],
                **style: Any) -> TagButton:
        button = TagButton(text=text, tag=tag, **style)
        button.bind(on_release=lambda _b: self.act(on_tap))
        grid.add_widget(button)
        return button

    def keypad(self, title: str, take: Callable[[int], Any], value: int | None = None,
               again: bool = False) -> None:
        """Ask a number; `take` returns True when accepted (else the wizard says why). With
        `again`, the keypad comes back for the next number while the step asks one."""
        def accept(number: int) -> str | None:
            if not take(number) and self.wizard.message:
                return self.wizard.message
            Clock.schedule_once(lambda _dt: self._after_keypad(again), 0)
            return None
        KeypadPopup(title, value, accept).open()

    def _after_keypad(self, again: bool) -> None:
        self.refresh()
        entry = self._number_entry(self.wizard.step)
        if again and entry is not None:
            entry()

    def _number_entry(self, step: Any) -> Callable[[], None] | None:
        """The keypad for a step that asks a number now (None: it asks none)."""
        if isinstance(step, model.Display):
            return lambda: self.keypad(step.title, step.enter, again=True)
        if isinstance(step, model.Bonuses) and step.ask and step.ask.offered is None:
            return lambda: self.keypad(step.title, step.choose, again=True)
        return None

    def _number_button(self, step: Any) -> None:
        entry = self._number_entry(step)
        grid = self._grid(1)
        button = TagButton(text=_("Type the number"), tag="setup:keypad", bg=ACCENT)
        button.bind(on_release=lambda _b: entry())
        grid.add_widget(button)

    # -- the steps ---------------------------------------------------------------------------

    def show_players(self, step: model.Players) -> None:
        for index, player in enumerate(step.players):
            row = self._grid(7)
            row.cols_minimum = {0: self._unit(150)}
            name = TagInput(text=player["name"], tag=f"setup:name:{index}", multiline=False,
                            hint_text=_("Player {number}").format(number=index + 1),
                            font_size=self._unit(22))
            name.bind(text=lambda _f, text, i=index: step.set_name(i, text))
            row.add_widget(name)
            keys = self._button(row, _("Keys"), f"setup:keyboard:{index}",
                                lambda i=index: self.name_keyboard(step, i))
            keys.size_hint_x, keys.width = None, self._unit(64)
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
            self._button(self._grid(1), _("Add a player"), "setup:add", step.add)

    def name_keyboard(self, step: model.Players, index: int) -> None:
        """Type player `index`'s name on the on-screen keyboard (the wizard says what is
        wrong with it, if anything)."""
        def take(name: str) -> str | None:
            problem = step.name_problem(index, name)
            if problem is None:
                step.set_name(index, name)
                Clock.schedule_once(lambda _dt: self.refresh(), 0)
            return problem
        NameKeyboard(_("Player {number}'s name").format(number=index + 1),
                     step.players[index]["name"], take).open()

    def show_options(self, step: model.Options) -> None:
        grid = self._grid(1)
        for option, words in step.names.items():
            toggle = TagToggle(text=words, tag=f"setup:option:{option}",
                               state="down" if step.choices[option] else "normal")
            toggle.bind(on_release=lambda _b, o=option: self.act(lambda: step.toggle(o)))
            grid.add_widget(toggle)

    def show_lay_out(self, step: model.LayOut) -> None:
        for number, line in enumerate(step.lines):
            self._line(line, f"setup:line:{number}")
        self._line(_("Aliens counted: {counted} of {count}").format(
            counted=step.counted, count=step.table["aliens"]), "setup:counted")
        grid = self._grid(len(step.aliens))
        for color, count in step.aliens.items():
            shown = "?" if count is None else count
            button = TagButton(text=f"{color_name(color)}: {shown}",
                               tag=f"setup:aliens:{color}", bg=SPECIES_RGBA[color])
            button.color = SPECIES_TEXT.get(color, (1, 1, 1, 1))
            button.bind(on_release=lambda _b, c=color: self.keypad(
                _("How many {color} Aliens were drawn?").format(color=color_name(c)),
                lambda n, c=c: step.set_aliens(c, n) or True, step.aliens[c]))
            grid.add_widget(button)

    def show_display(self, step: model.Display) -> None:
        for index, stack in enumerate(step.stacks):
            numbers = step.entries[index * step.per_stack:(index + 1) * step.per_stack]
            if numbers:
                self._line(_("Level-{level} {color}: {numbers}").format(
                    level=stack[0], color=color_name(stack[1]),
                    numbers=", ".join(map(str, numbers))), f"setup:stack:{index}")
        self._number_button(step)

    def show_picks(self, step: Any) -> None:
        if isinstance(step, model.Pick):
            self._line(_("Snake order: {players}").format(players=", ".join(step.order)),
                       "setup:order")
        if isinstance(step, model.Reveal | model.DealHubs) and step.entries:
            self._line(_("So far: {value}").format(
                value=", ".join(map(step.describe, step.entries))), "setup:so-far")
        describe = step.describe
        offered = step.offered
        grid = self._grid(1 if isinstance(step, model.Sets) else 4 if len(offered) < 13 else 6)
        for choice in offered:
            self._button(grid, describe(choice), f"setup:choice:{choice}",
                         lambda c=choice: step.choose(c))

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

    def ask(self, entry: ValueEntry, take: Callable[[Any], bool]) -> None:
        """A value on the value-entry component; `take` returns True when the wizard keeps it
        (else its message says why)."""
        def taken(value: Any) -> str | None:
            if not take(value) and self.wizard.message:
                return self.wizard.message
            Clock.schedule_once(lambda _dt: self.refresh(), 0)
            return None
        ask_value(entry, taken)

    def show_bonuses(self, step: model.Bonuses) -> None:
        ask = step.ask
        if ask is None:
            for number, line in enumerate(step.lines):
                self._line(line, f"setup:line:{number}")
            if not step.lines:
                self._line(_("Hub {hub}'s resources and bonuses, as on its back.").format(
                    hub=step.hub))
            return
        if ask.offered is None:
            self._number_button(step)
            return
        grid = self._grid(4)
        for choice in ask.offered:
            self._button(grid, step.describe(choice), f"setup:choice:{choice}",
                         lambda c=choice: step.choose(c))

    def show_answer(self, step: model.Answer) -> None:
        grid = self._grid(1)
        button = TagButton(text=_("Enter the value"), tag="setup:keypad", bg=ACCENT)
        button.bind(on_release=lambda _b: self.ask(step.entry, step.enter))
        grid.add_widget(button)

    def show_start(self, step: model.Start) -> None:
        for number, line in enumerate(step.lines):
            self._line(line, f"setup:line:{number}")


SHOW: dict[type, Callable[[SetupScreen, Any], None]] = {
    model.Players: SetupScreen.show_players, model.Options: SetupScreen.show_options,
    model.LayOut: SetupScreen.show_lay_out, model.Display: SetupScreen.show_display,
    model.Sets: SetupScreen.show_picks, model.DealHubs: SetupScreen.show_picks,
    model.Reveal: SetupScreen.show_picks, model.Pick: SetupScreen.show_picks,
    model.ChooseHub: SetupScreen.show_picks, model.Values: SetupScreen.show_values,
    model.Bonuses: SetupScreen.show_bonuses, model.Answer: SetupScreen.show_answer,
    model.Start: SetupScreen.show_start,
}
