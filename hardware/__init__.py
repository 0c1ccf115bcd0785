"""Input panels (GPIO, USB serial, keyboard) that report button names and show LED colours."""
