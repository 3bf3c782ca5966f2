"""Solo play against SIR (rules/glory.md Appendix A, seed 001 L1163-1287), on the stand-in data.

Whole games run through ``engine.selfplay.play`` with a seeded ``random.Random``; the card
resolution, SIR's placements, its duels and the scenario winners are checked on positions
reached through the real setup and then arranged with ``evolve``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import data as gamedata
from engine import rules
from engine.evolve import evolve
from engine.game import TABLE
from engine.games.glory import GAME, duel, solo, turn
from engine.games.glory import tournament as tour
from engine.games.glory.duel_state import Decline, Die, Duellist, Knight, Roll
from engine.games.glory.state import (
    DrawCards,
    Entrant,
    GloryState,
    KnightSlot,
    Placement,
    SetupDeal,
    SoloDraw,
    Tournament,
)
from engine.selfplay import play
from engine.violations import InputError, RuleViolation

STAND_IN = gamedata.load(GAME, {"data": "stand-in"})
assert STAND_IN is not None
DATA = STAND_IN.value.data
HUMAN = "ann"
SIR = solo.SIR_SEAT
SIR_KNIGHT = "Zawisza Czarny"
"""Stand-in Attack 9, Prestige 2 (invented values)."""


def new(scenario: str = "rywal", tournament: str = "joust", **options: Any) -> GloryState:
    opts = {"data": "stand-in", "solo": scenario, "tournament": tournament, **options}
    return gamedata.setup(GAME, (HUMAN,), opts, STAND_IN)


def at_sir_turn(scenario: str = "rywal", tournament: str = "joust", **options: Any) -> GloryState:
    """Round 1, SIR's first pawn (the player placed one), the board then cleared of pawns."""
    state = new(scenario, tournament, **options)
    rng = random.Random(3)
    while solo.sir_to_act(state) is None:
        move = GAME.sample_chance(state, rng) or GAME.legal_moves(state)[0]
        state = rules.apply(GAME, state, move)
    return evolve(state, placements=())


def draw(state: GloryState, card: str) -> GloryState:
    return rules.apply(GAME, state, SoloDraw(card))  # type: ignore[no-any-return]


def sir_holds_nothing(state: GloryState) -> bool:
    p = state.player(SIR)
    return not (p.coins or p.strength or p.faith or p.allies or p.relics or p.prestige
                or p.hand or p.played)  # fmt: skip


def last_sir_field(state: GloryState) -> str:
    return [x.field for x in state.placements if x.seat == SIR][-1]


# --- whole games -----------------------------------------------------------------------------

GAMES = [
    ("wojownik", "joust", None, "easy"),
    ("wojownik", "joust", "wojownik", "hard"),
    ("samotnik", "joust", "maz-bozy", "medium"),
    ("samotnik", "pas-d-armes", None, "hard"),
    ("rywal", "joust", None, "easy"),
    ("rywal", "pas-d-armes", "wojownik", "medium"),
]


@pytest.mark.parametrize(("scenario", "tournament", "personality", "level"), GAMES)
@pytest.mark.parametrize("seed", [0, 1])
def test_each_scenario_plays_to_the_end(
    scenario: str, tournament: str, personality: str | None, level: str, seed: int
) -> None:
    """Set up as for 2 players, the player first [L1189-1191]; SIR draws a solo card for every
    pawn [L1203-1206], never collects anything [L1208-1211], registers only in Rywal
    [L1271-1272]; the game ends with the scenario's winner [L1169-1178]."""
    options = {"data": "stand-in", "solo": scenario, "tournament": tournament,
               "personality": personality, "difficulty": level}  # fmt: skip
    seen: dict[str, Any] = {"collects": [], "sir_duels": 0, "draws": 0}

    def watch(session: Any, event: Any) -> None:
        st = session.state
        if not sir_holds_nothing(st):
            seen["collects"].append(event.move)
        if isinstance(event.move, SoloDraw):
            seen["draws"] += 1
        t = st.tournament
        if t is not None and any(SIR in (r.left, r.right) for r in t.results):
            seen["sir_duels"] += 1

    result = play(GAME, (HUMAN,), random.Random(seed), options, check_positions=True,
                  on_event=watch)  # fmt: skip
    state = result.session.state
    assert result.errors == []
    assert state.phase == "over"
    assert seen["collects"] == []
    assert seen["draws"] >= 15  # 6 pawns a round (5 with Pospolite ruszenie), 3 rounds
    assert (seen["sir_duels"] > 0) == (scenario == "rywal")
    assert GAME.winners(state) == solo.solo_winners(state)
    sir = state.player(SIR)
    if scenario == "rywal":
        assert sir.glory >= solo.SIR_START_GLORY and state.titles_scored.get(SIR)
        assert GAME.winners(state) == ((HUMAN,) if state.player(HUMAN).glory > sir.glory else ())
    else:
        assert sir.glory == 0 and SIR not in state.titles_scored
    if tournament == "joust":
        assert len(state.champions) == 3


# --- setup -----------------------------------------------------------------------------------


def test_setup_deal_puts_the_player_first_and_deals_sir_no_character() -> None:
    """Seed: "przygotuj grę jak dla dwóch graczy, z tobą jako pierwszym graczem" [L1189]; SIR "nie
    otrzymuje karty Postaci" [L1191]."""
    state = new()
    deal = turn.sample_chance(state, random.Random(0))
    assert isinstance(deal, SetupDeal) and deal.order == (HUMAN, SIR) and deal.offers[SIR] == ()
    swapped = evolve(deal, order=(SIR, HUMAN))
    assert [v.code for v in GAME.check(state, swapped)] == ["solo/player-first"]
    offered = evolve(deal, offers={**deal.offers, SIR: deal.offers[HUMAN]})
    assert "solo/sir-no-character" in [v.code for v in GAME.check(state, offered)]


@pytest.mark.parametrize("scenario", ["rywal", "samotnik"])
def test_rival_sir_starts_at_10_glory_with_one_hidden_goal(scenario: str) -> None:
    """Rywal: SIR gets a Glory marker, one Title as a hidden Personal Goal and starts at 10
    Glory [L1190-1191]; in the other scenarios it has neither."""
    state = at_sir_turn(scenario)
    sir = state.player(SIR)
    if scenario == "rywal":
        assert sir.glory == 10 and len(sir.goals) == 1
        assert [x.code for x in state.ledger if x.seat == SIR] == ["ledger/sir-start"]
    else:
        assert sir.glory == 0 and sir.goals == ()
    assert sir.character == "" and sir.pawns == 6 and sir_holds_nothing(state)
    assert state.solo_deck == tuple(sorted(f"solo-{i}" for i in range(1, 10)))


@pytest.mark.parametrize(("level", "horse", "armour"), [("medium", 1, None), ("hard", 1, 1)])
def test_wojownik_difficulty_lowers_the_players_equipment(
    level: str, horse: int, armour: int | None
) -> None:
    """Wojownik: medium "zacznij z Wierzchowcem Poziomu I", hard also "Zbroją Poziomu I"
    [L1170-1174]."""
    easy = at_sir_turn("wojownik", difficulty="easy").player(HUMAN)
    hard = at_sir_turn("wojownik", difficulty=level).player(HUMAN)
    assert hard.horse == horse
    assert hard.armour == (armour if armour is not None else easy.armour)


def test_the_personality_adds_two_cards_to_the_deck() -> None:
    """9 basic solo cards, or 11 with 2 personality cards [L1193-1194]."""
    state = at_sir_turn("samotnik", personality="maz-bozy")
    assert len(state.solo_deck) == 11 and "maz-bozy-1" in state.solo_deck


def test_rival_without_sir_values_is_refused_naming_them() -> None:
    """SIR's Attack and Prestige by difficulty are unreadable in the seed ("(8 I *!0 13",
    L1182-1186): the box data lack them, so a Rywal game names what it misses."""
    with pytest.raises(RuleViolation) as exc:
        gamedata.setup(GAME, (HUMAN,), {"data": "box", "solo": "rywal", "tournament": "joust"})
    missing = [v.params["what"] for v in exc.value.violations]
    assert "rival.easy" in missing
    with pytest.raises(InputError):
        new(sir_knight="Sir Nobody")


def test_sir_fights_with_the_chosen_knight_or_the_difficulty_values() -> None:
    """Seed: "Weź odpowiedniego Rycerza ze stosu i połóż go na Planszy Gracza przeciwnika"
    [L1186-1187]: the named Knight's values, its token out of the Tournaments; else the data's
    rival values."""
    chosen = new(sir_knight=SIR_KNIGHT)
    k = DATA.knights[SIR_KNIGHT]
    assert tour.sir_stats(chosen) == (k.attack, k.prestige)
    assert SIR_KNIGHT not in chosen.knight_pool
    hard = new(difficulty="hard")
    assert tour.sir_stats(hard) == (DATA.rival["hard"].attack, DATA.rival["hard"].prestige)
    assert SIR_KNIGHT in hard.knight_pool


# --- the Action Phase: SIR's solo cards --------------------------------------------------------


def test_the_table_draws_sirs_card_on_its_turn() -> None:
    """Seed: "Za każdym razem, gdy SIR powinien podjąć akcję, weź kartę z talii Solo"
    [L1203-1204]."""
    state = at_sir_turn()
    assert GAME.to_act(state) == (TABLE,)
    move = GAME.sample_chance(state, random.Random(0))
    assert isinstance(move, SoloDraw) and move.card in state.solo_deck
    assert GAME.legal_moves(state) == []


def test_action_one_is_done_in_full() -> None:
    """Action I when it can be done in full [L1204]: Quest Plans removes all 4 face-up cards
    of the card's type [L1229-1232]; SIR takes none of them."""
    state = at_sir_turn()
    market = state.columns["market"]
    assert len(market) == 4
    after = draw(state, "solo-3")  # Quest Plans (market), Prayer, Guard
    assert after.columns["market"] == () and after.columns["romance"] == state.columns["romance"]
    assert last_sir_field(after) == "quest-plans"
    assert after.player(SIR).pawns == state.player(SIR).pawns - 1
    assert after.player(SIR).hand == () and after.quest_decks == state.quest_decks
    assert after.solo_deck == tuple(c for c in state.solo_deck if c != "solo-3")
    assert GAME.to_act(after) == (HUMAN,)


def test_fallback_to_action_two_then_three() -> None:
    """Seed: "Jeśli nie - wybierz Akcję II. Jeśli również nie jest to możliwe, wybierz Akcję III"
    [L1204-1205]; fewer than 4 face-up cards of the type: the next action [L1231-1232]."""
    state = at_sir_turn()
    state = evolve(state, columns={**state.columns, "market": state.columns["market"][:3]})
    second = draw(state, "solo-3")
    assert last_sir_field(second) == "prayer" and second.player(SIR).faith == 0
    taken = evolve(state, placements=(Placement("prayer", HUMAN),))
    third = draw(taken, "solo-3")
    assert last_sir_field(third) == "guard" and third.player(SIR).coins == 0
    assert third.columns["market"] == state.columns["market"]


def test_no_action_possible_draws_again() -> None:
    """Seed: "Jeśli i to nie jest możliwe, dobierz kolejną kartę" [L1205]: nothing changes but the
    deck, and the table is asked for another card."""
    state = at_sir_turn()
    busy = (Placement("training", HUMAN), Placement("service", HUMAN))
    state = evolve(state, columns={**state.columns, "challenge": ()}, placements=busy)
    again = draw(state, "solo-4")  # Quest Plans (challenge), Training, Service
    assert again.player(SIR).pawns == state.player(SIR).pawns
    assert again.placements == state.placements and "solo-4" not in again.solo_deck
    assert GAME.to_act(again) == (TABLE,) and solo.sir_to_act(again) == SIR
    assert [v.code for v in GAME.check(again, SoloDraw("solo-4"))] == ["solo/not-in-deck"]
    done = draw(again, "solo-8")  # Allies
    assert last_sir_field(done) == "allies"


def test_an_empty_deck_is_shuffled_again() -> None:
    """Seed: "Jeśli talia Solo jest pusta, przetasuj karty" [L1205], and every Action Phase starts
    with all cards [L1203]."""
    state = evolve(at_sir_turn(), solo_deck=())
    after = draw(state, "solo-9")
    assert len(after.solo_deck) == 8 and "solo-9" not in after.solo_deck


def test_ally_discards_the_leftmost_ignoring_the_two_coin_space() -> None:
    """Ally: "odrzuca 1 Sojusznika z Toru Sojuszników, ignorując tego o koszcie 2 Monet.
    Najpierw szuka Sojusznika pierwszego z lewej" [L1216-1217]; Rywal: a Minstrel scores its
    Glory [L1221]. Stand-in track: Special, (covered), 2 Coins, 1, 1, 0, 0."""
    state = at_sir_turn()
    assert DATA.ally_track[2].cost == 2
    track = list(state.ally_track)
    track[2], track[3], track[4] = "drab", "minstrel", "giermek"
    state = evolve(state, ally_track=tuple(track))
    after = draw(state, "solo-8")  # Allies, Prayer, Solo Training
    assert after.ally_track[2] == "drab" and after.ally_track[3] is None
    assert after.ally_track[4] == "giermek" and after.player(SIR).allies == ()
    assert after.player(SIR).glory == state.player(SIR).glory + 4
    assert after.ledger[-1].code == "ledger/sir-ally"
    samotnik = evolve(state, options={**state.options, "solo": "samotnik"})
    assert draw(samotnik, "solo-8").player(SIR).glory == samotnik.player(SIR).glory


def test_special_ally_is_discarded_and_scores_glory_it_would_give() -> None:
    """Seed: "Specjalny Sojusznik: SIR odrzuca Specjalnego Sojusznika. Rywal: SIR zdobywa punkty
    Chwały, jeśli Specjalny Sojusznik je przynosił" [L1223-1224]."""
    state = at_sir_turn()
    track = list(state.ally_track)
    track[0] = "dama"
    state = evolve(state, ally_track=tuple(track))
    after = draw(state, "solo-1")  # Special Ally, Training, Guard
    assert after.ally_track[0] is None and after.ally_track[3:] == state.ally_track[3:]
    assert after.player(SIR).glory == state.player(SIR).glory + 5
    plain = evolve(state, ally_track=(None, *state.ally_track[1:]))
    assert last_sir_field(draw(plain, "solo-1")) == "training"


def test_new_goal_discards_two_titles_and_keeps_the_next() -> None:
    """Seed: "SIR odrzuca ze stosu Tytułów 2 karty na stos kart odrzuconych, następnie bierze
    kolejną jako Cel Osobisty" [L1234-1235]: the table reveals three Titles, the last is SIR's."""
    state = at_sir_turn()
    after = draw(state, "solo-6")  # New Goal, Service, Training
    assert after.pending is not None and after.pending.kind == "draw-titles"
    assert (after.pending.seat, after.pending.count) == (SIR, 3)
    assert GAME.to_act(after) == (TABLE,)
    three = tuple(sorted(after.title_deck)[:3])
    kept = rules.apply(GAME, after, DrawCards(SIR, three))
    assert kept.pending is None
    assert kept.player(SIR).goals == (*state.player(SIR).goals, three[2])
    assert sorted(kept.title_discard) == sorted((*state.title_discard, *three[:2]))
    assert GAME.to_act(kept) == (HUMAN,)


def test_event_field_is_occupied_and_its_glory_scored_in_rival() -> None:
    """Seed: "Jeśli Pole Akcji na karcie Wydarzenia jest dostępne, SIR je zajmuje. Rywal: SIR
    zdobywa punkty Chwały, jeśli Wydarzenie takie przynosi" [L1237-1238] (stand-in Krucjata: 3
    Glory)."""
    state = at_sir_turn()
    state = evolve(state, events=("krucjata", *state.events[1:]))
    after = draw(state, "solo-5")  # Event, Marketplace, Prayer
    assert last_sir_field(after) == "event" and after.player(SIR).glory == 13
    assert after.player(SIR).faith == 0 and after.player(SIR).coins == 0
    assert [v.code for v in GAME.check(after, SoloDraw("solo-5"))] == ["game/not-your-turn"]
    no_field = evolve(state, events=("urodzaj", *state.events[1:]))
    assert last_sir_field(draw(no_field, "solo-5")) == "marketplace"


def test_herald_is_skipped_unless_rival() -> None:
    """Seed: "Herold - przejdź do następnej akcji, chyba, że grasz scenariusz Rywal" [L1240]."""
    state = at_sir_turn("samotnik")
    after = draw(state, "solo-7")  # Herald, Allies, Guard
    assert last_sir_field(after) == "allies"
    t = after.tournament
    assert t is not None and tour.crests(t, SIR) == 0
    rival = draw(at_sir_turn("rywal"), "solo-7")
    t = rival.tournament
    assert last_sir_field(rival) == "herald" and t is not None and tour.crests(t, SIR) == 1
    assert rival.player(SIR).herald_uses == 1


# --- SIR's Herald and Registration placements (Rival) ----------------------------------------


def _joust(state: GloryState, row: list[str | None]) -> GloryState:
    entrants = tuple(None if n is None else Entrant(n, n in (HUMAN, SIR)) for n in row)
    t = Tournament(type="joust", card="joust-12-a", bracket=(entrants,))
    return evolve(state, tournament=t)


def test_joust_placement_rules() -> None:
    """Joust [L1246-1253]: not beside a Knight that would beat SIR (else not beside you); not
    where a Knight coming out of the first duels would beat it (else not where it could meet you
    in stage 2); the most Glory on the way to the final; the rightmost. SIR is Zawisza Czarny
    (Attack 9, Prestige 2): Henry V (11) beats it; Wolfert (Glory 4), Hans (5), Powała (6),
    David Mathew (3) do not."""
    state = at_sir_turn(sir_knight=SIR_KNIGHT)
    hv, wo, ha, po, dm = ("Henry V", "Wolfert VI van Borselen", "Hans von Trotha",
                          "Powała z Taczewa", "David Mathew")  # fmt: skip
    assert solo.knight_beats_sir(state, hv) and not solo.knight_beats_sir(state, po)
    # rule 1 and 2: slot 0 beside Henry, slot 2 meets Henry in stage 2; the rest: rightmost
    assert solo.joust_slot(_joust(state, [None, hv, None, wo, None, None, None, None]), SIR) == 7
    # rule 3: the most Glory on the way (Wolfert 4 + Powała 6) beats the rightmost
    row3 = [wo, None, ha, po, dm, None, None, None]
    assert solo.joust_slot(_joust(state, row3), SIR) == 1
    # the player: not where SIR could meet them in stage 2, though Wolfert would give Glory
    row4 = [None, None, None, None, None, None, wo, HUMAN]
    assert solo.joust_slot(_joust(state, row4), SIR) == 3


def test_pas_d_armes_best_beatable_knight() -> None:
    """Pas d'armes [L1255-1257]: the best Knight (most Glory) SIR can beat, by Herald in a city
    where you have not challenged yet; in Registration, in a city where SIR is not yet."""
    state = at_sir_turn("rywal", "pas-d-armes", sir_knight=SIR_KNIGHT, sir_duel="attack")
    cities = (
        (KnightSlot("Henry V", HUMAN), KnightSlot("Powała z Taczewa")),
        (KnightSlot("Jan Žižka z Trocnova"), KnightSlot("Hans von Trotha")),
        (KnightSlot("John Fastolf"), KnightSlot("Dietrich von Kottulin")),
    )
    state = evolve(state, tournament=Tournament(type="pas-d-armes", card="pas-12-a",
                                                cities=cities))  # fmt: skip
    assert solo.pas_knight(state, SIR, herald=False) == (0, 1)  # Powała, 6, first on the board
    assert solo.pas_knight(state, SIR, herald=True) == (2, 0)  # not Florence: you are there


def test_sir_registers_by_itself() -> None:
    """Registration: "SIR zgłasza się do Turnieju jedynie w scenariuszu Rywal i kieruje się
    zasadami z akcji Herold" [L1271-1272]; nobody is asked to act for SIR."""
    rng = random.Random(5)
    state = new(sir_knight=SIR_KNIGHT)
    while state.phase != "tournament":
        assert SIR not in GAME.to_act(state)
        move = GAME.sample_chance(state, rng) or GAME.legal_moves(state)[0]
        state = rules.apply(GAME, state, move)
    t = state.tournament
    assert t is not None and tour.crests(t, SIR) == 1


# --- the Tournament: SIR duels as a Knight ---------------------------------------------------


def _pass(state: Any, dice: tuple[Die, ...]) -> Any:
    """One pass in which the player only rolls (tent step first in pass 1)."""
    if state.step == "tent":
        state = duel.apply(state, Decline(HUMAN))
    state = duel.apply(state, Decline(HUMAN))  # no Strength
    state = duel.apply(state, Roll(HUMAN, dice))
    while state.step in ("faith", "lance1", "lance2", "relic"):
        state = duel.apply(state, Decline(HUMAN))
    return state


@pytest.mark.parametrize("sir_first", [False, True])
def test_rival_sir_duels_as_a_knight_full_tie_to_the_first_on_initiative(sir_first: bool) -> None:
    """Seed: "rozstrzyga Pojedynki jak Rycerz, używając wartości Rycerza wybranego przed rozgrywką.
    Wyjątkiem jest wartość Chwały - tę ma taką, jakby był graczem (7 lub 9). W walce z graczem,
    przy remisie wartości Ataku i Prestiżu, zwycięzcą Najazdu zostaje ten, kto jest pierwszy na
    Torze Inicjatywy" [L1278-1281] (§5.5 SIR branch): not the Knight rule, where a player wins
    every full tie [L914-917]."""
    state = at_sir_turn(sir_knight=SIR_KNIGHT)
    if sir_first:
        state = evolve(state, order=(SIR, HUMAN))
    p = evolve(state.player(HUMAN), prestige=(), horse=2, armour=2, glory=20)
    state = evolve(state, players=(p, evolve(state.player(SIR), glory=25)))
    human_side, sir_side = tour.duellist(state, HUMAN), tour.duellist(state, SIR)
    assert isinstance(human_side, Duellist) and isinstance(sir_side, Knight)
    assert (sir_side.type, sir_side.attack, sir_side.prestige) == ("sir", 9, 2)
    assert sir_side.initiative == (1 if sir_first else 2)
    # level with what 2 Horse and 2 Armour dice can reach, no Prestige on either side
    sir_side = evolve(sir_side, attack=7, prestige=0)
    d = duel.start("joust", (human_side, sir_side), DATA.dice)
    tie = (Die("horse", 4), Die("horse", 0), Die("armour", 3), Die("armour", 2))
    d = _pass(_pass(d, tie), tie)
    first = SIR if sir_first else HUMAN
    assert [(x.winner, x.reason) for x in d.passes] == [(first, "initiative")] * 2
    assert d.winner == first
    # worth 7, or 9 for the side with more Glory: SIR (25) is worth 9 to the player (20)
    award = next(a for a in d.awards if a.side == first)
    assert award.line.amount == (7 if sir_first else 9)


def test_sir_against_a_knight_needs_no_dice() -> None:
    """With ``sir_duel`` 'attack' (GL-50's earlier reading) SIR against a Knight: higher Attack,
    then Prestige; a full tie goes to the Knight. SIR gains the Knight's Glory."""
    sir = Knight(SIR, "sir", 9, 2, 20)
    assert duel.sir_vs_knight(sir, Knight("a", "nobility", 8, 3, 5)) == (SIR, "attack")
    assert duel.sir_vs_knight(sir, Knight("b", "king", 9, 3, 7)) == ("b", "prestige")
    assert duel.sir_vs_knight(sir, Knight("c", "king", 9, 2, 7)) == ("c", "knight")
    state = at_sir_turn("rywal", "pas-d-armes", sir_knight=SIR_KNIGHT, sir_duel="attack")
    cities = ((KnightSlot("Powała z Taczewa", SIR),), (KnightSlot("Henry V", SIR),), ())
    t = Tournament(type="pas-d-armes", card="pas-12-a", cities=cities)
    state = evolve(state, tournament=t, phase="tournament")
    state = tour.start_next_duel(tour.start_next_duel(state))
    assert state.duel is None
    t2 = state.tournament
    assert t2 is not None and [r.winner for r in t2.results] == [SIR, "Henry V"]
    assert state.player(SIR).glory == 10 + DATA.knights["Powała z Taczewa"].glory  # type: ignore[operator]
    last = state.ledger[-1]
    assert (last.seat, last.code, last.params) == (
        SIR,
        "ledger/duel-won",
        {"opponent": "Powała z Taczewa"},
    )


# --- winners -----------------------------------------------------------------------------------


def _over(state: GloryState, human_glory: int, sir_glory: int = 10, **changes: Any) -> GloryState:
    players = (evolve(state.player(HUMAN), glory=human_glory),
               evolve(state.player(SIR), glory=sir_glory))  # fmt: skip
    return evolve(state, players=players, phase="over", **changes)


def test_scenario_winners() -> None:
    """Wojownik: "Wygraj wszystkie 3 Turnieje, punkty Chwały nie mają znaczenia" [L1169];
    Samotnik: 65/75/85 Glory [L1176]; Rywal: "Zdobądź więcej punktów Chwały niż SIR" [L1178] —
    a tie is not more, so the player does not win."""
    w = at_sir_turn("wojownik")
    assert GAME.winners(_over(w, 0, champions=(HUMAN, HUMAN, HUMAN))) == (HUMAN,)
    assert GAME.winners(_over(w, 99, champions=(HUMAN, "Henry V", HUMAN))) == ()
    s = at_sir_turn("samotnik", difficulty="medium")
    assert GAME.winners(_over(s, 75)) == (HUMAN,)
    assert GAME.winners(_over(s, 74)) == ()
    r = at_sir_turn("rywal")
    assert GAME.winners(_over(r, 41, 40)) == (HUMAN,)
    assert GAME.winners(_over(r, 40, 40)) == ()
    assert GAME.winners(_over(r, 39, 40)) == ()


def test_sir_against_a_knight_fights_as_two_knights_do() -> None:
    """GL-50 [L1278, L975-978, L969-972]: SIR "rozstrzyga Pojedynki jak Rycerz" with the chosen
    Knight's values except Glory, which is a player's (7, or 9 with more Glory than the
    opponent): the higher Glory value wins, then Prestige, then the left-hand side."""
    sir = Knight(SIR, "sir", 9, 2, 20)  # 20 Glory: worth 9 against a Knight worth less
    assert duel.sir_as_knight(sir, Knight("a", "nobility", 12, 3, 8)) == (SIR, "glory")
    assert duel.sir_as_knight(sir, Knight("b", "king", 1, 3, 9)) == ("b", "prestige")
    low = Knight(SIR, "sir", 9, 3, 5)  # 5 Glory: worth 7
    assert duel.sir_as_knight(low, Knight("c", "king", 1, 3, 7), sir_left=True) == (SIR, "left")
    assert duel.sir_as_knight(low, Knight("c", "king", 1, 3, 7)) == ("c", "left")
