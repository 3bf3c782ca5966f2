"""From what the table shows to the move that was made (camera and Tabletop Simulator input).

A table source (vision, TTS) reports observations — a component in a board region, with the
attributes it could read — in the profile vocabulary both sources share: ``lord:<seat>`` and
``scout:<seat>`` in ``row:<r>/slot:<s>``; ``tile`` (attrs ``estate``, and when readable
``number``, ``back``, ``farmers``, ``chests``) in a row slot, in ``seat:<seat>/estate:<E>`` or in
``seat:<seat>/graveyard``; ``special-coin-token`` and ``story-token`` (attr ``symbol``) in
``seat:<seat>/estate:<E>``. A source that cannot read some region (a camera reads tiles only in
the row slots, and a slot under pawns or a hand may be unreadable) says so with
``{"component": "unread", "region": R, "attrs": {"kind": K}}``: pieces of kind ``K`` in ``R``
are then left out of the comparison on both sides, never assumed present or absent. Only the
kinds of piece an observation shows are compared (a Tabletop Simulator profile without scouts
says nothing about scouts); a source that reads a kind everywhere, so that seeing none means
there is none, says so with ``{"component": "coverage", "attrs": {"kinds": [K, ...]}}``.

The engine does not guess rules from pictures. It asks its own rules instead: every legal move
(and, for a refill, the row the table shows) is applied, the position each would produce is laid
out in the same vocabulary, and the move whose layout matches the observation is the candidate.
No match, or several equally good ones, is reported as such so the referee asks a person to
confirm — never a silent guess.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.game import Interpretation
from engine.games.middle_ages import checks, play, resolve
from engine.games.middle_ages.components import ESTATES, Tile
from engine.games.middle_ages.state import Move, Reveal, State
from engine.violations import InputError

Key = tuple[str, str]
"""(component, region) with the readable attributes folded into the component name."""

_KINDS = ("lord", "scout", "tile", "special-coin-token", "story-token")


def _kind(component: str) -> str:
    return component.split(":", 1)[0]


def layout(state: State, kinds: Iterable[str] = _KINDS) -> Counter[Key]:
    """The position as (component, region) pieces, in the shared profile vocabulary."""
    wanted = set(kinds)
    out: Counter[Key] = Counter()
    for r, row in enumerate(state.rows, start=1):
        for s, tile in enumerate(row, start=1):
            if tile is not None and "tile" in wanted:
                out[(f"tile:{tile.estate}", f"row:{r}/slot:{s}")] += 1
    for p in state.players:
        if p.lord is not None and "lord" in wanted:
            out[(f"lord:{p.seat}", f"row:{p.lord.row}/slot:{p.lord.slot}")] += 1
        if p.scout is not None and "scout" in wanted:
            out[(f"scout:{p.seat}", f"row:{p.scout.row}/slot:{p.scout.slot}")] += 1
        if "tile" in wanted:
            for estate, column in zip(ESTATES, p.board, strict=True):
                if column:
                    out[(f"tile:{estate}", f"seat:{p.seat}/estate:{estate}")] += len(column)
            for tile in p.graveyard:
                out[(f"tile:{tile.estate}", f"seat:{p.seat}/graveyard")] += 1
        if "special-coin-token" in wanted:
            for estate in p.special_coins:
                out[("special-coin-token", f"seat:{p.seat}/estate:{estate}")] += 1
        if "story-token" in wanted:
            for token in p.story_tokens:
                out[(f"story-token:{token.symbol}", f"seat:{p.seat}/estate:{token.estate}")] += 1
    return out


Blind = frozenset[tuple[str, str]]
"""(kind, region) pairs the source reported it could not read."""


def observed(seen: Sequence[Mapping[str, Any]]) -> tuple[Counter[Key], set[str], Blind]:
    """The observation as (component, region) pieces, the kinds of piece it covers (shown or
    declared by ``coverage``), and the (kind, region) pairs it could not read (``unread``)."""
    out: Counter[Key] = Counter()
    kinds: set[str] = set()
    blind: set[tuple[str, str]] = set()
    for i, item in enumerate(seen):
        if not isinstance(item, Mapping) or not isinstance(item.get("component"), str):
            raise InputError("input/observation", "an observation needs a 'component'", f"$[{i}]")
        component, region = item["component"], item.get("region")
        if component == "unread":
            unread = (item.get("attrs") or {}).get("kind")
            if unread in _KINDS and isinstance(region, str):
                blind.add((unread, region))
            continue
        if component == "coverage":
            covered = (item.get("attrs") or {}).get("kinds")
            if isinstance(covered, list):
                kinds.update(k for k in covered if k in _KINDS)
            continue
        kind = _kind(component)
        if kind not in _KINDS or not isinstance(region, str):
            continue  # coins, cards, stacks, pieces outside every region: not part of a move
        attrs = item.get("attrs") or {}
        if kind == "tile":
            estate = attrs.get("estate")
            component = f"tile:{estate}" if estate in ESTATES else "tile:?"
        elif kind == "story-token":
            symbol = attrs.get("symbol")
            component = f"story-token:{symbol}" if symbol in ESTATES else "story-token:?"
        kinds.add(kind)
        out[(component, region)] += 1
    return out, kinds, frozenset(blind)


def _unblind(pieces: Counter[Key], blind: Blind) -> Counter[Key]:
    if not blind:
        return pieces
    return Counter({k: n for k, n in pieces.items() if (_kind(k[0]), k[1]) not in blind})


def _distance(
    state: State, seen: Counter[Key], kinds: Iterable[str], blind: Blind = frozenset()
) -> int:
    """Pieces in the position and not on the table or the other way round.

    An unreadable tile or token matches any piece of its kind. A tile the rules have sent to the
    discard pile (the unclaimed tile at a round's start, L127-128) may still lie in its row until
    someone clears it, so an extra tile in an empty row slot is forgiven while the discard pile
    holds a tile of that estate.
    """
    expected = _unblind(layout(state, kinds), blind)
    missing = expected - seen
    extra = seen - expected
    discarded: Counter[str] = Counter(t.estate for t in (*state.discard, *state.restack))
    for (component, region), n in list(extra.items()):
        if not (component.startswith("tile:") and region.startswith("row:")):
            continue
        estate = component.split(":", 1)[1]
        if discarded[estate]:
            forgiven = min(n, discarded[estate])
            discarded[estate] -= forgiven
            extra[(component, region)] -= forgiven
    for (component, region), n in list(extra.items()):
        if not component.endswith(":?"):
            continue
        prefix = component[:-1]
        for key in [k for k in missing if k[1] == region and k[0].startswith(prefix)]:
            take = min(n, missing[key])
            missing[key] -= take
            extra[(component, region)] -= take
            n -= take
    return sum((+missing).values()) + sum((+extra).values())


def _revealed_row(state: State, seen: Sequence[Mapping[str, Any]]) -> Reveal | None:
    """The Reveal move for the row the table must lay now, if every tile's back and face were
    read (number, back colour, estate, Farmer and Chest symbols): none is ever assumed."""
    if state.phase not in ("setup-rows", "refill"):
        return None
    row = state.rows_laid + 1 if state.phase == "setup-rows" else play.lords_row(state.round)
    tiles: dict[int, Tile] = {}
    for item in seen:
        region = item.get("region")
        if item.get("component") != "tile" or not isinstance(region, str):
            continue
        if not region.startswith(f"row:{row}/slot:"):
            continue
        attrs = item.get("attrs") or {}
        try:
            slot = int(region.rsplit(":", 1)[1])
            tiles[slot] = Tile(
                int(attrs["number"]),
                attrs["back"],
                attrs["estate"],
                int(attrs["farmers"]),
                int(attrs["chests"]),
            )
        except (KeyError, TypeError, ValueError):
            return None  # a face not read completely: the table must confirm the row
    if sorted(tiles) != list(range(1, state.row_length + 1)):
        return None
    return Reveal(row, tuple(tiles[s] for s in sorted(tiles)))


def interpret_table(state: State, seen: Sequence[Mapping[str, Any]]) -> Interpretation:
    """The move(s) that turn ``state`` into what the table shows (see the module docstring)."""
    found, kinds, blind = observed(seen)
    pieces = _unblind(found, blind)
    if not kinds:
        return Interpretation((), False, notes=("nothing the game tracks was seen",))
    now = _distance(state, pieces, kinds, blind)
    if now == 0:
        return Interpretation((), True)
    options: list[Move] = list(play.legal_moves(state))
    reveal = _revealed_row(state, seen)
    if reveal is not None and not checks.check(state, reveal):
        options.append(reveal)
    scored: list[tuple[int, tuple[Move, ...]]] = []
    for move in options:
        after = resolve.apply(state, move)
        scored.append((_distance(after, pieces, kinds, blind), (move,)))
        pending = after.pending
        if after.phase == "choice" and pending is not None and pending.seat == play.actor(state):
            for choice in play.legal_moves(after):
                done = resolve.apply(after, choice)
                scored.append((_distance(done, pieces, kinds, blind), (move, choice)))
    if not scored:
        return Interpretation((), False, distance=now, notes=("no legal move now",))
    best = min(d for d, _ in scored)
    if best >= now:
        return Interpretation((), False, distance=now, notes=("no legal move explains it",))
    top = tuple(seq for d, seq in scored if d == best)
    if best == 0 and len(top) == 1:
        return Interpretation(top[0], False)
    return Interpretation((), False, top, best)
