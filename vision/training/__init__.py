"""Training commands for the dice reader (need torch; never imported at run time)."""
