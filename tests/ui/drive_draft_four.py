"""Driver: a 4-player draft with advanced Hubs set up by touch, from home to the table; run in
the real app under Xvfb by tests/ui/test_draft_four.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_draft_four.py four-player-draft --db /tmp/g.sqlite

Ann and Dan are typed on a USB keyboard, Cäcilie too (its ä a key of a German keyboard), Jörg
Süßbär on the setup's on-screen keyboard (which opens by itself for each name and takes the USB
keys too). The Sector display (4 of each of the nine stacks) is tapped on each stack's
numbers. The draft follows the rulebook's snake order; the Hubs dealt and kept give
every kind of starting question: A-12 (two Diplomacy spaces, taken on two tracks), A-5 (two
spaces on one track, and one of the two Level-2 ships discarded), A-6 (the nine Sectors set
aside), A-8 (two Level-2 ships drawn, one kept). The values step is left at once ("ask the rest
during play"): the Hubs' starting values are asked while the bonuses are taken, each typed.
Prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_setup import lay_out, read_lines, shot
from drive_table import read_table
from harness import Robot, Steps, plain, run

from companion.catalogue_files import load_catalogue

ALIENS = {"teal": 23, "pink": 22, "brown": 23, "gold": 22}  # 90 drawn for 4 players
DEALT = {"Ann": ("A-12", "B-1"), "Jörg Süßbär": ("A-5", "B-3"), "Cäcilie": ("A-6", "B-5"),
         "Dan": ("A-8", "B-7")}  # the first of each pair is kept
REVEALED = {3: ["L3-expedition", "L3-expedition", "L3-dismantle", "L3-dismantle",
                "L3-construction", "L3-construction", "L3-diplomacy", "L3-ice_collector",
                "L3-expedition"],
            2: ["L2-transport", "L2-transport", "L2-farm", "L2-farm", "L2-dismantle",
                "L2-dismantle", "L2-construction", "L2-construction", "L2-expedition"]}
PICKS = {3: ["L3-expedition", "L3-dismantle", "L3-construction", "L3-expedition",
             "L3-diplomacy", "L3-dismantle", "L3-construction", "L3-ice_collector"],
         2: ["L2-transport", "L2-farm", "L2-dismantle", "L2-construction",
             "L2-expedition", "L2-construction", "L2-dismantle", "L2-farm"]}
SET_ASIDE = [105, 115, 125, 205, 215, 225, 305, 315, 325]  # A-6's nine (not on display)
HUB_START = {"gems": 8, "food": 2, "water": 2, "metal": 3}  # typed when asked (TEST values)
BONUS_ANSWERS = {  # each Hub's starting questions, answered by tapping these choices
    "A-12": ["setup:choice:construction", "setup:choice:expedition"],
    "A-5": ["setup:choice:dismantle", "setup:choice:dismantle",
            "setup:choice:Jörg Süßbär:L2-dismantle"],
    "A-8": ["setup:choice:L2-farm"],
}


def display(per_stack: int) -> dict[tuple[int, str], list[int]]:
    """The Sectors a table draws: the first `per_stack` numbers of each stack (TEST choice)."""
    sectors = load_catalogue().sectors
    found: dict[tuple[int, str], list[int]] = {}
    for number, sector in sorted(sectors.items()):
        if len(found.setdefault(sector.stack, [])) < per_stack:
            found[sector.stack].append(number)
    return found


def usb_type(robot: Robot, text: str) -> Steps:
    """Type `text` on a USB keyboard into the name keyboard (open already: each key's text as
    the window delivers it), then Enter."""
    from kivy.core.window import Window

    yield from robot.wait_for(lambda: robot.popup() is not None, "the name keyboard")
    keyboard = robot.popup()
    for character in text:
        Window.dispatch("on_textinput", character)
        yield
    Window.dispatch("on_key_down", 13, 40, None, [])
    yield from robot.wait_for(lambda: robot.popup() is not keyboard, "the name taken")


def screen_type(robot: Robot, keys: list[str], size: tuple[int, int],
                shots: Path | None) -> Steps:
    """Tap the on-screen keyboard's keys ("key:..." tags), then OK."""
    yield from robot.wait_for(lambda: robot.popup() is not None, "the name keyboard")
    for key in keys:
        yield from robot.tap(f"key:{key}")
    robot.result["keyboard_display"] = robot.text("key:display")
    yield from shot(robot, shots, "setup-name-keyboard", size)
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is None, "the players")


def players(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Four players, in turn order (two rows to start with, two added); Dan takes green."""
    result = robot.result
    yield from usb_type(robot, "Ann")  # the first name's keyboard opens by itself
    result["keyboard_title"] = robot.popup().title  # then the next player's
    yield from screen_type(robot, ["J", "Ö", "R", "G", "space", "S", "Ü", "ß", "B", "Ä",
                                   "R"],
                           size, shots)
    for name in ("Cäcilie", "Dan"):
        yield from robot.tap("setup:add")  # a row, its name's keyboard at once
        yield from usb_type(robot, name)
    yield from robot.wait_for(lambda: robot.popup() is None, "the players")
    yield from robot.frames(2)
    result["names"] = [robot.text(f"setup:name:{i}") for i in range(4)]
    yield from shot(robot, shots, "setup-draft-players", size)


def sector_display(robot: Robot) -> Steps:
    """The thirty-six Sectors, each tapped on its stack's numbers, as the screen asks."""
    yield from robot.wait_for(lambda: robot.find("setup:sector:111"), "the Sector display")
    robot.result["display_title"] = robot.text("setup:title")
    left = [n for numbers in display(4).values() for n in numbers]
    while left:
        yield from robot.wait_for(lambda: any(robot.find(f"setup:sector:{n}") for n in left),
                                  "the next stack")
        number = next(n for n in left if robot.find(f"setup:sector:{n}"))
        left.remove(number)
        yield from robot.tap(f"setup:sector:{number}")
    yield from robot.wait_for(lambda: robot.text("setup:title").startswith("Deal"), "the Hubs")


def deal(robot: Robot) -> Steps:
    """Two Hubs to each player, tapped as they are dealt."""
    titles = robot.result["deal_titles"] = []
    for pair in DEALT.values():
        for hub in pair:
            yield from robot.wait_for(lambda h=hub: robot.find(f"setup:choice:{h}"), hub)
            titles.append(robot.text("setup:title"))
            yield from robot.tap(f"setup:choice:{hub}")


def draft(robot: Robot, level: int, size: tuple[int, int], shots: Path | None) -> Steps:
    """Reveal the level's nine ships, then each pick: the player the screen asks."""
    result = robot.result
    for design in REVEALED[level]:
        yield from robot.wait_for(lambda: robot.text("setup:title").startswith(
            f"Reveal 9 Level-{level}"), f"the Level-{level} reveal")
        yield from robot.tap(f"setup:choice:{design}")
    asked = result[f"draft_{level}"] = []
    for number, design in enumerate(PICKS[level]):
        yield from robot.wait_for(lambda left=8 - number: robot.text("setup:title").endswith(
            "drafts a ship") and len(robot.text("setup:order").split(", ")) == left,
            "the next pick")
        title = robot.text("setup:title")
        asked.append(title.removesuffix(" drafts a ship"))
        if number == 0:
            result[f"order_{level}"] = robot.text("setup:order")
            result[f"offered_{level}"] = [plain(w.text) for w in reversed(robot.all(
                lambda t: t.startswith("setup:choice:")))]
            if level == 3:
                yield from shot(robot, shots, "setup-draft-four", size)
        yield from robot.tap(f"setup:choice:{design}")


def choose_hubs(robot: Robot) -> Steps:
    titles = robot.result["hub_titles"] = []
    for name, (kept, returned) in DEALT.items():
        yield from robot.wait_for(lambda n=name: robot.text("setup:title") ==
                                  f"{n} keeps which Hub?", f"{name}'s Hubs")
        yield from robot.frames(2)
        titles.append([robot.text("setup:title"), robot.text(f"setup:choice:{kept}"),
                       robot.text(f"setup:choice:{returned}")])
        yield from robot.tap(f"setup:choice:{kept}")


def answer_asked(robot: Robot) -> Steps:
    """The Hub's card the engine's question opened (its starting values, TEST values): the
    resources tapped, no Diplomacy printed (one tap: None); the card closes
    once every value on it is given."""
    card = robot.popup()
    for field, value in HUB_START.items():
        if robot.find(f"values:starting_{field}:{value}") is not None:
            yield from robot.tap(f"values:starting_{field}:{value}")
    if robot.popup() is card and robot.find("values:diplomacy:none") is not None:
        yield from robot.tap("values:diplomacy:none")
    yield from robot.wait_for(lambda: robot.popup() is not card, "the card taken")


def bonuses(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Each player's starting bonuses in turn order: the Hub's questions answered, the values
    asked tapped on the Hub's card, the confirm panel read (turn-order GEMs), Confirm."""
    from companion.ui.kit.values import ValueCard  # Kivy only once the window is configured

    result = robot.result
    bonus = result["bonuses"] = {}
    for name, (hub, _) in DEALT.items():
        seen = bonus[name] = {"questions": [], "choices": []}
        answers = list(BONUS_ANSWERS.get(hub, []))
        confirmed = False
        while True:
            yield from robot.wait_for(lambda: isinstance(robot.popup(), ValueCard) or (
                robot.popup() is None and robot.find("setup:title") is not None), "a question")
            yield from robot.frames(2)
            if isinstance(robot.popup(), ValueCard):  # values the engine asks: the Hub's card
                seen.setdefault("asked", []).append(
                    [robot.text("values:title"), *sorted(s.key.rsplit("/", 1)[1]
                                                         for s in robot.popup().card.shown)])
                yield from answer_asked(robot)
                continue
            title = robot.text("setup:title")
            if confirmed:  # and nothing more asked: the next player's turn
                break
            if robot.text("setup:next") == "Confirm":  # all answered: the confirm panel
                seen["confirm"] = title
                seen["lines"] = [robot.text(w.tag) for w in reversed(robot.all(
                    lambda t: t.startswith("setup:line:")))]
                if hub == "A-5":
                    yield from shot(robot, shots, "setup-bonuses-four", size)
                yield from robot.tap("setup:next")
                yield from robot.wait_for(lambda t=title: robot.text("setup:title") != t,
                                          "the values asked or the next player")
                confirmed = True
                continue
            seen["questions"].append(title)
            if robot.find(f"setup:choice:{SET_ASIDE[0]}") is not None:  # A-6's nine
                for number in SET_ASIDE:  # one tap each, stack by stack
                    if number != SET_ASIDE[0]:
                        seen["questions"].append(robot.text("setup:title"))
                    else:
                        yield from shot(robot, shots, "setup-set-aside", size)
                    seen["choices"].append(sorted(robot.text(w.tag) for w in robot.all(
                        lambda t: t.startswith("setup:choice:"))))
                    yield from robot.tap(f"setup:choice:{number}")
                    yield from robot.wait_for(
                        lambda n=number: robot.find(f"setup:choice:{n}") is None, "the next stack")
                continue
            seen["choices"].append(sorted(
                robot.text(w.tag) for w in robot.all(lambda t: t.startswith("setup:choice:"))))
            if not answers:
                raise AssertionError(f"{name}: no answer planned for {title!r}")
            yield from robot.tap(answers.pop(0))
            yield from robot.wait_for(lambda t=title: robot.text("setup:title") != t,
                                      "the next question")


def four_player_draft(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Home -> New game -> the setup wizard, every step by touch, to the table."""
    result = robot.result
    yield from robot.tap("home:new")
    yield from players(robot, size, shots)
    yield from robot.tap("setup:mode:advanced")
    result["lay_out"], result["counted"] = yield from lay_out(robot, ALIENS)
    yield from sector_display(robot)
    yield from deal(robot)
    yield from draft(robot, 3, size, shots)
    yield from draft(robot, 2, size, shots)
    yield from choose_hubs(robot)
    yield from robot.wait_for(lambda: robot.find("values:later"), "the values step's card")
    result["values_title"] = robot.text("values:title")
    card = robot.popup()
    yield from robot.tap("values:later")
    yield from robot.wait_for(lambda: robot.popup() is not card, "the values card closed")
    yield from bonuses(robot, size, shots)
    yield from robot.wait_for(lambda: robot.text("setup:title") == "Setup complete", "the end")
    result["start"] = yield from read_lines(robot, 5)
    yield from robot.tap("setup:next")
    yield from read_table(robot)
    result["ships"] = {name: sorted(w.tag.split(":", 2)[2] for w in robot.all(
        lambda t, n=name: t.startswith(f"ship:{n}:"))) for name in DEALT}
    result["state"] = _summary(robot.app.session.state)
    yield from shot(robot, shots, "table-draft", size)


def _summary(state: dict) -> dict[str, Any]:
    """What the engine holds, for the test to compare with what the screen showed."""
    return {"phase": state["phase"],
            "players": {p["name"]: {"hub": p["hub"], "gems": p["gems"],
                                    "private_sectors": p.get("private_sectors", [])}
                        for p in state["players"]}}


SCENARIOS: dict[str, Any] = {"four-player-draft": four_player_draft}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
