"""The table app in the real app under Xvfb, driven by simulated touches: the demo game, home,
ships, the Diplomacy bonus prompts, income, Next, undo, a kill and a relaunch.

Each test runs one scenario of tests/ui/drive_table.py in its own process. Screenshots go to
build/screenshots/ (or $PHOENIX_SCREENSHOTS).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from ui_fixtures import CAT_TURN, EXAMPLES, SHOTS, replayed

from companion.files import read_script
from companion.rules import commands
from companion.rules.script import parse
from companion.ui.shell.session import GameSession

SCRIPT = "drive_table.py"
SIZES = ("800x480", "1024x600", "1280x800")
# The Hubs that deal ships at the start: B-2 keeps two more Level-2 ships, A-1 and A-8 one.
MOST_SHIPS_HUBS = {"Ann": ("B-2", ["L2-farm", "L2-transport"]), "Bob": ("A-1", ["L2-farm"]),
                   "Cat": ("A-8", ["L2-transport"]), "Dan": ("A-12", None)}
TILE_VALUES = {"starting_gems": 8, "starting_food": 2, "starting_water": 2, "starting_metal": 3,
               "starting_diplomacy": {"fixed": {}, "choice": 0}}


def most_ships(db: Path) -> None:
    """The 4-player draft example set up into `db` through the session (as a table would), but
    dealt the Hubs that give the most ships: 11, 10, 10 and 9 ships and the five neutral ones,
    the most a game can have; the values the tiles print (example values) given when asked."""
    session = GameSession(db, db.parent / "overlay.json")
    session.open()
    assert session.new_game() == ""
    lines = [line.command for line in parse(read_script(EXAMPLES / "four-players-draft.jsonl"))]
    deal = {"Ann": ["B-2", "B-7"], "Bob": ["A-1", "B-8"], "Cat": ["A-8", "A-5"],
            "Dan": ["A-12", "A-9"]}
    setup = [*lines[:2], commands.deal_hubs(deal), *lines[3:21],  # the draft as played
             *(commands.choose_hub(name, hub) for name, (hub, _keep) in MOST_SHIPS_HUBS.items())]
    for command in setup:
        assert session.send(command).problem == ""
    for name, (_hub, keep) in MOST_SHIPS_HUBS.items():
        outcome = session.send(commands.starting_bonus(name, keep=keep) if keep else lines[28])
        while outcome.missing:
            outcome = session.send(outcome.answer(TILE_VALUES[outcome.key.rsplit("/", 1)[1]]))
        assert outcome.problem == ""
    assert session.state["phase"] == "play"
    session.close()


def overlap(a: list[float], b: list[float]) -> bool:
    """True when two [left, bottom, width, height] places share more than an edge."""
    return (a[0] < b[0] + b[2] - 0.5 and b[0] < a[0] + a[2] - 0.5
            and a[1] < b[1] + b[3] - 0.5 and b[1] < a[1] + a[3] - 0.5)


@pytest.mark.parametrize("size", ["800x480", "1024x600", "1280x800"])
def test_demo_game_bonus_prompt_then_the_table(run_ui_driver, size: str) -> None:
    """`--demo`: Bob's Diplomacy bonus waits on big buttons; then the table shows whose turn it
    is, every player's numbers and ships, the supply, and an example-values notice."""
    result = run_ui_driver(SCRIPT, "demo-table", size=size, shots=SHOTS, args=("--demo",))
    assert result["window"] == [int(n) for n in size.split("x")]
    prompt = result["prompt"]
    assert prompt["screen"] == "action"
    assert prompt["question"] == "Bob (blue): Transport Diplomacy bonus - choose one"
    assert sorted(prompt["choices"]) == ["1 GEM", "2 GEMs"]
    table = result["table"]
    assert table["active"] == "Cat"
    assert table["heading"] == "Turn 9 · Next ends the turn"
    assert table["undo"] == "Undo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"
    assert table["players"]["Bob"] == {"counters": "9 GEMs  6 food  2 water  3 metal",
                                       "points": "4 points",
                                       "diplomacy": "Dis 0  Con 0  Tra 1  Exp 3"}
    assert table["players"]["Ann"]["points"] == "14 points"
    lines = result["counter_lines"]  # every counter on one line in its slot
    assert len(lines) == 12
    assert {tag: (n, words) for tag, (n, words, _shown) in lines.items()} == \
        {tag: (1, " ".join(shown.split())) for tag, (_n, _words, shown) in lines.items()}
    assert "ship:Cat:L2-farm" in table["ships"] and "ship:neutral:diplomacy" in table["ships"]
    assert table["supply"] == "Supply · H 20\nT18 P15 B18 G17"
    assert "EXAMPLE values" in table["demo"]
    assert (SHOTS / f"table-{size}.png").stat().st_size > 10_000


def test_a_ship_that_cannot_be_used_says_why(run_ui_driver) -> None:
    result = run_ui_driver(SCRIPT, "unusable-ship", shots=SHOTS, args=("--demo",))
    assert result["message"] == "using Ann's Diplomacy L1 ship costs 2 GEMs; Ann has 1 GEM"
    assert result["screen"] == "table"


def test_income_diplomacy_ship_next_and_undo_three_steps(run_ui_driver) -> None:
    """Ann takes income, Bob lobbies on the Dismantle track; undo takes back three steps."""
    result = run_ui_driver(SCRIPT, "diplomacy-ship-and-undo", shots=SHOTS, args=("--demo",))
    before, after, undone = result["before"], result["after"], result["after_undo"]
    assert before["active"] == "Bob" and before["players"]["Ann"]["counters"].startswith("13 GEMs")
    assert result["question"] == "Bob uses Diplomacy L3: lobby on which track (up to 2)?"
    assert "Dismantle: level 0 -> 1, 1 GEM" in result["tracks"]
    assert after["players"]["Bob"]["diplomacy"] == "Dis 1  Con 0  Tra 1  Exp 3"
    assert after["players"]["Bob"]["counters"].startswith("3 GEMs")
    assert after["heading"] == "Turn 11 · Next ends the turn"
    assert result["undone"][0] == ("Undo: Bob uses Bob's Diplomacy L3 ship and puts 4 GEMs "
                                  "on it")
    assert result["undone"][1] == "Undo: Bob takes the turn"
    assert result["undone"][2] == "Undo: Ann takes income"
    assert undone["active"] == "Ann" and undone["heading"] == "Turn 10 · choose a ship or Income"
    assert undone["players"]["Ann"]["counters"].startswith("1 GEM ")


def test_home_resumes_the_unfinished_game(run_ui_driver) -> None:
    result = run_ui_driver(SCRIPT, "home-resume", shots=SHOTS, args=("--demo",))
    assert result["resume"].startswith("Resume: ") and "Ann, Bob, Cat · playing" in result["resume"]
    assert any("Demo (example values)" in text for text in result["games"])
    assert result["table"]["active"] == "Cat" and result["table"]["screen"] == "table"


def test_another_game_opens_with_no_message_from_the_last(run_ui_driver, tmp_path: Path) -> None:
    """A refusal shown on one game's table is not shown on the next game's (issue 27)."""
    db = tmp_path / "games.sqlite"
    for _game in range(2):
        replayed(db, "three-players-draft.jsonl", CAT_TURN)
    result = run_ui_driver(SCRIPT, "no-stale-message", args=("--db", str(db)))
    assert result["refused"].startswith("Cat has not taken an action or income yet")
    assert result["second_game"] != result["first_game"]
    assert result["table"]["screen"] == "table" and result["message"] == ""


def test_a_kill_mid_game_and_a_relaunch_come_back_to_the_same_screen_and_state(
        run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    env = {"PHOENIX_COMPANION_HOME": str(tmp_path / "data")}
    killed = run_ui_driver(SCRIPT, "play-then-kill", args=("--demo", "--db", str(db)),
                           extra_env=env)
    again = run_ui_driver(SCRIPT, "relaunched", args=("--db", str(db)), extra_env=env)
    assert again["table"]["screen"] == killed["table"]["screen"] == "table"
    assert again["table"]["active"] == "Bob"
    assert again["table"] == killed["table"]
    assert again["state"] == killed["state"]


def test_fullscreen_fills_the_display_without_a_window_manager(run_ui_driver) -> None:
    result = run_ui_driver(SCRIPT, "fullscreen", args=("--fullscreen",))
    assert result["window"] == [1920, 1200]  # tools/xvfb_display.py's SCREEN


def test_four_players_most_ships_all_in_view_at_every_size(run_ui_driver, tmp_path: Path) -> None:
    """Issue 27: every ship of four players (40) and the five neutral ones are on the table
    without scrolling, inside the window, none over another or under a button, each at least
    48 px high and wholly worded; a bigger screen gives more columns of tiles of the same size,
    not the 800x480 layout scaled up."""
    db = tmp_path / "games.sqlite"
    most_ships(db)
    heights, columns = {}, {}
    for size in SIZES:
        result = run_ui_driver(SCRIPT, "four-players", size=size, shots=SHOTS,
                               args=("--db", str(db)))
        width, height = result["window"]
        places = result["places"]
        ships = {tag: place for tag, place in places.items() if tag.startswith("ship:")}
        assert sorted(tag.removeprefix("ship:") for tag in ships) == result["ship_ids"]
        assert len(ships) == 45 and result["scrolled"] == [] and result["cut_off"] == []
        for tag, (left, bottom, w, h) in places.items():
            assert left >= 0 and bottom >= 0, tag
            assert left + w <= width and bottom + h <= height, tag
        for (one, a), (other, b) in combinations(places.items(), 2):
            assert not overlap(a, b), (size, one, other)
        assert min(h for *_rest, h in ships.values()) >= 48
        heights[size] = max(h for *_rest, h in ships.values())
        annes = [place for tag, place in ships.items() if tag.startswith("ship:Ann:")]
        columns[size] = len({left for left, *_rest in annes})
        assert (SHOTS / f"table-four-players-{size}.png").stat().st_size > 10_000
    assert columns["800x480"] == 6  # Ann's 11 ships in two rows
    assert columns["800x480"] < columns["1024x600"] < columns["1280x800"]
    assert heights["1280x800"] <= 56  # more tiles, not bigger ones (the layout scaled: 77 px)


def test_a_swipe_on_a_ship_starts_nothing_and_the_whole_name_plate_opens_the_station(
        run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    most_ships(db)
    result = run_ui_driver(SCRIPT, "swipe-and-plate", args=("--db", str(db)))
    assert result["after_swipe"] == {"screen": "table", "message": ""}
    assert result["after_tap"]["screen"] == "action"
    assert result["after_tap"]["question"].startswith("Ann uses Transport L1")
    assert result["plate"].startswith("Bob")


@pytest.mark.parametrize("language", ["en", "de"])
def test_three_undos_to_a_bonus_prompt_then_redo_from_every_screen(
        run_ui_driver, tmp_path: Path, language: str) -> None:
    """Undo three steps back to Bob's Diplomacy bonus prompt: Redo is the way forward, on the
    prompt, the income screen and a station; each button names its step, wholly at 800x480
    (in German too), and the three steps redone give back the same state."""
    args = ["--demo"]
    if language == "de":
        config = tmp_path / "config.toml"
        config.write_text('[display]\nlanguage = "de"\n', encoding="utf-8")
        args += ["--config", str(config)]
    result = run_ui_driver(SCRIPT, "undo-redo", shots=SHOTS, args=tuple(args))
    seen = result["seen"]
    assert all(shown["undo_whole"] and shown["redo_whole"] for shown in seen), seen
    assert [shown["screen"] for shown in seen] == \
        ["table", "table", "table", "action", "table", "income", "station", "table"]
    assert result["same_state"]
    if language == "de":
        assert seen[1]["redo"].startswith("Wiederholen: ")
        return
    assert [shown["undo"] for shown in seen[:3]] == [
        "Undo: Ann takes income", "Undo: Ann takes the turn",
        "Undo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"]
    assert seen[3]["undo"].startswith("Undo: Cat uses ")  # the step before the prompt
    assert [shown["redo"] for shown in seen[1:4]] == [
        "Redo: Ann takes income", "Redo: Ann takes the turn",
        "Redo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"]
    assert seen[0]["redo"] == ""  # nothing undone yet: Redo disabled, its place kept
    assert [shown["redo"] for shown in seen[4:7]] == [
        "Redo: Ann takes the turn", "Redo: Ann takes the turn", "Redo: Ann takes income"]
    assert seen[7]["redo"] == "" and seen[7]["undo"] == "Undo: Ann takes income"
