"""Picks the hardware layer: real pins and Wi-Fi on MicroPython, virtual ones on CPython."""

import sys

if sys.implementation.name == "micropython":
    from firmware.hal_mpy import run_dice_tower, run_seat_box  # noqa: F401
else:
    from firmware.hal_host import run_dice_tower, run_seat_box  # noqa: F401
