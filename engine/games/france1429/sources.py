"""Where France 1429's facts come from, and the record of a value the sources do not give.

Two seeds describe the game: the English rulebook v1.05 (``EN``, seed 004, scraped from a slide
viewer: the whole rulebook sits on line 31, so it is cited by its printed page ``p.N``) and a
Polish translation (``PL``, seed 000, OCR, cited by line ``Lnnn``). The digest
``rules/france1429.md`` compares them; a reference names its section and both seeds' places.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.data_gaps import Gap

GAME_KEY = "france1429"
RULEBOOK = "rules/france1429.md"
EN_SEED = "004_ea11b383c6cfc1ff.txt"
PL_SEED = "000_803779d3f735534f.txt"


def ref(section: str, en: str = "", pl: str = "") -> str:
    """A rulebook reference: the digest's section, the English page(s), the Polish line(s)."""
    places = [p for p in (f"EN {en}" if en else "", f"PL {pl}" if pl else "") if p]
    where = f" [{'; '.join(places)}]" if places else ""
    return f"{RULEBOOK} {section}{where}"


REF = {
    "fiefs": ref("§3.1", "p.1, p.3", "L6, L129"),
    "fief-size": ref("§3.1, §7.4", "p.10 §4.3", "L1255-1267"),
    "bishoprics": ref("§3.1", "p.1, p.3", "L8-10, L130"),
    "membership": ref("§3.1", "p.1", "L12-13"),
    "principal": ref("§3.1, §10.3", "p.1, p.5 §1.4", "L12-13, L475"),
    "named": ref("§3.2", "p.2, p.5, p.9-12, p.16-17", "L85, L505-513, L1375-1377, L2149"),
    "bishopric-5": ref("§3.2, §10.3 example", "p.5 §1.4.1", "L505-513"),
    "principals": ref("§3.2, §12.2", "p.17 §11.1", "L2282-2283"),
    "bourg-bishopric": ref("§3.2", "", "L2296-2297"),
    "tournus-county": ref("§3.2, §7.4", "p.10 §4.3", "L1259-1262"),
    "bourg-duchy": ref("§3.2, §6.2", "p.9 §2.4.5, p.11 §4.3", "L1115-1121, L1293"),
    "roads": ref("§3.1, §8.1", "p.1, p.11 §5.0", "L2-4"),
    "known-roads": ref("§3.2, §8.1, §8.5", "p.11 §5.0, p.12 §5.2", "L1374-1377, L1502-1507"),
    "connected": ref("§3.3", "p.1, p.11 §5.0", "L2-4"),
    "map-format": ref("§3.3"),
    "colours": ref("§1.3, §2.1", "p.3, p.5-14 examples", "L83-85"),
    "lords": ref("§2.3", "p.3, p.9 §2.4.1", "L108-113, L997"),
    "cards": ref("§2.3", "p.3, p.8 §2.3-2.4", "L872-1090, L2098-2252"),
    "dice": ref("§2.2, §9.3", "p.3", "L222-224, L1618-1620"),
    "data": ref("§2, §3.3, §15 items 1-4"),
}
"""The references problems and missing values cite (keys are used by the checks)."""


@dataclass(frozen=True, slots=True)
class Missing(Gap):
    """A value the sources do not give and the data file leaves ``null`` (``engine.data_gaps``),
    refused in this game's catalog; a value the data file has no note for points to the digest's
    list of gaps (``DEFAULT_WHERE``)."""

    GAME: ClassVar[str] = GAME_KEY
    DEFAULT_WHERE: ClassVar[str] = "not in either rulebook text; see rules/france1429.md §15"
