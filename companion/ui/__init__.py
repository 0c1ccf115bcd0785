"""The touchscreen app (Kivy), grouped by area (docs/ui.md). Only this package imports Kivy;
start it with `shell.start.run_app`."""
