"""The action screen: a tapped ship's flow (flows.py, shown by action_model.py) one decision at a
time as big buttons, a value the tiles print asked on the value-entry component (values.py) as
soon as an answer needs it, the preview, a refusal quoting the rule with Override…; then the
Diplomacy bonuses given by themselves (one line per player, OK) and each waiting player's
Diplomacy bonus prompt. The way on (Confirm, Done, OK), Back and Back to the table sit in a bar
at the bottom that never moves. Every confirmed step goes through the session (the one door) and
the store before the screen moves on.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.i18n import _
from companion.rules.commands import CommandDict
from companion.ui.kit.dice_camera import dice_watcher, keep_reading
from companion.ui.kit.values import ask_value
from companion.ui.kit.values_model import ValueEntry
from companion.ui.kit.widgets import (
    ACCENT,
    BUTTON,
    PLAYER_RGBA,
    PLAYER_TEXT,
    NotePopup,
    hex_color,
)
from companion.ui.play.action_model import ActionModel, camera_button, given_panel, prompt_panel
from companion.ui.play.answers import AnswerButton, ask_missing, show_answers
from companion.ui.play.flows.choices import Button, Panel
from companion.ui.play.flows.prompts import BonusPrompt, bonus_prompts
from companion.ui.play.flows.ships import ship_flow


class ActionScreen(Screen):
    """One decision at a time: the ship's panels, then the Diplomacy bonus prompts."""

    ship = StringProperty("")
    question = StringProperty("")
    lines = StringProperty("")
    message = StringProperty("")
    cols = NumericProperty(1)
    plate = ColorProperty(BUTTON)
    plate_text = ColorProperty((1, 1, 1, 1))
    prompting = BooleanProperty(False)  # a Diplomacy bonus is waiting: no way back
    camera = BooleanProperty(False)  # the camera's picture of the dice being entered is shown
    can_go_back = BooleanProperty(False)  # Back has an answer to take back

    model: ActionModel | None = None
    prompt: BonusPrompt | None = None
    prompt_group: str | None = None  # the group of bonus choices opened ("one": single ones)
    panel: Panel | None = None  # the panel on screen
    asked: tuple[str, str] | None = None  # the tile's value whose card was opened last
    given: tuple[str, list[tuple[str, str]]] | None = None  # who acted, the bonuses given

    def refresh(self) -> None:
        """Show the Diplomacy bonuses just given by themselves, else the waiting Diplomacy
        bonus prompt, else the tapped ship's next panel."""
        session = App.get_running_app().session
        if session.game is None or session.state["phase"] != "play":
            return
        game, state = session.game, session.state
        colors = {p["name"]: p["color"] for p in state["players"]}
        prompts = bonus_prompts(state, game.catalogue) if session.waiting() else []
        self.prompting = bool(prompts)
        if prompts:  # the bonuses given by themselves are read with the first prompt
            if self.prompt != prompts[0]:
                self.prompt_group = None
            self.ship, self.model, self.prompt = "", None, prompts[0]
            color = colors[self.prompt.player]
            panel = prompt_panel(self.prompt, color, self.prompt_group)
            if self.given is not None:
                panel = Panel(panel.title, panel.buttons, given_lines(self.given[1], colors))
            self.show_panel(panel, color)
        elif self.given is not None:
            player, given = self.given
            self.show_panel(given_panel(given, colors), colors[player])
        elif self.ship:
            if self.model is None or self.model.flow.ship["ship"] != self.ship:
                self.model = ActionModel(partial(ship_flow, state, game.catalogue, self.ship))
            self.show_panel(self.model.panel(), colors[self.model.flow.player])

    def show_panel(self, panel: Panel, color: str) -> None:
        """The question in the player's colour, the lines to read, one button per answer, the
        way on in the bar; a value the tile prints is asked on its card at once."""
        self.question, self.lines, self.cols = panel.title, "\n".join(panel.lines), panel.cols
        self.plate, self.plate_text = PLAYER_RGBA[color], PLAYER_TEXT[color]
        self.panel = panel
        self.can_go_back = (self.model is not None and self.model.can_go_back) \
            or self.prompt_group is not None
        self.show_buttons()
        if panel.asks is not None and panel.asks != self.asked:
            self.ask_tile_value(*panel.asks)
        self.asked = panel.asks

    def show_buttons(self) -> None:
        """The panel's answers in the grid (with the camera's), its way on in the bar."""
        assert self.panel is not None
        panel = self.with_camera(self.panel)
        forward = [b for b in panel.buttons if b.forward]
        show_answers(self.ids.choices, Panel(panel.title, [
            b for b in panel.buttons if not b.forward], cols=panel.cols), self.press)
        slot = self.ids.forward
        slot.clear_widgets()
        for button in forward[:1]:
            widget = AnswerButton(text=f"[b]{button.label}[/b]", markup=True, tag=button.tag,
                                  bg=ACCENT, opacity=1 if button.allowed else 0.55)
            widget.bind(on_release=lambda _w, b=button: self.press(b))
            slot.add_widget(widget)
        if not forward:
            slot.add_widget(Widget())

    def with_camera(self, panel: Panel) -> Panel:
        """While dice are entered and a camera is set up: the camera watches them, and its
        reading is an answer (with "Read again" once a picture is held); else no camera."""
        view = self.ids.camera
        camera = App.get_running_app().settings.camera
        if panel.reads is None or not camera.reads_dice:
            self.release_camera()
            return panel
        self.camera = True
        if view.dice is not panel.reads or view.watcher is None:
            view.watch(panel.reads, dice_watcher(camera), self.camera_changed)
        # the camera's reading first (the way on, in the bar); "Read again" after the faces,
        # which stay in their pairs
        again = [Button("action:camera-again", _("Read again"), ("camera-again",))] \
            if view.taken else []
        return Panel(panel.title, [camera_button(panel.reads, view.seen), *panel.buttons, *again],
                     panel.lines, panel.cols, panel.reads)

    def release_camera(self) -> None:
        """No camera reads here now: it is let go, and its problem leaves the status strip."""
        self.ids.camera.stop()
        self.camera = False
        App.get_running_app().camera_problem(None)

    def camera_changed(self) -> None:
        """The camera's count or held picture changed: its answers again; its problem (or
        none) in the status strip."""
        if self.camera and self.panel is not None:
            self.show_buttons()
        App.get_running_app().camera_problem(self.ids.camera.problem if self.camera else None)

    def read_dice(self) -> None:
        """The panel's Dice button: hold the camera's picture, then take its reading."""
        view = self.ids.camera
        if not self.camera:
            self.message = _("No camera is reading dice now.")
        elif not view.taken:
            view.take()
        elif self.panel is not None:
            self.press(camera_button(self.panel.reads, view.seen))

    def press(self, button: Button) -> None:
        """An answer: a disallowed one says why; Confirm, Override… and Back are done here,
        the rest answer the flow."""
        self.message = ""
        if not button.allowed:
            self.message = button.reason
            return
        kind = button.act[0]
        if kind == "ok":
            self.given = None
            self.leave()
            return
        if kind == "bonus" and self.prompt is not None:
            self.message = self.choose_bonus(self.prompt.command(button.act[1]))
            return
        if kind == "bonus-group":
            self.prompt_group = button.act[1]
            self.refresh()
            return
        assert self.model is not None
        if kind == "camera-again":
            self.ids.camera.again()
            return
        if kind == "camera":
            self.message = self.take_camera_dice()
        elif kind == "confirm":
            self.message = self.submit(self.model.flow.command())  # (it shows what comes next)
            return
        elif kind == "override":
            self.ask_override()
        elif kind == "value":
            self.ask_tile_value(button.act[1], button.act[2])
        else:
            self.message = self.model.press(button.act)
        self.refresh()

    def ask_tile_value(self, key: str, question: str) -> None:
        """A value the tile prints, on the value card; given, the flow goes on with it (the
        preview shows it, the command sends it)."""
        model = self.model
        if model is None:
            return

        def take(value: Any) -> None:
            model.give(key, value)
            self.refresh()

        catalogue = App.get_running_app().session.game.catalogue
        ask_value(ValueEntry(key, catalogue, question, model.values), take)

    def go_back(self) -> None:
        """Back: the last answer taken back (a group of bonus choices closed), the panel
        before it shown."""
        self.message = ""
        if self.prompt is not None:
            self.prompt_group = None
        elif self.model is not None:
            self.model.back()
        self.refresh()

    def take_camera_dice(self) -> str:
        """The camera's reading (as corrected) answers the dice; the photo and its labels are
        kept for improving the table's calibration ("" or why it was not taken)."""
        view = self.ids.camera
        found = self.model.press(("camera", view.seen))
        if not found and view.frame is not None:
            keep_reading(view.frame, view.seen, App.get_running_app().settings.camera.dice)
        view.stop()
        return found

    def submit(self, command: CommandDict) -> str:
        """Send a command through the session: done (back to the table, or the next prompt),
        refused by a rule (the rule is shown, with Override…), a value to give on the keypad,
        or why it was not done (not saved: the game is as it was)."""
        session = App.get_running_app().session
        outcome = session.send(command)
        if outcome.applied:
            given = self.model.flow.automatic_bonuses() if self.model is not None else []
            if given and self.model is not None:
                self.given = (self.model.flow.player, given)
                self.ship, self.model = "", None
                self.refresh()
            else:
                self.leave()
            return ""
        if outcome.missing:
            ask_missing(outcome, session.game.catalogue, self.submit)
        elif outcome.overridable and self.model is not None:
            self.model.outcome = outcome
        else:
            self.refresh()
            return outcome.problem
        self.refresh()
        return ""

    def choose_bonus(self, command: CommandDict) -> str:
        """Send a Diplomacy bonus choice through the session: done (the next prompt, or the
        table), refused (why), or what a level gives asked on the value-entry component and
        the choice sent again with it (as a ship's missing value)."""
        session = App.get_running_app().session
        outcome = session.send(command)
        if outcome.applied:
            self.given = None
            self.leave()
            return ""
        if outcome.missing:
            ask_missing(outcome, session.game.catalogue, self.choose_bonus)
            return ""
        return outcome.problem

    def answered_elsewhere(self, message: str) -> None:
        """A Diplomacy bonus was chosen on a phone: the prompt shown stays if it still waits
        (another player's was chosen), else the table goes on as after a choice here."""
        session = App.get_running_app().session
        prompts = bonus_prompts(session.state, session.game.catalogue) \
            if session.waiting() else []
        if self.prompting and prompts and prompts[0] == self.prompt:
            self.refresh()
            self.message = message
        elif self.prompting:
            self.given = None
            self.leave(message)
        else:
            self.message = message

    def ask_override(self) -> None:
        """Why the rule is overridden (recorded with the step), then the command again."""
        outcome = self.model.outcome if self.model is not None else None
        if outcome is None:
            return

        def override(reason: str) -> str:
            if not reason.strip():
                return _("Say why the rule is overridden.")
            return self.submit(outcome.override(reason))

        NotePopup(_("Why override?"), "", override).open()

    def leave(self, message: str | None = None) -> None:
        """Back to the table (which is this screen again while a bonus prompt waits), with
        `message` in its banner."""
        self.release_camera()
        self.ship, self.model, self.prompt = "", None, None
        App.get_running_app().open("table", message=message)

    def back(self) -> None:
        """Back to the table without doing anything (not while a bonus is to be chosen)."""
        self.message = ""
        self.leave()

    def confirm(self) -> None:
        """The button panel's Confirm: the panel's primary button, else say to choose."""
        button = primary(self.panel) if self.panel is not None else None
        if button is None:
            self.message = _("More than one answer: choose one on the screen.")
        else:
            self.press(button)


def primary(panel: Panel) -> Button | None:
    """A panel's primary button: its way on (Confirm, OK, Done), else its only allowed answer
    (Override… aside: an override needs its reason typed)."""
    forward = [b for b in panel.buttons if b.forward and b.act[0] != "override"]
    allowed = [b for b in panel.buttons if b.allowed and b.act[0] != "override"]
    return (forward or allowed)[0] if forward or len(allowed) == 1 else None


def given_lines(given: list[tuple[str, str]], colors: dict[str, str]) -> list[str]:
    """'Given by themselves: Ann 1 GEM', each name in the player's colour."""
    return [_("Given by themselves (one choice): {bonuses}").format(bonuses=", ".join(
        f"[b][color={hex_color(PLAYER_RGBA[colors[player]])}]{player}[/color][/b] {what}"
        for player, what in given))]


