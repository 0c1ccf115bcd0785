"""Cameras and dice: turns frames into dice faces. Knows nothing of the game beyond the faces."""
