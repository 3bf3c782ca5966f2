"""Whole-position checks of a Viscounts table: every fault at once (python-chess ``status()``).

A position a person writes by hand, or one read off a table, can hold what no play produces:
25 Workers of one colour, a card twice, a Lord of the Castle without a level-3 Worker. The
rules never make such a state, so ``turn`` does not look; this module does, for ``herald rules
viscounts check STATE`` (and ``apply``/``replay --from``, which refuse a faulty start) and for the
random-play run's positions. It checks the conservation of
the components (digest §9 check 44, "this flags mis-payments"; a single position cannot show
a payment that went wrong, but it shows the pieces that appeared or vanished): Workers, the
Townsfolk and Manuscripts the box holds, Buildings, Player cards, the track, the Church
Favours, and the Lord of the Castle (§9 check 29).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.games.viscounts.data_types import COUNTS
from engine.games.viscounts.refs import refusal
from engine.games.viscounts.state import VState
from engine.games.viscounts.turn import LEVEL2_DEFAULT
from engine.violations import Violation

WORKERS = COUNTS["workers_per_colour"]
"""Workers of each colour in the box: 20 (seed L20-99, digest §2)."""

BUILDINGS = COUNTS["buildings_per_type"]
"""Buildings of each type on a player board's strip: 3 (digest §5.2)."""

_PIECES = ("silver", "ink", "stone", "gold", "debts", "paid", "deeds", "granted", "pool")


def check_position(state: VState) -> list[Violation]:
    """Every fault of ``state`` as a position (empty when it could occur in play)."""
    return [
        *_counts(state),
        *_workers(state),
        *_lord(state),
        *_townsfolk(state),
        *_manuscripts(state),
        *_buildings(state),
        *_player_cards(state),
        *_track(state),
    ]


def _counts(state: VState) -> list[Violation]:
    """Nothing is held fewer than zero times (Silver, resources, Debts, Deeds, the pool)."""
    out = []
    for p in state.players:
        for what in _PIECES:
            if p.amount(what) < 0:
                out.append(_fault("position/negative", "components", seat=p.seat, what=what,
                                  count=p.amount(what)))  # fmt: skip
    return out


def _castle_of(state: VState, i: int) -> int:
    c = state.castle
    level1 = sum(s[i] for s in c.level1 if i < len(s))
    level2 = sum(s[i] for s in c.level2 if i < len(s))
    return level1 + level2 + (c.level3[i] if i < len(c.level3) else 0)


def _workers(state: VState) -> list[Violation]:
    """Each colour's 20 Workers are in its pool or in the Castle (seed L20-99, L534-607)."""
    out = []
    n = len(state.players)
    c = state.castle
    sections = (*c.level1, *c.level2, c.level3)
    if any(len(s) != n for s in sections):
        out.append(_fault("position/castle-seats", "workers", n=n))
    if any(k < 0 for s in sections for k in s):
        out.append(_fault("position/castle-negative", "workers"))
    for i, p in enumerate(state.players):
        held = p.pool + _castle_of(state, i)
        if held != WORKERS:
            out.append(_fault("position/workers", "workers", seat=p.seat, count=held, n=WORKERS,
                              pool=p.pool))  # fmt: skip
    return out


def _lord(state: VState) -> list[Violation]:
    """The Lord of the Castle is the first to reach level 3, replaced by anyone with strictly
    more level-3 Workers (digest §9 check 29, seed L600-607): so someone with a level-3 Worker
    means there is a Lord, and the Lord has level-3 Workers, no fewer than anyone."""
    l3 = state.castle.level3
    if not l3:
        return []
    if state.lord is None:
        holders = [state.players[i].seat for i, k in enumerate(l3) if k > 0]
        return [_fault("position/no-lord", "workers", seats=", ".join(holders))] if holders else []
    if not 0 <= state.lord < len(l3):
        return [_fault("position/lord-seat", "workers", index=state.lord)]
    lord = state.players[state.lord].seat
    if l3[state.lord] == 0:
        return [_fault("position/lord-without-worker", "workers", seat=lord)]
    more = [state.players[i].seat for i, k in enumerate(l3) if k > l3[state.lord]]
    if more:
        return [_fault("position/lord-outnumbered", "workers", seat=lord, seats=", ".join(more))]
    return []


def _townsfolk(state: VState) -> list[Violation]:
    """No Townsfolk card is held more times than the box prints it (seed L20-99): the five
    decks, the Famous cards of the pairs left, and every seat's board, hand, deck, discard."""
    data = state.data
    printed = Counter({c.id: c.count for c in data.townsfolk})
    held: Counter[str] = Counter()
    for deck in state.decks:
        held.update(deck)
    held.update(f for _, f in state.pairs)
    for p in state.players:
        held.update(p.cards())
    out = []
    for card, k in sorted(held.items()):
        if card not in printed:
            out.append(_fault("position/unknown-card", "components", card=card))
        elif k > printed[card]:
            out.append(_fault("position/card-copies", "components", card=card, count=k,
                              n=printed[card]))  # fmt: skip
    return out


def _manuscripts(state: VState) -> list[Violation]:
    """Each Manuscript tile is in one stack or by one player board, once (seed L633-662)."""
    known = {m.id for m in state.data.manuscripts}
    held: Counter[str] = Counter()
    for stack in state.stacks:
        held.update(stack)
    for p in state.players:
        held.update(p.manuscripts)
    out = []
    for mid, k in sorted(held.items()):
        if mid not in known:
            out.append(_fault("position/unknown-manuscript", "components", manuscript=mid))
        elif k > 1:
            out.append(_fault("position/manuscript-copies", "transcribe", manuscript=mid,
                              count=k))  # fmt: skip
    favours = {f.id for f in state.data.church_favour}
    wrong = {
        fid
        for fid, i in state.favour_holders.items()
        if fid not in favours
        or not 0 <= i < len(state.players)
        or fid not in state.players[i].favours
    }
    wrong |= {
        fid
        for i, p in enumerate(state.players)
        for fid in p.favours
        if state.favour_holders.get(fid) != i
    }
    out += [_fault("position/favour", "transcribe", favour=fid) for fid in sorted(wrong)]
    return out


def _buildings(state: VState) -> list[Violation]:
    """A player builds at most the three of each type on the strip, each on a site of the
    board that the table's site map gives to that player, one Building a site (§5.2)."""
    out = []
    owners: dict[str, str] = {}
    for i, p in enumerate(state.players):
        kinds = Counter(kind for kind, _, _ in p.built)
        for kind, k in sorted(kinds.items()):
            if k > BUILDINGS:
                out.append(_fault("position/buildings", "build", seat=p.seat, kind=kind, count=k,
                                  n=BUILDINGS))  # fmt: skip
        for _, _, site in p.built:
            if site in owners or state.sites.get(site) != i:
                out.append(_fault("position/site", "build", seat=p.seat, site=site))
            owners[site] = p.seat
    for site in sorted(set(state.sites) - set(owners)):
        out.append(_fault("position/site", "build", seat="-", site=site))
    return out


def _player_cards(state: VState) -> list[Violation]:
    """Each Player card is by one player board or in one pair laid out (§3 steps 8-9)."""
    numbers = Counter(p.player_card for p in state.players if p.player_card is not None)
    numbers.update(n for n, _ in state.pairs)
    known = {p.number for p in state.data.player_cards}
    return [
        _fault("position/player-card", "setup", number=k)
        for k, count in sorted(numbers.items())
        if count > 1 or k not in known
    ]


def _track(state: VState) -> list[Violation]:
    """The markers stand on the track; stacked markers share a space (seed L243-252)."""
    spaces = state.data.track.spaces
    if spaces is None:
        return []
    out = []
    for p in state.players:
        if not (0 <= p.corruption < spaces and 0 <= p.virtue < spaces) or (
            p.stacked and p.corruption != p.virtue
        ):
            out.append(_fault("position/track", "components", seat=p.seat, n=spaces))
    return out


def _fault(code: str, key: str, **params: object) -> Violation:
    return refusal(code, key, **params)


# --- a position written by hand: the fields that follow from others -------------------------------


def complete_state(data: Any) -> Any:
    """A hand-written state's JSON with what follows from its other fields filled in when left
    out: ``sites`` (each Building's site and owner are in ``players[].built``),
    ``favour_holders`` (in ``players[].favours``), an empty ``castle`` of the data's sections,
    and each player's ``pool`` (20 Workers less those in the Castle, seed L20-99). A field
    given is kept as written, so ``check`` judges it. Anything malformed is left to the schema.
    """
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return data
    players = data["players"]
    if not all(isinstance(p, dict) for p in players):
        return data
    out = dict(data)
    if "sites" not in out:
        out["sites"] = {
            b[2]: i
            for i, p in enumerate(players)
            for b in p.get("built", [])
            if isinstance(b, list) and len(b) == 3 and isinstance(b[2], str)
        }
    if "favour_holders" not in out:
        out["favour_holders"] = {
            f: i for i, p in enumerate(players) for f in p.get("favours", []) if isinstance(f, str)
        }
    if "castle" not in out:
        out["castle"] = _empty_castle(out.get("doc"), len(players))
    castle = out["castle"]
    if any("pool" not in p for p in players) and isinstance(castle, dict):
        out["players"] = [
            p if "pool" in p else {**p, "pool": WORKERS - _in_castle(castle, i)}
            for i, p in enumerate(players)
        ]
    return out


def _empty_castle(doc: Any, n: int) -> dict[str, Any]:
    spec = doc.get("castle") if isinstance(doc, dict) else None
    spec = spec if isinstance(spec, dict) else {}
    given = spec.get("level1")
    level1 = given if isinstance(given, int) else 0
    level2 = len(spec.get("level2") or ()) or LEVEL2_DEFAULT
    return {
        "level1": [[0] * n for _ in range(level1)],
        "level2": [[0] * n for _ in range(level2)],
        "level3": [0] * n,
    }


def _in_castle(castle: dict[str, Any], i: int) -> int:
    """Seat ``i``'s Workers in the Castle's JSON (0 for what does not read as counts)."""
    total = 0
    for level in ("level1", "level2"):
        for section in castle.get(level) or ():
            if isinstance(section, list) and i < len(section) and isinstance(section[i], int):
                total += section[i]
    level3 = castle.get("level3") or ()
    if isinstance(level3, list) and i < len(level3) and isinstance(level3[i], int):
        total += level3[i]
    return total
