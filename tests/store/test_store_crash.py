"""Power-loss test: a child process replays the long game into a database and is SIGKILLed at
random moments, 200+ times; after every kill the database must be sound and hold exactly the
commands the child reported committed (or the one it was committing), nothing half-done.

Each child is forked from the test process (so it starts in milliseconds with the engine already
imported), opens the database as the app would after a power cut, resumes the last game from its
journal and carries on with the script, printing "committed G N" after each commit returns. When
a game is complete it starts another one in the same database. Four kinds of rounds:

- random: killed after a random delay (during start-up, recovery, resume or commits);
- undo: killed a few milliseconds after it announces an undo or redo;
- snapshot: snapshots every event (each commit writes one), killed at random;
- export: exports the game record after every commit, killed while it announces an export.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import signal
import sys
import time
import traceback
from pathlib import Path

from store_helpers import long_commands, overlay_copy, reference

from companion.files import write_text_atomically
from companion.rules.game import Refused
from companion.store import Store
from companion.store.export import RECORD_FORMAT, game_record

KILLS = 200
SNAPSHOT_EVERY = 10
MODES = ("random", "undo", "snapshot", "export")


def _child(db: Path, overlay: Path, mode: str, out_fd: int, export_file: Path) -> None:
    """Replay the long game from where the database is; report each commit."""
    out = os.fdopen(out_fd, "w", buffering=1)
    commands = long_commands()
    every = 1 if mode == "snapshot" else SNAPSHOT_EVERY
    store = Store.open(db, overlay=overlay, snapshot_every=every)
    listed = sorted(store.games(), key=lambda g: g.id)
    if listed and store.conn.execute("SELECT COUNT(*) FROM journal WHERE game_id = ?",
                                     (listed[-1].id,)).fetchone()[0] < len(commands):
        played = store.open_game(listed[-1].id)
    else:
        played = store.new_game()
    out.write(f"game {played.id} {played.journal}\n")
    while played.journal < len(commands):
        command = commands[played.journal]
        out.write(f"start {command['cmd']}\n")
        played.execute(dict(command))
        out.write(f"committed {played.id} {played.journal}\n")
        if mode == "export":
            out.write("export\n")
            write_text_atomically(export_file, json.dumps(game_record(store, played.id)))
    out.write("done\n")


def _spawn(db: Path, overlay: Path, mode: str, export_file: Path) -> tuple[int, int]:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            os.close(read_fd)
            _child(db, overlay, mode, write_fd, export_file)
        except BaseException:
            code = 3
            with contextlib.suppress(OSError):
                os.write(write_fd, ("error " + traceback.format_exc().replace("\n", " | ")
                                    + "\n").encode())
        finally:
            os._exit(code)
    os.close(write_fd)
    return pid, read_fd


class Reader:
    """Lines from the child's pipe, with a deadline."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.eof = False

    def line(self, until: float) -> str | None:
        """The next line, or None at the deadline or end of the pipe."""
        while b"\n" not in self.buffer:
            remaining = until - time.monotonic()
            if self.eof or remaining <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                chunk = os.read(self.fd, 65536)
                self.eof = not chunk
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()


def _kill_round(db: Path, overlay: Path, mode: str, rng: random.Random,
                export_file: Path) -> tuple[int | None, int | None, list[str]]:
    """Run one child and kill it; (game, last committed count reported, all lines)."""
    pid, fd = _spawn(db, overlay, mode, export_file)
    reader = Reader(fd)
    lines: list[str] = []
    start = time.monotonic()
    if mode == "random" or mode == "snapshot":
        deadline = start + rng.uniform(0.0, 0.25)
    else:
        deadline = start + 5.0
    kill_at = deadline
    while True:
        line = reader.line(kill_at)
        if line is None:
            break
        lines.append(line)
        trigger = (mode == "undo" and line in ("start undo", "start redo")) or (
            mode == "export" and line == "export")
        if trigger and kill_at == deadline:
            kill_at = time.monotonic() + rng.uniform(0.0, 0.006 if mode == "undo" else 0.03)
        if line == "done" or line.startswith("error"):
            break
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while (line := reader.line(time.monotonic() + 1.0)) is not None:  # written before the kill
        lines.append(line)
    os.close(fd)
    errors = [line for line in lines if line.startswith("error")]
    assert not errors, errors[0].replace(" | ", "\n")
    game = count = None
    for line in lines:
        words = line.split()
        if words[0] == "game" or words[0] == "committed":
            game, count = int(words[1]), int(words[2])
    return game, count, lines


def _check(db: Path, overlay: Path, game: int | None, reported: int | None,
           known_games: int) -> tuple[int, int, int]:
    """Reopen after a kill: sound file, and the last game holds exactly the reported commands
    (or one more, committed just before the kill). (games, last game, its commands)."""
    total = len(long_commands())
    with Store.open(db, overlay=overlay, snapshot_every=SNAPSHOT_EVERY) as store:
        assert store.integrity_check() == ["ok"]
        games = sorted(g.id for g in store.games())
        counts = dict(store.conn.execute("SELECT game_id, COUNT(*) FROM journal GROUP BY "
                                         "game_id").fetchall())
        if not games:
            return 0, 0, 0
        last = games[-1]
        assert len(games) in (known_games, known_games + 1)
        for earlier in games[:-1]:
            assert counts.get(earlier, 0) == total, f"game {earlier} lost commands"
        stored = counts.get(last, 0)
        if game == last:
            assert stored in (reported, reported + 1), (
                f"game {last}: the child reported {reported} committed, the database has "
                f"{stored}")
        else:  # created just before the kill, nothing reported for it
            assert stored == 0
        played = store.open_game(last)
        state, steps, undone = reference()[stored]
        assert json.dumps(played.state, sort_keys=True) == state, (
            f"game {last}: the state differs from the fold of its first {stored} commands")
        assert (len(played.game.steps), len(played.game.undone)) == (steps, undone)
        if stored < total:
            assert store.last_unfinished() == last
        return len(games), last, stored


def test_sigkill_at_random_moments_loses_no_committed_command(tmp_path):
    db = tmp_path / "games.sqlite"
    overlay = overlay_copy(tmp_path)
    export_file = tmp_path / "export.json"
    rng = random.Random(20240607)
    known_games = 0
    previous: list = [None, None]
    kills = {mode: 0 for mode in MODES}
    committed = 0
    began = time.monotonic()
    for round_number in range(KILLS):
        mode = MODES[round_number % len(MODES)]
        game, reported, lines = _kill_round(db, overlay, mode, rng, export_file)
        kills[mode] += 1
        committed += sum(1 for line in lines if line.startswith("committed"))
        if game is None:  # killed before it said anything: as the last check found it
            game, reported = previous
        known_games, *previous = _check(db, overlay, game, reported, known_games)
        if mode == "export" and export_file.exists():
            record = json.loads(export_file.read_text())  # whole, never half-written
            assert record["format"] == RECORD_FORMAT
        if round_number % 25 == 24:
            with Store.open(db, overlay=overlay, write=False) as store:
                for info in store.games():
                    store.check_snapshots(info.id)
    elapsed = time.monotonic() - began
    print(f"\n{sum(kills.values())} kills ({kills}), {committed} commits reported, "
          f"{known_games} game(s), {elapsed:.1f} s", file=sys.stderr)
    assert sum(kills.values()) >= 200
    assert committed > len(long_commands()), "the children made too little progress"


def test_a_refused_command_after_a_kill_changes_nothing(tmp_path):
    db = tmp_path / "games.sqlite"
    overlay = overlay_copy(tmp_path)
    pid, fd = _spawn(db, overlay, "random", tmp_path / "x.json")
    reader = Reader(fd)
    while (line := reader.line(time.monotonic() + 10)) is not None:
        if line.startswith("committed") and int(line.split()[2]) >= 40:
            break
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(fd)
    with Store.open(db, overlay=overlay) as store:
        played = store.resume()
        assert played is not None
        before = json.dumps(played.state, sort_keys=True)
        journal = played.journal
        with contextlib.suppress(Refused):
            played.execute({"cmd": "choose_hub", "player": "Nobody", "hub": "A-1"})
        assert json.dumps(played.state, sort_keys=True) == before
    with Store.open(db, overlay=overlay) as store:
        again = store.resume()
        assert again is not None and again.journal == journal
        assert json.dumps(again.state, sort_keys=True) == before
