"""tools/pi-check's observers, run on the host (native speed) while the emulated app runs.

    observe.py listen SOCKET [--pings N] [--timeout S] [--sender WORD]  # systemd's side of
                                                          # sd_notify(3)
    observe.py frame FILE                                # Xvfb's -fbdir screen: not blank?
    observe.py demo FOLDER                               # the demo game the app opened

Each prints one line saying what it saw and exits 0 when that is what was expected, 1 if not.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import struct
import sys
import time
from pathlib import Path

DEMO_NAME = "Demo (example values)"  # companion.ui.shell.session.DEMO_NAME
GAME_SCREENS = {"setup", "table", "action", "income", "station", "end"}  # a game open


def sender(ancillary: list) -> tuple[int, str]:
    """The sending process's id and command line, from its SCM_CREDENTIALS (as systemd's
    NotifyAccess= tells the service's own messages from others')."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = struct.unpack("3i", data[:12])[0]
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                cmdline = b"?"
            return pid, cmdline.decode(errors="replace").strip()
    return 0, "?"


def listen(path: Path, pings: int, timeout: float, word: str) -> int:
    """Bind a datagram socket at `path` (as systemd does for NOTIFY_SOCKET) and wait for
    READY=1 followed by `pings` WATCHDOG=1 from a process whose command line holds `word`;
    print each notification as it arrives, with its sender."""
    path.unlink(missing_ok=True)
    start = time.monotonic()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        sock.bind(str(path))
        os.chmod(path, 0o666)  # the app runs as the player, not root
        ready, watchdog = None, []
        while time.monotonic() - start < timeout:
            sock.settimeout(max(0.1, timeout - (time.monotonic() - start)))
            try:
                data, ancillary, _flags, _address = sock.recvmsg(4096, socket.CMSG_SPACE(12))
            except TimeoutError:
                break
            at = time.monotonic() - start
            message = data.decode(errors="replace").strip()
            pid, cmdline = sender(ancillary)
            ours = word in cmdline
            print(f"{at:7.1f}s {message} from {pid} ({cmdline[:120]})"
                  + ("" if ours else ": not the app, ignored"), flush=True)
            if not ours:
                continue
            if message == "READY=1" and ready is None:
                ready = at
            elif message == "WATCHDOG=1" and ready is not None:
                watchdog.append(at)
                if len(watchdog) >= pings:
                    gaps = [b - a for a, b in zip([ready, *watchdog], watchdog)]
                    print(f"RESULT READY=1 after {ready:.0f} s, {len(watchdog)} WATCHDOG=1 "
                          f"(every {sum(gaps) / len(gaps):.1f} s)", flush=True)
                    return 0
    if ready is None:
        print(f"RESULT no READY=1 in {timeout:.0f} s", flush=True)
    else:
        print(f"RESULT READY=1 after {ready:.0f} s, but only {len(watchdog)} WATCHDOG=1 of "
              f"{pings} in {timeout:.0f} s", flush=True)
    return 1


def frame(path: Path) -> int:
    """Xvfb's screen as -fbdir keeps it (an XWD file): its size and how many colours it shows;
    a screen the app drew on has many, a blank one one or two."""
    data = path.read_bytes()
    header_size, _version, _format, depth, width, height = struct.unpack(">6I", data[:24])
    bytes_per_line, = struct.unpack(">I", data[48:52])
    bits_per_pixel, = struct.unpack(">I", data[44:48])
    ncolors, = struct.unpack(">I", data[76:80])
    pixels = data[header_size + 12 * ncolors:]
    step = bits_per_pixel // 8
    colours = set()
    for row in range(height):
        line = pixels[row * bytes_per_line: row * bytes_per_line + width * step]
        colours.update(line[i:i + step] for i in range(0, len(line), step))
    blank = len(colours) < 16
    print(f"{width}x{height}x{depth}, {len(colours)} colours"
          + (": blank" if blank else ""))
    return 1 if blank else 0


def demo(folder: Path) -> int:
    """The game the app opened with --demo --db FOLDER/games.sqlite: the demo game's name and
    step, and the screen it showed (screen.json, written when a screen is shown)."""
    try:
        with sqlite3.connect(f"file:{folder / 'games.sqlite'}?mode=ro", uri=True) as conn:
            games = conn.execute("SELECT id, name, head FROM games").fetchall()
        saved = json.loads((folder / "screen.json").read_text())
    except (OSError, ValueError, sqlite3.Error) as error:
        print(f"no demo game to see: {error}")
        return 1
    demo_games = [(id_, head) for id_, name, head in games if name == DEMO_NAME]
    screen, game = saved.get("screen"), saved.get("game")
    shown = [head for id_, head in demo_games if id_ == game]
    if not shown or screen not in GAME_SCREENS:
        print(f"not the demo game: games {games}, screen.json {saved}")
        return 1
    print(f"'{DEMO_NAME}' at step {shown[0]}, its {screen} screen shown")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    listening = commands.add_parser("listen")
    listening.add_argument("socket", type=Path)
    listening.add_argument("--pings", type=int, default=2)
    listening.add_argument("--timeout", type=float, default=600)
    listening.add_argument("--sender", default="phoenix-companion",
                           help="a word in the app's command line")
    commands.add_parser("frame").add_argument("file", type=Path)
    commands.add_parser("demo").add_argument("folder", type=Path)
    args = parser.parse_args()
    if args.command == "listen":
        return listen(args.socket, args.pings, args.timeout, args.sender)
    if args.command == "frame":
        return frame(args.file)
    return demo(args.folder)


if __name__ == "__main__":
    sys.exit(main())
