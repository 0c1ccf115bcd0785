"""Play: the table, a ship's action, income, the station, and the flows that turn taps into
commands."""
