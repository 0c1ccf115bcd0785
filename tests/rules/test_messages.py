"""Events carry data: each event's words are a message (a key and its parameters, JSON data),
worded in the language spoken now when they are shown (companion.rules.message). A game played in
one language reads in another at once, with nothing replayed; a game stored before events carried
messages shows the words it was played in."""

from __future__ import annotations

import copy
import json

import pytest
from tables import Table

from companion import i18n
from companion.i18n import N_
from companion.rules.game import Game
from companion.rules.message import event_text, join, message, plural, say
from companion.rules.report import summary
from companion.rules.state import Event


def play(table: Table) -> None:
    """A farm, an adjustment, an override (its note names the rules it broke), then a step
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


def texts(steps) -> list[list[str]]:
    return [[event_text(e) for e in step.events] for step in steps]


def played_in(language: str, game: Game) -> Game:
    """The same commands played from the start with `language` spoken, the same step undone."""
    i18n.set_language(language)
    again = Game(game.catalogue)
    for step in [*game.steps, *reversed(game.undone)]:
        again.execute(copy.deepcopy(step.command))
    for _step in game.undone:
        again.undo()
    return again


def test_an_event_stores_a_message_that_is_the_same_in_every_language(table, english_after):
    play(table)  # in English
    game = table.game
    events = [s.events for s in game.steps + game.undone]
    assert all("message" in e and "text" not in e for step in events for e in step)
    assert json.loads(json.dumps(events)) == events  # plain JSON data
    german = played_in("de", game)
    assert [s.events for s in german.steps + german.undone] == events
    assert german.state == game.state  # the override's note too: its rules are messages


def test_a_game_played_in_english_reads_in_german_with_nothing_replayed(table, english_after,
                                                                       monkeypatch):
    play(table)
    game = table.game
    english = texts(game.steps + game.undone)
    assert any("Adjusted Bob's water by +1: a spilt tile" in t for s in english for t in s)
    expected = texts(played_in("de", game).steps)  # German from here on
    steps, undone = list(game.steps), list(game.undone)
    stored = copy.deepcopy([(s.command, s.events, s.inverse) for s in steps + undone])
    state = copy.deepcopy(game.state)

    def replayed(*_args, **_kwargs):
        raise AssertionError("a change of language replays nothing")
    monkeypatch.setattr(Game, "perform", replayed)

    german = texts(game.steps)
    assert german == expected
    assert any("korrigiert: a spilt tile" in t for s in german for t in s)
    assert german != english[:len(game.steps)]
    # The same steps, the same events, the same state: only the words read differently.
    assert [id(s) for s in game.steps + game.undone] == [id(s) for s in steps + undone]
    assert [(s.command, s.events, s.inverse) for s in game.steps + game.undone] == stored
    assert game.state == state

    i18n.set_language("en")
    assert texts(game.steps + game.undone) == english


def test_the_override_note_names_the_broken_rules_in_the_readers_language(table, english_after):
    play(table)
    game = table.game
    note = next(e for s in game.steps for e in s.events if e["type"] == Event.OVERRIDDEN)
    assert event_text(note).startswith("Applied in spite of: ")
    assert event_text(note).endswith("(override: the table says so)")
    assert "costs" in event_text(note)
    rules = game.state["notes"][-1]["rules"]
    assert all("key" in rule and "params" in rule for rule in rules)  # data, not words
    english = summary(game.state, game.catalogue)["overrides"][-1]
    assert english["override"] == "the table says so"
    assert all(isinstance(rule, str) for rule in english["rules"])
    i18n.set_language("de")
    assert event_text(note).startswith("Angewandt trotz: ")
    german = summary(game.state, game.catalogue)["overrides"][-1]
    assert german["rules"] != english["rules"] and german["override"] == "the table says so"


def test_an_event_stored_before_messages_shows_the_words_it_was_played_in(english_after):
    old = {"type": "adjusted", "text": "Adjusted Bob's water by +1: a spilt tile",
           "ops": [["add", ["players", 1, "water"], 1]]}
    assert event_text(old) == "Adjusted Bob's water by +1: a spilt tile"
    i18n.set_language("de")
    assert event_text(old) == "Adjusted Bob's water by +1: a spilt tile"  # as played
    assert event_text({"type": "note", "ops": []}) == ""


def test_a_message_is_worded_with_its_parameters_worded_first(english_after):
    words = message(N_("{player} gains {amounts}: {why}"), player="Ann",
                    amounts=message(N_("{first} and {last}"),
                                    first=join(", ", [plural(N_("{count} GEM"), N_("{count} GEMs"),
                                                             3, count=3)]),
                                    last=plural(N_("{count} point"), N_("{count} points"), 1,
                                                count=1)),
                    why=message(N_("a trade")))
    assert say(words) == "Ann gains 3 GEMs and 1 point: a trade"
    i18n.set_language("de")
    assert say(words) == "Ann erhält 3 GEMs und 1 Punkt: ein Tausch"
    assert say(join(message(N_(" or ")), [message(N_("teal")), message(N_("pink"))])) == \
        "türkis oder rosa"
    assert say("Ann") == "Ann" and say(3) == "3"


@pytest.mark.parametrize("stored", [
    message(N_("{player} takes the turn")),  # a parameter missing
    message(N_("{player} takes the turn"), player="Ann", extra=1),  # one more: ignored
    {"key": "a text no catalogue has: {x}", "params": {}},
])
def test_a_stored_message_that_does_not_fit_is_still_shown(stored, english_after):
    i18n.set_language("de")
    assert isinstance(event_text({"type": "turn_started", "message": stored, "ops": []}), str)
