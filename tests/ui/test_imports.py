"""The app loads OpenCV only with a camera: its screens import none of it (an app without a
camera stays about 25 MB smaller; tools/bench_ui.py measures the memory)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_screens_load_no_opencv_until_a_camera_is_used() -> None:
    ui = REPO / "companion" / "ui"
    modules = sorted(".".join(p.relative_to(REPO).with_suffix("").parts) for p in ui.rglob("*.py")
                     if p.stem not in ("__init__", "tr"))
    code = ("import sys\nfrom companion.ui.shell.window import configure_kivy\nconfigure_kivy()\n"
            + "".join(f"import {name}\n" for name in modules)
            + "print(sorted(m for m in ('cv2', 'numpy') if m in sys.modules))")
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
           "KIVY_HOME": str(Path(os.environ.get("TMPDIR", "/tmp")) / "kivy-imports-test")}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]", "screens that load OpenCV or numpy"
