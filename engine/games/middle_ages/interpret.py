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

The matching itself is the core's (``engine.interpret``); this module says how Middle Ages
lies on the table: its pieces, how a read tile or story token is named, the discarded tile that
may linger in its row, the refill the table shows, and the choice a move's effect asks for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.middle_ages import play
from engine.games.middle_ages.components import ESTATES, Tile
from engine.games.middle_ages.moves import Reveal
from engine.games.middle_ages.state import State
from engine.interpret import Key

KINDS: tuple[str, ...] = ("lord", "scout", "tile", "special-coin-token", "story-token")


class MiddleAgesTable:
    """Middle Ages in the profile vocabulary (``engine.interpret.TableReading``)."""

    kinds = KINDS

    def pieces(self, state: State, kinds: set[str]) -> Counter[Key]:
        """The position as (component, region) pieces."""
        out: Counter[Key] = Counter()
        for r, row in enumerate(state.rows, start=1):
            for s, tile in enumerate(row, start=1):
                if tile is not None and "tile" in kinds:
                    out[(f"tile:{tile.estate}", f"row:{r}/slot:{s}")] += 1
        for p in state.players:
            if p.lord is not None and "lord" in kinds:
                out[(f"lord:{p.seat}", f"row:{p.lord.row}/slot:{p.lord.slot}")] += 1
            if p.scout is not None and "scout" in kinds:
                out[(f"scout:{p.seat}", f"row:{p.scout.row}/slot:{p.scout.slot}")] += 1
            if "tile" in kinds:
                for estate, column in zip(ESTATES, p.board, strict=True):
                    if column:
                        out[(f"tile:{estate}", f"seat:{p.seat}/estate:{estate}")] += len(column)
                for tile in p.graveyard:
                    out[(f"tile:{tile.estate}", f"seat:{p.seat}/graveyard")] += 1
            if "special-coin-token" in kinds:
                for estate in p.special_coins:
                    out[("special-coin-token", f"seat:{p.seat}/estate:{estate}")] += 1
            if "story-token" in kinds:
                for token in p.story_tokens:
                    region = f"seat:{p.seat}/estate:{token.estate}"
                    out[(f"story-token:{token.symbol}", region)] += 1
        return out

    def component(self, kind: str, component: str, attrs: Mapping[str, Any]) -> str:
        if kind == "tile":
            return f"tile:{attrs.get('estate')}" if attrs.get("estate") in ESTATES else "tile:?"
        if kind == "story-token":
            symbol = attrs.get("symbol")
            return f"story-token:{symbol}" if symbol in ESTATES else "story-token:?"
        return component

    def forgive(self, state: State, missing: Counter[Key], extra: Counter[Key]) -> None:
        """The unclaimed tile the rules discard at a round's start (L127-128) may still lie in
        its row until someone clears it: an extra tile in a row slot is forgiven while the
        discard pile holds a tile of that estate."""
        discarded: Counter[str] = Counter(t.estate for t in (*state.discard, *state.restack))
        for (component, region), n in list(extra.items()):
            if not (component.startswith("tile:") and region.startswith("row:")):
                continue
            estate = component.split(":", 1)[1]
            if discarded[estate]:
                forgiven = min(n, discarded[estate])
                discarded[estate] -= forgiven
                extra[(component, region)] -= forgiven

    def chance(self, state: State, seen: Sequence[Mapping[str, Any]]) -> list[Any]:
        """The Reveal of the row the table must lay now, if every tile's back and face were
        read (number, back colour, estate, Farmer and Chest symbols): none is ever assumed."""
        if state.phase not in ("setup-rows", "refill"):
            return []
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
                return []  # a face not read completely: the table must confirm the row
        if sorted(tiles) != list(range(1, state.row_length + 1)):
            return []
        return [Reveal(row, tuple(tiles[s] for s in sorted(tiles)))]

    def follow_ups(self, state: State, after: State) -> list[Any]:
        """The choice an effect asks of the seat that just moved (Village, Walls, ...)."""
        pending = after.pending
        if after.phase == "choice" and pending is not None and pending.seat == play.actor(state):
            return list(play.legal_moves(after))
        return []


TABLE_READING = MiddleAgesTable()
