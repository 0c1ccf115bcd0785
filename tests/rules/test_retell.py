"""A game told again in another language (Game.retell, retold): its events' texts are worded
when played and kept so; replaying the commands words them in the language spoken now, while the
commands, the ops and the state stay as they were, and undo and redo go on."""

from __future__ import annotations

import copy
import json

from tables import Table

from companion import i18n
from companion.rules.game import Game, retold
from companion.rules.state import Event


def play(table: Table) -> None:
    """A farm, an adjustment, an override (its note names the rules in words), then a step
    undone, so that there is one to redo."""
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L2-farm"})
    table.end_turn()
    table.run({"cmd": "adjust", "who": "Bob", "counter": "water", "delta": 1,
               "note": "a spilt tile"})
    table.run({"cmd": "use_ship", "player": "Bob", "ship": "Bob:L1-transport",
               "transactions": [{"type": "buy", "gain": "food"}] * 6,
               "override": "the table says so"})
    table.end_turn()
    table.game.undo()


def but_notes(state: dict) -> dict:
    """A state less its override notes (the rules broken, in the words they were broken in)."""
    return {key: value for key, value in state.items() if key != "notes"}


def texts(steps) -> list[list[str]]:
    return [[e["text"] for e in step.events] for step in steps]


def replayed_in_german(game: Game) -> Game:
    """The same commands played in German from the start, the same step undone."""
    i18n.set_language("de")
    again = Game(game.catalogue)
    for step in [*game.steps, *reversed(game.undone)]:
        again.execute(copy.deepcopy(step.command))
    for _step in game.undone:
        again.undo()
    return again


def test_retelling_words_a_game_as_playing_it_in_german_would(table, english_after):
    play(table)  # in English
    game = table.game
    assert any(e["type"] == Event.OVERRIDDEN for step in game.steps for e in step.events)
    before = json.dumps(game.state, sort_keys=True)
    stored = copy.deepcopy([(s.command, s.events, s.inverse) for s in game.steps + game.undone])
    expected = replayed_in_german(game)  # German from here on

    assert game.retell() == []
    assert texts(game.steps) == texts(expected.steps)
    assert texts(game.undone) == texts(expected.undone)
    assert any("korrigiert: a spilt tile" in text for step in texts(game.steps) for text in step)
    # Nothing but the texts changed: the commands, ops and inverse ops, and the state (whose
    # override note keeps the rules in the words they were broken in).
    assert json.dumps(game.state, sort_keys=True) == before
    for step, (command, events, inverse) in zip(game.steps + game.undone, stored, strict=True):
        assert (step.command, step.inverse) == (command, inverse)
        assert [(e["type"], e["ops"]) for e in step.events] == [(e["type"], e["ops"])
                                                                 for e in events]
    assert "costs" in " ".join(game.state["notes"][-1]["rules"])  # still the English words

    # Undo and redo go on, in German.
    game.redo()
    expected.redo()
    assert but_notes(game.state) == but_notes(expected.state)
    assert texts(game.steps) == texts(expected.steps)
    while game.steps:
        game.undo()
        expected.undo()
        assert but_notes(game.state) == but_notes(expected.state)
    assert texts(game.undone) == texts(expected.undone)


def test_retelling_in_the_language_played_changes_nothing(table):
    play(table)
    game = table.game
    events = copy.deepcopy([s.events for s in game.steps + game.undone])
    assert game.retell() == []
    assert [s.events for s in game.steps + game.undone] == events


def test_a_step_the_replay_does_not_give_again_keeps_its_stored_texts(table, english_after):
    """A stored command that is refused now, or gives other events, keeps the words it was
    stored with; the steps after it are retold, from the stored fold."""
    play(table)
    game = table.game
    steps = list(game.steps)
    farm = next(n for n, s in enumerate(steps) if s.command.get("ship") == "Ann:L2-farm")
    adjust = next(n for n, s in enumerate(steps) if s.command["cmd"] == "adjust")
    steps[farm] = copy.copy(steps[farm])
    steps[farm].command = {"cmd": "fly"}  # refused
    steps[adjust] = copy.copy(steps[adjust])
    steps[adjust].command = {**steps[adjust].command, "delta": 2}  # another op
    i18n.set_language("de")
    told = retold(game.catalogue, steps, game.undone)
    assert [n for n, _why in told.kept] == [farm + 1, adjust + 1]
    assert "fly" in told.kept[0][1] and "other events" in told.kept[1][1]
    assert texts(told.steps[farm:farm + 1]) == texts(steps[farm:farm + 1])
    assert texts(told.steps[adjust:adjust + 1]) == texts(steps[adjust:adjust + 1])
    assert "Adjusted Bob's water" in told.steps[adjust].events[0]["text"]
    expected = replayed_in_german(game)
    assert texts(told.steps[adjust + 1:]) == texts(expected.steps[adjust + 1:])
    assert texts(told.undone) == texts(expected.undone)
    assert texts(told.steps[:farm]) == texts(expected.steps[:farm])


def test_a_step_whose_stored_ops_do_not_apply_ends_the_retelling(table, english_after):
    """A damaged stored step (refused, and its ops do not apply): it and every step after it
    keep their stored texts; retelling never fails a game."""
    play(table)
    game = table.game
    damaged = copy.copy(game.steps[-2])
    damaged.command = {"cmd": "fly"}
    damaged.events = [{"type": "adjusted", "text": "?", "ops": [["add", ["nowhere", 0], 1]]}]
    steps = [*game.steps[:-2], damaged, game.steps[-1]]
    i18n.set_language("de")
    told = retold(game.catalogue, steps, game.undone)
    count = len(steps)
    assert [n for n, _why in told.kept] == [count - 1, count, count + 1]
    assert told.steps[-2:] == steps[-2:] and told.undone == game.undone
    assert texts(told.steps[:-2]) == texts(replayed_in_german(game).steps[:-2])
