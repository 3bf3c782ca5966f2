"""Referee checks 1-24 and 41-45 of the Glory digest, §9 (rules/glory.md, seed 001).

Each check has a legal and an illegal case, in a position reached through the real move API from
an explicit setup with the stand-in data (``glory_game_builders``): ``GAME.check`` returns nothing
for the legal move and the violation's code for the illegal one. Where a check is about what the
table observes (camera C, dice D) the test checks the move that observation becomes. Where a check
is an automatic effect no move can break, the test says so, asserts the engine's outcome against
the rule, and shows the whole-position check faulting a table that contradicts it. The duel's
checks 25-40 are in test_glory_game_duels.py.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from glory_game_builders import (
    BOX,
    SEATS2,
    SEATS3,
    SEATS4,
    G,
    all_codes,
    auto,
    codes,
    deal_hands,
    fight,
    keep_all,
    new,
    place_all,
    play,
    position_codes,
    setup_deal,
    stop_quests,
    to_action,
    tournament_deal,
    track_for,
)

from engine import selfplay
from engine.games.glory.components import PRESTIGE_KINDS, score_track
from engine.games.glory.duel_state import Decline, Prestige
from engine.games.glory.refresh import new_order
from engine.games.glory.state import (
    ChooseCharacter,
    DealHands,
    DrawCards,
    DuelStep,
    FillBracket,
    GloryState,
    KeepCards,
    KeepTitles,
    NextTournament,
    Place,
    PlayQuest,
    Refill,
    Register,
    StopQuests,
    TryTitle,
)


def _refresh(state: GloryState) -> GloryState:
    """From the Action Phase to the table's refill: every pawn on Guard, no Quest card played."""
    return stop_quests(place_all(state))


def _registration(state: GloryState, seed: int = 1) -> GloryState:
    return auto(_refresh(state), lambda s: s.phase == "registration", seed)


# --- 1 phase order [L326-362] -------------------------------------------------------------------


def test_check01_phases_run_action_quest_refresh_registration_tournament_then_final_and_titles():
    """§9 check 1 [L326-362, L636-651]: every round runs Action → Quest → Refresh → Registration
    → Tournament; after round 3 come the Final Quest and Titles Phases, then the game is over
    (the Titles Phase waits for nobody unless a Dzielny duel is open)."""
    phases: list[tuple[int, str]] = []
    setup = selfplay.setups(G, 2)[0]

    def seen(session, _event):
        key = (session.state.round, session.state.phase)
        if not phases or phases[-1] != key:
            phases.append(key)

    result = selfplay.play(G, SEATS2, random.Random(4), setup.options, on_event=seen)
    assert result.errors == []
    round_phases = ["action", "quest", "refresh", "registration", "tournament"]
    for r in (1, 2, 3):
        assert [p for n, p in phases if n == r and p in round_phases] == round_phases
    tail = [p for _, p in phases if p in ("final-quest", "titles", "over")]
    assert tail in (["final-quest", "over"], ["final-quest", "titles", "over"])
    assert sorted(result.session.state.titles_scored) == sorted(SEATS2)  # the Titles Phase ran


def test_check01_a_move_of_another_phase_is_refused():
    """§9 check 1 [L326-362]: in the Action Phase a Quest card, a crest or the table's refill is
    out of order."""
    state = to_action()
    assert codes(state, Place("a", "guard")) == []
    assert codes(state, PlayQuest("a", state.player("a").hand[0])) == ["game/wrong-phase"]
    assert codes(state, Register("a", slot=1)) == ["game/wrong-phase"]
    refill = Refill(state.ally_track, dict(state.columns))
    assert all_codes(state, refill) == ["turn/not-your-turn"]


# --- 2 action turn order [L385-388] -------------------------------------------------------------


def test_check02_pawns_are_placed_one_at_a_time_in_initiative_order():
    """§9 check 2 [L385-388]: the Initiative Track's order, left to right, one pawn a turn."""
    state = to_action(SEATS3, order=("c", "a", "b"))
    assert G.to_act(state) == ("c",)
    assert codes(state, Place("c", "guard")) == []
    assert codes(state, Place("a", "guard")) == ["game/not-your-turn"]
    state = play(state, Place("c", "guard"))
    assert G.to_act(state) == ("a",)
    assert codes(state, Place("c", "guard")) == ["game/not-your-turn"]


def test_check02_a_player_without_pawns_is_skipped_until_all_are_placed():
    """§9 check 2 [L385-388]: the turns go on until every pawn is placed; a player whose pawns
    are all out takes no more turns."""
    state = to_action()
    for _ in range(5):
        state = play(state, Place("a", "guard"), Place("b", "guard"))
    state = play(state, Place("a", "guard"))
    assert state.player("a").pawns == 0 and G.to_act(state) == ("b",)
    assert codes(state, Place("a", "guard")) == ["game/not-your-turn"]
    state = play(state, Place("b", "guard"))
    assert state.phase == "quest"


# --- 3 pawn count [L153, L1330-1345] ------------------------------------------------------------


def test_check03_six_pawns_and_five_under_pospolite_ruszenie():
    """§9 check 3 [L153; Pospolite ruszenie L1330-1345]: 6 pawns each; in a round with
    Pospolite ruszenie each player has 5 (one stands on the card)."""
    state = to_action(events=("krolewskie-wesele", "pospolite-ruszenie", "krucjata"))
    assert [p.pawns for p in state.players] == [6, 6]
    state = auto(state, lambda s: s.round == 2 and s.phase == "action")
    assert state.event == "pospolite-ruszenie"
    assert [p.pawns for p in state.players] == [5, 5]
    placed = 0
    while state.phase == "action":
        state = play(state, Place(G.to_act(state)[0], "guard"))
        placed += 1
    assert placed == 10


def test_check03_a_seventh_pawn_is_a_position_fault():
    """§9 check 3 [L153]: a table showing 7 pawns for a player is faulted."""
    state = to_action()
    assert position_codes(state) == []
    a = dataclasses.replace(state.player("a"), pawns=7)
    bad = dataclasses.replace(state, players=(a, *state.players[1:]))
    assert position_codes(bad) == ["position/pawns"]


# --- 4 slot exclusivity [L399-411] --------------------------------------------------------------


def test_check04_a_circle_holds_one_pawn_a_round_an_area_many():
    """§9 check 4 [L399-411]: Training is a circle (one pawn a round); Guard is an area."""
    state = play(to_action(), Place("a", "training"))
    assert codes(state, Place("b", "training")) == ["action/slot-taken"]
    assert codes(state, Place("b", "prayer")) == []
    state = play(state, Place("b", "guard"), Place("a", "guard"))
    assert codes(state, Place("b", "guard")) == []


# --- 5 player-count blocking [L266-268, L404-407] -----------------------------------------------


@pytest.mark.parametrize(
    ("seats", "field", "expected"),
    [
        (SEATS2, "training-3", ["action/field-blocked"]),
        (SEATS3, "training-3", []),
        (SEATS3, "service-4", ["action/field-blocked"]),
        (SEATS4, "service-4", []),
    ],
)
def test_check05_fields_marked_for_three_or_four_players(seats, field, expected):
    """§9 check 5 [L266-268, L404-407]: a field marked for 3+ players is covered with 2, one
    marked for 4 is covered with 2 or 3."""
    assert codes(to_action(seats), Place("a", field)) == expected


# --- 6 affordability [L394-395] -----------------------------------------------------------------


def test_check06_an_action_you_cannot_afford_is_refused():
    """§9 check 6 [L394-395]: Coins never go below 0: with 3 Coins the Marketplace's Level III
    (4 Coins) is refused, the 2-Coin ally is not; an Event field's cost likewise."""
    state = to_action()
    assert state.player("a").coins == 3
    assert codes(state, Place("a", "marketplace", item="horse")) == ["action/cannot-afford"]
    assert codes(state, Place("a", "allies", space=2)) == []
    broke = to_action(
        events=("sojusz-a", "sojusz-b", "krucjata"),
        event_ally="krol",
        characters={"a": "rycerz-zakonny"},
    )
    assert broke.player("a").coins == 0
    assert codes(broke, Place("a", "event")) == ["action/cannot-afford-event"]
    assert codes(broke, Place("a", "allies", space=2)) == ["action/cannot-afford"]


# --- 7 Initiative action [L432-436] -------------------------------------------------------------


def test_check07_initiative_once_a_round_first_free_space_one_coin():
    """§9 check 7 [L432-436]: +1 Coin, the first free space of the track, once per round."""
    state = to_action()
    assert codes(state, Place("a", "initiative")) == []
    state = play(state, Place("a", "initiative"), Place("b", "initiative"))
    assert state.initiative_pawns == ("a", "b")
    assert state.player("a").coins == 3 + 1
    assert codes(state, Place("a", "initiative")) == ["action/initiative-once"]


# --- 8 Herald [L467-474, L496-503] --------------------------------------------------------------


def test_check08_herald_registers_once_a_round_in_a_joust():
    """§9 check 8 [L467-474]: a Joust crest on a free bottom-row space, once a round."""
    state = to_action()
    assert codes(state, Place("a", "herald", slot=0)) == ["registration/slot-taken"]
    assert codes(state, Place("a", "herald", slot=1)) == []
    state = play(state, Place("a", "herald", slot=1), Place("b", "guard"))
    assert codes(state, Place("a", "herald", slot=2)) == ["action/herald-once"]


def test_check08_herald_in_pas_d_armes_never_twice_in_a_city_and_a_free_knight():
    """§9 check 8 [L496-503, L612-614]: never twice in one city; the Knight must be free."""
    state = to_action(options={"tournament": "pas-d-armes"})
    state = play(state, Place("a", "herald", city=0, slot=0))
    assert codes(state, Place("b", "herald", city=0, slot=0)) == ["registration/knight-taken"]
    assert codes(state, Place("b", "herald", city=0, slot=1)) == []
    state = play(state, Place("b", "guard"))
    assert codes(state, Place("a", "herald", city=0, slot=1)) == ["registration/city-twice"]
    assert codes(state, Place("a", "herald", city=1, slot=0)) == []


# --- 9 Marketplace [L454-460, L1407-1411] -------------------------------------------------------


def test_check09_marketplace_one_level_at_the_new_levels_price_never_above_iv():
    """§9 check 9 [L454-460]: exactly one item, +1 level, the new level's price; Level IV is
    the top."""
    state = to_action(events=("urodzaj", "sojusz-b", "krucjata"))
    assert state.player("a").coins == 5
    assert codes(state, Place("a", "marketplace")) == ["action/market-item"]
    state = play(state, Place("a", "marketplace", item="horse"))
    a = state.player("a")
    assert (a.horse, a.armour, a.coins) == (3, 2, 5 - 4)
    for _ in range(2):
        state = play(state, Place("b", "guard"), Place("a", "guard"))
    state = play(state, Place("b", "guard"), Place("a", "guard"))  # a: 1 + 2 + 2 + 2 = 7
    state = play(state, Place("b", "guard"), Place("a", "marketplace", item="horse"))
    assert (state.player("a").horse, state.player("a").coins) == (4, 7 - 6)
    state = play(state, Place("b", "guard"))
    assert codes(state, Place("a", "marketplace", item="horse")) == ["action/market-max"]


def test_check09_dyplomata_takes_one_coin_off():
    """§9 check 9 [L1407-1411]: each Dyplomata takes 1 Coin off the Marketplace and Allies
    prices (never below 0)."""
    state = to_action(events=("urodzaj", "sojusz-b", "krucjata"))  # Dyplomata on space 1
    state = play(state, Place("a", "allies", space=0))  # 1 Coin: not held yet
    assert state.player("a").coins == 4
    assert codes(state, Place("b", "marketplace", item="armour")) == []
    state = play(state, Place("b", "guard"), Place("a", "marketplace", item="armour"))
    assert (state.player("a").armour, state.player("a").coins) == (3, 4 - (4 - 1))
    state = play(state, Place("b", "guard"), Place("a", "allies", space=5))  # cost 0 stays 0
    assert state.player("a").coins == 1


# --- 10 no level skipping [L559-560, L1754-1755] ------------------------------------------------


def test_check10_an_upgrade_card_never_skips_a_level():
    """§9 check 10 [L559-560, L1476-1481]: Rumak is Horse III → IV: played at Level II it
    changes nothing (no II → IV); Koń bojowy is II → III, and then Rumak is III → IV. A skip
    cannot even be stated as a move (no move names a level); it is automatic."""
    columns = {"market": ("kon-bojowy", "odpust", "zbrojownia", "herbarz")}
    state = to_action(hands={"a": ("list-milosny", "rumak")}, columns=columns)
    state = play(state, Place("a", "quest-plans", take=("kon-bojowy", "odpust")))
    state = place_all(state)  # Guard for every other pawn: Coins enough
    state = play(state, PlayQuest("a", "rumak"))
    assert state.player("a").horse == 2 and "rumak" in state.player("a").played
    state = play(state, StopQuests("b"), PlayQuest("a", "kon-bojowy"))
    assert state.player("a").horse == 3


# --- 11 Quest Plans [L438-452, L487-492] --------------------------------------------------------


def test_check11_quest_plans_takes_exactly_two_and_columns_are_not_refilled():
    """§9 check 11 [L438-452, L487-492]: two cards, face up or from the decks; the columns
    are not refilled."""
    state = to_action()
    assert codes(state, Place("a", "quest-plans", take=("gra",))) == ["action/quest-count"]
    three = Place("a", "quest-plans", take=("gra", "bal", "uczta"))
    assert codes(state, three) == ["action/quest-count"]
    assert codes(state, Place("a", "quest-plans", take=("gra",), draw=("market",))) == []
    state = play(state, Place("a", "quest-plans", take=("gra", "bal")))
    assert state.columns["romance"] == ("serenada", "wstazka")
    assert codes(state, Place("b", "quest-plans", take=("gra", "uczta"))) == ["action/not-face-up"]


def test_check11_krolowa_adds_a_card():
    """§9 check 11 [L438-452; Królowa GL decision]: +1 card per Królowa."""
    state = to_action(SEATS3, track=track_for(3, ("krolowa", "dyplomata")))
    state = play(state, Place("a", "allies", space=0), Place("b", "guard"), Place("c", "guard"))
    two = Place("a", "quest-plans", take=("gra", "bal"))
    assert codes(state, two) == ["action/quest-count"]
    assert codes(state, dataclasses.replace(two, take=("gra", "bal", "uczta"))) == []


def test_check11_cards_drawn_face_down_come_from_the_decks_named():
    """§9 check 11 [L487-492]: the table reveals a face-down draw from the deck named."""
    state = play(to_action(), Place("a", "quest-plans", take=("gra",), draw=("market",)))
    assert G.to_act(state) == ("table",)
    market = sorted(state.quest_decks["market"])
    assert codes(state, DrawCards("a", (market[0],))) == []
    assert codes(state, DrawCards("a", (state.quest_decks["romance"][0],))) == ["draw/wrong-decks"]
    assert codes(state, DrawCards("a", (market[0], market[1]))) == ["draw/count"]


# --- 12 Allies action [L461-466] ----------------------------------------------------------------


def test_check12_one_ally_at_its_spaces_cost_and_no_refill():
    """§9 check 12 [L461-466]: one token, the cost printed under its space; the track is not
    refilled until the Refresh Phase."""
    state = to_action()
    state = play(state, Place("a", "allies", space=2))  # Drab, 2 Coins
    a = state.player("a")
    assert ([x.kind for x in a.allies], a.coins) == (["drab"], 1)
    assert state.ally_track[2] is None
    assert codes(state, Place("b", "allies", space=2)) == ["action/no-ally"]
    assert codes(state, Place("b", "allies", space=3)) == []


# --- 13 New Goal [L476-480] ---------------------------------------------------------------------


def test_check13_new_goal_draws_three_and_keeps_one():
    """§9 check 13 [L476-480]: draw 3 Titles (the table reveals them to the player), keep 1."""
    state = play(to_action(), Place("a", "new-goal"))
    assert state.pending is not None and state.pending.count == 3
    drawn = tuple(sorted(state.title_deck)[:3])
    assert codes(state, DrawCards("a", drawn[:2])) == ["draw/count"]
    state = play(state, DrawCards("a", drawn))
    assert G.to_act(state) == ("a",)
    assert codes(state, KeepTitles("a", drawn[:2])) == ["titles/keep"]
    assert codes(state, KeepTitles("a", ("silny",))) == ["titles/keep"]
    state = play(state, KeepTitles("a", drawn[:1]))
    assert drawn[0] in state.player("a").goals
    assert sorted(state.title_discard) == sorted(drawn[1:])


def test_check13_an_empty_title_deck_is_made_again_from_the_discards():
    """§9 check 13 [L476-480, Zadanie L1469-1475]: with too few Titles left, the discards are
    shuffled back before the draw."""
    columns = {"romance": ("zadanie", "bal", "serenada", "wstazka")}
    state = play(to_action(SEATS4, columns=columns), Place("a", "new-goal"))
    state = play(state, DrawCards("a", tuple(sorted(state.title_deck)[:3])))
    state = play(state, KeepTitles("a", state.pending.cards[:1]), Place("b", "new-goal-4"))
    state = play(state, DrawCards("b", tuple(sorted(state.title_deck)[:3])))
    state = play(state, KeepTitles("b", state.pending.cards[:1]))
    state = play(state, Place("c", "quest-plans", take=("zadanie", "bal")))
    assert len(state.title_deck) == 1 and len(state.title_discard) == 4
    state = place_all(state)
    state = play(state, StopQuests("a"), StopQuests("b"), PlayQuest("c", "zadanie"))
    assert state.pending is not None and state.pending.count == 2
    assert len(state.title_deck) == 5 and state.title_discard == ()
    assert codes(state, DrawCards("c", tuple(sorted(state.title_deck)[:2]))) == []


# --- 14 Event action field [L1294-1299, L1307-1313] ---------------------------------------------


def test_check14_event_field_one_user_a_round_and_its_cost_paid():
    """§9 check 14 [L1296-1297, Sojusz L1307-1313]: one pawn, first come first served, the cost
    beside the field paid; a round whose Event has no field offers none."""
    assert codes(to_action(), Place("a", "event")) == ["action/no-event-field"]  # Królewskie wesele
    state = to_action(events=("sojusz-a", "sojusz-b", "krucjata"), event_ally="krol")
    assert codes(state, Place("a", "event")) == []
    state = play(state, Place("a", "event"))
    a = state.player("a")
    assert ([x.kind for x in a.allies], a.coins, state.event_ally) == (["krol"], 3 - 1, None)
    assert codes(state, Place("b", "event")) == ["action/slot-taken"]


# --- 15 Quest Phase [L537-563] ------------------------------------------------------------------

QUEST_COLUMNS = {
    "romance": ("wstazka", "list-milosny", "pielgrzymka", "medalik"),
    "market": ("uczta", "zbrojownia", "herbarz", "relikwiarz"),
}


def _quest_phase(**hands: tuple[str, ...]) -> GloryState:
    """The Quest Phase after a took Wstążka and List miłosny with Quest Plans."""
    state = to_action(hands=hands, columns=QUEST_COLUMNS)
    state = play(state, Place("a", "quest-plans", take=("wstazka", "list-milosny")))
    return place_all(state, "solo-training")  # Coins stay at the start's 3


def test_check15_one_card_at_a_time_in_initiative_order_up_to_three():
    """§9 check 15 [L539-541, L557]: in Initiative order, one card at a time, at most 3 each."""
    state = _quest_phase(a=("serenada", "zbrojownia"), b=("gra", "odpust", "rozbojnik"))
    assert G.to_act(state) == ("a",)
    assert codes(state, PlayQuest("b", "gra")) == ["game/not-your-turn"]
    state = play(state, PlayQuest("a", "serenada", choice=1), PlayQuest("b", "gra"))
    state = play(state, PlayQuest("a", "zbrojownia"), PlayQuest("b", "odpust"))
    state = play(state, PlayQuest("a", "wstazka"))
    assert state.player("a").quest_plays == 3 and "list-milosny" in state.player("a").hand
    assert G.to_act(state) == ("b",)
    assert codes(state, PlayQuest("a", "list-milosny")) == ["game/not-your-turn"]


def test_check15_market_cost_paid_and_one_choice_of_a_slash_reward():
    """§9 check 15 [L544-551]: a Market card is paid first (one that cannot be paid is
    refused); a "/" reward is one choice."""
    state = to_action(hands={"a": ("serenada", "rumak")}, columns=QUEST_COLUMNS)
    state = play(state, Place("a", "quest-plans", take=("uczta", "wstazka")))
    state = place_all(state, "solo-training")
    assert state.player("a").coins == 3
    assert codes(state, PlayQuest("a", "rumak")) == ["quest/cannot-pay"]  # 4 Coins
    assert codes(state, PlayQuest("a", "serenada", choice=2)) == ["quest/reward-choice"]
    assert codes(state, PlayQuest("a", "serenada", choice=1)) == []
    before = state.player("a").strength
    state = play(state, PlayQuest("a", "serenada", choice=1))  # 2 Glory / 2 Strength
    assert (state.player("a").strength, state.player("a").glory) == (before + 2, 12)
    state = play(state, StopQuests("b"), PlayQuest("a", "uczta"))  # 2 Coins: 3 Glory
    assert (state.player("a").coins, state.player("a").glory) == (3 - 2, 12 + 3)


def test_check15_poslaniec_adds_a_fourth_card():
    """§9 check 15 [Posłaniec L1393-1398]: +1 Quest card per Posłaniec."""
    state = to_action(
        hands={"a": ("serenada", "zbrojownia")},
        columns=QUEST_COLUMNS,
        track=track_for(2, ("poslaniec",)),
    )
    state = play(state, Place("a", "quest-plans", take=("wstazka", "list-milosny")))
    state = play(state, Place("b", "guard"), Place("a", "allies", space=0))
    state = place_all(state)
    for card in ("serenada", "zbrojownia", "wstazka"):
        state = play(state, PlayQuest("a", card))
        if G.to_act(state) == ("b",):
            state = play(state, StopQuests("b"))
    assert G.to_act(state) == ("a",)
    assert codes(state, PlayQuest("a", "list-milosny")) == []


# --- 16 failed Challenge [L552-555, L950-951] ---------------------------------------------------


def test_check16_a_lost_challenge_counts_and_stays_in_hand_a_won_one_is_discarded():
    """§9 check 16 [L552-555, L950-951]: Rozbójnik (Attack 6): lost → the card stays in hand
    and the attempt counts; won → reward and the card goes to the discard pile."""
    state = _quest_phase(a=("serenada", "zbrojownia"), b=("gra", "odpust", "rozbojnik"))
    state = play(state, StopQuests("a"), PlayQuest("b", "rozbojnik"))
    assert state.pending is not None and state.pending.kind == "duel"
    state = fight(state, [False, False])  # 0 against 6, twice
    b = state.player("b")
    assert "rozbojnik" in b.hand and b.quest_plays == 1 and "rozbojnik" not in b.played
    assert b.challenges_won == 0
    coins = b.coins
    state = play(state, PlayQuest("b", "rozbojnik"))
    state = fight(state, [True, True])  # 4 + 3 = 7 against 6
    b = state.player("b")
    assert "rozbojnik" not in b.hand and "rozbojnik" in b.played and b.quest_plays == 2
    assert (b.challenges_won, b.coins) == (1, coins + 3)


# --- 17 Prestige uniqueness [L562-563, L1008-1010] ----------------------------------------------


def test_check17_a_second_prestige_token_of_a_kind_is_not_received():
    """§9 check 17 [L562-563, L1008-1010]: two Król allies give one Faworyt Króla; a table with
    two tokens of a kind is faulted."""
    state = to_action(SEATS3, track=track_for(3, ("krol", "krol")))
    state = play(state, Place("a", "allies", space=0), Place("b", "guard"), Place("c", "guard"))
    assert [x.kind for x in state.player("a").prestige] == ["faworyt-krola"]
    state = play(state, Place("a", "allies", space=1))
    a = state.player("a")
    assert [x.kind for x in a.allies] == ["krol", "krol"]
    assert [x.kind for x in a.prestige] == ["faworyt-krola"]
    assert position_codes(state) == []
    twice = dataclasses.replace(a, prestige=a.prestige * 2)
    bad = dataclasses.replace(state, players=(twice, *state.players[1:]))
    assert position_codes(bad) == ["position/prestige-twice"]


# --- 18 Refresh turn order [L566-579, L484-486] -------------------------------------------------


def test_check18_initiative_users_move_to_the_front_in_their_pawns_order():
    """§9 check 18 [L566-579]: Initiative pawns of b then c: the order a, b, c becomes b, c, a;
    with no Initiative pawn it does not change [L484-486]."""
    state = to_action(SEATS3)
    state = play(state, Place("a", "guard"), Place("b", "initiative"), Place("c", "initiative"))
    state = _refresh(state)
    assert state.phase == "refresh" and state.order == ("b", "c", "a")
    assert _refresh(to_action(SEATS3)).order == SEATS3
    assert new_order(("a", "b", "c", "d"), ("d", "b")) == ("d", "b", "a", "c")


def test_check18_an_order_that_loses_a_seat_is_a_position_fault():
    """§9 check 18 [L566-579]: the track must hold every crest once."""
    state = _refresh(to_action(SEATS3))
    assert position_codes(state) == []
    assert position_codes(dataclasses.replace(state, order=("a", "b", "b"))) == ["position/order"]


# --- 19 Refresh [L581-598] ----------------------------------------------------------------------


def test_check19_refresh_flips_tokens_pays_income_and_refills_from_the_right_stacks():
    """§9 check 19 [L581-598]: tokens active again, income from the Character card, the Ally
    Track and the Quest columns cleared and refilled, the Event moved on."""
    state = to_action()
    state = play(state, Place("a", "allies", space=2))
    a = state.player("a")
    flipped = dataclasses.replace(a, allies=tuple(dataclasses.replace(x, active=False)
                                                  for x in a.allies))  # fmt: skip
    state = dataclasses.replace(state, players=(flipped, *state.players[1:]))
    state = place_all(state)
    coins = {p.seat: p.coins for p in state.players}
    state = stop_quests(state)  # the last stop enters the Refresh Phase
    assert all(x.active for x in state.player("a").allies)
    income = BOX.characters["rycerz"].income
    assert [(ln.code, ln.amount) for ln in G.income(state, "a")] == [
        ("income/coins", income.coins),
        ("income/strength", income.strength),
    ]
    assert {p.seat: p.coins - coins[p.seat] for p in state.players} == {"a": 2, "b": 2}
    refill = G.sample_chance(state, random.Random(3))
    assert isinstance(refill, Refill) and codes(state, refill) == []
    short = dataclasses.replace(refill, columns={**refill.columns, "romance": ("poslanie",)})
    assert codes(state, short) == ["setup/column"]
    wrong_stack = dataclasses.replace(refill, track=("drab", *refill.track[1:]))
    assert codes(state, wrong_stack) == ["setup/ally-not-in-stack"]
    left_empty = dataclasses.replace(refill, track=(*refill.track[:2], None, *refill.track[3:]))
    assert codes(state, left_empty) == ["refresh/track-space"]
    state = auto(play(state, refill), lambda s: s.round == 2)
    assert state.event == "sojusz-b"


# --- 20 Registration, Pas d'armes [L604-616, L652-664] ------------------------------------------


def test_check20_pas_d_armes_one_knight_per_city_one_player_per_knight():
    """§9 check 20 [L604-616]: crests in Initiative order, one Knight per city per player, one
    player per Knight."""
    state = to_action(options={"tournament": "pas-d-armes"})
    state = play(state, Place("a", "herald", city=0, slot=0))
    state = _registration(state)
    assert G.to_act(state) == ("a",)
    assert codes(state, Register("a", 0, 1)) == ["registration/city-twice"]
    assert codes(state, Register("b", 1, 0)) == ["game/not-your-turn"]
    state = play(state, Register("a", 1, 0))
    assert codes(state, Register("b", 1, 0)) == ["registration/knight-taken"]
    assert codes(state, Register("b", 0, 1)) == []


def test_check20_a_third_crest_only_with_the_herald():
    """§9 check 20 [L612-614]: Registration adds at most 2 crests; a third needs the Herald."""
    state = to_action(options={"tournament": "pas-d-armes"})
    state = play(state, Place("a", "herald", city=2, slot=0))
    state = _registration(state)
    state = play(state, Register("a", 0, 0), Register("b", 0, 1), Register("a", 1, 0))
    assert G.to_act(state) == ("b",)
    state = play(state, Register("b", 1, 1))
    crests = [s.crest for c in state.tournament.cities for s in c]
    assert crests.count("a") == 3 and crests.count("b") == 2
    assert state.phase == "tournament"  # b has no third crest to place
    assert codes(state, Register("b", 2, 1)) == ["game/not-your-turn"]


# --- 21 Registration, Joust [L618-629, L665-675] ------------------------------------------------


def test_check21_joust_one_crest_each_and_the_last_unregistered_may_not_pass():
    """§9 check 21 [L618-629, L665-675]: a, b pass; c must register; a passes again; b must."""
    state = _registration(to_action(SEATS3))
    assert codes(state, Register("a")) == []
    assert codes(state, Register("a", slot=0)) == ["registration/slot-taken"]
    state = play(state, Register("a"), Register("b"))
    assert codes(state, Register("c")) == ["registration/last-cannot-pass"]
    state = play(state, Register("c", slot=1), Register("a"))
    assert codes(state, Register("b")) == ["registration/last-cannot-pass"]
    state = play(state, Register("b", slot=2))
    assert codes(state, Register("c", slot=3)) == ["game/not-your-turn"]
    state = play(state, Register("a", slot=5))
    assert G.to_act(state) == ("table",)


def test_check21_the_empty_spaces_take_the_after_players_knights():
    """§9 check 21 [L628-629]: the table fills every empty space with the Knights the card
    names for after the players (types as printed)."""
    state = _registration(to_action(SEATS3))
    state = play(state, Register("a", slot=1), Register("b", slot=2), Register("c", slot=3))
    fill = G.sample_chance(state, random.Random(2))
    assert isinstance(fill, FillBracket) and codes(state, fill) == []
    assert codes(state, dataclasses.replace(fill, knights=fill.knights[:1])) == [
        "tournament/fill-count",
        "tournament/fill-types",
    ]
    nobles = tuple(k for k in sorted(state.knight_pool)
                   if BOX.data.knights[k].type == "nobility")[:2]  # fmt: skip
    assert codes(state, FillBracket(nobles)) == ["tournament/fill-types"]
    taken = state.tournament.bracket[0][0].name
    assert codes(state, FillBracket((taken, fill.knights[1]))) == ["tournament/knight-unavailable"]


# --- 22 Tournament card [L283-284] ---------------------------------------------------------------


def test_check22_tournament_card_matches_player_count_type_and_round():
    """§9 check 22 [L283-284, L996-1000]: an unused card of the game's type for its player
    count, laid from the current round's section."""
    state = new(SEATS2)
    deal = setup_deal(state)
    assert codes(state, deal) == []
    for card in ("joust-3-a", "pas-12-a"):
        wrong = dataclasses.replace(deal, tournament=tournament_deal(state, card=card))
        assert codes(state, wrong) == ["tournament/card"]
    state = auto(to_action(), lambda s: s.phase == "tournament" and s.pending is None
                 and G.to_act(s) == ("table",))  # fmt: skip
    used = state.tournament.card
    assert codes(state, NextTournament(tournament_deal(state, 2))) == []
    again = tournament_deal(dataclasses.replace(state, used_tournaments=()), 2, card=used)
    assert codes(state, NextTournament(again)) == ["tournament/card-used"]
    round1 = tournament_deal(state, 1)  # round 1's section laid in round 2
    assert "tournament/slot-type" in codes(state, NextTournament(round1))


# --- 23 Pas d'armes Knight order [L303-307] -----------------------------------------------------


def test_check23_pas_d_armes_knights_lie_by_glory_highest_first():
    """§9 check 23 [L303-307]: in each city from the highest Glory value to the lowest."""
    state = new(SEATS2, tournament="pas-d-armes")
    deal = setup_deal(state)
    assert codes(state, deal) == []
    knights = list(deal.tournament.knights)
    paris = knights.index("|") + 1
    knights[paris], knights[paris + 1] = knights[paris + 1], knights[paris]
    glories = [BOX.data.knights[k].glory for k in knights[paris : paris + 2]]
    assert glories[0] < glories[1]
    shuffled = dataclasses.replace(deal.tournament, knights=tuple(knights))
    assert codes(state, dataclasses.replace(deal, tournament=shuffled)) == ["tournament/city-order"]


# --- 24 duel order [L984-992] -------------------------------------------------------------------


def test_check24_pas_d_armes_duels_run_florence_paris_munich_left_to_right():
    """§9 check 24 [L984-986]: Florence, then Paris, then Munich; left to right in each; a move
    for any other duel than the one being fought is refused."""
    state = to_action(options={"tournament": "pas-d-armes"})
    state = play(state, Place("a", "herald", city=2, slot=0))
    state = _registration(state)
    state = play(state, Register("a", 0, 1), Register("b", 0, 0))
    state = play(state, Register("a", 1, 1), Register("b", 2, 1))
    state = auto(state, lambda s: s.phase == "tournament")
    fought = []
    while state.phase == "tournament" and state.duel is not None:
        fought.append((state.pending.source, state.duel.names))
        other = "b" if "a" in state.duel.names else "a"
        assert codes(state, DuelStep(Decline(other))) == ["game/not-your-turn"]
        state = fight(state, [True, False, False])
    assert [w for w, _ in fought] == [
        "tournament:Florence:1",
        "tournament:Florence:2",
        "tournament:Paris:2",
        "tournament:Munich:1",
        "tournament:Munich:2",
    ]
    assert [names[0] for _, names in fought] == ["b", "a", "a", "a", "b"]


def test_check24_joust_runs_stage_by_stage_left_to_right():
    """§9 check 24 [L988-992]: stage 1 left to right (Knight against Knight on the way), then
    stage 2, then the final."""
    state = _registration(to_action())
    state = play(state, Register("a", slot=1), Register("b", slot=2))
    state = auto(state, lambda s: s.phase == "tournament" and s.duel is not None)
    while state.phase == "tournament" and state.duel is not None:
        state = fight(state, [True, True])
    where = [r.where for r in state.tournament.results]
    assert where == [f"stage 1:{k}" for k in (1, 2, 3, 4)] + ["stage 2:1", "stage 2:2", "stage 3:1"]


# --- 41 Score Track = ledger [L1150-1152, §8] ---------------------------------------------------


def test_check41_glory_is_the_sum_of_the_ledger_and_the_track_wraps_at_30():
    """§9 check 41 [§8; L162-169, L1150-1152]: every Glory change has a ledger line; the marker
    and the 30 token show the total; a table whose Glory disagrees is faulted."""
    state = auto(to_action(), lambda s: s.phase == "over", seed=5)
    for p in state.players:
        assert p.glory == sum(x.amount for x in state.ledger if x.seat == p.seat)
        tokens, space = score_track(p.glory)
        assert 30 * tokens + space == p.glory
    assert score_track(31) == (1, 1) and score_track(30) == (1, 0)
    assert position_codes(state) == []
    a = dataclasses.replace(state.player("a"), glory=state.player("a").glory + 1)
    bad = dataclasses.replace(state, players=(a, *state.players[1:]))
    assert position_codes(bad) == ["position/ledger"]


# --- 42 Titles Phase [L641-651, L1538-1627] -----------------------------------------------------


def test_check42_titles_phase_dzielny_duel_and_scores_once():
    """§9 check 42 [L641-651, L1621-1627]: a holder of Dzielny fights its duel (or gives it up)
    before scoring; each Title scores at most once. The assignment rules (one resource per card,
    inactive tokens count, Silny and Podróżnik) are in test_glory_titles.py."""
    state = to_action(titles=("dzielny", "bogaty", "slawny"))
    state = auto(state, lambda s: s.phase == "titles", seed=2)
    first = G.to_act(state)[0]
    assert codes(state, TryTitle(first, "bogaty")) == ["titles/no-duel"]
    assert codes(state, TryTitle(first, "dzielny", fight=False)) == []
    state = play(state, TryTitle(first, "dzielny", fight=False))
    assert codes(state, TryTitle(first, "dzielny")) == ["game/not-your-turn"]
    state = auto(state, lambda s: s.phase == "over")
    for seat, scored in state.titles_scored.items():
        assert len(scored) == len(set(scored))
        if seat == first:
            assert "dzielny" not in scored


# --- 43 winner and tie-break [L1024-1026] -------------------------------------------------------


def test_check43_most_glory_then_most_prestige_else_a_shared_win():
    """§9 check 43 [L1024-1026, L1861]: most Glory; tied: most Prestige tokens, active or not;
    still tied: a draw. After the end no move is taken."""
    state = auto(to_action(), lambda s: s.phase == "over", seed=3)
    rows = {r.seat: r for r in G.score(state)}
    best = max((r.total, *r.tiebreak) for r in rows.values())
    assert set(G.winners(state)) == {s for s, r in rows.items() if (r.total, *r.tiebreak) == best}
    a, b = state.players
    level = dataclasses.replace(b, glory=a.glory, prestige=a.prestige)
    tied = dataclasses.replace(state, players=(a, level))
    assert set(G.winners(tied)) == {"a", "b"}
    kind = next(k for k in PRESTIGE_KINDS if all(x.kind != k for x in a.prestige))
    inactive = Prestige(kind, active=False)  # a flipped token counts too
    more = dataclasses.replace(tied.player("b"), prestige=(*a.prestige, inactive))
    assert G.winners(dataclasses.replace(tied, players=(a, more))) == ("b",)
    assert all_codes(state, StopQuests("a")) == ["game/over"]


# --- 44 setup [L124-271] ------------------------------------------------------------------------


def test_check44_setup_deal_specials_stack_i_titles_columns_events():
    """§9 check 44 [L131-132, L219-262]: 1 Special Ally with 2 players (2 with 3-4), stack-I
    allies on the spaces for the player count, 3 public Titles, 4 cards per column, one Event
    of each round's set."""
    state = new(SEATS2)
    deal = setup_deal(state)
    assert codes(state, deal) == []
    two_specials = (*track_for(3)[:2], *deal.track[2:])
    assert codes(state, dataclasses.replace(deal, track=two_specials)) == ["setup/track-blocked"]
    three_player_row = (*deal.track[:7], "kuchmistrz", None)
    assert codes(state, dataclasses.replace(deal, track=three_player_row)) == [
        "setup/track-blocked"
    ]
    special_as_i = (deal.track[0], "dama", *deal.track[2:])
    assert "setup/track-blocked" in codes(state, dataclasses.replace(deal, track=special_as_i))
    assert codes(state, dataclasses.replace(deal, titles=deal.titles[:2])) == ["setup/titles"]
    short = {**deal.columns, "market": deal.columns["market"][:3]}
    assert codes(state, dataclasses.replace(deal, columns=short)) == ["setup/column"]
    events = ("krolewskie-wesele", "urodzaj", "krucjata")
    assert codes(state, dataclasses.replace(deal, events=events)) == ["setup/event-round"]
    assert codes(new(SEATS3), setup_deal(new(SEATS3))) == []


def test_check44_compensation_no_income_and_strength_for_returned_quests():
    """§9 check 44 [L151-169, L249-251]: the 2nd player gets +1 Glory and 1 Challenge card,
    the 3rd +2 and 2; resources are the Character's (no income at setup); a returned starting
    Quest card gives 1 Strength."""
    state = new(SEATS3)
    state = play(state, setup_deal(state, order=("b", "c", "a")))
    state = play(state, *(ChooseCharacter(s, "rycerz") for s in SEATS3))
    card = BOX.characters["rycerz"]
    assert [(p.glory, p.coins, p.strength) for p in state.players] == [
        (card.glory + 2, card.coins, card.strength),
        (card.glory + 0, card.coins, card.strength),
        (card.glory + 1, card.coins, card.strength),
    ]
    hands = deal_hands(state)
    assert codes(state, hands) == []
    decks = {s: [BOX.quests[c].deck for c in hands.quests[s]] for s in SEATS3}
    assert (decks["b"].count("challenge"), decks["c"].count("challenge")) == (0, 1)
    assert decks["a"].count("challenge") == 2
    short = DealHands(hands.titles, {**hands.quests, "a": hands.quests["a"][:-1]}, hands.allies)
    assert codes(state, short) == ["setup/quest-draw"]
    state = play(state, hands)
    b = state.player("b")
    back = b.hand[:1]
    keep = KeepCards("b", b.offered[:1], back)
    assert codes(state, keep) == []
    assert codes(state, KeepCards("b", b.offered[:2], back)) == ["setup/keep-goals"]
    assert codes(state, KeepCards("b", b.offered[:1], b.hand * 2)) == ["setup/return-quests"]
    state = play(state, keep)
    assert state.player("b").strength == card.strength + 1
    assert back[0] in state.quest_decks[BOX.quests[back[0]].deck]
    state = keep_all(state)
    assert state.phase == "action"


# --- 45 Event effects at the start of the Action Phase [L373-381, L1301-1357] -----------------


@pytest.mark.parametrize(
    ("event", "what", "change"),
    [
        ("urodzaj", "coins", +2),
        ("krolewskie-wesele", "strength", +2),
    ],
)
def test_check45_round_one_events_apply_to_everyone_at_the_start(event, what, change):
    """§9 check 45 [L373-381; Urodzaj L377-379, Królewskie wesele]: an Event without a field
    applies to every player at the start of the Action Phase."""
    state = to_action(events=(event, "sojusz-b", "krucjata"))
    card = BOX.characters["rycerz"]
    assert [getattr(p, what) for p in state.players] == [getattr(card, what) + change] * 2
    assert codes(state, Place("a", "event")) == ["action/no-event-field"]


def test_check45_wojna_takes_two_coins_never_below_zero():
    """§9 check 45 [Wojna L1330-1332]: every player loses 2 Coins (one with only 1 loses it);
    a table with negative Coins is faulted."""
    state = to_action(events=("krolewskie-wesele", "wojna", "krucjata"))
    state = place_all(state, "solo-training")
    state = stop_quests(state)
    state = auto(state, lambda s: s.round == 2)
    coins = [p.coins for p in state.players]
    assert state.event == "wojna"
    assert all(c >= 0 for c in coins)
    a = dataclasses.replace(state.player("a"), coins=-1)
    bad = dataclasses.replace(state, players=(a, *state.players[1:]))
    assert position_codes(bad) == ["position/negative"]
