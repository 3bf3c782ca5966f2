"""Cards by effect key (digest §11, §12.1 [EN p.8-9 §2.4, p.15-16 §9-10; PL §2.4, §9-10];
referee checks §13 items 18-23, 54-55), each with a legal and an illegal case."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import at_phase, card_on, fort, hand, lord, mills, table, troops

from engine.games.france1429 import cards
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Answer, HitDie, LordDie, PlayCard, PlayLord
from engine.games.france1429.state import (
    ASSASSINATION,
    CARDINAL,
    DARC,
    FAMINE,
    HARVEST,
    HEAVY_RAIN,
    JUSTICE,
    SECRET_PASSAGE,
    TAXES,
    UPRISING,
    WEATHER,
    FranceState,
)
from engine.violations import RuleViolation


def _refused(state: FranceState, move: object) -> str:
    with pytest.raises(RuleViolation) as info:
        apply(state, move)
    return info.value.code


def _playing(state: FranceState, seat: str, *held: str) -> FranceState:
    return hand(at_phase(state, "play", seat), seat, *held)


def test_a_new_lord_goes_to_a_controlled_stronghold_first() -> None:
    """§5 Phase 2c (§13 item 18): placement priority: own Stronghold / Fortified City → a
    Village with another own Lord → a controlled Village → an empty uncontrolled one."""
    state = troops(lord(table(), "thierry", "david", "vaux"), "david", "lormes", maa=1)
    state = _playing(state, "david", "quentin")
    assert cards.lord_entry(state, "david") == ("vaux",)
    assert _refused(state, PlayLord("david", "quentin", "lormes")) == "lord/placement"
    state = fort(state, "lormes")
    assert cards.lord_entry(state, "david") == ("lormes",)
    state = apply(state, PlayLord("david", "quentin", "lormes"))
    assert state.lord("quentin").village == "lormes" and state.family("david").hand == ()


def test_a_family_has_at_most_four_lords_captives_included() -> None:
    """§5 Phase 2c (§13 items 18, 58)."""
    state = table()
    for lid in ("thierry", "quentin", "francois"):
        state = lord(state, lid, "david", "vaux")
    state = lord(state, "charles", "david", "blaye", captor="grady")
    state = _playing(state, "david", "gauvain")
    assert _refused(state, PlayLord("david", "gauvain", "vaux")) == "lord/family-full"


def test_regular_fortune_cards_only_in_the_play_step() -> None:
    """§11.3 (§13 item 19): Bountiful Harvest in the Purchase phase is refused."""
    state = hand(at_phase(troops(table(), "david", "vaux", maa=1), "purchase", "david"),
                 "david", HARVEST)  # fmt: skip
    assert cards.card_problem(state, "david", HARVEST, "2", "") == "card/regular-timing"
    assert PlayCard("david", HARVEST, "2") not in legal_moves(state)


def test_harvest_not_on_heavy_rain_weather_not_on_famine_weather_cancels_rain() -> None:
    """§11.3 (§13 item 20)."""
    state = card_on(card_on(table(), 1, HEAVY_RAIN), 2, FAMINE)
    state = _playing(state, "david", HARVEST, WEATHER)
    assert _refused(state, PlayCard("david", HARVEST, "1")) == "card/harvest-in-rain"
    assert _refused(state, PlayCard("david", WEATHER, "2")) == "card/weather-in-famine"
    state = apply(state, PlayCard("david", WEATHER, "1"))
    assert [c.card for c in state.mitres] == [FAMINE]
    assert state.fortune_discard == {HEAVY_RAIN: 1, WEATHER: 1}


def test_tax_rights_tallage_by_the_fiefs_lord_tithe_by_the_bishop() -> None:
    """§11.3 (§13 item 21): Tallage by the Fief's titled Lord on his Fief; Tithe by a Bishop on
    his own Bishopric; not on another's; 3 Tax markers per family."""
    state = lord(table(), "francois", "david", "sigy", fiefs=("sigy",), bishop=5)
    state = _playing(state, "david", TAXES, TAXES, TAXES)
    assert _refused(state, PlayCard("david", TAXES, "bourg", "francois")) == "card/tax-right"
    assert _refused(state, PlayCard("david", TAXES, "4", "francois")) == "card/tax-right"
    state = apply(state, PlayCard("david", TAXES, "sigy", "francois"))
    state = apply(state, PlayCard("david", TAXES, "5", "francois"))
    assert [(t.on, t.target, t.right) for t in state.taxes] == [
        ("fief", "sigy", "fief"),
        ("bishopric", "5", "bishop"),
    ]
    assert state.family("david").tax_left == 1


def test_a_cardinal_card_goes_on_a_bishop_with_the_popes_consent() -> None:
    """§11.1, §7.5 (§13 item 22)."""
    state = lord(lord(table(), "francois", "david", "sigy", bishop=5), "thierry", "david", "sigy")
    state = at_phase(hand(state, "david", CARDINAL), "movement", "david")
    assert _refused(state, PlayCard("david", CARDINAL, "thierry")) == "card/cardinal-target"
    with_pope = lord(state, "arthur", "grady", "blaye", bishop=1, cardinal=True, pope=True)
    assert _refused(with_pope, PlayCard("david", CARDINAL, "francois")) == "card/pope-consent"
    state = apply(state, PlayCard("david", CARDINAL, "francois"))
    assert state.lord("francois").cardinal


def test_darc_goes_on_an_unmarried_lady_even_another_familys() -> None:
    """§12.1 (§13 item 23)."""
    state = lord(lord(table(), "mireille", "grady", "blaye"), "jeanne", "grady", "blaye",
                 spouse="quentin")  # fmt: skip
    state = _playing(lord(state, "thierry", "david", "vaux"), "david", DARC)
    assert _refused(state, PlayCard("david", DARC, "thierry")) == "card/darc-target"
    assert _refused(state, PlayCard("david", DARC, "jeanne")) == "card/darc-target"
    state = apply(state, PlayCard("david", DARC, "mireille"))
    assert state.lord("mireille").darc and state.lord("mireille").seat == "grady"


def test_assassination_marks_the_sponsor_and_the_target_rolls() -> None:
    """§11.4 (§13 item 54): never one's own Lord; the sponsor gets the Assassin marker even if
    the attempt fails; the target dies on 1-3 (EN)."""
    state = lord(lord(table(), "thierry", "david", "vaux"), "quentin", "grady", "blaye")
    state = _playing(state, "david", ASSASSINATION)
    assert _refused(state, PlayCard("david", ASSASSINATION, "thierry", "thierry")) == (
        "card/own-lord"
    )
    state = apply(state, PlayCard("david", ASSASSINATION, "quentin", "thierry"))
    assert legal_moves(state) == [Answer("grady", False)]  # no Secret Passage in his hand
    state = apply(state, Answer("grady", False))
    assert state.lord("thierry").assassin and state.pending[-1].kind == "assassination"
    missed = apply(state, LordDie("quentin", 4))
    assert missed.find_lord("quentin") is not None and missed.lord("thierry").assassin
    hit = apply(state, LordDie("quentin", 3))
    assert hit.find_lord("quentin") is None


def test_assassination_always_kills_with_the_polish_reading() -> None:
    """§15 item 6: option assassination = "pl": no roll."""
    state = lord(lord(table(assassination="pl"), "thierry", "david", "vaux"), "quentin", "grady",
                 "blaye")  # fmt: skip
    state = apply(_playing(state, "david", ASSASSINATION),
                  PlayCard("david", ASSASSINATION, "quentin", "thierry"))  # fmt: skip
    state = apply(state, Answer("grady", False))
    assert state.find_lord("quentin") is None and not state.pending


def test_justice_beheads_an_assassin_but_not_the_king() -> None:
    """§11.4 (§13 item 55): Justice on a Lord carrying the Assassin marker; the King, Queen,
    Crown Prince and Pope are immune."""
    state = lord(table(), "thierry", "david", "vaux", assassin=True)
    state = lord(state, "charles", "david", "vaux", assassin=True, king=True)
    state = _playing(lord(state, "quentin", "grady", "blaye"), "grady", JUSTICE)
    assert _refused(state, PlayCard("grady", JUSTICE, "quentin")) == "card/justice-target"
    assert _refused(state, PlayCard("grady", JUSTICE, "charles")) == "card/justice-target"
    state = apply(state, PlayCard("grady", JUSTICE, "thierry"))
    assert state.find_lord("thierry") is None


def test_a_dead_lords_titles_pass_to_his_family_and_the_crown_prince_becomes_king() -> None:
    """§7.4, §10.6 (§13 item 59): Fief titles to another Lord of the family; the Crown Prince
    becomes King (PL edition: without the dead King's Fief titles; EN: test_editions), the Queen
    loses her title."""
    from engine.games.france1429.deaths import kill

    state = lord(table(edition="pl"), "charles", "david", "vaux", king=True, fiefs=("medard",))
    state = lord(state, "thierry", "david", "vaux")
    state = lord(state, "alienor", "grady", "blaye", queen=True)
    state = lord(state, "quentin", "grady", "blaye", crown_prince=True)
    state = kill(state, "charles")
    assert state.lord("thierry").fiefs == ("medard",)
    assert state.lord("quentin").king and not state.lord("quentin").fiefs
    assert not state.lord("alienor").queen


def _taxed_blaye(state: FranceState) -> FranceState:
    """Grady holds the Fief 'blaye' (Blaye, Charolles, Mazilles, Arlay) and tallages it."""
    state = lord(state, "quentin", "grady", "blaye", fiefs=("blaye",))
    state = _playing(state, "grady", TAXES)
    return apply(state, PlayCard("grady", TAXES, "blaye", "quentin"))


def test_uprising_only_where_taxed_or_famine_and_not_by_the_taxer() -> None:
    """§11.4 (§13 item 52): an Uprising on a taxed Village or in a Famine Bishopric; the family
    whose own tax is the only cause may not raise it."""
    state = troops(_taxed_blaye(table()), "david", "mazilles", maa=2)
    state = hand(state, "grady", UPRISING)
    assert cards.card_problem(state, "grady", UPRISING, "mazilles", "") == "card/uprising-own-tax"
    state = _playing(state, "david", UPRISING)
    assert _refused(state, PlayCard("david", UPRISING, "vaux")) == "card/uprising-target"
    famine = card_on(state, 2, FAMINE)
    assert cards.card_problem(famine, "david", UPRISING, "vaux", "") is None


def _nobody_adds(state: FranceState) -> FranceState:
    """Every family asked passes on adding to the Uprising (FR-33)."""
    while state.pending and state.pending[-1].kind == "rally":
        state = apply(state, Answer(state.pending[-1].seat, False))
    return state


def test_uprising_against_a_stronghold_with_one_card_fails_mazilles_example() -> None:
    """§11.4 example: Mazilles, Stronghold + 2 MaA: one Uprising, 1 - 1 = 0 dice: it fails."""
    state = fort(troops(_taxed_blaye(table()), "david", "mazilles", maa=2), "mazilles")
    state = apply(_playing(state, "david", UPRISING), PlayCard("david", UPRISING, "mazilles"))
    state = _nobody_adds(state)
    assert not state.pending and state.troops_at("david", "mazilles").maa == 2
    assert state.fortune_discard.get(UPRISING) == 1


def test_a_second_uprising_from_an_ally_adds_a_die_mazilles_example() -> None:
    """§11.4 example (FR-33): Mazilles, Stronghold + 2 MaA; with a second Uprising from an ally,
    2 - 1 = 1 die; it rolls 1, +1 = 2 hits: both MaA die and the Stronghold is destroyed.
    Every family is asked in turn from the card's player; only the family asked may add, only
    on that Village; a card not in hand is refused."""
    state = fort(troops(_taxed_blaye(table()), "gunter", "mazilles", maa=2), "mazilles")
    state = hand(_playing(state, "david", UPRISING), "kirsten", UPRISING)
    state = apply(state, PlayCard("david", UPRISING, "mazilles"))
    assert state.pending[-1].kind == "rally" and state.pending[-1].seat == "david"
    assert legal_moves(state) == [Answer("david", False)]
    state = apply(state, Answer("david", False))
    assert state.pending[-1].seat == "kirsten"  # the next clockwise
    assert _refused(state, PlayCard("kirsten", UPRISING, "vaux")) == "card/rally-village"
    assert _refused(state, PlayCard("gunter", UPRISING, "mazilles")) == "answer/not-asked"
    assert PlayCard("kirsten", UPRISING, "mazilles") in legal_moves(state)
    state = apply(state, PlayCard("kirsten", UPRISING, "mazilles"))
    assert state.pending[-1].amount == 2 and state.family("kirsten").hand == ()
    state = _nobody_adds(state)
    assert state.pending[-1].kind == "uprising" and state.pending[-1].amount == 1
    after = apply(state, HitDie(1))
    assert after.troops_at("gunter", "mazilles").count() == 0
    assert after.place("mazilles").fort == "none"
    assert after.fortune_discard.get(UPRISING) == 2


def test_three_uprisings_roll_three_dice_each_plus_one() -> None:
    """§11.4: several cards on one Village: each adds a die and its +1 (3 cards, no penalty:
    3 dice + 3); a Secret Passage removes a Fortified City's penalty."""
    state = troops(_taxed_blaye(table()), "gunter", "mazilles", maa=13)
    state = fort(state, "mazilles", "fortified")
    state = _playing(state, "david", UPRISING, UPRISING, SECRET_PASSAGE)
    state = hand(state, "kirsten", UPRISING)
    state = apply(state, PlayCard("david", UPRISING, "mazilles"))
    state = apply(state, PlayCard("david", UPRISING, "mazilles"))
    state = apply(state, PlayCard("david", SECRET_PASSAGE, "mazilles"))
    assert _refused(state, PlayCard("david", SECRET_PASSAGE, "mazilles")) == "card/not-in-hand"
    state = apply(state, Answer("david", False))
    state = _nobody_adds(apply(state, PlayCard("kirsten", UPRISING, "mazilles")))
    assert state.pending[-1].kind == "uprising" and state.pending[-1].amount == 3
    for face in (3, 2):
        state = apply(state, HitDie(face))
        assert state.troops_at("gunter", "mazilles").maa == 13  # dice rolled together
    state = apply(state, HitDie(1))
    assert state.troops_at("gunter", "mazilles").maa == 13 - (3 + 2 + 1 + 3)


def test_uprising_die_plus_one_kills_all_troops_then_the_lords_and_mills() -> None:
    """§11.4: 1 die + 1 hit; all troops killed: the Lords there die, the Mills are destroyed."""
    state = troops(_taxed_blaye(table()), "gunter", "mazilles", maa=2)
    state = lord(mills(state, "mazilles", 2), "thierry", "gunter", "mazilles")
    state = apply(_playing(state, "david", UPRISING), PlayCard("david", UPRISING, "mazilles"))
    state = _nobody_adds(state)
    assert state.pending[-1].kind == "uprising"
    assert _refused(state, HitDie(5)) == "die/face"
    after = apply(state, HitDie(1))
    assert after.troops_at("gunter", "mazilles").count() == 0
    assert after.find_lord("thierry") is None and after.place("mazilles").mills == 0
    survived = apply(troops(state, "gunter", "mazilles", knights=1), HitDie(1))
    assert survived.find_lord("thierry") is not None  # 2 hits cannot kill the Knight


def test_losses_take_as_many_strength_points_as_the_hits_allow() -> None:
    """§9.4 (Gauvain/Blanche example): 1 MaA + 1 Knight: 2 hits kill the MaA, 3 the Knight;
    with 3 MaA and 1 Knight the owner chooses 3 MaA or the Knight (EN p.13 "the Player would
    choose which Troops to remove")."""
    assert cards.loss_choices(1, 1, 2) == [(1, 0)]
    assert cards.loss_choices(1, 1, 3) == [(0, 1)]
    assert cards.loss_choices(1, 1, 4) == [(1, 1)]
    assert cards.loss_choices(3, 1, 3) == [(3, 0), (0, 1)]
    assert cards.loss_choices(0, 2, 2) == [(0, 0)]


def test_secret_passage_leads_a_besieged_lord_out_and_frees_a_captive() -> None:
    """§11.4: escape a besieged fortification; a captive escapes without ransom."""
    from dataclasses import replace

    from engine.games.france1429 import rounds
    from engine.games.france1429.moves import March

    state = fort(troops(lord(table(), "thierry", "david", "vaux"), "david", "vaux", maa=1), "vaux")
    state = troops(state, "grady", "vaux", maa=3)
    state = state.with_place(replace(state.place("vaux"), besieged_by="grady"))
    state = hand(at_phase(rounds.start_movement(state), "movement", "david"), "david",
                 SECRET_PASSAGE, SECRET_PASSAGE)  # fmt: skip
    assert _refused(state, March("david", "thierry", "lormes")) == "move/besieged"
    state = apply(state, PlayCard("david", SECRET_PASSAGE, "thierry"))
    out = apply(state, March("david", "thierry", "lormes", maa=1))
    assert out.lord("thierry").village == "lormes"
    captive = lord(state, "quentin", "david", "blaye", captor="grady")
    freed = apply(captive, PlayCard("david", SECRET_PASSAGE, "quentin"))
    assert freed.lord("quentin").captor is None


def test_a_bishop_or_cardinal_may_try_to_stop_an_uprising() -> None:
    """§10.3-10.4 (§13 item 53): the Bishop of the Bishopric (even absent) and a Cardinal
    (paying 3 Deniers) are asked in turn; 1D6 3-6 stops it; on 1-2 the Bishop is stoned to
    death, a Cardinal lives."""
    from frcore_builders import money

    state = troops(_taxed_blaye(table()), "gunter", "mazilles", maa=2)
    state = lord(state, "francois", "kirsten", "vaux", bishop=1)
    state = money(lord(state, "arthur", "gunter", "vaux", bishop=2, cardinal=True), "gunter", 5)
    state = apply(_playing(state, "david", UPRISING), PlayCard("david", UPRISING, "mazilles"))
    state = _nobody_adds(state)
    assert legal_moves(state) == [Answer("kirsten", True), Answer("kirsten", False)]
    tried = apply(state, Answer("kirsten", True))
    stopped = apply(tried, LordDie("francois", 3))
    assert not stopped.pending and stopped.troops_at("gunter", "mazilles").maa == 2
    stoned = apply(tried, LordDie("francois", 2))
    assert stoned.find_lord("francois") is None
    assert legal_moves(stoned) == [Answer("gunter", True), Answer("gunter", False)]
    cardinal = apply(apply(stoned, Answer("gunter", True)), LordDie("arthur", 1))
    assert cardinal.find_lord("arthur") is not None and cardinal.family("gunter").deniers == 2
    assert cardinal.pending[-1].kind == "uprising"  # nobody stopped it: the die is rolled


def test_a_secret_passage_cancels_an_assassination() -> None:
    """§11.4: the target's family plays a Secret Passage before the die: both cards discarded;
    the sponsor keeps the Assassin marker."""
    state = lord(lord(table(), "thierry", "david", "vaux"), "quentin", "grady", "blaye")
    state = hand(_playing(state, "david", ASSASSINATION), "grady", SECRET_PASSAGE)
    state = apply(state, PlayCard("david", ASSASSINATION, "quentin", "thierry"))
    assert legal_moves(state) == [Answer("grady", True), Answer("grady", False)]
    state = apply(state, Answer("grady", True))
    assert not state.pending and state.find_lord("quentin") is not None
    assert state.fortune_discard == {ASSASSINATION: 1, SECRET_PASSAGE: 1}
    assert state.lord("thierry").assassin


def test_the_queens_family_new_male_lord_is_crown_prince_unless_she_is_captive() -> None:
    """§10.6 (§13 item 58): the Queen's family plays a new male Lord while the King lives: he
    is Crown Prince; a captive Queen gives none."""
    state = lord(table(), "charles", "grady", "blaye", king=True, spouse="alienor")
    state = lord(state, "alienor", "david", "vaux", queen=True, spouse="charles")
    state = _playing(state, "david", "quentin")
    born = apply(state, PlayLord("david", "quentin", "vaux"))
    assert born.lord("quentin").crown_prince and born.prince_born
    captive = troops(lord(state, "beaudoin", "gunter", "vaux"), "gunter", "vaux", maa=1)
    captive = captive.with_lord(replace(captive.lord("alienor"), captor="gunter"))
    captive = troops(captive, "david", "lormes", maa=1)
    none = apply(_playing(captive, "david", "quentin"), PlayLord("david", "quentin", "lormes"))
    assert not none.lord("quentin").crown_prince


def test_a_cardinal_card_and_the_bought_biretta_go_to_a_captive_bishop_too() -> None:
    """EN §9.2 "A Cardinal card can be played on a Lord Bishop at any time", §1.5 "to any Bishop
    already in play"; PL L557-559 "na dowolnego biskupa, który jest w grze", L568-569 (the
    biretta "znajdującemu się w grze biskupowi"). Captivity takes only candidacy and votes (EN
    §6.2.3), so a captive Bishop may be made a Cardinal (issue 27)."""
    from engine.games.france1429.moves import Buy

    state = troops(lord(table(), "arthur", "grady", "sigy"), "grady", "sigy", maa=1)
    state = lord(state, "francois", "david", "sigy", bishop=5, captor="grady")
    assert state.lord("francois").captor == "grady"
    carded = apply(at_phase(hand(state, "david", CARDINAL), "movement", "david"),
                   PlayCard("david", CARDINAL, "francois"))  # fmt: skip
    assert carded.lord("francois").cardinal and carded.lord("francois").captor == "grady"
    buying = replace(at_phase(state, "purchase", "david"), supply={**state.supply, "biretta": 1})
    buying = buying.with_family(replace(buying.family("david"), deniers=5))
    bought = apply(buying, Buy("david", "biretta", "", "francois"))
    assert bought.lord("francois").cardinal and bought.lord("francois").biretta


def test_the_uprisings_player_chooses_whose_troops_it_strikes_and_each_owner_his_losses() -> None:
    """EN §10.1: the player who played the Uprising chooses which Troops are attacked first
    (PL L2122-2124; FR-15); the Lord of the Troops decides which counters are removed (EN
    §2.3.3, §9.4; FR-6). One die rolling 2, +1: 3 hits."""
    from engine.games.france1429.moves import Losses, Strike

    state = troops(_taxed_blaye(table()), "gunter", "mazilles", maa=2)
    state = troops(state, "kirsten", "mazilles", maa=3, knights=1)
    state = apply(_playing(state, "david", UPRISING), PlayCard("david", UPRISING, "mazilles"))
    state = apply(_nobody_adds(state), HitDie(2))
    assert legal_moves(state) == [Strike("david", "gunter"), Strike("david", "kirsten")]
    assert _refused(state, Strike("david", "grady")) == "uprising/strike"
    assert _refused(state, Strike("gunter", "kirsten")) == "answer/not-asked"
    state = apply(state, Strike("david", "kirsten"))
    assert legal_moves(state) == [Losses("kirsten", 3, 0), Losses("kirsten", 0, 1)]
    assert _refused(state, Losses("kirsten", 2, 0)) == "uprising/losses"
    state = apply(state, Losses("kirsten", 0, 1))
    assert not state.pending
    assert state.troops_at("kirsten", "mazilles").maa == 3
    assert state.troops_at("kirsten", "mazilles").knights == 0
    assert state.troops_at("gunter", "mazilles").maa == 2


def test_an_uprisings_hits_left_go_on_to_the_next_troops_its_player_names() -> None:
    """EN §10.1 (FR-15): 3 hits on gunter's lone Man at Arms: 2 left strike kirsten's, the only
    troops left (no question when there is no choice)."""
    from engine.games.france1429.moves import Strike

    state = troops(_taxed_blaye(table()), "gunter", "mazilles", maa=1)
    state = troops(state, "kirsten", "mazilles", maa=3)
    state = apply(_playing(state, "david", UPRISING), PlayCard("david", UPRISING, "mazilles"))
    state = apply(apply(_nobody_adds(state), HitDie(2)), Strike("david", "gunter"))
    assert not state.pending and state.troops_at("gunter", "mazilles").count() == 0
    assert state.troops_at("kirsten", "mazilles").maa == 1
