"""Where Viscounts of the West Kingdom's facts come from, and a value the seed does not give.

One seed describes the game: a Polish rulebook scanned by OCR (seed 002, cited by line
``Lnnn``). The digest ``rules/viscounts.md`` reads it in English; a reference names the
digest's section and the seed's lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.data_gaps import Gap

GAME_KEY = "viscounts"
RULEBOOK = "rules/viscounts.md"
SEED = "002_f69ee7fcaf125258.txt"


def ref(section: str, lines: str = "") -> str:
    """A rulebook reference: the digest's section and the seed's line(s)."""
    return f"{RULEBOOK} {section}" + (f" [seed {lines}]" if lines else "")


REF = {
    "components": ref("§2", "L20-99"),
    "townsfolk": ref("§2 card anatomy, §11 item 1", "L54-57, L270-293"),
    "manuscripts": ref("§2, §5.4", "L52, L121-135, L633-662"),
    "church-favour": ref("§5.4", "L642-643, L657"),
    "player-cards": ref("§3 steps 8-9", "L167-194"),
    "board": ref("§3 step 1, §4 phase 2, §11 item 2", "L106-111, L370-392, L478-481"),
    "castle": ref("§5.3", "L534-607"),
    "buildings": ref("§5.2", "L483-531"),
    "track": ref("§6, §4 phase 5", "L237-255, L676-702"),
    "kingdom": ref("§3 step 10", "L196-203"),
    "scoring": ref("§7", "L741-808"),
    "solo": ref("§8", "L811-1015"),
    "counts": ref("§2", "L20-99, L143-157"),
    "printed-townsfolk": ref("§4 phase 4", "L672-674"),
    "printed-manuscripts": ref("§5.4", "L652-654"),
    "starting-icons": ref("§3 step 6", "L156-157"),
    "data": ref("§11 item 1"),
}
"""The references problems and missing values cite."""


@dataclass(frozen=True, slots=True)
class Missing(Gap):
    """A value the sources do not give and the data file leaves ``null`` (``engine.data_gaps``),
    refused in this game's catalog; a value the data file has no note for points to the digest's
    list of gaps (``DEFAULT_WHERE``)."""

    GAME: ClassVar[str] = GAME_KEY
    DEFAULT_WHERE: ClassVar[str] = "not in the rulebook seed; see rules/viscounts.md §11"
