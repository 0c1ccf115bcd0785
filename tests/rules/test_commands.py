"""Malformed commands are refused with the field and what it expects, never a crash.

Every command's shape is described once (companion/rules/commands.py): the check at the top of
`Game.execute` and the command tables of docs/game-scripts.md come from it. Lines of real games,
mutated (types, keys, values), are either applied or refused - and a refused line changes nothing.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables import Table

from companion.files import JsonFileError, read_script
from companion.rules import commands
from companion.rules.game import HANDLERS, Game, Missing, Refused
from companion.rules.script import ScriptError, parse

ROOT = Path(__file__).parents[2]
GAMES = sorted((ROOT / "tests" / "rules" / "games").glob("*.jsonl"))


def script_commands(path: Path) -> list[dict]:
    """The commands of a test game script (its `check` lines are the test harness's)."""
    return [line.command for line in parse(
        text for text in read_script(path) if not text.startswith('{"check"'))]


def refused(game: Game, command: dict) -> str:
    """Execute a command that must be refused; the state and the step log are unchanged."""
    before, steps = copy.deepcopy(game.state), list(game.steps)
    with pytest.raises(Refused) as error:
        game.execute(command)
    assert game.state == before
    assert game.steps == steps
    return error.value.reason


def game_until(catalogue, path: Path, done) -> Game:
    """A game replayed from a real script up to the first line at which `done(state)`."""
    game = Game(catalogue)
    for command in script_commands(path):
        if done(game.state):
            return game
        game.execute(command)
    raise AssertionError("the script never gets there")


# -- the description ----------------------------------------------------------------------------


def test_every_command_is_described():
    assert set(commands.COMMANDS) == {*HANDLERS, "undo", "redo"}


def test_every_command_has_its_builder_which_makes_the_lines_of_real_games():
    """`commands.undo()`, `commands.use_ship(player, ship, ...)`, ...: one builder per command,
    named after it, taking its fields by name; each line of the real games made again by its
    builder is the same line. A field a command does not have is a mistake in the code."""
    lines = [command for path in [*GAMES, *sorted((ROOT / "examples").glob("*.jsonl"))]
             for command in script_commands(path)]
    lines += [{"cmd": "hub_power", "player": "Ann", "source": "A-1", "use": ["A-1"]},
              {"cmd": "human_then_income", "player": "Ann", "human_cost_skip": ["food"]},
              {"cmd": "adjust", "who": "Ann", "counter": "gems", "delta": -1, "note": "why"},
              {"cmd": "undo"}, {"cmd": "redo"}]
    assert {command["cmd"] for command in lines} == set(commands.COMMANDS)
    for command in lines:
        builder = getattr(commands, command["cmd"])
        fields = {key: value for key, value in command.items() if key != "cmd"}
        assert builder(**fields) == command and commands.problem(command) is None
    with pytest.raises(TypeError, match="end_turn has no field player"):
        commands.end_turn(player="Ann")
    assert commands.income("Ann", relocate=None) == {"cmd": "income", "player": "Ann"}


def test_a_correction_says_what_is_wrong_with_it():
    with pytest.raises(commands.CommandError, match="a correction needs a note"):
        commands.adjust("Ann", "gems", " ", delta=1)
    with pytest.raises(commands.CommandError, match="supply counts human, teal"):
        commands.adjust("supply", "gems", "why", delta=1)
    with pytest.raises(commands.CommandError, match="give the change or the new value"):
        commands.adjust("Ann", "gems", "why", delta=1, value=2)
    assert commands.adjust("supply", "teal", "one fell on the floor", value=0) == {
        "cmd": "adjust", "who": "supply", "counter": "teal", "value": 0,
        "note": "one fell on the floor"}


def test_the_docs_tables_are_written_from_the_description():
    doc = (ROOT / "docs" / "game-scripts.md").read_text(encoding="utf-8")
    assert doc.count("<!-- commands:") == 6
    assert commands.update_doc(doc) == doc, "run .venv/bin/python tools/command_docs.py"


@pytest.mark.parametrize("path", [*GAMES, ROOT / "tests" / "store" / "long_game.jsonl"],
                         ids=lambda p: p.stem)
def test_real_games_are_well_formed(path):
    for command in script_commands(path):
        assert commands.problem(command) is None, command


# -- wrong shapes -------------------------------------------------------------------------------

USE_TRANSPORT = {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-transport",
                 "transactions": [{"type": "buy", "gain": "food"}]}


@pytest.mark.parametrize(("command", "reason"), [
    ({"cmd": "adjust", "who": "Ann", "counter": "gems", "value": "5", "note": "recount"},
     'adjust: value must be a whole number from -9999 to 9999, not the string "5"'),
    ({"cmd": "adjust", "who": "Ann", "counter": "gems", "delta": 10**40, "note": "recount"},
     "adjust: delta must be a whole number from -9999 to 9999, not a number of 41 digits"),
    ({"cmd": "end_turn", "catalogue": 7},
     'end_turn: catalogue must be an object {"kind/record/field": any JSON value}, not 7'),
    ({"cmd": "diplomacy_bonus", "player": "Ann", "levels": [True]},
     "diplomacy_bonus: levels[0] must be a whole number from 0 to 5, not true"),
    ({**USE_TRANSPORT, "transactions": {"type": "buy", "gain": "food"}},
     "use_ship: transactions must be a list of transactions, not an object"),
    ({"cmd": "income", "player": "Ann", "relocate": [["hub", 0, 101]]},
     "income: relocate[0] must be a relocation, not a list"),
    ({**USE_TRANSPORT, "use": {"B-3": True}},
     "use_ship: use must be a list of strings, not an object"),
    ({**USE_TRANSPORT, "choices": ["pink"]}, "use_ship: choices must be an object"),
    ({**USE_TRANSPORT, "bonus": {"206": [{"type": "buy", "gain": 3}]}},
     'use_ship: bonus["206"][0].gain must be a string, not 3'),
    ({**USE_TRANSPORT, "where": {"human": "deck"}},
     'use_ship: where["human"] must be "hub", not the string "deck"'),
    ({**USE_TRANSPORT, "transactions": [{"type": "alien", "colour": "pink"}]},
     'use_ship: transactions[0] has no field "colour" (its fields: type, color, where, pay, '
     'gain)'),
    ({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-expedition", "rerolls": 1.0},
     "use_ship: rerolls must be a whole number from 0 to 9999, not the number 1.0"),
    ({"cmd": "use_ship", "player": ["Ann"], "ship": "Ann:L1-farm"},
     "use_ship: player must be a string, not a list"),
    ({"cmd": "use_ship", "player": "Ann"}, 'use_ship needs "ship": the ship id'),
    ({"cmd": "end_turn", "force": True}, 'end_turn has no field "force" (its fields: cmd, '),
    ({"cmd": "undo", "steps": 2}, 'undo has no field "steps"'),
    ({"cmd": "end_turn", "catalogue": {"sectors/111/cost": [[[[[[[[[[5]]]]]]]]]]}},
     'end_turn: catalogue["sectors/111/cost"] is nested deeper than 8 levels'),
    ({"cmd": 7}, "unknown command 7 (commands: new_game, "),
    ({"cmd": "build"}, 'unknown command "build"'),
    ({"player": "Ann"}, "unknown command null"),
    (["end_turn"], 'a command is an object with a "cmd", not a list'),
])
def test_a_malformed_command_is_refused_and_changes_nothing(table, command, reason):
    assert refused(table.game, command).startswith(reason)


def test_a_malformed_new_game_is_refused(table_catalogue):
    players = [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}]
    game = Game(table_catalogue)
    assert refused(game, {"cmd": "new_game", "players": players, "aliens": 90}) == (
        'new_game: aliens must be an object {"teal", "pink", "brown", "gold"} of whole numbers, '
        "not 90")
    assert refused(game, {"cmd": "new_game", "players": [*players[:1], {"name": "Bob"}],
                          "aliens": {}}).startswith('new_game: players[1] needs "color"')


# -- the right shapes, values that cannot be -----------------------------------------------------


def test_a_bonus_of_the_wrong_kind_is_refused(table_catalogue):
    table = Table(table_catalogue, hubs=("B-5", "B-3"))
    table.setup_bonuses()
    table.set("Ann", gems=5)
    reason = refused(table.game, {"cmd": "income", "player": "Ann", "use": ["B-5"],
                                  "bonus": {"B-5": 101}})
    assert reason == 'B-5: bonus["B-5"] must be a list of transactions, not 101'


def test_a_relocation_from_past_the_hub_is_refused(table):
    table.set("Ann", gems=5)
    reason = refused(table.game, {"cmd": "income", "player": "Ann",
                                  "relocate": [{"from": "hub", "slot": 7, "to": 101}]})
    assert reason == "Ann's Hub has no resident in quarter 7"


def test_an_overridden_placement_still_needs_a_quarter(table):
    command = {**USE_TRANSPORT, "transactions": [{"type": "gold", "where": 301}],
               "override": "the table says so"}
    table.set("Ann", food=1, water=1, metal=1)
    assert refused(table.game, command) == "Ann has no free living quarter in Sector 301"


def test_an_overridden_dismantle_of_a_neutral_ship_is_refused(table):
    reason = refused(table.game, {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-dismantle",
                                  "dismantle": "neutral:transport", "override": "why not"})
    assert reason.startswith("which ship does Ann dismantle?")


@pytest.mark.parametrize("levels", [[4], [5, 0], [-1]])
def test_a_diplomacy_bonus_beyond_level_3_is_refused_even_overridden(table_catalogue, levels):
    game = game_until(table_catalogue, GAMES[0], lambda state: state["pending"])
    name = game.state["players"][game.state["pending"][0]["player"]]["name"]
    command = {"cmd": "diplomacy_bonus", "player": name, "levels": levels, "override": "x"}
    assert "levels" in refused(game, command)


def test_setup_steps_keep_their_order_even_overridden(table):
    command = {"cmd": "reveal_ships", "ships": ["L2-farm"] * 5, "override": "a new draft"}
    assert refused(table.game, command) == "this setup step comes later (now: done)"


def test_draft_and_hub_choice_only_from_what_is_on_offer(table_catalogue):
    draft = next(p for p in GAMES if "draft" in p.stem)
    game = game_until(table_catalogue, draft, lambda state: state["setup"].get("step") == "draft")
    name = game.state["players"][game.state["setup"]["draft_order"][0]]["name"]
    assert "is not among the ships on offer" in refused(
        game, {"cmd": "draft_ship", "player": name, "ship": "B-7", "override": "x"})
    game = game_until(table_catalogue, draft,
                      lambda state: state["setup"].get("step") == "choose_hub")
    name = game.state["players"][0]["name"]
    assert f"{name} was dealt" in refused(
        game, {"cmd": "choose_hub", "player": name, "hub": "red", "override": "x"})


def test_perform_says_what_the_log_did_and_take_back_reverses_it(table_catalogue):
    game, lines = Game(table_catalogue), script_commands(GAMES[0])
    for command in lines[:5]:
        game.execute(command)
    game.undo()
    game.undo()
    before = (copy.deepcopy(game.state), list(game.steps), list(game.undone))
    for command, change in (({"cmd": "redo"}, "redo"), ({"cmd": "undo"}, "undo"),
                            (lines[3], "new")):
        done, step = game.perform(command)
        assert done == change and step in (*game.steps, *game.undone)
        game.take_back(done)
        assert (game.state, game.steps, game.undone) == before


def test_hub_powers_wait_for_play(table_catalogue):
    game = game_until(table_catalogue, GAMES[0], lambda state: state["phase"] == "setup")
    reason = refused(game, {"cmd": "hub_power", "player": game.state["players"][0]["name"],
                            "source": "B-6", "override": "x"})
    assert reason == "Hub powers are used once the game is in play"


# -- scripts that are not commands ----------------------------------------------------------------


@pytest.mark.parametrize(("text", "reason"), [
    ("[" * 100_000, "line 2: not usable JSON: nested more than 64 levels deep"),
    ('{"cmd": "adjust", "delta": ' + "9" * 5000 + "}",
     "line 2: not usable JSON: a number of 5000 digits (at most 30)"),
    ('{"cmd": "adjust", "delta": NaN}', "line 2: not usable JSON: NaN is not a number JSON allows"),
    ('{"cmd": "end_turn"', "line 2: not valid JSON"),
])
def test_a_line_that_is_not_a_command(text, reason):
    with pytest.raises(ScriptError) as error:
        list(parse(["# a game", text]))
    assert str(error.value).startswith(reason)


def test_a_script_must_be_utf8(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b'{"cmd": "end_turn"}\n{"cmd": "adjust", "note": "caf\xe9"}\n')
    with pytest.raises(JsonFileError, match=r"game.jsonl: not UTF-8 text \(line 2, byte 50\)"):
        read_script(path)
    path.write_bytes(b'\xef\xbb\xbf{"cmd": "end_turn"}\r\n\n')
    assert [line.command for line in parse(read_script(path))] == [{"cmd": "end_turn"}]


def replay_cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PHOENIX_COMPANION_HOME": str(home)}
    env.pop("PHOENIX_OVERLAY", None)
    return subprocess.run([sys.executable, "-m", "companion.cli", "replay", *args],
                          capture_output=True, text=True, env=env, timeout=60)


FIRST_LINES = b"".join(json.dumps(c).encode() + b"\n" for c in script_commands(GAMES[-1])[:3])


@pytest.mark.parametrize(("bad", "reason"), [
    (b'{"cmd": "new_game", "players": [], "aliens": 90}',
     'line 4: new_game: aliens must be an object {"teal", "pink", "brown", "gold"}'),
    (b'{"cmd": "adjust", "who": "Ann", "counter": "gems", "value": "5", "note": "x"}',
     'line 4: adjust: value must be a whole number from -9999 to 9999, not the string "5"'),
    (b'{"cmd": "adjust", "note": "caf\xe9"}', "not UTF-8 text (line 4,"),
    (b"[" * 100_000, "line 4: not usable JSON: nested more than 64 levels deep"),
    (b'{"cmd": "end_turn", "n": ' + b"1" * 5000 + b"}", "line 4: not usable JSON: a number"),
])
def test_replay_of_a_bad_line_exits_2_with_its_line_number(tmp_path, bad, reason):
    script = tmp_path / "bad.jsonl"
    script.write_bytes(FIRST_LINES + bad + b"\n")
    for extra in ([], ["--db", str(tmp_path / "games.db")]):
        result = replay_cli(str(script), *extra, home=tmp_path)
        assert result.returncode == 2, result.stderr
        assert reason in result.stderr
        assert "Traceback" not in result.stderr


def test_replay_of_a_fifo_is_refused_without_waiting(tmp_path):
    """A script path that is a FIFO would block a plain read forever: it is refused at once."""
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    for extra in ([], ["--db", str(tmp_path / "games.db")]):
        result = replay_cli(str(fifo), *extra, home=tmp_path)
        assert result.returncode == 2, result.stderr
        assert "game.jsonl: not a regular file (a FIFO)" in result.stderr
        assert "Traceback" not in result.stderr


# -- lines of real games, mutated ---------------------------------------------------------------

LINES = [script_commands(path) for path in GAMES]
WORDS = sorted({word for lines in LINES for command in lines
                for word in json.dumps(command).split('"')[1::2]})
FIELDS = sorted({f.name for spec in commands.SPECS for f in spec.record.fields})


def seen(value, found: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """The values each field name takes anywhere in the real games (by their JSON text)."""
    if isinstance(value, dict):
        for key, item in value.items():
            found.setdefault(key, {})[json.dumps(item, sort_keys=True)] = item
            seen(item, found)
    elif isinstance(value, list):
        for item in value:
            seen(item, found)
    return found


SEEN = {key: list(values.values()) for key, values in seen(LINES, {}).items()}
NUMBERS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 101, 111, 224, 307, 326, 9999, 10**6, -(10**30)]

scalars = (st.none() | st.booleans() | st.sampled_from(NUMBERS) | st.integers()
           | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(WORDS)
           | st.text(max_size=6))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(FIELDS) | st.text(max_size=5), inner, max_size=3), max_leaves=8)


def well_typed(shape: commands.Shape) -> st.SearchStrategy:
    """Values of the right JSON shape, from the games' own words and numbers."""
    if isinstance(shape, commands.Text):
        return st.sampled_from(shape.words or WORDS)
    if isinstance(shape, commands.Whole):
        return (st.integers(shape.low, shape.high)
                | st.sampled_from([n for n in NUMBERS if shape.low <= n <= shape.high]))
    if isinstance(shape, commands.Flag):
        return st.booleans()
    if isinstance(shape, commands.Null):
        return st.none()
    if isinstance(shape, commands.ListOf):
        return st.lists(well_typed(shape.item), max_size=4)
    if isinstance(shape, commands.MapOf):
        return st.dictionaries(st.sampled_from(WORDS), well_typed(shape.value), max_size=3)
    if isinstance(shape, commands.Record):
        return st.fixed_dictionaries(
            {f.name: of_field(f) for f in shape.fields if f.required},
            optional={f.name: of_field(f) for f in shape.fields if not f.required})
    if isinstance(shape, commands.OneOf):
        return st.one_of([well_typed(s) for s in shape.shapes])
    return json_values


def of_field(field: commands.Field) -> st.SearchStrategy:
    """A field's value: one the real games give it, or any of the right shape."""
    values = SEEN.get(field.name)
    return st.sampled_from(values) | well_typed(field.shape) if values else well_typed(
        field.shape)


def paths(value, path=()):
    """Every place in a JSON value, the value itself first."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, item in items:
        yield from paths(item, (*path, key))


def replaced(value, path, new):
    if not path:
        return new
    value = copy.copy(value)
    value[path[0]] = replaced(value[path[0]], path[1:], new)
    return value


def mutate(draw, command):
    """One change to a command: a field's value (well-typed or not), a key dropped or added,
    a nested value changed, a list made an object or the other way round, deep nesting."""
    kind = draw(st.sampled_from(["field", "field", "drop", "add", "nested", "swap", "deep"]))
    name = command.get("cmd") if isinstance(command, dict) else None
    spec = commands.COMMANDS.get(name) if isinstance(name, str) else None
    if kind == "field" and spec:
        field = draw(st.sampled_from([f for f in spec.record.fields if f.name != "cmd"]))
        return {**command, field.name: draw(of_field(field))}
    if kind == "drop" and isinstance(command, dict) and command:
        key = draw(st.sampled_from(sorted(command)))
        return {k: v for k, v in command.items() if k != key}
    if kind == "add" and isinstance(command, dict):
        return {**command, draw(st.sampled_from(FIELDS)): draw(json_values)}
    path = draw(st.sampled_from(list(paths(command))[1:] or [()]))
    old = copy.deepcopy(command)
    for key in path:
        old = old[key]
    if kind == "swap":
        new = (list(old.values()) if isinstance(old, dict) else dict(zip(map(str, range(9)), old))
               if isinstance(old, list) else [old])
    elif kind == "deep":
        new = old
        for _ in range(draw(st.integers(5, 60))):
            new = [new]
    elif isinstance(old, int) and not isinstance(old, bool) and draw(st.booleans()):
        new = old + draw(st.sampled_from([-100, -2, -1, 1, 2, 100]))
    else:
        new = draw(json_values)
    return replaced(command, path, new)


class Replays:
    """For each real game: the state and steps before each of its lines."""

    def __init__(self, catalogue) -> None:
        self.catalogue = catalogue
        self.before: list[list[tuple[dict, list]]] = []
        for lines in LINES:
            game, before = Game(catalogue), []
            for command in lines:
                before.append((copy.deepcopy(game.state), list(game.steps)))
                game.execute(copy.deepcopy(command))
            self.before.append(before)

    def __repr__(self) -> str:  # hypothesis shows the test's arguments when it fails
        return f"<the positions of {len(LINES)} games>"


@pytest.fixture(scope="module")
def replays(table_catalogue):
    return Replays(table_catalogue)


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_mutated_lines_are_applied_or_refused(replays, data):
    game_index = data.draw(st.integers(0, len(LINES) - 1))
    lines = LINES[game_index]
    at = data.draw(st.integers(0, len(lines) - 1))
    state, steps = replays.before[game_index][at]
    game = Game.restore(replays.catalogue, copy.deepcopy(state), steps, [])
    command = data.draw(st.sampled_from(lines) if data.draw(st.integers(0, 4)) == 0
                        else st.just(lines[at]))
    if data.draw(st.integers(0, 3)) == 0:
        spec = data.draw(st.sampled_from(commands.SPECS))
        command = {**data.draw(well_typed(spec.record)), "cmd": spec.name}
    for _ in range(data.draw(st.integers(1, 3))):
        command = mutate(data.draw, command)
    if isinstance(command, dict) and data.draw(st.integers(0, 3)) == 0:
        command = {**command, "override": "the table says so"}
    before = copy.deepcopy(game.state)
    try:
        step = game.execute(command)
    except (Refused, Missing):
        assert game.state == before, "a refused line changed the state"
        assert game.steps == steps, "a refused line changed the step log"
        return
    if command["cmd"] not in ("undo", "redo"):
        assert game.steps == [*steps, step]
        game.undo()
        assert game.state == before, "an applied line is not undone exactly"
