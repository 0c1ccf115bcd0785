"""Driver: the setup wizard's scenarios, run in the real app under Xvfb by
tests/ui/setup/test_setup_screen.py and tests/ui/setup/test_setup_taps.py, and by
tools/bench_taps.py (the tap counts).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_setup.py three-player-first-game --size 800x480

prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))

from harness import Robot, Steps, run
from tables import table_values

from companion.catalogue_files import OVERLAY_FORMAT, VERSION, import_overlay, load_catalogue
from companion.files import read_script
from companion.rules.script import parse

NAMES = ("Ann", "Björn", "Cäcilie")  # typed on a USB keyboard
ALIENS = {"teal": 18, "pink": 17, "brown": 18, "gold": 17}
HUB_VALUES = {"starting_gems": 8, "starting_food": 2, "starting_water": 2, "starting_metal": 3}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# The setups counted in taps (tools/bench_taps.py prints them): the example each sets up, the
# most taps it may take (the targets of issue #27), its words; the draft's run saves the
# setup's screenshots (setup-players-, setup-display-, setup-draft-, ...).
TAP_SCENARIOS = {"three-player-draft-taps": ("three-players-draft.jsonl", 90,
                                             "setup, 3-player draft with advanced Hubs"),
                 "two-player-first-game-taps": ("two-players-first-game.jsonl", 35,
                                                "setup, 2-player first game")}
SCREENSHOTS_FROM = "three-player-draft-taps"


def first_game_display(players: int) -> list[int]:
    """The Sectors a table draws: stack by stack, numbers ending 1-4 (TEST choice)."""
    sectors = load_catalogue().sectors
    stacks = sorted({s.stack for s in sectors.values()})
    numbers = []
    for stack in stacks:
        numbers += [n for n, s in sorted(sectors.items())
                    if s.stack == stack and n % 10 in (1, 2, 3, 4)][:players]
    return numbers


def example_setup(example: str) -> list[dict[str, Any]]:
    """An example game's setup commands, to its first turn (each with the values it gives)."""
    commands = [line.command for line in parse(read_script(EXAMPLES / example))]
    return commands[:next(i for i, c in enumerate(commands)
                          if c["cmd"] in ("use_ship", "income"))]


def known_values(example: str, overlay: Path) -> int:
    """Give `overlay` every value the tiles print, as a table that knows them has them: the
    example's own ("catalogue" on its lines), and a TEST value (tests/rules/tables.py) for each
    field still unknown; imported through the catalogue's import. Returns how many."""
    values = table_values(load_catalogue())
    for line in parse(read_script(EXAMPLES / example)):
        for key, value in line.command.get("catalogue", {}).items():
            kind, record, field = key.split("/")
            values.setdefault(kind, {}).setdefault(record, {})[field] = value
    source = overlay.with_name("known-values.json")
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(json.dumps({"format": OVERLAY_FORMAT, "version": VERSION,
                                  "values": values}))
    return import_overlay(overlay, source)


def keypad(robot: Robot, tag: str, number: int) -> Steps:
    """Open the keypad with a tap on `tag` (None: it is open already) and type a number."""
    if tag:
        yield from robot.tap(tag)
    yield from robot.wait_for(lambda: robot.popup() is not None, "the keypad")
    yield from robot.tap_keys(str(number))
    yield from robot.tap("key:ok")


def shot(robot: Robot, shots: Path | None, name: str, size: tuple[int, int]) -> Steps:
    """A screenshot named after the window size, when a screenshot folder was given."""
    if shots is not None:
        yield from robot.screenshot(shots / f"{name}-{size[0]}x{size[1]}.png")


def read_lines(robot: Robot, count: int) -> Steps:
    """The step's first `count` lines of text."""
    lines = []
    for number in range(count):
        lines.append((yield from robot.read(f"setup:line:{number}")))
    return lines


def lay_out(robot: Robot, aliens: dict[str, int] = ALIENS) -> Steps:
    """The lay-out step: its three lines read, the Aliens drawn tapped, Next; returns (the
    lines, the count the screen shows)."""
    lines = yield from read_lines(robot, 3)
    yield from aliens_by_touch(robot, aliens)
    counted = yield from robot.read("setup:counted")
    yield from robot.tap("setup:next")
    return lines, counted


def three_player_first_game(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    yield from usb_names(robot, NAMES)
    yield from robot.tap("setup:color:0:blue")  # Ann takes blue; player 2 gets her red
    result["players_title"] = robot.text("setup:title")
    result["names"] = [robot.text(f"setup:name:{i}") for i in range(len(NAMES))]
    yield from robot.tap("setup:mode:first_game")
    result["lay_out"], result["counted"] = yield from lay_out(robot)
    yield from robot.wait_for(lambda: robot.find("setup:sector:111"), "the Sector display")
    result["display_title"] = robot.text("setup:title")
    result["offered"] = sorted(int(w.tag.split(":")[2]) for w in robot.all(
        lambda t: t.startswith("setup:sector:")))
    yield from robot.tap("setup:sector:112")
    result["stack_after_a_tap"] = robot.text("setup:stack:0")
    yield from robot.tap("setup:sector:112")  # tapped again: taken back
    result["stack_after_two"] = robot.text("setup:stack:0")
    for number in first_game_display(len(NAMES)):
        yield from robot.tap(f"setup:sector:{number}")
    result["sets_title"] = yield from robot.read("setup:title")
    for number in (1, 2, 3):
        yield from robot.tap(f"setup:choice:{number}")
    yield from robot.wait_for(lambda: robot.find("values:title"), "the values step's first card")
    yield from shot(robot, shots, "setup-values", size)
    for hub in ("B-1", "B-2", "B-3"):
        yield from robot.wait_for(lambda h=hub: robot.text("values:title") == f"Hub {h}",
                                  f"Hub {hub}'s card")
        result.setdefault("cards", []).append(
            [robot.text("values:title"), robot.text("values:progress")])
        if hub == "B-2":  # Back: Hub B-1's card again, as it was tapped
            yield from robot.tap("values:back")
            yield from robot.wait_for(lambda: robot.text("values:title") == "Hub B-1", "B-1")
            result["kept"] = [robot.text(f"values:{f}:{v}") for f, v in HUB_VALUES.items()]
            yield from robot.tap("values:skip")
            yield from robot.wait_for(lambda: robot.text("values:title") == "Hub B-2", "B-2")
        taps, card = robot.taps, robot.popup()
        for field, value in HUB_VALUES.items():
            if robot.find(f"values:{field}:{value}") is not None:  # still asked
                yield from robot.tap(f"values:{field}:{value}")
        if hub == "B-1":  # "Other…": the tracks one step at a time, then the free steps
            yield from robot.tap("values:diplomacy:other")
            yield from robot.tap("values:track:transport")  # a step printed on a track
            result["track"] = yield from robot.read("values:track:transport")
            yield from shot(robot, shots, "setup-value-entry-tracks", size)
            for _ in range(3):  # round to none: nothing printed on a track after all
                yield from robot.tap("values:track:transport")
            yield from robot.tap("values:free:0")  # no free choice
        else:
            if hub == "B-2":
                yield from robot.frames(2)
                yield from shot(robot, shots, "setup-value-entry", size)
            yield from robot.tap("values:diplomacy:none")  # nothing printed: one tap
        yield from robot.frames(2)
        if robot.popup() is card or hub == "B-3":  # not complete, or the Sectors' card next
            yield from robot.tap("values:skip" if hub != "B-3" else "values:later")
        result.setdefault("card_taps", []).append(robot.taps - taps)
    yield from robot.wait_for(lambda: robot.popup() is None, "the last step")
    # the first game's Hubs ask nothing at the start: their bonuses are taken at once
    result["start"] = yield from read_lines(robot, 4)
    yield from robot.tap("setup:next")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    result["screen"] = robot.app.screens.current
    result["phase"] = robot.app.session.state["phase"]
    result["hubs_learned"] = {key.split("/")[2]: value for key, value
                              in robot.app.session.state["learned"].items()
                              if key.startswith("hubs/B-2/")}


def type_name(robot: Robot, name: str) -> Steps:
    """Type a name on the on-screen name keyboard (open already), then OK; returns once the
    keyboard has closed or opened again for the next player."""
    yield from robot.wait_for(lambda: robot.popup() is not None, "the name keyboard")
    keyboard = robot.popup()
    yield from robot.tap_keys(name)
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is not keyboard, "the name taken")


def set_up_by_touch(robot: Robot, example: str, size: tuple[int, int],
                    shots: Path | None) -> Steps:
    """Home's New game, then the example's setup by touch: its players typed on the on-screen
    keyboard, how it plays, the Aliens, the Sectors, the Hubs, the draft, the starting bonuses'
    answers, to the table. The state the game is in then goes into the result."""
    result = robot.result
    commands = example_setup(example)
    new_game = commands[0]
    yield from robot.tap("home:new")
    yield from robot.wait_for(lambda: robot.find("key:Z") is not None, "the name keyboard")
    yield from robot.frames(2)
    result["qwertz"] = robot.find("key:Z").y > robot.find("key:Y").y  # Z on the top row
    for index, player in enumerate(new_game["players"]):
        if index >= 2:  # two rows to start with
            yield from robot.tap("setup:add")
        yield from type_name(robot, player["name"])  # the keyboard opens by itself
    yield from robot.wait_for(lambda: robot.popup() is None, "the players")
    for index, player in enumerate(new_game["players"]):
        if not robot.text(f"setup:color:{index}:{player['color']}").isupper():
            yield from robot.tap(f"setup:color:{index}:{player['color']}")
    yield from shot(robot, shots, "setup-players", size)
    if new_game.get("friendly"):
        yield from robot.tap("setup:option:friendly")
    mode = ("first_game" if new_game.get("first_game") else
            "advanced" if new_game.get("advanced") else "draft")
    yield from robot.tap(f"setup:mode:{mode}")
    yield from aliens_by_touch(robot, new_game["aliens"])
    yield from shot(robot, shots, "setup-lay-out", size)
    yield from robot.tap("setup:next")
    for command in commands[1:]:
        yield from COMMANDS[command["cmd"]](robot, command, size, shots)
    yield from robot.wait_for(lambda: robot.app.session.state["phase"] == "play"
                              and robot.find("setup:line:0") is not None, "the last step")
    result["start"] = [robot.text(w.tag) for w in reversed(robot.all(
        lambda t: t.startswith("setup:line:")))]
    yield from shot(robot, shots, "setup-start", size)
    yield from robot.tap("setup:next")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    result["setup_taps"] = robot.taps
    result["state"] = robot.app.session.state


def aliens_by_touch(robot: Robot, aliens: dict[str, int]) -> Steps:
    """Each colour's count tapped (on the keypad when it has no button), until the screen
    shows them all (the last colour is what the others leave)."""
    for color, count in aliens.items():
        shown = robot.text(f"setup:aliens:{color}")
        if shown.endswith(f": {count}"):
            continue
        if robot.find(f"setup:aliens:{color}:{count}") is not None:
            yield from robot.tap(f"setup:aliens:{color}:{count}")
        else:
            yield from keypad(robot, f"setup:aliens:{color}:other", count)
        yield from robot.wait_for(lambda c=color, n=count: robot.text(
            f"setup:aliens:{c}").endswith(f": {n}"), f"{color} counted")


def display_by_touch(robot: Robot, command: dict, size: tuple[int, int],
                     shots: Path | None) -> Steps:
    """Each Sector of the display tapped on its stack's panel, as the screen asks them."""
    left = list(command["sectors"])
    while left:
        yield from robot.wait_for(lambda: any(robot.find(f"setup:sector:{n}") for n in left),
                                  "a stack with Sectors to tap")
        if len(left) == len(command["sectors"]) - 1:
            yield from shot(robot, shots, "setup-display", size)
        number = next(n for n in left if robot.find(f"setup:sector:{n}"))
        left.remove(number)
        yield from robot.tap(f"setup:sector:{number}")


def choices_by_touch(robot: Robot, picks: list[Any]) -> Steps:
    """Tap each choice in turn ("setup:choice:" tags)."""
    for pick in picks:
        yield from robot.tap(f"setup:choice:{pick}")


def hubs_dealt(robot: Robot, command: dict, size: tuple[int, int],
               shots: Path | None) -> Steps:
    hubs = [hub for dealt in command["hubs"].values() for hub in dealt]
    yield from choices_by_touch(robot, hubs[:-1])
    yield from shot(robot, shots, "setup-hubs", size)
    yield from choices_by_touch(robot, hubs[-1:])


def ships_revealed(robot: Robot, command: dict, size: tuple[int, int],
                   shots: Path | None) -> Steps:
    yield from choices_by_touch(robot, command["ships"])
    yield from robot.wait_for(lambda: robot.find("setup:order") is not None, "the draft")


def ship_drafted(robot: Robot, command: dict, size: tuple[int, int],
                 shots: Path | None) -> Steps:
    yield from robot.wait_for(lambda p=command["player"]: p in robot.text("setup:title"),
                              f"{command['player']}'s pick")
    picks = robot.result["picks"] = robot.result.get("picks", 0) + 1
    if picks == 4:  # three cards drafted: marked in their places
        yield from shot(robot, shots, "setup-draft", size)
    yield from choices_by_touch(robot, [command["ship"]])


def sets_taken(robot: Robot, command: dict, size: tuple[int, int],
               shots: Path | None) -> Steps:
    yield from choices_by_touch(robot, list(command["sets"].values()))


def hub_kept(robot: Robot, command: dict, size: tuple[int, int], shots: Path | None) -> Steps:
    yield from robot.wait_for(lambda p=command["player"]: p in robot.text("setup:title"),
                              f"{command['player']}'s Hubs")
    yield from choices_by_touch(robot, [command["hub"]])


def bonus_taken(robot: Robot, command: dict, size: tuple[int, int],
                shots: Path | None) -> Steps:
    """A starting bonus's answers tapped, then Confirm (one that asks nothing is taken by the
    wizard at once)."""
    answers = [track for track, count in command.get("diplomacy", {}).items()
               for _ in range(count)]
    answers += command.get("keep", []) + command.get("discard", [])
    if not answers:
        return
    yield from choices_by_touch(robot, answers)
    yield from robot.wait_for(lambda: robot.find("setup:line:0") is not None, "the summary")
    yield from shot(robot, shots, "setup-bonuses", size)
    yield from robot.tap("setup:next")


COMMANDS = {"sector_display": display_by_touch, "deal_hubs": hubs_dealt,
            "reveal_ships": ships_revealed, "draft_ship": ship_drafted,
            "first_game_sets": sets_taken, "choose_hub": hub_kept,
            "starting_bonus": bonus_taken}


def counted_setup(scenario: str) -> Any:
    """A scenario that sets up TAP_SCENARIOS[scenario]'s example by touch."""
    def scenario_steps(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
        yield from set_up_by_touch(robot, TAP_SCENARIOS[scenario][0], size,
                                   shots if scenario == SCREENSHOTS_FROM else None)
    return scenario_steps


class Criticals(logging.Handler):
    """Kivy's CRITICAL log records, from the app's start (Kivy logs through Python's logging
    as "kivy"; a text field may be focused before a scenario begins)."""

    def __init__(self) -> None:
        super().__init__(logging.CRITICAL)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


CRITICALS = Criticals()
logging.getLogger("kivy").addHandler(CRITICALS)


def usb_names(robot: Robot, names: tuple[str, ...]) -> Steps:
    """The players' names typed on a USB keyboard: the name keyboard opens by itself (for the
    first) and takes the keys, Enter is its OK and goes on to the next player (a third one
    added first)."""
    from kivy.core.window import Window

    for index, name in enumerate(names):
        if index >= 2:
            yield from robot.tap("setup:add")
        yield from robot.wait_for(lambda: robot.popup() is not None, "the name keyboard")
        keyboard = robot.popup()
        for character in name:
            Window.dispatch("on_textinput", character)
            yield
        Window.dispatch("on_key_down", 13, 40, None, [])  # Enter
        yield from robot.wait_for(lambda k=keyboard: robot.popup() is not k, "the name taken")
    yield from robot.wait_for(lambda: robot.popup() is None, "the players")


def names_on_a_usb_keyboard(robot: Robot, **_: Any) -> Steps:
    """Two names typed on a USB keyboard; none of Kivy's records is CRITICAL meanwhile (as
    when the app started: no text field asks for a system clipboard)."""
    yield from usb_names(robot, NAMES[:2])
    robot.result.update(names=[robot.text(f"setup:name:{i}") for i in range(2)],
                        criticals=CRITICALS.messages)


def names_played_before(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """A table that plays again (the 2-player example stored in --db): the name keyboard
    offers its players' names, one tap each; the second keyboard no longer offers the first
    player's."""
    result = robot.result
    offered = result["offered"] = []
    for player in range(2):
        yield from robot.wait_for(lambda: robot.popup() is not None, "the name keyboard")
        keyboard = robot.popup()
        yield from robot.frames(2)
        offered.append([w.text for w in reversed(robot.all(
            lambda t: t.startswith("key:name:")))])
        if player == 0:
            yield from shot(robot, shots, "setup-name-recent", size)
        yield from robot.tap(f"key:name:{offered[-1][0]}")
        yield from robot.wait_for(lambda k=keyboard: robot.popup() is not k, "the name taken")
    yield from robot.wait_for(lambda: robot.popup() is None, "the players")
    result["names"] = [robot.text(f"setup:name:{i}") for i in range(2)]
    result["setup_taps"] = robot.taps


def from_home(scenario: Any) -> Any:
    """`scenario` after a tap on home's New game."""
    def steps(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
        yield from robot.tap("home:new")
        yield from scenario(robot, size=size, shots=shots)
    return steps


SCENARIOS: dict[str, Any] = {"three-player-first-game": from_home(three_player_first_game),
                             "usb-names": from_home(names_on_a_usb_keyboard),
                             "names-played-before": from_home(names_played_before),
                             **{name: counted_setup(name) for name in TAP_SCENARIOS}}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
