"""Settings: the config file's sections, the button panel's live check and the catalogue
of values."""
