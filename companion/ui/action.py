"""The action screen: a tapped ship's flow (flows.py, shown by action_model.py) one decision at a
time as big buttons, its preview with Confirm / Back, a refusal quoting the rule with Override…,
a missing value asked on the value-entry component (values.py); then each waiting player's
Diplomacy bonus prompt. Every confirmed step goes through the store before the screen moves on.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.rules.catalogue import Catalogue
from companion.ui.action_model import ActionModel, Button, Panel, prompt_panel
from companion.ui.flows import BonusPrompt, Outcome, bonus_prompts, send, ship_flow, undo
from companion.ui.table_model import undo_text
from companion.ui.values import ask_value
from companion.ui.values_model import ValueEntry
from companion.ui.widgets import (
    BUTTON,
    PLAYER_RGBA,
    PLAYER_TEXT,
    SELECTED,
    NamePopup,
    TagButton,
)


class AnswerButton(TagButton):
    """A big answer button (its text may take two lines)."""


class ActionScreen(Screen):
    """One decision at a time: the ship's panels, then the Diplomacy bonus prompts."""

    ship = StringProperty("")
    question = StringProperty("")
    lines = StringProperty("")
    message = StringProperty("")
    undo = StringProperty("")
    cols = NumericProperty(1)
    plate = ColorProperty(BUTTON)
    plate_text = ColorProperty((1, 1, 1, 1))
    prompting = BooleanProperty(False)  # a Diplomacy bonus is waiting: no way back

    model: ActionModel | None = None
    prompt: BonusPrompt | None = None
    panel: Panel | None = None  # the panel on screen

    def refresh(self) -> None:
        """Show the waiting Diplomacy bonus prompt, else the tapped ship's next panel."""
        session = App.get_running_app().session
        if session.game is None or session.state["phase"] != "play":
            return
        game, state = session.game, session.state
        steps = game.game.steps
        self.undo = undo_text(steps[-1].events) if steps else ""
        colors = {p["name"]: p["color"] for p in state["players"]}
        prompts = bonus_prompts(state, game.catalogue)
        self.prompting = bool(prompts)
        if prompts:
            self.ship, self.model, self.prompt = "", None, prompts[0]
            color = colors[self.prompt.player]
            self.show_panel(prompt_panel(self.prompt, color), color)
        elif self.ship:
            if self.model is None or self.model.flow.ship["ship"] != self.ship:
                self.model = ActionModel(ship_flow(state, game.catalogue, self.ship))
            self.show_panel(self.model.panel(), colors[self.model.flow.player])

    def show_panel(self, panel: Panel, color: str) -> None:
        """The question in the player's colour, the lines to read, one button per answer."""
        self.question, self.lines, self.cols = panel.title, "\n".join(panel.lines), panel.cols
        self.plate, self.plate_text = PLAYER_RGBA[color], PLAYER_TEXT[color]
        self.panel = panel
        listing = self.ids.choices
        listing.clear_widgets()
        for button in panel.buttons:
            widget = AnswerButton(text=button.label, tag=button.tag,
                                  bg=SELECTED if button.on else BUTTON,
                                  opacity=1 if button.allowed else 0.55)
            widget.bind(on_release=lambda _w, b=button: self.press(b))
            listing.add_widget(widget)

    def press(self, button: Button) -> None:
        """An answer: a disallowed one says why; Confirm, Override… and Back are done here,
        the rest answer the flow."""
        self.message = ""
        if not button.allowed:
            self.message = button.reason
            return
        kind = button.act[0]
        if kind == "bonus" and self.prompt is not None:
            self.message = App.get_running_app().session.execute(
                self.prompt.command(button.act[1]))
            if not self.message:
                self.leave()
            return
        assert self.model is not None
        if kind == "confirm":
            self.message = self.submit(self.model.flow.command())
        elif kind == "override":
            self.ask_override()
        elif kind == "back":
            self.model = None
        else:
            self.message = self.model.press(button.act)
        self.refresh()

    def submit(self, command: dict) -> str:
        """Send a command through the store: done (back to the table, or the next prompt),
        refused (the rule is shown, with Override…), or a value to give on the keypad."""
        game = App.get_running_app().session.game
        try:
            outcome = send(game.execute, command)
        except Exception as error:  # a failed commit: the game is as it was
            return str(error)
        if outcome.step is not None:
            self.leave()
            return ""
        if outcome.refused is not None and self.model is not None:
            self.model.outcome = outcome
        elif outcome.question is not None:
            self.ask_value(outcome, game.catalogue)
        self.refresh()
        return ""

    def ask_value(self, outcome: Outcome, catalogue: Catalogue) -> None:
        """The engine's question for a value the catalogue lacks, on the value-entry component
        (a number on the keypad; icons, objects by their parts); the command is sent again."""
        entry = ValueEntry(outcome.key or "", catalogue, outcome.question or "",
                           outcome.command.get("catalogue"))
        ask_value(entry, lambda value: self.submit(outcome.answer(value)) or None)

    def ask_override(self) -> None:
        """Why the rule is overridden (recorded with the step), then the command again."""
        outcome = self.model.outcome if self.model is not None else None
        if outcome is None:
            return

        def override(reason: str) -> str:
            if not reason.strip():
                return "Say why the rule is overridden."
            return self.submit(outcome.override(reason))

        NamePopup("Why override?", "", override).open()

    def take_back(self) -> None:
        """Undo the last step (named on the button), then the table."""
        self.message = App.get_running_app().session.execute(undo())
        self.leave()

    def leave(self) -> None:
        """Back to the table (which is this screen again while a bonus prompt waits)."""
        self.ship, self.model, self.prompt = "", None, None
        App.get_running_app().show("table")

    def back(self) -> None:
        """Back to the table without doing anything (not while a bonus is to be chosen)."""
        self.message = ""
        self.leave()

    def confirm(self) -> None:
        """The panel's Confirm button: the panel's primary button, else say to choose."""
        button = primary(self.panel) if self.panel is not None else None
        if button is None:
            self.message = "More than one answer: choose one on the screen."
        else:
            self.press(button)


def primary(panel: Panel) -> Button | None:
    """A panel's primary button: its Confirm, else its only allowed answer (Back and
    Override… aside: an override needs its reason typed)."""
    confirm = [b for b in panel.buttons if b.act[0] == "confirm"]
    allowed = [b for b in panel.buttons if b.allowed and b.act[0] not in ("back", "override")]
    return (confirm or allowed)[0] if confirm or len(allowed) == 1 else None

