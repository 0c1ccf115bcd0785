"""Phoenix Companion: keeps the books of a physical game of Space Station Phoenix."""

__version__ = "0.1.0"
