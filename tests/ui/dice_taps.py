"""The drivers' rule for the kept-dice panel (companion/ui/play/flows/dice.py, `Dice.keep_panel`):
which `keep:FACE:N` taps leave the dice a line keeps, and whether "Keep these" is tapped after
them. No Kivy: the drivers (tests/ui/drive_*.py) and the model tests share it.

The panel opens with every die rolled kept; a tap sets how many of one face are kept (0 to
those rolled). A tap that puts dice back down to exactly the capacity (from above) chooses the
dice kept at once ("Keep these" implied); at or under the capacity "Keep these" is tapped.
So the fewest taps are one per face whose count kept differs from the count rolled, in an
order whose totals reach the capacity from above only with the last tap; "Keep these" after
them unless that last tap reached the capacity. Where every order would reach it too early
(fewer than the capacity kept, the dice put back coming in steps that land on it), a face is
first taken lower than it ends and tapped again later: a tap or two more (`_searched`). Where
no taps can - every face rolled once, more than the capacity rolled, fewer than it kept: each
tap moves the total by one, so the first to go under passes the capacity from above -
`keep_taps` says so (ValueError).
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Mapping
from itertools import permutations

Taps = list[tuple[str, int]]


def capacity_in(title: str) -> int | None:
    """The capacity a dice panel's title names ("Roll 7 · keep 5", in the language spoken
    now); None where it names none."""
    from companion.i18n import _

    roll = re.escape(_("Roll {dice} · keep {keep}").format(dice="DICE", keep="KEEP"))
    found = re.search(roll.replace("DICE", r"\d+").replace("KEEP", r"(\d+)"), title)
    return int(found.group(1)) if found else None


def arrives(rolled_total: int, steps: list[int], capacity: int | None) -> list[bool]:
    """For each tap (the totals kept after it, in order), whether it brings the dice kept to
    the capacity from above (there the dice kept are chosen)."""
    before, found = rolled_total, []
    for total in steps:
        found.append(capacity is not None and before > capacity == total)
        before = total
    return found


def keep_taps(rolled: Mapping[str, int], kept: Mapping[str, int],
              capacity: int | None) -> tuple[Taps, bool]:
    """The fewest taps on the kept-dice panel, opened with `rolled` all kept, that choose
    `kept` (face -> count, at most those rolled, 1 to the capacity in all): the
    (face, count) taps in order, and whether "Keep these" is tapped after them (the capacity
    not reached from above by the last). ValueError where no taps can."""
    faces = [face for face, n in rolled.items() if n]
    want = Counter({face: kept.get(face, 0) for face in faces})
    if any(n > rolled.get(face, 0) for face, n in kept.items()):
        raise ValueError(f"kept {dict(kept)} were not all rolled ({dict(rolled)})")
    total = sum(rolled[f] for f in faces)
    changes = [(f, want[f]) for f in faces if want[f] != rolled[f]]
    for order in permutations(changes):
        steps, now = [], total
        for face, count in order:
            now += count - rolled[face]
            steps.append(now)
        hits = arrives(total, steps, capacity)
        if not any(hits[:-1]):  # the capacity reached from above by the last tap only
            return list(order), not (hits and hits[-1])
    return _searched(rolled, want, faces, capacity), True


def _searched(rolled: Mapping[str, int], want: Counter, faces: list[str],
              capacity: int | None) -> Taps:
    """The fewest taps to `want`, under the capacity (every order of the plain taps lands on
    it early), found state by state: a tap never arrives at the capacity from above."""
    start = tuple(rolled[f] for f in faces)
    goal = tuple(want[f] for f in faces)
    came: dict[tuple[int, ...], tuple[tuple[int, ...], str, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state == goal:
            taps: Taps = []
            back = came[state]
            while back is not None:
                state, face, count = back
                taps.append((face, count))
                back = came[state]
            return taps[::-1]
        for i, face in enumerate(faces):
            for count in range(rolled[face] + 1):
                after = (*state[:i], count, *state[i + 1:])
                if after in came or count == state[i]:
                    continue
                if arrives(sum(state), [sum(after)], capacity)[0]:
                    continue  # chosen there: not the dice wanted
                came[after] = (state, face, count)
                queue.append(after)
    raise ValueError(f"no taps keep {dict(+want)} of {dict(rolled)} under a capacity of "
                     f"{capacity}: any die put back first makes the capacity")
