"""The component catalogue shipped with the app (JSON files with provenance)."""
