"""What typing each box by hand took, for ``python -m bench.box_entry`` to compare against
(issue #24, "Found when a second, very different box was typed in by hand": "Typing the three
boxes took an estimated 1.5–2 h (France), 4–6 h (Viscounts), 3–5 h (Glory) with the components
at hand"). Kept here because the bench is core code and may name no game."""

BY_HAND_MIN = {
    "france1429": (90, 120),
    "viscounts": (240, 360),
    "glory": (180, 300),
}
"""Minutes typing the whole box's data files by hand, the least and the most."""
