"""What each seat and the table display see (hidden information stays with its owner).

Public: the map (control, Lords, troops, Mills, fortifications, sieges), every family's money
(open information, FAQ), hand sizes and counters left, cards beside the mitres, Tax markers,
the Disaster track (face down until resolved), deck sizes and the discard piles (every discarded
card was shown face up), titles, the last income. Private: a family's hand, in its own view at
its own place (``families[i].hand``). The decks' contents are in no view. With Fog of War
(§12.3) other families' troops show as counters only, until a battle there reveals them.

For the pages (``ui/``): ``map`` is the drawing fixed at setup (``map_view``: positions, Fief
backgrounds, Bishopric borders), in the public view only (it never changes, so the per-move
patch of the public view never carries it; a seat's view is sent whole on every move, so it
has none and the phone takes the public one),
``battle`` the battle under way with each side's strength points and dice as the rules count
them (§9.2), ``alliances`` the families allied by marriage (§1.1, 4+ players), ``thresholds``
the VP that win alone or as an alliance, ``lord_names`` every Lord card's name (a phone names
the Lord cards in its hand), and ``election.voters`` who is entitled to seal a vote:
how many have sealed is the core's ``sealed.committed``; what they sealed is in no view but the
sealing seat's own until the reveal (``last_election``).
"""

from __future__ import annotations

from typing import Any

from engine.game import Line, ScoreRow
from engine.games.france1429 import control, hear_ye, war
from engine.games.france1429.map_view import map_json
from engine.games.france1429.sources import GAME_KEY, ref
from engine.games.france1429.state import Battle, FranceState, Lord
from engine.games.france1429.victory import (
    ALLIANCE_PLAYERS,
    ALLIANCE_VP,
    SOLO_VP,
    ally,
    tiebreak,
    vp,
)

VICTORY_REF = ref("§1.1", "p.15 §7.0", "§7.0")


def titles(lord: Lord) -> list[str]:
    out = [f"fief:{f}" for f in lord.fiefs]
    if lord.bishop is not None:
        out.append(f"bishop:{lord.bishop}")
    for flag in ("cardinal", "pope", "king", "queen", "regent", "crown_prince", "darc"):
        if getattr(lord, flag):
            out.append(flag.replace("_", "-"))
    return out


def _lord(state: FranceState, lord: Lord) -> dict[str, Any]:
    info = state.rules.lord(lord.id)
    return {
        "id": lord.id,
        "name": info.name if info else lord.id,
        "seat": lord.seat,
        "village": lord.village,
        "captor": lord.captor,
        "titles": titles(lord),
        "spouse": lord.spouse,
        "assassin": lord.assassin,
        "excommunicated": lord.excommunicated,
        "moves": lord.moves,
    }


def _cards(pile: dict[str, int]) -> list[str]:
    """A discard pile as the cards in it (each was shown face up when discarded)."""
    return [card for card, n in sorted(pile.items()) for _ in range(n)]


def _side(state: FranceState, b: Battle, lead: str) -> dict[str, Any]:
    """One side of a battle: its families (the lead first), strength points, dice, last hits."""
    allies = getattr(b, "attackers" if lead == b.attacker else "defenders", ())
    members = [lead, *[s for s in allies if s != lead]]
    return {
        "seat": lead,
        "members": members,
        "sp": sum(war.strength(state, s, b.village) for s in members),
        "dice": war.dice(state, b, lead),
        "hits": b.hits.get(lead),
        "owing": lead in b.owing,
        "maa": sum(state.troops_at(s, b.village).maa for s in members),
        "knights": sum(state.troops_at(s, b.village).knights for s in members),
        "lords": [x.id for x in state.lords_at(b.village) if x.seat in members and not x.captor],
    }


def battle_json(state: FranceState) -> dict[str, Any] | None:
    """The battle under way as the panel shows it (None: no battle)."""
    b = state.battle
    if b is None:
        return None
    return {
        "village": b.village,
        "stage": b.stage,
        "fort": state.place(b.village).fort,
        "attacker": _side(state, b, b.attacker),
        "defender": _side(state, b, b.defender),
        "quiet": b.quiet,
        "cavalcade": b.cavalcade or None,
        "tunnels": b.tunnels,
        "truce": b.truce,
    }


def alliances(state: FranceState) -> list[list[str]]:
    """Pairs of families allied by marriage (none with fewer than 4 players, §1.1)."""
    out = []
    for seat in state.seats:
        other = ally(state, seat)
        if other is not None and seat < other:
            out.append([seat, other])
    return out


def view(state: FranceState, seat: str | None, lang: str = "en") -> dict[str, Any]:
    fog = bool(state.option("fog_of_war"))
    villages = []
    for v in state.rules.villages:
        place = state.place(v.id)
        fought = state.battle is not None and state.battle.village == v.id
        troops = {
            t.seat: {"maa": t.maa, "knights": t.knights}
            if not fog or t.seat == seat or fought
            else {"counters": t.count()}
            for t in state.troops
            if t.village == v.id
        }
        villages.append(
            {
                "id": v.id,
                "fief": v.fief,
                "bishopric": v.bishopric,
                "principal": v.principal,
                "controller": control.controller(state, v.id),
                "present": list(place.present),
                "mills": place.mills,
                "fort": place.fort,
                "besieged_by": place.besieged_by,
                "engine": place.engine,
                "troops": troops,
            }
        )
    families = []
    for fam in state.families:
        entry: dict[str, Any] = {
            "seat": fam.seat,
            "deniers": fam.deniers,
            "hand_size": len(fam.hand),
            "tax_left": fam.tax_left,
            "diplomacy": fam.diplomacy,
            "stock": {
                **state.stock.get(fam.seat, {}),
                "maa": state.stock_of(fam.seat, "maa"),
                "knights": state.stock_of(fam.seat, "knights"),
            },
            "vp": vp(state, fam.seat),
        }
        if seat == fam.seat:
            entry["hand"] = list(fam.hand)
        families.append(entry)
    resolved = state.resolved if state.phase == "disasters" else 0
    return {
        "round": state.round,
        "phase": state.phase,
        "first": state.order()[0] if state.seats else None,
        "turn": state.current() if state.phase not in ("over",) else None,
        "villages": villages,
        "lords": [_lord(state, x) for x in state.lords],
        "families": families,
        "mitres": [{"bishopric": c.bishopric, "card": c.card} for c in state.mitres],
        "taxes": [{"seat": t.seat, "on": t.on, "target": t.target} for t in state.taxes],
        "track": {"face_down": len(state.track) - resolved, "resolved": resolved},
        "decks": {
            "lords": sum(state.lord_deck.values()),
            "fortune": sum(state.fortune_deck.values()),
        },
        "discards": {"lords": _cards(state.lord_discard), "fortune": _cards(state.fortune_discard)},
        "supply": dict(state.supply),
        "pending": [
            {"kind": p.kind, "seat": p.seat, "by": p.by, "lord": p.lord, "village": p.village}
            for p in state.pending
        ],
        "income": [
            {"seat": x.seat, "amount": x.amount, "code": x.code, "params": x.params}
            for x in state.last_income
        ],
        "election": None
        if state.election is None
        else {
            "office": state.election.office,
            "bishopric": state.election.bishopric,
            "stage": state.election.stage,
            "candidates": [lid for _, lid in state.election.candidates],
            "voters": list(hear_ye.voters(state)) if state.election.stage == "vote" else [],
        },
        "last_election": None
        if state.last_election is None
        else {
            "office": state.last_election.office,
            "bishopric": state.last_election.bishopric,
            "votes": [[lid, n] for lid, n in sorted(state.last_election.votes.items())],
            "markers": [list(m) for m in state.last_election.markers],
            "winner": state.last_election.winner,
        },
        "winners": list(state.winners),
        "battle": battle_json(state),
        "alliances": alliances(state),
        "thresholds": {
            "solo": SOLO_VP,
            "alliance": ALLIANCE_VP if len(state.seats) >= ALLIANCE_PLAYERS else None,
        },
        # the drawing goes to the table display only: a phone's seat view travels whole on every
        # move, so the phone draws the map from the public state it also holds
        "map": map_json(state.rules.drawing, state.rules.roads) if seat is None else None,
        "lord_names": {x.id: x.name for x in state.rules.lords},
    }


def score(state: FranceState) -> tuple[ScoreRow, ...]:
    """VP with their itemised lines (§1.1); rank by VP, then the tie-breaks (§1.2)."""
    rows = []
    for seat in state.seats:
        lines: list[Line] = []
        for lord in state.lords_of(seat):
            lines += [
                Line(seat, 1, "score/fief", VICTORY_REF, {"fief": f, "lord": lord.id})
                for f in lord.fiefs
            ]
            if lord.king:
                lines.append(Line(seat, 1, "score/king", VICTORY_REF, {"lord": lord.id}))
            if lord.pope:
                lines.append(Line(seat, 1, "score/pope", VICTORY_REF, {"lord": lord.id}))
        rows.append((seat, vp(state, seat), lines, tiebreak(state, seat)))
    ordered = sorted(
        rows, key=lambda r: (state.winners and r[0] in state.winners, r[1], r[3]), reverse=True
    )
    out = []
    for seat, total, lines, tb in rows:
        key = (bool(state.winners) and seat in state.winners, total, tb)
        rank = 1 + sum(
            1 for o in ordered if (bool(state.winners) and o[0] in state.winners, o[1], o[3]) > key
        )
        out.append(ScoreRow(seat, total, tuple(lines), tb, rank))
    return tuple(out)


__all__ = ["GAME_KEY", "score", "view"]
