"""The score calculator: a finished game's score from the board, without a game kept."""
