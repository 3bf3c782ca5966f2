"""MicroPython firmware for Herald's table devices; runs on CPython too through the host hal."""
