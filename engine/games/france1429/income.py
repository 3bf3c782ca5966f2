"""Phase 3, Collect Income (digest §6): Villages, Mills with the Bishopric's cards, Tallage,
Tithe and the Queen, itemised per family. Pure: the phase applies it (``collect``).

- 1 Denier per controlled Village that is not besieged (§6.1.1);
- 2 per Mill on such a Village, +1 with Bountiful Harvest and +1 with Good Weather on its
  Bishopric, nothing under Famine (§6.1.2-4);
- Tallage: +2 per Village of the taxed Fief to the taxing title's family, whoever controls
  them (§6.1.5; besieged and uncontrolled Villages count: digest §6.3 default, FR-3);
- Tithe: all Mill income of the Bishopric to one tither, Bishop > first Cardinal > Pope (§6.1.6);
- Queen (or Queen Regent): +2 (§6.1.7).

A tax follows its title (EN FAQ Phase 3, the digest's default ``tax_follows_title="en"``): the
family that holds the title at income collects; an unclaimed title collects nothing. With
``"pl"`` only the taxing Lord's own family (the title inherited inside it) collects (FR-4).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from engine.games.france1429.control import controller, fief_holder
from engine.games.france1429.state import (
    FAMINE,
    HARVEST,
    WEATHER,
    FranceState,
    IncomeLine,
    Tax,
)


def has_card(state: FranceState, bishopric: int, card: str) -> bool:
    return any(c.bishopric == bishopric and c.card == card for c in state.mitres)


def governed_bishopric(state: FranceState, number: int) -> bool:
    return any(x.bishop == number for x in state.lords)


def _king_seat(state: FranceState) -> str | None:
    return next((x.seat for x in state.lords if x.king or x.regent), None)


def tallage_collector(state: FranceState, tax: Tax) -> str | None:
    """Who collects a Tallage marker now: the family holding the title that gave the right
    (the Fief's title, or the King's), None when it is unclaimed."""
    seat = fief_holder(state, tax.target) if tax.right == "fief" else _king_seat(state)
    if state.option("tax_follows_title") == "pl" and seat != tax.seat:
        return None
    return seat


def tithe_collector(state: FranceState, number: int) -> str | None:
    """The one family that tithes Bishopric ``number``: its Bishop, else the first Cardinal to
    have played, else the Pope; a tither who lost the title collects nothing (§6.1.6)."""
    claims = [t for t in state.taxes if t.on == "bishopric" and t.target in (str(number), "all")]
    governed = governed_bishopric(state, number)

    def still(t: Tax) -> str:
        lord = state.find_lord(t.lord)
        if lord is None or lord.excommunicated:
            return ""
        if t.right == "bishop" and lord.bishop == number:
            return "bishop"
        if t.right == "cardinal" and lord.cardinal and governed:
            return "cardinal"
        if t.right == "pope" and lord.pope and governed:
            return "pope"
        return ""

    for rank in ("bishop", "cardinal", "pope"):
        ranked = sorted((t for t in claims if still(t) == rank), key=lambda t: t.order)
        if ranked:
            return state.lord(ranked[0].lord).seat
    return None


def income(state: FranceState) -> tuple[IncomeLine, ...]:
    """Every family's income lines for Phase 3 (nothing is changed)."""
    villages: dict[str, int] = defaultdict(int)
    mills: dict[str, int] = defaultdict(int)
    tithes: dict[tuple[str, int], int] = defaultdict(int)
    for v in state.rules.villages:
        seat = controller(state, v.id)
        if seat is None or state.place(v.id).besieged_by is not None:
            continue
        villages[seat] += 1
    for number in sorted({v.bishopric for v in state.rules.villages}):
        if has_card(state, number, FAMINE):
            continue
        per_mill = 2 + has_card(state, number, HARVEST) + has_card(state, number, WEATHER)
        tither = tithe_collector(state, number)
        for vid in state.rules.in_bishopric(number):
            place = state.place(vid)
            seat = controller(state, vid)
            if seat is None or place.besieged_by is not None or not place.mills:
                continue
            if tither is not None:
                tithes[(tither, number)] += place.mills * per_mill
            else:
                mills[seat] += place.mills * per_mill
    lines: list[IncomeLine] = []
    for seat in state.seats:
        if villages[seat]:
            lines.append(
                IncomeLine(seat, villages[seat], "income/villages", {"count": villages[seat]})
            )
        if mills[seat]:
            lines.append(IncomeLine(seat, mills[seat], "income/mills", {}))
        for (tither, number), amount in sorted(tithes.items()):
            if tither == seat:
                lines.append(IncomeLine(seat, amount, "income/tithe", {"bishopric": number}))
    for tax in state.taxes:
        if tax.on != "fief":
            continue
        seat = tallage_collector(state, tax)
        if seat is not None:
            amount = 2 * len(state.rules.in_fief(tax.target))
            lines.append(IncomeLine(seat, amount, "income/tallage", {"fief": tax.target}))
    for lord in state.lords:
        if lord.queen or lord.regent:
            lines.append(IncomeLine(lord.seat, 2, "income/queen", {}))
    return tuple(lines)


def totals(lines: tuple[IncomeLine, ...]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for line in lines:
        out[line.seat] += line.amount
    return dict(out)


def collect(state: FranceState) -> FranceState:
    """Phase 3: every family is paid; then all Tax markers and Fortune cards leave the map
    (Disaster cards stay until the end of the round) (§6.1.8)."""
    lines = income(state)
    paid = totals(lines)
    families = tuple(replace(f, deniers=f.deniers + paid.get(f.seat, 0)) for f in state.families)
    kept = tuple(c for c in state.mitres if c.card not in (HARVEST, WEATHER))
    discard = dict(state.fortune_discard)
    for c in state.mitres:
        if c.card in (HARVEST, WEATHER):
            discard[c.card] = discard.get(c.card, 0) + 1
    return replace(
        state,
        families=families,
        mitres=kept,
        taxes=(),
        fortune_discard=discard,
        last_income=lines,
        last_lines=lines,
    )
