"""Phase 4, Purchase (digest §7 [EN p.10 §4.0-4.4, §6.2.4; PL §4.0-4.4, §6.2.5]; referee
checks §13 items 26-35), each rule with a legal and an illegal case."""

from __future__ import annotations

import pytest
from frcore_builders import at_phase, fort, lord, money, table, troops

from engine.games.france1429 import purchase
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Buy
from engine.games.france1429.state import FranceState
from engine.violations import RuleViolation


def _buying(state: FranceState, seat: str, deniers: int) -> FranceState:
    return money(at_phase(state, "purchase", seat), seat, deniers)


def _refused(state: FranceState, move: Buy) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def test_st_medard_example_four_new_counters_per_village() -> None:
    """§7.3 example: David (Thierry, 4 MaA + 3 Kn in St Médard) buys 3 MaA + 2 Kn for 9; only
    4 may go to St Médard (2 MaA + 2 Kn), which becomes 6 MaA + 5 Kn; the last MaA goes
    elsewhere (where he has a Stronghold)."""
    state = lord(table(), "thierry", "david", "st-medard")
    state = troops(state, "david", "st-medard", maa=4, knights=3)
    state = fort(troops(state, "david", "lormes", maa=1), "lormes")
    state = _buying(state, "david", 9)
    for item in ("maa", "maa", "knight", "knight"):
        state = apply(state, Buy("david", item, "st-medard"))  # type: ignore[arg-type]
    assert _refused(state, Buy("david", "maa", "st-medard")) == "buy/four-per-village"
    state = apply(state, Buy("david", "maa", "lormes"))
    t = state.troops_at("david", "st-medard")
    assert (t.maa, t.knights) == (6, 5)
    assert state.family("david").deniers == 0


def test_troops_go_only_where_a_lord_or_a_controlled_fortification_is() -> None:
    """§7.3 (§13 item 28): new troops only with an uncaptured Lord or in a controlled
    Stronghold / Fortified City."""
    state = troops(table(), "david", "vaux", maa=1)
    state = _buying(state, "david", 5)
    assert _refused(state, Buy("david", "maa", "vaux")) == "buy/troop-place"
    state = apply(fort(state, "vaux"), Buy("david", "maa", "vaux"))
    assert state.troops_at("david", "vaux").maa == 2


def test_no_new_troops_into_ones_own_besieged_fortification() -> None:
    """§7.3: the besieged may not place new troops in the besieged fortification."""
    from dataclasses import replace

    state = fort(lord(troops(table(), "david", "vaux", maa=1), "thierry", "david", "vaux"), "vaux")
    state = troops(state, "grady", "vaux", maa=3)
    state = state.with_place(replace(state.place("vaux"), besieged_by="grady"))
    assert _refused(_buying(state, "david", 5), Buy("david", "maa", "vaux")) == "buy/troop-place"


def test_stock_limits_the_troops_a_family_can_buy() -> None:
    """§7.1 step 3 (§13 item 27): a family has 8 Knights; with all on the map, none is bought;
    a Knight killed goes back to the family's stockpile."""
    state = lord(troops(table(), "david", "vaux", knights=8), "thierry", "david", "vaux")
    assert _refused(_buying(state, "david", 9), Buy("david", "knight", "vaux")) == "buy/sold-out"
    fewer = troops(state, "david", "vaux", knights=-1)
    assert (
        apply(_buying(fewer, "david", 9), Buy("david", "knight", "vaux")).stock_of(
            "david", "knights"
        )
        == 0
    )


def test_mills_cost_three_at_most_two_on_a_controlled_village() -> None:
    """§7.2 (§13 item 29)."""
    state = _buying(troops(table(), "david", "vaux", maa=1), "david", 10)
    assert _refused(state, Buy("david", "mill", "lormes")) == "buy/not-controlled"
    state = apply(apply(state, Buy("david", "mill", "vaux")), Buy("david", "mill", "vaux"))
    assert state.place("vaux").mills == 2 and state.family("david").deniers == 4
    assert _refused(state, Buy("david", "mill", "vaux")) == "buy/two-mills"
    assert state.supply["mills"] == 13


def test_a_stronghold_costs_ten_one_per_village() -> None:
    """§7.2 (§13 item 30)."""
    state = _buying(troops(table(), "david", "vaux", maa=1), "david", 9)
    assert _refused(state, Buy("david", "stronghold", "vaux")) == "buy/money"
    state = apply(money(state, "david", 20), Buy("david", "stronghold", "vaux"))
    assert state.place("vaux").fort == "stronghold" and state.family("david").deniers == 10
    assert _refused(state, Buy("david", "stronghold", "vaux")) == "buy/one-stronghold"


def test_a_fief_title_needs_every_village_and_a_stronghold() -> None:
    """§7.4 (§13 item 31): the County 'medard' (3 Villages) costs 6; all Villages and a
    Stronghold needed; the Stronghold becomes the Fortified City."""
    state = lord(table(), "thierry", "david", "st-medard")
    for v in ("st-medard", "lormes"):
        state = troops(state, "david", v, maa=1)
    state = _buying(state, "david", 20)
    assert _refused(state, Buy("david", "title", "medard", "thierry")) == "buy/title-control"
    state = troops(state, "david", "vaux", maa=1)
    assert _refused(state, Buy("david", "title", "medard", "thierry")) == "buy/title-stronghold"
    state = apply(fort(state, "lormes"), Buy("david", "title", "medard", "thierry"))
    assert state.lord("thierry").fiefs == ("medard",)
    assert state.place("lormes").fort == "fortified"
    assert state.family("david").deniers == 14
    assert _refused(state, Buy("david", "title", "medard", "thierry")) == "buy/title-held"


def test_a_lord_holds_at_most_two_fief_titles() -> None:
    """§7.4: at most 2 Fief titles per Lord."""
    state = lord(table(), "thierry", "david", "st-paul", fiefs=("bourg", "green"))
    for v in ("st-paul", "st-ciers-dabzac"):
        state = troops(state, "david", v, maa=1)
    state = _buying(fort(state, "st-paul"), "david", 20)
    assert _refused(state, Buy("david", "title", "abzac", "thierry")) == "buy/title-two"


def test_the_king_grants_an_unclaimed_title_free() -> None:
    """§7.4: the King (or Queen Regent) gives an unclaimed Fief title free of charge."""
    state = lord(table(), "charles", "david", "st-paul", king=True)
    for v in ("st-paul", "st-ciers-dabzac"):
        state = troops(state, "david", v, maa=1)
    state = apply(
        _buying(fort(state, "st-paul"), "david", 0), Buy("david", "title", "abzac", "charles")
    )
    assert state.lord("charles").fiefs == ("abzac",) and state.family("david").deniers == 0


def test_the_purchasable_biretta_goes_to_a_bishop_with_the_popes_consent() -> None:
    """§7.5 (§13 item 34): 5 Deniers, to a Bishop at once; a Pope of another family refuses."""
    state = lord(lord(table(), "francois", "david", "sigy", bishop=5), "thierry", "david", "sigy")
    state = _buying(state, "david", 5)
    assert _refused(state, Buy("david", "biretta", "", "thierry")) == "buy/biretta-bishop"
    with_pope = lord(state, "arthur", "grady", "blaye", bishop=1, cardinal=True, pope=True)
    assert _refused(with_pope, Buy("david", "biretta", "", "francois")) == "card/pope-consent"
    state = apply(state, Buy("david", "biretta", "", "francois"))
    assert state.lord("francois").cardinal and state.supply["biretta"] == 0
    assert _refused(state, Buy("david", "biretta", "", "francois")) == "buy/sold-out"


def test_ransom_is_two_plus_two_per_title() -> None:
    """§7.6 examples: Bishop + Baron → 6; Arthur, Cardinal + Bishop of Blaye → 6; Queen → 4."""
    state = lord(table(), "gauvain", "david", "blaye", captor="grady", bishop=1, fiefs=("abzac",))
    state = lord(state, "arthur", "david", "blaye", captor="grady", bishop=1, cardinal=True)
    state = lord(state, "alienor", "david", "blaye", captor="grady", queen=True)
    assert [purchase.ransom(state, x) for x in ("gauvain", "arthur", "alienor")] == [6, 6, 4]


def test_a_full_ransom_is_paid_first_the_most_valuable_captive_first() -> None:
    """§7.6 (PL example; §13 item 26): Patryk holds Arthur (6) and Aliénor (4); Franek has 8,
    so he must free Arthur first (the offer of 8 for both is a table bargain the referee does
    not make)."""
    state = table(("franek", "patryk", "third"))
    state = troops(lord(state, "thierry", "franek", "vaux"), "franek", "vaux", maa=1)
    state = troops(state, "patryk", "blaye", maa=1)
    state = lord(state, "arthur", "franek", "blaye", captor="patryk", bishop=1, cardinal=True)
    state = lord(state, "alienor", "franek", "blaye", captor="patryk", queen=True)
    state = money(state, "franek", 8)
    after = purchase.pay_ransoms(state)
    assert after.lord("arthur").captor is None and after.lord("alienor").captor == "patryk"
    assert after.family("franek").deniers == 2 and after.family("patryk").deniers == 5 + 6


def test_buying_troops_onto_a_lone_enemy_lord_captures_him() -> None:
    """§7.3 / EN FAQ Phase 6 (§13 item 35)."""
    state = lord(table(), "thierry", "david", "vaux")
    state = lord(state, "quentin", "grady", "vaux")
    state = apply(_buying(state, "david", 1), Buy("david", "maa", "vaux"))
    assert state.lord("quentin").captor == "david"


def test_a_lord_with_two_titles_hands_on_the_smaller_and_keeps_the_largest() -> None:
    """§7.4 (§13 item 33): in the Purchase phase only, the smaller title to a family Lord."""
    from engine.games.france1429.moves import GiveTitle

    state = lord(table(), "charles", "david", "bourg", fiefs=("bourg", "abzac"))
    state = lord(lord(state, "thierry", "david", "bourg"), "quentin", "grady", "blaye")
    state = at_phase(state, "purchase", "david")
    assert _refused(state, GiveTitle("david", "bourg", "thierry")) == "title/give-largest"
    assert _refused(state, GiveTitle("david", "abzac", "quentin")) == "title/give-lords"
    state = apply(state, GiveTitle("david", "abzac", "thierry"))
    assert state.lord("thierry").fiefs == ("abzac",) and state.lord("charles").fiefs == ("bourg",)
    moving = at_phase(state, "movement", "david")
    assert _refused(moving, GiveTitle("david", "bourg", "thierry")) == "round/not-now"


def test_whoever_takes_the_fortified_city_takes_the_fief_title() -> None:
    """§7.4 (§13 item 31): the Fief title follows control of its Fortified City."""
    from dataclasses import replace as _replace

    from engine.games.france1429 import control

    state = lord(table(), "thierry", "grady", "lormes", fiefs=("medard",))
    state = fort(troops(state, "grady", "lormes", maa=1), "lormes", "fortified")
    state = lord(troops(state, "david", "vaux", maa=1), "quentin", "david", "vaux")
    state = state.with_troops(_replace(state.troops_at("grady", "lormes"), maa=0))
    state = state.with_lord(_replace(state.lord("thierry"), village="vaux"))
    state = control.refresh(control.refresh(state, "lormes"), "vaux")
    state = troops(state, "david", "lormes", maa=1)
    assert state.lord("quentin").fiefs == ("medard",) and state.lord("thierry").fiefs == ()


def test_the_king_offers_a_title_to_another_familys_lord_who_may_refuse() -> None:
    """§7.4 (§13 item 32): only the King or Queen Regent, in the Purchase phase, to a Lord who
    meets the conditions; the family may refuse (and pay full price)."""
    from engine.games.france1429.moves import Answer, Grant

    state = lord(table(), "charles", "grady", "blaye", king=True)
    state = lord(state, "thierry", "david", "st-paul")
    for v in ("st-paul", "st-ciers-dabzac"):
        state = troops(state, "david", v, maa=1)
    state = _buying(fort(state, "st-paul"), "grady", 0)
    assert _refused(state, Grant("grady", "abzac", "charles")) == "grant/lord"
    assert _refused(state, Grant("grady", "medard", "thierry")) == "buy/title-control"
    offered = apply(state, Grant("grady", "abzac", "thierry"))
    assert legal_moves(offered) == [Answer("david", True), Answer("david", False)]
    accepted = apply(offered, Answer("david", True))
    assert accepted.lord("thierry").fiefs == ("abzac",)
    assert accepted.place("st-paul").fort == "fortified"
    assert apply(offered, Answer("david", False)).lord("thierry").fiefs == ()
    not_king = at_phase(state, "purchase", "david")
    assert _refused(not_king, Grant("david", "abzac", "thierry")) == "grant/not-king"
