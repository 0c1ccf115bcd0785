"""The touchscreen app (Kivy). Only this package imports Kivy; start it with `app.run_app`."""
