"""What the button panel's live test shows (plain Python, tested without Kivy): a line per
button with how often it was pressed (the last one pressed marked), what state the panel is in
and what to do about a problem, and what the lights show at each step of their cycle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion import i18n
from companion.i18n import N_, _, ngettext
from companion.rules.words import COLOR_NAMES
from companion.ui.settings.settings_model import BUTTONS
from hardware.events import BUTTON_EVENTS, UNDO

# The settings' names of the buttons; a long press of Next turn reports Undo, as the Undo
# button does: one line says both.
BUTTON_WORDS = {**dict(BUTTONS), UNDO: N_("Undo, or Next turn held")}
LIGHT_COLOURS = {**COLOR_NAMES, "purple": N_("purple")}


@dataclass(frozen=True)
class CheckLine:
    """One button's line: its event name, the words shown, and whether it was pressed last."""

    name: str
    text: str
    last: bool


@dataclass(frozen=True)
class PanelState:
    """The panel's state in words, and whether it is a problem (shown in the problem colour)."""

    text: str
    trouble: bool


@dataclass
class PanelCheck:
    """The presses seen since the test opened: a count per button and the last one pressed."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(BUTTON_EVENTS, 0))
    last: str | None = None

    def record(self, name: str) -> bool:
        """Count a button event (True); anything else (a status event) is not a press (False)."""
        if name not in self.counts:
            return False
        self.counts[name] += 1
        self.last = name
        return True

    def lines(self) -> list[CheckLine]:
        """A line per button, in the panel's order, e.g. "Next turn: pressed 2 times"."""
        return [CheckLine(name, pressed_words(name, count), name == self.last)
                for name, count in self.counts.items()]


def pressed_words(name: str, count: int) -> str:
    """A button's line: its name in words and how often it was pressed."""
    button = i18n._(BUTTON_WORDS[name]) if name in BUTTON_WORDS else name
    if not count:
        return _("{button}: not pressed yet").format(button=button)
    return ngettext("{button}: pressed {count} time", "{button}: pressed {count} times",
                    count).format(button=button, count=count)


def panel_state(kind: str, problems: Sequence[str], ready: bool, hold_time: float) -> PanelState:
    """What the test says of the panel: none set up, its problems and what to do, still
    connecting, or ready with what to press."""
    if kind == "none":
        return PanelState(_("No button panel is set up: the game is played by touch only. To "
                            "test one, choose GPIO buttons or USB serial under Button panel, "
                            "then test it here."), True)
    if problems:
        advice = (_("Check the USB cable and the port chosen; the panel is picked up as soon "
                    "as it answers.") if kind == "serial" else
                  _("Check the pins chosen and the wiring: each button goes between its GPIO "
                    "pin and ground."))
        return PanelState(_("The panel has a problem: {problem} {advice}").format(
            problem=" · ".join(problems), advice=advice), True)
    if not ready:
        return PanelState(_("Waiting for the panel to answer…"), False)
    return PanelState(_("Press each button: each press shows here and the game does not move. "
                        "A long press of Next turn ({seconds} s) is Undo.").format(
                            seconds=f"{hold_time:g}"), False)


def colour_words(colour: str | None) -> str:
    """A light's colour in the player's language ("#rrggbb" as it is)."""
    if colour in LIGHT_COLOURS:
        return i18n._(LIGHT_COLOURS[colour])
    return colour or ""


def light_words(mode: str, colour: str | None, has_lights: bool = True) -> str:
    """What the lights show now (a hardware.lights.LightState's mode and colour), in words."""
    if not has_lights:
        return _("Lights: this panel has none to cycle.")
    if mode == "show" and colour:
        return _("Lights: {colour}").format(colour=colour_words(colour))
    if mode == "blink" and colour:
        return _("Lights: {colour}, blinking (waiting on a player)").format(
            colour=colour_words(colour))
    if mode == "game_end":
        return _("Lights: the game-end pattern")
    return _("Lights: off")
