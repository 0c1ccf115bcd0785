"""The type checker (`make typecheck`) refuses a reader of `rules.options` that asks for a key
the engine does not give: mypy, with the project's configuration (pyproject.toml), on a small
module that reads `options(...)` the way the table app does, once right and once misspelt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

READER = '''
from companion.catalogue_files import load_catalogue
from companion.rules.options import options
from companion.rules.state import new_state

found = options(new_state(), load_catalogue())
{reads}
'''
RIGHT = '''
print(found["pending"], found["end"]["triggered_by"])
for ship in found["ships"]:
    print(ship["cost"], ship["reason"])
step = found["setup"]
if step["command"] == "new_game":
    print(step["aliens_drawn"])
'''
WRONG = '''
print(found["pendng"])
for ship in found["ships"]:
    print(ship["cots"])
step = found["setup"]
if step["command"] == "draft_ship":
    print(step["aliens_drawn"])
'''


def mypy(*files: Path, cache: Path) -> subprocess.CompletedProcess:
    """mypy as `make typecheck` runs it (the configuration in pyproject.toml), on `files`."""
    env = {**os.environ, "MYPYPATH": str(REPO)}  # the modules are outside the repository
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), *map(str, files)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


def test_a_key_options_does_not_give_is_a_type_error(tmp_path):
    right, wrong = tmp_path / "right_reader.py", tmp_path / "wrong_reader.py"
    right.write_text(READER.format(reads=RIGHT))
    wrong.write_text(READER.format(reads=WRONG))

    checked = mypy(right, wrong, cache=tmp_path / "cache")
    out = checked.stdout
    assert checked.returncode == 1, out + checked.stderr
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert all(line.startswith(str(wrong)) for line in errors), out  # the misspelt reader only
    assert 'TypedDict "TableOptions" has no key "pendng"' in out  # options()'s own keys
    assert 'TypedDict "ShipEntry" has no key "cots"' in out  # a ship's, one level down
    assert 'TypedDict "DraftShipStep" has no key "aliens_drawn"' in out  # another step's key
    assert len(errors) == 3, out
