"""Statistics across the finished games in the store (plain Python, tested without Kivy): wins,
games and average score per player (by name), and how often each Hub was played, from each
game's history (past_game_model)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from companion.store import Store
from companion.ui.games.past_game_model import History, game_history


@dataclass(frozen=True)
class PlayerStats:
    """One player's record over the finished games."""

    name: str
    games: int
    wins: int
    average: float  # the mean final total

    def average_text(self) -> str:
        """The average score with one decimal: "52.0"."""
        return f"{self.average:.1f}"


@dataclass(frozen=True)
class Stats:
    """The finished games, their players (most wins first) and Hubs (most played first)."""

    games: int
    players: list[PlayerStats]
    hubs: list[tuple[str, int]]


def statistics(histories: Iterable[History]) -> Stats:
    """The statistics of the finished games among `histories`."""
    finished = [h for h in histories if h.final]
    totals: defaultdict[str, list[int]] = defaultdict(list)
    wins: Counter[str] = Counter()
    hubs: Counter[str] = Counter()
    for seen in finished:
        for line, summary in zip(seen.series, seen.summaries, strict=True):
            totals[line.name].append(line.points[-1][1])  # the final tally
            if summary.hub is not None:  # a finished game's players all have one
                hubs[summary.hub] += 1
        wins.update(seen.winners)
    players = [PlayerStats(name, len(scores), wins[name], sum(scores) / len(scores))
               for name, scores in totals.items()]
    players.sort(key=lambda p: (-p.wins, -p.average, p.name))
    return Stats(len(finished), players,
                 sorted(hubs.items(), key=lambda h: (-h[1], *hub_order(h[0]))))


def hub_order(hub: str) -> tuple[str, int]:
    """A Hub's place in a list: A-2 before A-10."""
    side, _, number = hub.partition("-")
    return side, int(number) if number.isdigit() else 0


def store_statistics(store: Store) -> Stats:
    """The statistics of the store's finished games."""
    return statistics(game_history(store.open_game(info.id))
                      for info in store.games() if info.finished)
