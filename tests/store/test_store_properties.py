"""Hypothesis: any sequence of commands, undos and redos, interrupted by closing and reopening
the database at random points (with snapshots at random intervals), gives the same game as the
same sequence applied in memory without reopening."""

from __future__ import annotations

import copy
import random
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from make_long_game import propose
from store_helpers import overlay_copy, rules_fixtures, table_catalogue

from companion.rules.game import Game, Missing, Refused
from companion.store import Store


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """(a database holding one 2-player game at the start of play, its overlay, the setup
    commands)."""
    folder = tmp_path_factory.mktemp("started")
    overlay = overlay_copy(folder)
    commands: list[dict] = []
    fixtures = rules_fixtures()

    class Recording(fixtures.Table):
        def run(self, command):
            commands.append(copy.deepcopy(command))
            return self.game.execute(command)

    table = Recording(table_catalogue())
    table.setup_bonuses()
    for name in table.names:
        table.set(name, gems=20, food=6, water=6, metal=12)
    db = folder / "started.sqlite"
    with Store.open(db, overlay=overlay) as store:
        played = store.new_game("property")
        for command in commands:
            played.execute(command)
    return db, overlay, commands


def _same(played, reference: Game) -> None:
    assert played.state == reference.state
    assert [s.command for s in played.game.steps] == [s.command for s in reference.steps]
    assert [s.command for s in played.game.undone] == [s.command for s in reference.undone]


KINDS = ["command"] * 3 + ["undo", "undo", "redo", "reopen"]
ACTIONS = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 2**32 - 1)),
                   min_size=5, max_size=45)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(actions=ACTIONS, every=st.integers(1, 12))
def test_reopening_anywhere_gives_the_same_game(started, actions, every):
    template, overlay, setup = started
    reference = Game(table_catalogue())
    for command in setup:
        reference.execute(copy.deepcopy(command))
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.sqlite"
        shutil.copyfile(template, db)
        store = Store.open(db, overlay=overlay, snapshot_every=every)
        played = store.resume()
        assert played is not None
        try:
            _same(played, reference)
            for kind, seed in actions:
                if kind == "reopen":
                    store.close()
                    store = Store.open(db, overlay=overlay, snapshot_every=1 + seed % 12)
                    played = store.open_game(played.id)
                    _same(played, reference)
                    continue
                command = ({"cmd": kind} if kind != "command"
                           else propose(reference.state, random.Random(seed)))
                try:
                    reference.execute(copy.deepcopy(command))
                except (Refused, Missing):
                    before = copy.deepcopy(played.state)
                    with pytest.raises((Refused, Missing)):
                        played.execute(command)
                    assert played.state == before
                    continue
                played.execute(command)
                assert played.state == reference.state
            store.close()
            store = Store.open(db, overlay=overlay, write=False)
            _same(store.open_game(played.id), reference)
            _same(store.open_game(played.id, use_snapshots=False), reference)
            store.check_snapshots(played.id)
        finally:
            store.close()
