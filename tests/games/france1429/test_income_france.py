"""Phase 3 income (digest §6) with the worked examples of §6.2 [EN p.9 §2.4.5, §2.4.7; PL
§2.4.5, §2.4.7] and the tithe priority of §6.1.6."""

from __future__ import annotations

import pytest
from frcore_builders import at_phase, card_on, fort, hand, lord, mills, table, troops

from engine.games.france1429 import cards, control, income
from engine.games.france1429.deaths import kill
from engine.games.france1429.moves import PlayCard
from engine.games.france1429.state import FAMINE, HARVEST, TAXES, WEATHER
from engine.violations import RuleViolation

BOURG = ("bourg", "l-epervier", "montrevel", "treffort")  # the Duchy of Bourg, 4 Villages


def test_royal_tallage_on_the_duchy_of_bourg() -> None:
    """§6.2 Royal Tallage: King Kirsten taxes the ungoverned Duchy of Bourg; Grady holds 3 of
    its Villages and David 1: Kirsten +8, Grady 3 and David 1 from those Villages."""
    state = table()
    state = lord(state, "charles", "kirsten", "sigy", king=True)
    for v in BOURG[:3]:
        state = troops(state, "grady", v, maa=1)
    state = troops(state, "david", BOURG[3], maa=1)
    state = hand(at_phase(state, "play", "kirsten"), "kirsten", TAXES)
    state = cards.play(state, PlayCard("kirsten", TAXES, "bourg", "charles"))
    paid = income.totals(income.income(state))
    tallage = [x for x in income.income(state) if x.code == "income/tallage"]
    assert [(x.seat, x.amount) for x in tallage] == [("kirsten", 8)]
    assert paid["grady"] == 3 and paid["david"] == 1
    assert paid["kirsten"] == 8 + 1  # and her own Village, Sigy


def test_the_king_tallages_only_an_ungoverned_fief() -> None:
    """§11.3: the King's Tallage is on one ungoverned Fief; a governed one is refused."""
    state = table()
    state = lord(state, "charles", "kirsten", "sigy", king=True)
    state = lord(state, "francois", "grady", "bourg", fiefs=("bourg",))
    state = hand(at_phase(state, "play", "kirsten"), "kirsten", TAXES)
    with pytest.raises(RuleViolation) as info:
        cards.play(state, PlayCard("kirsten", TAXES, "bourg", "charles"))
    assert info.value.code == "card/tax-right"


def test_harvest_and_weather_give_four_per_mill() -> None:
    """§6.2 Double bonus: Bountiful Harvest and Good Weather on one Bishopric: 2 + 2 = 4 per
    Mill."""
    state = troops(table(), "grady", "st-gerome", maa=1)
    state = mills(state, "st-gerome", 2)
    base = income.totals(income.income(state))["grady"]
    state = card_on(card_on(state, 2, HARVEST), 2, WEATHER)
    assert base == 1 + 2 * 2
    assert income.totals(income.income(state))["grady"] == 1 + 2 * 4


def test_famine_cancelled_by_one_harvest_then_a_second_harvest_counts() -> None:
    """§6.2 Famine + two Harvests: David cancels the Famine on Bishopric 1 with one Bountiful
    Harvest (both discarded) and plays a second for +1 per Mill."""
    state = troops(table(), "david", "charolles", maa=1)
    state = mills(state, "charolles", 1)
    state = card_on(state, 1, FAMINE)
    assert income.totals(income.income(state))["david"] == 1  # Famine: the Mill gives nothing
    state = hand(at_phase(state, "play", "david"), "david", HARVEST, HARVEST)
    state = cards.play(state, PlayCard("david", HARVEST, "1"))
    assert state.mitres == ()
    assert state.fortune_discard == {FAMINE: 1, HARVEST: 1}
    state = cards.play(state, PlayCard("david", HARVEST, "1"))
    assert income.totals(income.income(state))["david"] == 1 + 3


def test_a_second_harvest_without_famine_is_refused() -> None:
    """§6.2: without the Famine the second Harvest could not have been played there."""
    state = troops(table(), "david", "charolles", maa=1)
    state = hand(at_phase(state, "play", "david"), "david", HARVEST, HARVEST)
    state = cards.play(state, PlayCard("david", HARVEST, "1"))
    with pytest.raises(RuleViolation) as info:
        cards.play(state, PlayCard("david", HARVEST, "1"))
    assert info.value.code == "card/same-twice"


def test_the_constructed_check_of_the_digest_pays_21() -> None:
    """§6.2 constructed check: 5 Villages (one besieged), 3 Mills in Bishopric 2 with Good
    Weather, 1 Mill in Bishopric 3 under Famine, Queen, Tallage on her own 3-Village County:
    4 + 3 × 3 + 0 + 2 + 3 × 2 = 21 (§13 item 24)."""
    state = table()
    state = lord(state, "alienor", "kirsten", "tournus", fiefs=("green",), queen=True)
    for v in ("cuisery", "louhans", "st-gerome", "marcigny"):
        state = troops(state, "kirsten", v, maa=1)
    state = mills(mills(mills(state, "st-gerome", 2), "marcigny", 1), "tournus", 1)
    state = troops(state, "grady", "cuisery", maa=2)
    state = fort(state, "cuisery")
    from dataclasses import replace

    state = state.with_place(replace(state.place("cuisery"), besieged_by="grady"))
    state = card_on(card_on(state, 2, WEATHER), 3, FAMINE)
    state = hand(at_phase(state, "play", "kirsten"), "kirsten", TAXES)
    state = cards.play(state, PlayCard("kirsten", TAXES, "green", "alienor"))
    lines = [x for x in income.income(state) if x.seat == "kirsten"]
    assert {x.code: x.amount for x in lines} == {
        "income/villages": 4,
        "income/mills": 9,
        "income/queen": 2,
        "income/tallage": 6,
    }
    assert sum(x.amount for x in lines) == 21


def test_tithe_goes_to_the_bishop_before_a_cardinal() -> None:
    """§6.1.6: several tithes on one Bishopric: its Bishop collects, before any Cardinal."""
    state = troops(table(), "gunter", "st-gerome", maa=1)
    state = mills(state, "st-gerome", 2)
    state = lord(state, "arthur", "grady", "blaye", bishop=1, cardinal=True)
    state = lord(state, "francois", "david", "vaux", bishop=2)
    state = hand(at_phase(state, "play", "grady"), "grady", TAXES)
    state = cards.play(state, PlayCard("grady", TAXES, "2", "arthur"))
    assert income.tithe_collector(state, 2) == "grady"
    state = hand(at_phase(state, "play", "david"), "david", TAXES)
    state = cards.play(state, PlayCard("david", TAXES, "2", "francois"))
    assert income.tithe_collector(state, 2) == "david"
    paid = income.totals(income.income(state))
    assert paid.get("gunter") == 1  # his Village, not his Mills
    assert paid["david"] == 1 + 4


def test_a_dead_tither_collects_nothing() -> None:
    """§6.1 (EN FAQ Phase 3): the tithing Bishop died before income: no tithe is collected."""
    state = troops(table(), "gunter", "st-gerome", maa=1)
    state = mills(state, "st-gerome", 1)
    state = lord(state, "francois", "david", "vaux", bishop=2)
    state = hand(at_phase(state, "play", "david"), "david", TAXES)
    state = cards.play(state, PlayCard("david", TAXES, "2", "francois"))
    state = kill(state, "francois")
    assert income.tithe_collector(state, 2) is None
    assert income.totals(income.income(state))["gunter"] == 1 + 2


def test_income_removes_tax_markers_and_fortune_cards_but_not_disasters() -> None:
    """§6.1.8 (§13 item 25): after income all Tax markers and Fortune cards leave the map;
    Disasters stay."""
    state = troops(table(), "grady", "st-gerome", maa=1)
    state = lord(state, "francois", "grady", "st-gerome", fiefs=("gerome",))
    state = hand(at_phase(state, "play", "grady"), "grady", TAXES)
    state = cards.play(state, PlayCard("grady", TAXES, "gerome", "francois"))
    state = card_on(card_on(state, 2, HARVEST), 3, FAMINE)
    after = income.collect(state)
    assert after.taxes == () and [c.card for c in after.mitres] == [FAMINE]
    # three Villages of his Governed Fief (two of them empty) and Tallage 2 × 3
    assert after.family("grady").deniers == state.family("grady").deniers + 3 + 6
    assert control.controller(after, "coligny") == "grady"  # a Governed Fief's empty Village
