"""Games: home, the end screen, past games, statistics, the score chart and the BG Stats QR code."""
