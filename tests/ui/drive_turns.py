"""Driver: every turn of an example game (examples/*.jsonl) played by touch, with the taps each
turn takes counted; run in the real app under Xvfb by tests/ui/play/test_turn_taps.py and by
tools/bench_turn_taps.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_turns.py three-players-draft --db /tmp/g.sqlite

The scenario is the example's name; with "-from-new-game" after it, the game is set up by touch
from Home's New game first, in the same run (drive_setup.set_up_by_touch: the values the tiles
print are then the app's catalogue overlay's, in its data folder), and the setup's taps are
`result["setup_taps"]`. Else the driver first stores the example's setup (its lines
through the last `starting_bonus`) into the new game database --db names (`store_setup`), with
every value the example's lines give in "catalogue" moved onto its first line (`known_first`),
so the tiles' values are known before the turns and nothing is typed. Then it plays each
turn's lines as a table would tap them: the ship (or Income) on the table, each panel answered
with the button the line's fields name, the Diplomacy bonuses chosen, Next. Which button
answers a field is the one table TAPS (the tags of companion/ui/play/flows/*.py); the driver
reads the buttons on screen and taps the ones that match, so it follows the panels in whatever
order the app asks them. A panel with no button for what the line still needs, a refusal, or a
value asked although the line gives it fails the run, naming the screen's title and its
buttons. Where a line carries `rerolls`, the dice rolled before a reroll are not in the line:
the final roll's counts are entered first, and after each reroll (which starts from the
counts read) "These N dice" takes them as they are.

`robot.result["turns"]`: per turn, who played what, the taps from just after one Next to the
next Next (Next included), the taps per panel (its title) and the buttons that had to be
scrolled into view first (a swipe, not counted as a tap). At the end the game's whole state
is compared with the engine's replay of the example as its file has it (`differences`: every
field); any difference fails.
Prints `DRIVER-RESULT {...}` as its last stdout line.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# tests/ (for ui_fixtures) after the project itself: its tests/hardware folder must not
# stand in for the hardware package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dice_taps import capacity_in, keep_taps
from drive_setup import set_up_by_touch
from harness import DriverError, Robot, Steps, in_view, plain, run
from ui_fixtures import EXAMPLES, replayed

from companion.files import read_script
from companion.rules.script import parse
from companion.rules.state import State

Command = dict[str, Any]
MOST_TAPS = 80  # a line needing more taps than this is stuck on a panel


# -- the example's lines ---------------------------------------------------------------------

def known_first(commands: Sequence[Command]) -> list[Command]:
    """The lines with every "catalogue" value they give moved onto the first line: the values
    the tiles print are known from the start, as when they were entered with the setup."""
    moved: list[Command] = [{k: v for k, v in c.items() if k != "catalogue"} for c in commands]
    known: dict[str, Any] = {}
    for command in commands:
        known.update(command.get("catalogue", {}))
    if moved and known:
        moved[0]["catalogue"] = known
    return moved


def script_lines(example: str) -> list[Command]:
    """An example's commands, as examples/<example>.jsonl has them."""
    return [line.command for line in parse(read_script(EXAMPLES / f"{example}.jsonl"))]


def example_lines(example: str) -> list[Command]:
    """An example's commands, values known first (`known_first`): the lines played."""
    return known_first(script_lines(example))


def setup_length(commands: Sequence[Command]) -> int:
    """How many lines the setup takes: through the last `starting_bonus`."""
    return max(i for i, c in enumerate(commands) if c["cmd"] == "starting_bonus") + 1


def split_turns(commands: Sequence[Command]) -> list[list[Command]]:
    """The lines after the setup, one list per turn (each ends with its `end_turn`)."""
    turns: list[list[Command]] = [[]]
    for command in commands[setup_length(commands):]:
        turns[-1].append(command)
        if command["cmd"] == "end_turn":
            turns.append([])
    if turns[-1]:
        raise ValueError(f"the lines after the last end_turn are no turn: {turns[-1]}")
    return turns[:-1]


def store_setup(db: Path, example: str) -> None:
    """Store the example's setup lines (values known first) into the game database `db`, one
    command at a time through the app's session, as `phoenix-companion replay FILE --db` does
    (tests/ui_fixtures.replayed, given the setup as a script next to `db`)."""
    commands = example_lines(example)
    script = db.parent / f"{example}-setup.jsonl"
    script.write_text("".join(json.dumps(c) + "\n" for c in commands[:setup_length(commands)]),
                      encoding="utf-8")
    replayed(db, str(script))


def engine_state(commands: Sequence[Command]) -> State:
    """The state the engine reaches replaying the lines (the example's own, each value on the
    line that gives it), on the shipped catalogue alone."""
    from companion.catalogue_files import load_catalogue
    from companion.rules.game import Game

    with tempfile.TemporaryDirectory() as folder:  # no overlay: never the user's
        game = Game(load_catalogue(overlay=Path(folder) / "overlay.json"))
        for command in commands:
            game.execute(command)
    return game.state


def differences(expected: Any, found: Any, where: str = "state") -> list[str]:
    """Every place where `found` is not `expected`, as 'state.players.0.gems: 3 != 4'."""
    if isinstance(expected, dict) and isinstance(found, dict):
        return [d for key in sorted(set(expected) | set(found), key=str)
                for d in differences(expected.get(key, "<none>"), found.get(key, "<none>"),
                                     f"{where}.{key}")]
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        return [d for i, (e, f) in enumerate(zip(expected, found))
                for d in differences(e, f, f"{where}.{i}")]
    return [] if expected == found else [f"{where}: {expected!r} != {found!r}"]


# -- which button answers a line's field -----------------------------------------------------

@dataclass(frozen=True)
class Want:
    """One tap a line's field asks for: what it is (for messages), which button on screen
    gives it (its tag, text, and the panel's title), and whether it may be missing (a step
    only some screens have)."""

    what: str
    match: Callable[[str, str, str], bool]
    optional: bool = False


def tag(name: str, *others: str) -> Want:
    """The button tagged `name` (or one of `others`: the same answer on another screen)."""
    return Want(name, lambda t, _text, _title: t in (name, *others))


def starting(prefix: str) -> Want:
    """The first button whose tag starts with `prefix` (the one place there is to choose)."""
    return Want(f"{prefix}*", lambda t, _text, _title: t.startswith(prefix))


def asked_of(source: str, prefix: str, text: str | None, card: str | None = None) -> Want:
    """An ability's answer: on the action screen a `prefix` button (showing `text`, when
    given) on the panel that names `source`; at income the button tagged `card` on the
    power's card, where it has one."""
    return Want(card or f"{prefix} {text or ''} ({source})", lambda t, shown, title: (
        t == card or (t.startswith(prefix) and text in (None, shown) and source in title)))


class KeptDice:
    """The taps of the kept-dice panel (tests/ui/dice_taps.py: which `keep:FACE:N` answer the
    line's dice kept, from every die rolled kept), worked out once the panel shows the
    capacity in its title; "Keep these" is the panel's way on (FORWARD) where they need it."""

    def __init__(self, rolled: Sequence[str], kept: Sequence[str]) -> None:
        self.rolled, self.kept = Counter(rolled), Counter(kept)
        self.taps: list[str] | None = None
        # one per face whose count kept is not its count rolled, two more where every order
        # would make the capacity too early (dice_taps: a face taken lower first)
        self.least = sum(1 for f, n in self.rolled.items() if self.kept[f] != n)

    def tap(self, index: int, title: str) -> str | None:
        if self.taps is None:
            taps, _keep_these = keep_taps(self.rolled, self.kept, capacity_in(title))
            self.taps = [f"keep:{face}:{n}" for face, n in taps]
        return self.taps[index] if index < len(self.taps) else None

    def wants(self) -> list[Want]:
        return [Want(f"kept dice, tap {i + 1}",
                     lambda t, _text, title, i=i: t.startswith("keep:") and t == self.tap(i, title),
                     optional=i >= self.least) for i in range(self.least + 2)]


def dice(detail: Command, where: Any) -> list[Want]:
    """How many dice show each face rolled (the last face of four is the rest: no tap), and
    after each reroll the dice as they now lie (the line gives only the last roll: "These N
    dice"), which are kept (the panel starts with all kept: the faces put back, KeptDice), how
    many Humans kept are recruited (the first ones; the rest observed) and where each goes (the
    next of `where`, when the line says where)."""
    counts = list(Counter(detail["rolled"]).items())
    faces = [Want(f"die:{face}:{n}", lambda t, _text, _title, name=f"die:{face}:{n}":
                  t == name, optional=i == len(counts) - 1)
             for i, (face, n) in enumerate(counts)]
    wants = faces + [tag("action:reroll"), tag("action:dice")] * detail.get("rerolls", 0)
    wants += KeptDice(detail["rolled"], detail["keep"]).wants()
    plans = detail.get("humans", [])
    recruits = plans.count("recruit")
    places = [*(where if isinstance(where, list) else [where] if where is not None else []),
              *[None] * recruits][:recruits]
    if plans:
        # one recruited, where the engine offers a choice: the place is on its button;
        # none recruited and Recruit refused: they are observed without asking
        first = places[0] if recruits == 1 else None
        wants.append(Want(f"humans:{recruits}", lambda t, _text, _title, n=recruits, p=first:
                          t == f"humans:{n}" or (n == 1 and (
                              t == f"humans:1:{p}" if p is not None
                              else t.startswith("humans:1:"))),
                          optional=recruits == 0))
    for place in places if recruits > 1 else []:
        want = starting("human-to:") if place is None else tag(f"human-to:{place}")
        # one place only: the Human goes there without asking
        wants.append(Want(want.what, want.match, optional=True))
    return wants


def transaction(item: Command) -> list[Want]:
    """An Alien by colour (gold: "gold") to where the line says, a trade, a purchase; each
    behind the button that opens its group, where the panel groups them (optional taps)."""
    def opener(name: str) -> Want:
        return Want(name, lambda t, _text, _title: t == name, optional=True)

    if item["type"] in ("alien", "gold"):
        color = item.get("color", "gold")
        return [opener(f"alien:{color}"), tag(f"alien:{color}:{item['where']}")
                if "where" in item else starting(f"alien:{color}:")]
    if item["type"] == "trade":
        pay = sorted(item["pay"], key=("food", "water", "metal").index)
        return [opener("group:trade"), opener(f"trade-for:{item['gain']}"),
                tag(f"trade:{'+'.join(pay)}:{item['gain']}")]
    return [opener("group:buy"), tag(f"buy:{item['gain']}")]


def bonus_action(source: str, detail: Any, command: Command) -> list[Want]:
    """A bonus action's details: dice, transactions (at income behind the card's Enter),
    tracks or a pick (one tap; at income on the power's card)."""
    from companion.ui.play.flows.choices import value_tag

    enter = Want(f"power:{source}:enter", lambda t, _x, _y: t == f"power:{source}:enter", True)
    if isinstance(detail, dict) and "rolled" in detail:
        return [enter, *dice(detail, command.get("where", {}).get("human"))]
    if isinstance(detail, list) and all(isinstance(item, dict) for item in detail):
        return [enter, *(want for item in detail for want in transaction(item))]
    if isinstance(detail, list):
        return [tag(f"track:{track}", f"power:{source}:{track}") for track in detail]
    return [tag(f"pick:{value_tag(detail)}", f"power:{source}:{value_tag(detail)}")]


def listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def diplomacy_choice(player: str, levels: list[int]) -> Want:
    """A player's Diplomacy bonus: the prompt naming them, the button showing what those
    levels give (as the engine offers them now)."""
    def match(t: str, shown: str, title: str) -> bool:
        from kivy.app import App

        from companion.ui.play.flows.abilities import bonus_label

        if not t.startswith("bonus:") or player not in title:
            return False
        offered = [o for p in App.get_running_app().session.options()["pending"]
                   if p["player"] == player for o in p["options"] if o["levels"] == levels]
        # a level whose bonus the catalogue lacks reads 'level 3: ? (asked)'
        return any(shown == bonus_label(o["levels"], o["gives"]) or (
            o["gives"] is None and shown.startswith(bonus_label(o["levels"], None)))
            for o in offered)
    return Want(f"{player}'s Diplomacy bonus {levels}", match)


# The one table from a line's fields to the taps that answer them: field -> (value, line) ->
# groups of taps (each group in order; the groups in whatever order the panels ask them).
TAPS: dict[str, Callable[[Any, Command], list[list[Want]]]] = {
    "dismantle": lambda ship, _c: [[tag(f"target:{ship}")]],
    "sector": lambda number, _c: [[tag(f"sector:{number}")]],
    "rolled": lambda _rolled, c: [dice(c, c.get("where", {}).get("human"))],
    "transactions": lambda items, _c: [[want for item in items for want in transaction(item)]],
    "tracks": lambda tracks, _c: [[tag(f"track:{track}") for track in tracks]],
    "use": lambda sources, _c: [[asked_of(s, "ability:yes", None, f"power:{s}")]
                                for s in sources],
    "choices": lambda chosen, _c: [[asked_of(s, "ability:", _word(v), f"power:{s}:{v}")
                                    for v in listed(value)] for s, value in chosen.items()],
    "where": lambda places, _c: [[asked_of(s, "ability:", _word(p)) for p in listed(place)]
                                 for s, place in places.items() if s != "human"],
    "bonus": lambda given, c: [bonus_action(s, detail, c) for s, detail in given.items()],
    "levels": lambda levels, c: [[diplomacy_choice(c["player"], levels)]],
}
# Fields answered with another's taps (keep, humans, rerolls: the dice; "where" of a Human:
# its recruit button), or no tap at all (the player, the ship tapped first, notes).
TAPLESS = {"cmd", "player", "ship", "keep", "humans", "rerolls", "note"}
# Buttons that go on to the next panel once its answers are tapped (Dice entered, Keep these,
# Done, an optional ability left, OK), and the ones that commit the line.
FORWARD = ("action:dice", "action:kept", "action:done", "ability:no", "action:ok")
COMMIT = ("action:confirm", "income:confirm")
MESSAGES = ("action:message", "income:message", "bonus:message")


def _word(value: Any) -> str:
    from companion.ui.kit.wording import word

    return word(value)


def wants(command: Command) -> list[list[Want]]:
    """The groups of taps a line's fields ask for (TAPS); a field the table lacks is an
    error."""
    unknown = sorted(set(command) - set(TAPS) - TAPLESS)
    if unknown:
        raise DriverError(f"no taps known for {unknown} of {command}")
    return [group for field, value in command.items() if field in TAPS
            for group in TAPS[field](value, command) if group]


# -- what is on screen -----------------------------------------------------------------------

def buttons(robot: Robot, dim: bool = False) -> list[tuple[str, str]]:
    """The tagged buttons on screen (an open pop-up's alone): tag and text; not the dimmed
    ones (an answer not allowed now, a ship used), unless `dim`."""
    from kivy.uix.behaviors import ButtonBehavior

    return [(w.tag, plain(w.text)) for w in robot.all(lambda t: bool(t))
            if isinstance(w, ButtonBehavior) and (dim or w.opacity >= 1)]


def title(robot: Robot) -> str:
    """The panel's question (a pop-up's, the action screen's, the income screen's heading),
    else the screen's name."""
    for name in ("bonus:question", "action:question", "income:heading"):
        if robot.text(name):
            return robot.text(name)
    return robot.app.screens.current


def describe(robot: Robot) -> str:
    """The screen's title and buttons (dimmed ones too), for a message."""
    return (f"screen {robot.app.screens.current!r}, {title(robot)!r}, "
            f"buttons {buttons(robot, dim=True)}")


def value_asked(robot: Robot) -> str | None:
    """The question of a value pop-up or keypad open now (None: none is)."""
    from companion.ui.kit.values import ValuePopup
    from companion.ui.kit.widgets import KeypadPopup

    popup = robot.popup()
    if isinstance(popup, ValuePopup):
        return popup.question
    return popup.title if isinstance(popup, KeypadPopup) else None


def prompt_shown(robot: Robot) -> bool:
    """A Diplomacy bonus prompt is on screen."""
    return any(t.startswith("bonus:") and t not in ("bonus:question", "bonus:lines",
                                                    "bonus:message", "bonus:cancel")
               for t, _text in buttons(robot))


def on_table(robot: Robot) -> bool:
    return robot.app.screens.current == "table" and robot.popup() is None


# -- playing ---------------------------------------------------------------------------------

def out_of_view(robot: Robot, name: str) -> bool:
    """Whether the tagged widget is scrolled out of sight (a finger would swipe first)."""
    from kivy.uix.scrollview import ScrollView

    widget = robot.find(name)
    scroller = widget.parent if widget is not None else None
    while scroller is not None and not isinstance(scroller, ScrollView):
        scroller = scroller.parent if scroller.parent is not scroller else None
    return scroller is not None and not in_view(widget, scroller)


class Turn:
    """The taps of one turn: each tagged button tapped, with the panel it was on, and the ones
    that had to be scrolled into view first."""

    def __init__(self, robot: Robot) -> None:
        self.robot = robot
        self.tapped: list[tuple[str, str]] = []  # (panel title, tag)
        self.scrolled: list[str] = []

    def tap(self, name: str) -> Steps:
        """Tap a button, let the app answer; a message the tap left (a refusal) fails."""
        robot = self.robot
        self.tapped.append((title(robot), name))
        if out_of_view(robot, name):
            self.scrolled.append(name)
        try:
            yield from robot.tap(name)
        except DriverError as error:  # e.g. the finger landed on another button: where it went
            raise DriverError(f"{error}; now on {describe(robot)}") from None
        yield from robot.frames(2)
        said = [robot.text(m) for m in MESSAGES if robot.text(m)]
        if said:
            raise DriverError(f"tapping {name!r} was answered {said[0]!r}: {describe(robot)}")
        asked = value_asked(robot)
        if asked is not None:
            raise DriverError(f"tapping {name!r} asked a value the lines give: {asked!r}")

    def panels(self) -> list[list[Any]]:
        """[panel title, taps on it] in the order the panels came (the table's own "table")."""
        found: list[list[Any]] = []
        for panel, _name in self.tapped:
            if found and found[-1][0] == panel:
                found[-1][1] += 1
            else:
                found.append([panel, 1])
        return found


def answer(turn: Turn, groups: list[list[Want]], done: Callable[[], bool]) -> Steps:
    """Answer the panels until the line is committed and `done()`: the next tap of any group
    whose button is on screen; else, every group tapped, Confirm; else a button that goes on
    (FORWARD); else fail naming the panel."""
    robot = turn.robot
    committed = False
    for _tap in range(MOST_TAPS):
        yield from robot.frames(2)
        if committed and done():
            return
        shown, panel = buttons(robot), title(robot)
        found = next(((group, i, name) for group in groups
                      for i, name in _head(group, shown, panel)), None)
        if found is not None:
            group, i, name = found
            del group[:i + 1]
            yield from turn.tap(name)
            continue
        tags = [t for t, _text in shown]
        commit = next((t for t in COMMIT if t in tags), None)
        if commit is not None and all(want.optional for group in groups for want in group):
            yield from turn.tap(commit)
            committed = True
            continue
        wanted = any(not want.optional for group in groups for want in group)
        forward = "action:more" if wanted and "action:more" in tags else next(
            (t for t in FORWARD if t in tags), None)  # a long list's next page, or on
        if forward is None:
            still = [g[0].what for g in groups if g]
            raise DriverError(f"no button for {still or 'going on'} on {describe(robot)}")
        yield from turn.tap(forward)
    raise DriverError(f"more than {MOST_TAPS} taps for one line: {describe(robot)}")


def _head(group: list[Want], shown: list[tuple[str, str]], panel: str) -> Iterator[
        tuple[int, str]]:
    """The group's next tap on screen: (its place in the group, the tag), skipping optional
    taps not on screen; nothing when the next tap is not on screen."""
    for i, want in enumerate(group):
        name = next((t for t, text in shown if want.match(t, text, panel)), None)
        if name is not None:
            yield i, name
            return
        if not want.optional:
            return


def use_ship(turn: Turn, command: Command) -> Steps:
    """The ship tapped on the table, its panels answered, Confirm (then OK for the Diplomacy
    bonuses given by themselves); done at the table or a Diplomacy bonus prompt."""
    robot = turn.robot
    yield from turn.tap(f"ship:{command['ship']}")
    yield from answer(turn, wants(command), lambda: on_table(robot) or prompt_shown(robot))


def income(turn: Turn, command: Command) -> Steps:
    """Income tapped on the table, its powers' cards answered, Confirm."""
    robot = turn.robot
    yield from turn.tap("table:income")
    yield from answer(turn, wants(command), lambda: on_table(robot) or prompt_shown(robot))


def diplomacy_bonus(turn: Turn, command: Command) -> Steps:
    """The player's Diplomacy bonus prompt answered with the levels the line chooses."""
    robot = turn.robot
    yield from robot.wait_for(lambda: prompt_shown(robot), f"{command['player']}'s prompt")
    [[want]] = wants(command)
    shown, panel = buttons(robot), title(robot)
    name = next((t for t, text in shown if want.match(t, text, panel)), None)
    if name is None:
        raise DriverError(f"no button for {want.what} on {describe(robot)}")
    yield from turn.tap(name)


def end_turn(turn: Turn, _command: Command) -> Steps:
    """Next (after OK on the Diplomacy bonuses given by themselves); the next turn's table,
    or the game's end."""
    robot = turn.robot
    session = robot.app.session
    yield from robot.wait_for(lambda: on_table(robot) or robot.find("action:ok") is not None,
                              "the table")
    if not on_table(robot):
        yield from turn.tap("action:ok")
    before = len(session.game.game.steps)
    yield from turn.tap("table:next")
    yield from robot.wait_for(lambda: len(session.game.game.steps) > before, "the turn's end")


PLAY: dict[str, Callable[[Turn, Command], Steps]] = {
    "use_ship": use_ship, "income": income, "diplomacy_bonus": diplomacy_bonus,
    "end_turn": end_turn}


def _ship(turn: Sequence[Command]) -> tuple[str, str] | None:
    """The ship a turn used: its owner and design ("Ann", "L3-expedition"; the neutral
    ones' "neutral-dismantle"), None for Income."""
    ship = turn[0].get("ship")
    if ship is None:
        return None
    owner, _colon, design = ship.partition(":")
    return owner, f"neutral-{design}" if owner == "neutral" else design.split("#")[0]


def what(turn: Sequence[Command]) -> str:
    """Who played what, as the table says it: 'Ann: Expedition L3', 'Bob: Ann's Transport L2',
    'Cat: neutral Dismantle', 'Bob: income'."""
    from companion.rules.words import design_name

    player, ship = turn[0].get("player", ""), _ship(turn)
    if ship is None:
        return f"{player}: {turn[0]['cmd']}"
    owner, design = ship
    name = design_name(design)
    return f"{player}: {name}" if owner in (player, "neutral") else f"{player}: {owner}'s {name}"


def kind(turn: Sequence[Command]) -> str:
    """The ship type a turn used ('expedition'), or its command ('income')."""
    ship = _ship(turn)
    if ship is None:
        return turn[0]["cmd"]
    parts = ship[1].split("-")  # "L3-expedition", "farm-5", "neutral-dismantle"
    return parts[1] if re.fullmatch(r"L\d|neutral", parts[0]) else parts[0]


def play_turns(robot: Robot, example: str, overlay: bool = False) -> Steps:
    """Every turn of the example by touch; the taps of each; the state compared at the end
    (with `overlay`, the tiles' values known from the app's catalogue overlay, as a table's:
    all but what the example's lines taught the engine, `learned`, and the example's mark on
    its values, `options.example`)."""
    commands = example_lines(example)
    robot.audit_taps = True  # every screen of every turn read as a player reads it
    yield from robot.wait_for(lambda: on_table(robot), "the table")
    played: list[dict[str, Any]] = []
    robot.result["turns"] = played  # (so far, should a turn fail)
    for number, lines in enumerate(split_turns(commands), start=1):
        turn, taps = Turn(robot), robot.taps
        for command in lines:
            if command["cmd"] not in PLAY:
                raise DriverError(f"turn {number}: no taps known for {command}")
            yield from PLAY[command["cmd"]](turn, command)
        played.append({"turn": number, "what": what(lines), "kind": kind(lines),
                       "taps": robot.taps - taps,
                       "panels": turn.panels(), "scrolled": turn.scrolled})
    robot.result["figures"] = figures([t["taps"] for t in played])
    robot.result["screen"] = robot.app.screens.current
    expected, state = engine_state(script_lines(example)), robot.app.session.state
    if overlay:
        expected, state = ({**{k: v for k, v in whole.items() if k != "learned"},
                            "options": {**whole["options"], "example": None}}
                           for whole in (expected, state))
    found = differences(expected, state)
    robot.result["differences"] = found
    if found:
        raise DriverError(f"{len(found)} differences from the engine's replay: {found[:10]}")


def figures(taps: Sequence[int]) -> dict[str, Any]:
    """Turns, median and most taps (the first turn with the most), taps -> turns."""
    most = max(taps)
    return {"turns": len(taps), "median": statistics.median(taps), "max": most,
            "max_turn": taps.index(most) + 1,
            "histogram": {str(n): taps.count(n) for n in sorted(set(taps))}}


FROM_NEW_GAME = "-from-new-game"  # a scenario's suffix: set up by touch first, not stored


def scenario(example: str, new_game: bool = False) -> Callable[..., Steps]:
    def played(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
        try:
            if new_game:  # Home's New game, the whole setup by touch, in the same run
                yield from set_up_by_touch(robot, f"{example}.jsonl", size, None)
                robot.result.pop("state")  # (the state compared is the end's)
            yield from play_turns(robot, example, overlay=new_game)
        except DriverError:  # what the screen showed, to see why
            if shots is not None:
                yield from robot.screenshot(shots / f"turns-{example}-failed-"
                                                    f"{size[0]}x{size[1]}.png")
            raise
    played.__doc__ = (f"examples/{example}.jsonl from Home's New game by touch, every turn"
                      if new_game else f"examples/{example}.jsonl's turns by touch")
    return played


SCENARIOS = {**{path.stem: scenario(path.stem) for path in sorted(EXAMPLES.glob("*.jsonl"))},
             **{path.stem + FROM_NEW_GAME: scenario(path.stem, new_game=True)
                for path in sorted(EXAMPLES.glob("*.jsonl"))}}

def stored_first(argv: list[str]) -> None:
    """The driver's own first step: the scenario's example set up in the new database its
    --db names (`store_setup`), before the app opens it."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--db", type=Path, required=True)
    known, _rest = parser.parse_known_args(argv)
    if known.db.exists():
        parser.error(f"{known.db} exists: the driver sets its example up in a new database")
    if not known.scenario.endswith(FROM_NEW_GAME):
        store_setup(known.db, known.scenario)


if __name__ == "__main__":
    stored_first(sys.argv[1:])
    sys.exit(run(SCENARIOS))
