"""Shared fixtures for the vision tests: the shipped real photos and the synthetic renderer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
sys.path.insert(0, str(HERE))  # so tests can `import synth_dice`


@pytest.fixture(scope="session")
def fixture_labels() -> dict:
    """labels.json of the real fixture photos (a few copied from d6-tray, BSD-3, Nell Byler)."""
    return json.loads((FIXTURES / "labels.json").read_text())


@pytest.fixture(scope="session")
def pip_reader():
    """One pip reader for the whole session (loading the networks takes a moment)."""
    from vision.pips import PipReader

    return PipReader()
