"""Starting the app: Kivy is configured (its environment, the window's size) before its first
import, so what the command line loads before `start.run_app` configures it imports no Kivy."""

from __future__ import annotations

import subprocess
import sys


def test_what_runs_before_kivy_is_configured_imports_no_kivy():
    code = ("import sys, companion.cli, companion.ui.shell.start, companion.ui.shell.window, "
            "companion.ui.shell.routes, companion.ui.calculator.form; "
            "sys.exit(1 if any(m == 'kivy' or m.startswith('kivy.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_the_app_module_imports_kivy_only_once_configured():
    """The App class is defined at the top of shell/app.py: importing it after configure_kivy
    gives Kivy the window asked for."""
    code = ("from companion.ui.shell.window import configure_kivy\n"
            "configure_kivy(size=(1024, 600))\n"
            "from kivy.config import Config\n"
            "import companion.ui.shell.app as app\n"
            "assert app.CompanionApp.__mro__[1].__name__ == 'App'\n"
            "print(Config.get('graphics', 'width'), Config.get('graphics', 'height'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={"KIVY_NO_CONSOLELOG": "1", "KIVY_NO_ARGS": "1",
                                            "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-2:] == ["1024", "600"]
