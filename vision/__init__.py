"""Frames in, TableSnapshot out: calibration, markers, tiles, cards, dice pips, tracking."""
