"""LED colours by name or #rrggbb, as (red, green, blue) floats between 0 and 1."""

from __future__ import annotations

from companion.i18n import _

Colour = tuple[float, float, float]
ColourLike = str | Colour

OFF: Colour = (0.0, 0.0, 0.0)

NAMED_COLOURS: dict[str, Colour] = {
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "yellow": (1.0, 0.6, 0.0),
    "orange": (1.0, 0.25, 0.0),
    "purple": (0.5, 0.0, 1.0),
    "pink": (1.0, 0.2, 0.4),
    "cyan": (0.0, 1.0, 1.0),
    "teal": (0.0, 0.6, 0.5),
    "magenta": (1.0, 0.0, 1.0),
    "white": (1.0, 1.0, 1.0),
    "black": OFF,
    "off": OFF,
}

RAINBOW: tuple[Colour, ...] = tuple(
    NAMED_COLOURS[name] for name in ("red", "orange", "yellow", "green", "cyan", "blue", "purple")
)


def parse_colour(value: ColourLike) -> Colour:
    """A colour from a name ("red"), "#rrggbb" or an RGB tuple; ValueError if it is none of them."""
    if isinstance(value, tuple):
        if len(value) != 3 or not all(0 <= float(c) <= 1 for c in value):
            raise ValueError(f"a colour tuple needs three values between 0 and 1, got {value!r}")
        return (float(value[0]), float(value[1]), float(value[2]))
    text = str(value).strip().lower()
    if text in NAMED_COLOURS:
        return NAMED_COLOURS[text]
    if len(text) == 7 and text.startswith("#"):
        try:
            return tuple(int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
        except ValueError:
            pass
    known = ", ".join(sorted(NAMED_COLOURS))
    raise ValueError(_("unknown colour {value} (use #rrggbb or one of: {known})").format(
        value=repr(value), known=known))


def colour_name(value: ColourLike) -> str:
    """The colour's name if it has one, else "#rrggbb" (the form sent over the serial protocol)."""
    colour = parse_colour(value)
    for name, known in NAMED_COLOURS.items():
        if known == colour:
            return name
    return "#" + "".join(f"{round(c * 255):02x}" for c in colour)


def binary_colour(value: ColourLike) -> Colour:
    """The nearest colour an LED without PWM can show (each channel fully on or off)."""
    return tuple(1.0 if c >= 0.5 else 0.0 for c in parse_colour(value))  # type: ignore[return-value]
