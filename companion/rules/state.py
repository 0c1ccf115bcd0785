"""The game state as plain JSON-shaped data, and the one way it changes: applying an event's ops.

An event is `{"type": ..., "text": ..., "ops": [[op, path, value], ...]}`. Its ops are the only
mutation the state ever sees, so the state is exactly the fold of the events, and every op has an
inverse (recorded as it is applied) that undoes it exactly.

Ops: `add` a number, `set` a value, `delete` a key, `append` to a list, `pop` the last item of
a list, `remove_at` an index of a list, `insert_at` an index of a list. A path is a list of keys and
indexes from the root, e.g. `["players", 0, "gems"]`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any


def new_state() -> dict:
    """The state before anything has happened: no players, no game."""
    return {
        "phase": "new",
        "options": {},
        "players": [],
        "ships": {},
        "supply": {"human": 0, "teal": 0, "pink": 0, "brown": 0, "gold": 0},
        "display": [],
        "setup": {},
        "turn": {"number": 0, "active": None, "acted": False, "extra_turns": 0},
        "pending": [],
        "end": {"triggered_by": None, "final_turns": []},
        "learned": {},
        "notes": [],
    }


def _own(value: Any) -> Any:
    """A private copy of a value going into the state (scalars are immutable already)."""
    return copy.deepcopy(value) if isinstance(value, (dict, list)) else value


def _parent(state: Any, path: Sequence[Any]) -> tuple[Any, Any]:
    node = state
    for key in path[:-1]:
        node = node[key]
    return node, path[-1]


def apply_op(state: dict, op: Sequence[Any]) -> list:
    """Apply one op in place; return the op that undoes it."""
    name, path, value = op
    node, key = _parent(state, path)
    if name == "add":
        node[key] += value
        return ["add", path, -value]
    if name == "set":
        new_key = isinstance(node, dict) and key not in node
        old = None if new_key else node[key]
        node[key] = _own(value)
        return ["delete", path, None] if new_key else ["set", path, old]
    if name == "delete":
        return ["set", path, node.pop(key)]
    target = node[key]
    if name == "append":
        target.append(_own(value))
        return ["pop", path, None]
    if name == "pop":
        old = target.pop()
        return ["append", path, old]
    if name == "remove_at":
        old = target.pop(value)
        return ["insert_at", path, [value, old]]
    if name == "insert_at":
        index, item = value
        target.insert(index, _own(item))
        return ["remove_at", path, index]
    raise ValueError(f"unknown op {name!r}")


def apply_ops(state: dict, ops: Iterable[Sequence[Any]]) -> list:
    """Apply ops in order; return the inverse ops in the order that undoes them."""
    inverse = [apply_op(state, op) for op in ops]
    inverse.reverse()
    return inverse


def fold(events: Iterable[dict], state: dict | None = None) -> dict:
    """The state after `events`, from `state` (default: a new game); `state` is not changed."""
    result = new_state() if state is None else copy.deepcopy(state)
    for event in events:
        apply_ops(result, event["ops"])
    return result
