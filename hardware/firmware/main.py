"""Phoenix button panel for a Raspberry Pi Pico (MicroPython): copy main.py and phoenix_panel.py
to the board. Wiring and protocol: hardware/firmware/README.md and docs/panel.md."""

import select
import sys
import time

from machine import PWM, Pin
from phoenix_panel import MAX_LINE, PanelFirmware

# Pico GP numbers. Each button connects its pin to GND (internal pull-up: pressed reads 0).
BUTTON_PINS = {"next_turn": 2, "undo": 3, "confirm": 4, "read_dice": 5}
# RGB LED: red, green, blue legs through 220 ohm resistors; common leg to GND (common cathode).
LED_PINS = (16, 17, 18)
COMMON_ANODE = False  # True if the LED's common leg goes to 3V3 instead
LOOP_MS = 5


def send(line: str) -> None:
    """Write one protocol line to the host over USB serial."""
    sys.stdout.write(line + "\n")


def show(pwms: list, colour: tuple) -> None:
    """Drive the three LED channels (0..1 each) with PWM."""
    for pwm, value in zip(pwms, colour):
        duty = int(value * 65535)
        pwm.duty_u16(65535 - duty if COMMON_ANODE else duty)


def main() -> None:
    """Report buttons and obey LED commands forever."""
    buttons = {name: Pin(gp, Pin.IN, Pin.PULL_UP) for name, gp in BUTTON_PINS.items()}
    pwms = []
    for gp in LED_PINS:
        pwm = PWM(Pin(gp))
        pwm.freq(1000)
        pwms.append(pwm)
    firmware = PanelFirmware()
    incoming = select.poll()
    incoming.register(sys.stdin, select.POLLIN)
    send(firmware.hello())
    line = ""
    while True:
        now = time.ticks_ms()
        firmware.now = now
        while incoming.poll(0):
            char = sys.stdin.read(1)
            if char == "\n" or char == "\r":
                for reply in firmware.handle_line(line):
                    send(reply)
                line = ""
            elif len(line) < MAX_LINE:
                line += char
        levels = {name: pin.value() == 0 for name, pin in buttons.items()}
        for reply in firmware.poll(levels, now):
            send(reply)
        show(pwms, firmware.led(now))
        time.sleep_ms(LOOP_MS)


main()
