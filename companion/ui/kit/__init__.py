"""The kit: widgets, colours, wording and the value and dice-camera components every area
shares. It imports no screen and no area."""
