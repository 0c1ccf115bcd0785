"""Setup: the wizard from player count to the first turn."""
