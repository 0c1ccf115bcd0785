"""Fixtures for the rules engine: a catalogue completed with a table's entries, a game to play."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # also when loaded from another folder's tests
from tables import Table, table_catalogue_at, table_values

__all__ = ["Table", "table_catalogue_at", "table_values"]


@pytest.fixture(scope="session")
def table_catalogue(tmp_path_factory):
    """The shipped catalogue plus a table's entries for everything unknown."""
    return table_catalogue_at(tmp_path_factory.mktemp("table"))


@pytest.fixture
def table(table_catalogue):
    """A 2-player game (Ann: B-3, Bob: B-5) at the start of play."""
    table = Table(table_catalogue)
    table.setup_bonuses()
    return table
