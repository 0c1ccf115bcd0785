"""The game itself: pure functions of plain data (no Kivy, no files, no clocks)."""
