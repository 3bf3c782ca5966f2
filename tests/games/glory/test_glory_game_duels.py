"""Referee checks 25-40 of the Glory digest, §9 (duels, rules/glory.md §5, seed 001), in a game.

The duel engine's own tests (test_glory_duel_rules.py, test_glory_example.py,
test_glory_properties.py) check each rule on a bare ``DuelState``; here every check is made again
where a game fights its duels: a Challenge card in the Quest Phase or a Tournament duel, each
decision and roll a ``DuelStep`` through ``GAME.check``. The dice (D) and tokens on the Player
Board (C) of the table become ``Roll``/``Reroll``/``UseAlly``… moves, so checking the move is
checking the observation.
"""

from __future__ import annotations

import dataclasses

from glory_game_builders import (
    BOX,
    HIGH,
    LOW,
    SEATS3,
    G,
    auto,
    codes,
    fight,
    place_all,
    play,
    position_codes,
    roll_for,
    stop_quests,
    to_action,
)

from engine.games.glory import duel
from engine.games.glory.duel_state import (
    CommitStrength,
    Decline,
    Die,
    Recover,
    Reroll,
    Roll,
    UseAlly,
    UseFaith,
    UseRelic,
)
from engine.games.glory.state import (
    DuelStep,
    GloryState,
    Place,
    PlayQuest,
    Register,
    StopQuests,
)

TRACK = ("biskup", None, "weteran", "drab", "mniszka", "giermek", "fechmistrz", None, None)
"""Space 3 Drab (1 Coin), 4 Mniszka (1), 5 Giermek and 6 Fechmistrz (free)."""


def challenge(card: str = "rozbojnik", relics: bool = True) -> GloryState:
    """b's Challenge duel in round 1's Quest Phase, at the tent step. b took Prayer (+3 Faith)
    and Drab, Mniszka, Giermek, Fechmistrz, then (``relics``) played Pamiątka (Pierścień) and
    Paternoster: Strength 4, Faith 4, Horse and Armour Level II. Rozbójnik: Attack 6, Prestige
    0. Without ``relics`` the Challenge is b's first card, so the phase goes on after it."""
    state = to_action(track=TRACK, hands={"b": ("pamiatka", "paternoster", card)})
    b_fields = [("prayer", None), ("allies", 3), ("allies", 4), ("allies", 5), ("allies", 6)]
    for field, space in b_fields:
        state = play(state, Place("a", "guard"), Place("b", field, space=space))
    state = place_all(state)
    state = play(state, StopQuests("a"))
    if relics:
        state = play(state, PlayQuest("b", "pamiatka"), PlayQuest("b", "paternoster"))
    state = play(state, PlayQuest("b", card))
    assert state.duel is not None and state.duel.step == "tent"
    return state


def step(state: GloryState, *moves: object) -> GloryState:
    return play(state, *(DuelStep(m) for m in moves))  # type: ignore[arg-type]


def c(state: GloryState, move: object) -> list[str]:
    return codes(state, DuelStep(move))  # type: ignore[arg-type]


def dice(**faces: tuple[int | str, ...]) -> tuple[Die, ...]:
    return tuple(Die(t, f) for t, fs in faces.items() for f in fs)  # type: ignore[arg-type]


# --- 25 Strength commitment [L799-807, L1816-1818] ----------------------------------------------


def test_check25_strength_at_most_four_a_duel_never_taken_back():
    """§9 check 25 [L799-807, L1766, L1816-1818]: at most 4 tokens in a duel, more may be added
    in a later pass; red dice = min(committed, 3)."""
    state = step(challenge(), Decline("b"))
    assert state.duel.step == "strength"
    assert c(state, CommitStrength("b", 5)) == ["strength/over-four", "strength/not-enough"]
    assert c(state, CommitStrength("b", 3)) == []
    state = step(state, CommitStrength("b", 3))
    assert c(state, Roll("b", dice(strength=(1, 1, 1, 1), horse=(0, 0), armour=(0, 0)))) == [
        "roll/wrong-count"
    ]
    state = step(state, Roll("b", dice(strength=(1, 1, 1), horse=(0, 0), armour=(0, 0))))
    while state.duel.step != "strength":
        state = step(state, Decline("b"))
    assert "strength/over-four" in c(state, CommitStrength("b", 2))
    assert c(state, CommitStrength("b", 1)) == []
    assert state.duel.boards[0].committed == 3 and state.duel.sides[0].strength == 1


# --- 26 dice count [L739-762, L779-781] ---------------------------------------------------------


def test_check26_the_dice_rolled_are_the_pool():
    """§9 check 26 [L739-762]: black = Horse level, white = Armour level (capped at 3), red per
    check 25; one die more or less is refused. A Veteran's removed die: test_glory_duel_rules
    test_52_veteran_removes_dice, and Francesco Sforza below."""
    state = step(challenge(), Decline("b"), Decline("b"))
    assert duel.pool(state.duel, 0) == {"horse": 2, "armour": 2}
    assert c(state, Roll("b", dice(horse=(1, 2), armour=(1, 2)))) == []
    assert c(state, Roll("b", dice(horse=(1,), armour=(1, 2)))) == ["roll/wrong-count"]
    extra = Roll("b", dice(strength=(3,), horse=(1, 2), armour=(1, 2)))
    assert c(state, extra) == ["roll/wrong-count"]


def test_check26_a_veteran_takes_a_die_away():
    """§9 check 26 [L724-726, L779-781]: Francesco Sforza (a stand-in Veteran removing a Horse
    die) leaves a Level II Horse one black die."""
    state = to_action(options={"tournament": "pas-d-armes"})
    munich = [s.knight for s in state.tournament.cities[2]]
    slot = munich.index("Francesco Sforza")
    assert BOX.data.knights["Francesco Sforza"].removes == ("horse",)
    state = play(state, Place("a", "herald", city=2, slot=slot))
    state = auto(state, lambda s: s.duel is not None and "Francesco Sforza" in s.duel.names)
    state = step(state, Decline("a"), Decline("a"))
    assert duel.pool(state.duel, 0) == {"horse": 1, "armour": 2}
    assert c(state, Roll("a", dice(horse=(4, 4), armour=(3, 3)))) == ["roll/wrong-count"]
    assert c(state, Roll("a", dice(horse=(4,), armour=(3, 3)))) == []


# --- 27 Special Symbol [L749-762, L1827-1828] ---------------------------------------------------


def test_check27_the_special_symbol_counts_its_maximum_only_when_active():
    """§9 check 27 [L749-762, L1827-1828]: with 3 Strength committed a red Special counts 1; at
    4 it counts 5. A face outside the die's range is refused."""
    state = step(challenge(), Decline("b"), CommitStrength("b", 3))
    bad = Roll("b", dice(strength=(6, 1, 1), horse=(0, 0), armour=(0, 0)))
    assert c(state, bad) == ["die/out-of-range"]
    state = step(state, Roll("b", dice(strength=("special", 1, 1), horse=(0, 0), armour=(0, 0))))
    assert duel.attack(state.duel, 0) == 1
    while state.duel.step != "strength":
        state = step(state, Decline("b"))
    state = step(state, CommitStrength("b", 1))
    state = step(state, Roll("b", dice(strength=("special", 1, 1), horse=(0, 0), armour=(0, 0))))
    assert duel.attack(state.duel, 0) == 5


# --- 28 Faith reroll [L813-815, L842-846, L1768-1770] -------------------------------------------


def test_check28_one_faith_a_pass_up_to_two_dice_plus_one_per_mniszka():
    """§9 check 28 [L813-815, L842-846]: b holds one Mniszka: up to 3 dice, each once, in one
    reroll the table reports for exactly those dice; no second Faith in the pass."""
    state = step(challenge(), Decline("b"), Decline("b"))
    state = step(state, Roll("b", dice(horse=(0, 1), armour=(0, 2))))
    assert state.duel.step == "faith"
    four = ("horse1", "horse2", "armour1", "armour2")
    assert c(state, UseFaith("b", four)) == ["reroll/too-many-dice"]
    assert c(state, UseFaith("b", ("horse1", "horse1"))) == ["reroll/repeated-die"]
    assert c(state, UseFaith("b", four[:3])) == []
    state = step(state, UseFaith("b", four[:3]))
    assert G.to_act(state) == ("table",)
    wrong = Reroll("b", (Die("horse", 4, "horse1"), Die("horse", 4, "horse2")))
    assert c(state, wrong) == ["reroll/wrong-dice"]
    new = (Die("horse", 4, "horse1"), Die("horse", 3, "horse2"), Die("armour", 3, "armour1"))
    state = step(state, Reroll("b", new))
    assert duel.attack(state.duel, 0) == 4 + 3
    assert state.player("b").faith == 4 and state.duel.sides[0].faith == 3
    assert c(state, UseFaith("b", ("armour2",))) == ["step/wrong-step"]  # Faith is over


# --- 29 Ring reroll [L1522-1529] ----------------------------------------------------------------


def test_check29_pierscien_rerolls_up_to_four_and_is_the_pass_s_relic():
    """§9 check 29 [L1522-1529, L831-832]: Pierścień rerolls up to 4 dice and is the single
    relic of the pass."""
    state = step(challenge(), Decline("b"), CommitStrength("b", 1))
    state = step(state, Roll("b", dice(strength=(1,), horse=(0, 1), armour=(0, 2))))
    while state.duel.step != "relic":
        state = step(state, Decline("b"))
    five = ("strength1", "horse1", "horse2", "armour1", "armour2")
    assert c(state, UseRelic("b", "pierscien", dice=five)) == ["reroll/too-many-dice"]
    assert c(state, UseRelic("b", "pierscien", dice=five[1:])) == []
    state = step(state, UseRelic("b", "pierscien", dice=five[1:]))
    state = step(state, Reroll("b", tuple(Die(d[:-1], 3, d) for d in five[1:])))  # type: ignore[arg-type]
    assert state.duel.step != "relic"  # the pass resolved: no second relic
    assert [r.active for r in state.duel.sides[0].relics] == [False, True]


# --- 30 tent, lance and relic limits [L786-846] -------------------------------------------------


def test_check30_one_tent_ally_two_lance_allies_one_relic_all_active():
    """§9 check 30 [L786-846]: a tent ally only before pass 1; lance allies in steps 4 and 5;
    a used (flipped) token cannot be used again."""
    state = challenge()
    assert "ally/wrong-moment" in c(state, UseAlly("b", "giermek"))
    assert c(state, UseAlly("b", "drab")) == []
    state = step(state, UseAlly("b", "drab"), Decline("b"))
    state = step(state, Roll("b", dice(horse=(0, 1), armour=(0, 2))), Decline("b"))
    assert state.duel.step == "lance1"
    assert c(state, UseAlly("b", "drab")) == ["ally/wrong-moment", "ally/used"]
    state = step(state, UseAlly("b", "giermek"))
    assert state.duel.step == "lance2"
    assert c(state, UseAlly("b", "giermek")) == ["ally/used"]
    assert c(state, UseAlly("b", "fechmistrz")) == ["die/none-of-type"]  # no red die rolled
    state = step(state, Decline("b"))
    assert state.duel.step == "relic"
    assert c(state, UseAlly("b", "fechmistrz")) == ["step/wrong-step"]
    state = step(state, UseRelic("b", "paternoster"))
    assert state.duel.step != "relic"


# --- 31 set-die effects [L1374-1385, L1530-1533] ------------------------------------------------


def test_check31_giermek_sets_a_black_die_to_4_paternoster_a_white_die_to_3():
    """§9 check 31 [L1374-1385, L1530-1533]: the die must be of the effect's colour and in the
    pool; the new face counts."""
    state = step(challenge(), Decline("b"), Decline("b"))
    state = step(state, Roll("b", dice(horse=(0, 1), armour=(0, 2))), Decline("b"))
    assert c(state, UseAlly("b", "giermek", die="armour1")) == ["die/wrong-type"]
    assert c(state, UseAlly("b", "giermek", die="horse9")) == ["die/unknown"]
    assert c(state, UseAlly("b", "giermek", die="horse1")) == []
    state = step(state, UseAlly("b", "giermek", die="horse1"), Decline("b"))
    assert duel.attack(state.duel, 0) == 4 + 2
    assert c(state, UseRelic("b", "paternoster", die="horse2")) == ["die/wrong-type"]
    state = step(state, UseRelic("b", "paternoster", die="armour1"))
    assert state.duel.passes[0].attacks[0].total == 4 + 3


# --- 32 Attack computation [L739-747, L856-862] -------------------------------------------------


def test_check32_attack_is_the_highest_die_of_each_colour_plus_modifiers():
    """§9 check 32 [L739-747, L856-862, L1057-1058]: red 4 + black 3 + white 2, the Knight's 6
    less Drab's 1 in pass 1 (only the highest die of each colour counts). Automatic: no move
    states an Attack; a face the dice cannot show is refused (check 27)."""
    state = step(challenge(), UseAlly("b", "drab"), CommitStrength("b", 2))
    state = step(state, Roll("b", dice(strength=(4, 2), horse=(3, 1), armour=(0, 2))))
    d = state.duel
    assert duel.attack(d, 0) == 4 + 3 + 2
    assert duel.attack(d, 1) == 6 - 1
    assert [ln.code for ln in duel.attack_lines(d, 1)] == ["attack/knight", "attack/drab"]
    assert state.player("b").glory == 13  # Drab's Glory reaches the ledger at the duel's end
    while state.duel is not None and state.duel.pass_no == 1:
        state = step(state, Decline("b"))
    assert state.duel.passes[0].attacks[0].total == 9 and state.duel.passes[0].winner == "b"
    state = fight(state, [True, True])
    assert state.player("b").glory == 13 - 1
    assert [x.code for x in state.ledger if x.seat == "b"][-1] == "ledger/duel-ally-cost"


# --- 33 decision order, player against player [L964-967, L1786] ---------------------------------


def _players_duel() -> GloryState:
    """A 3-player Joust whose bottom row pairs a (slot 3) with b (slot 4)."""
    state = to_action(SEATS3)
    state = auto(stop_quests(place_all(state)), lambda s: s.phase == "registration")
    state = play(state, Register("a", slot=2), Register("b", slot=3), Register("c", slot=1))
    return auto(state, lambda s: s.duel is not None and set(s.duel.names) == {"a", "b"})


def test_check33_the_player_losing_now_decides_first():
    """§9 check 33 [L964-967, L1786]: at 0-0 with equal Prestige the worse Initiative (b, 2nd)
    decides first; then the side behind on Attack. In a game the other side is simply not asked
    yet (``game/not-your-turn``); the duel engine's own code for it, ``order/decides-first``, is
    in test_glory_duel_rules test_56_the_side_losing_now_decides_first_and_the_other_waits."""
    state = _players_duel()
    assert G.to_act(state) == ("b",)
    assert c(state, Decline("a")) == ["game/not-your-turn"]
    assert duel.check(state.duel, Decline("a"))[0].code == "order/decides-first"
    assert c(state, Decline("b")) == []
    state = step(state, Decline("b"), Decline("a"), Decline("b"), Decline("a"))
    state = play(state, roll_for(state, "a", HIGH), roll_for(state, "b", LOW))
    assert G.to_act(state) == ("b",)  # b is behind
    assert c(state, Decline("a")) == ["game/not-your-turn"]


# --- 34 pass winner and tie-breaks [L906-918, L960-967] -----------------------------------------


def test_check34_a_player_wins_a_full_tie_against_a_knight():
    """§9 check 34 [L906-918]: Attack 6 against Rozbójnik's 6, Prestige 0 against 0: the player
    wins the pass on Prestige (a Prestige token, if any, would be flipped). Automatic: no move
    names a pass's winner. Against SIR (first on the Initiative Track wins a full tie):
    test_glory_duel_rules, test_sir_full_tie_goes_to_the_better_initiative_and_sir_is_worth_7_or_9
    """
    state = step(challenge(), Decline("b"), Decline("b"))
    state = step(state, Roll("b", dice(horse=(4, 1), armour=(2, 0))))
    while state.duel.pass_no == 1:
        state = step(state, Decline("b"))
    record = state.duel.passes[0]
    assert (record.winner, record.reason, record.flipped) == ("b", "prestige", None)


def test_check34_between_players_prestige_then_initiative_and_the_winner_flips():
    """§9 check 34 [L960-967]: equal Attack and Prestige between players: the better Initiative
    (a, 1st) wins the pass. The Prestige flip: test_glory_duel_rules
    test_55_player_tie_prestige_then_initiative_and_winner_flips."""
    state = _players_duel()
    state = step(state, Decline("b"), Decline("a"), Decline("b"), Decline("a"))
    state = play(state, roll_for(state, "a", LOW), roll_for(state, "b", LOW))
    while state.duel.pass_no == 1:
        state = step(state, Decline(G.to_act(state)[0]))
    record = state.duel.passes[0]
    assert (record.winner, record.reason) == ("a", "initiative")


# --- 35 Advantage tokens and duel length [L735-737, L836] ---------------------------------------


def test_check35_two_won_passes_end_the_duel_three_at_most():
    """§9 check 35 [L735-737, L836]: a won first pass is an Advantage; the second won pass ends
    the duel; after that no duel move is taken."""
    d_state = step(challenge(), Decline("b"), Decline("b"))
    d_state = step(d_state, Roll("b", dice(horse=(4, 4), armour=(3, 3))))
    while d_state.duel.pass_no == 1:
        d_state = step(d_state, Decline("b"))
    assert [b.wins for b in d_state.duel.boards] == [1, 0]
    d_state = step(d_state, Decline("b"), Roll("b", dice(horse=(0, 0), armour=(0, 0))))
    while d_state.duel.pass_no == 2:
        d_state = step(d_state, Decline("b"))
    assert [b.wins for b in d_state.duel.boards] == [1, 1]
    d_state = step(d_state, Decline("b"), Roll("b", dice(horse=(4, 4), armour=(3, 3))))
    for _ in range(4):
        d_state = step(d_state, Decline("b"))
    assert d_state.duel is None and d_state.player("b").challenges_won == 1
    assert codes(d_state, DuelStep(Decline("b"))) in (["game/not-your-turn"], ["game/no-duel"])


# --- 36 Polish Nobility [L774-777, L721-724] ----------------------------------------------------


def test_check36_a_polish_noble_rolls_exactly_one_white_die():
    """§9 check 36 [L774-777]: one white die each pass, added to its Attack (Special counts 0)."""
    state = to_action()
    state = play(state, Place("a", "herald", slot=6))  # beside Dobiesław Puchała (slot 8)
    state = auto(state, lambda s: s.duel is not None and "a" in s.duel.names)
    noble = next(s for s in state.duel.sides if s.name != "a")
    assert noble.type == "polish-nobility"
    state = step(state, Decline("a"), Decline("a"))
    assert duel.pool(state.duel, 1) == {"armour": 1}
    assert c(state, Roll(noble.name, dice(armour=(1, 2)))) == ["roll/wrong-count"]
    assert c(state, Roll(noble.name, dice(horse=(1,)))) == ["roll/wrong-count", "roll/wrong-count"]
    assert c(state, Roll(noble.name, dice(armour=(3,)))) == []
    state = step(state, Roll(noble.name, dice(armour=(3,))))
    assert duel.attack(state.duel, 1) == noble.attack + 3


# --- 37 end of duel [L920-953, L1871-1892] ------------------------------------------------------


def test_check37_the_loser_recovers_one_of_each_only_from_this_duel():
    """§9 check 37 [L920-953]: the loser gets 1 Strength and 1 Faith back and may turn back one
    ally, Prestige token and relic used in this duel, no other."""
    state = challenge("najazd-rabusiow", relics=False)  # Attack 7, Prestige 1
    state = step(state, UseAlly("b", "drab"), CommitStrength("b", 2))
    for _ in range(2):
        state = step(state, Roll("b", dice(strength=(1, 1), horse=(0, 0), armour=(0, 0))))
        state = step(state, UseFaith("b", ("horse1",)), Reroll("b", (Die("horse", 0, "horse1"),)))
        state = step(state, UseAlly("b", "giermek") if state.duel.pass_no == 1 else Decline("b"))
        for _ in range(2):
            state = step(state, Decline("b"))
        if state.duel.step == "strength":
            state = step(state, Decline("b"))
    assert state.duel.step == "recover" and state.duel.winner == "Najazd rabusiów"
    assert c(state, Recover("b", ally="mniszka")) == ["recover/not-used"]
    assert c(state, Recover("b", prestige="urzad")) == ["recover/not-used"]
    assert c(state, Recover("b", ally="giermek")) == []
    state = step(state, Recover("b", ally="giermek"))
    b = state.player("b")
    assert (b.strength, b.faith) == (4 - 2 + 1, 4 - 2 + 1)
    assert {x.kind: x.active for x in b.allies} == {
        "drab": False,
        "mniszka": True,
        "giermek": True,
        "fechmistrz": True,
    }
    assert "najazd-rabusiow" in b.hand and state.phase == "quest"


# --- 38 Glory awards [L769, L943-944, L969-973, L990-991] ---------------------------------------


def test_check38_knight_value_half_for_one_pass_and_the_joust_prize():
    """§9 check 38 [L769, L943-944, L990-991]: beating a Knight gains its Glory value; losing a
    tournament duel after one won pass gains half of it, rounded down; the final's winner takes
    the prize (the stand-in Czempion token: 1 Glory and the Czempion Prestige)."""
    state = to_action()
    state = play(state, Place("a", "herald", slot=1))
    state = auto(state, lambda s: s.duel is not None and "a" in s.duel.names)
    knight = next(s for s in state.duel.sides if s.name != "a")
    glory = state.player("a").glory
    state = fight(state, [True, False, False])
    lines = [x for x in state.ledger if x.seat == "a" and x.round == 1][-1:]
    assert lines[0].code == "ledger/duel-half" and lines[0].amount == knight.glory // 2
    assert state.player("a").glory == glory + knight.glory // 2
    won = to_action()
    won = play(won, Place("a", "herald", slot=1))
    won = auto(won, lambda s: s.duel is not None and "a" in s.duel.names)
    glory = won.player("a").glory
    won = fight(won, [True, True], commit=1)  # 5 + 4 + 3 = 12 beats every Knight here
    assert won.player("a").glory == glory + knight.glory
    while won.phase == "tournament" and won.duel is not None:
        won = fight(won, [True, True], commit=1)
    assert won.tournament.bracket[-1][0].name == "a"
    assert won.tournament.prize == "czempion"
    prize = [x for x in won.ledger if x.params.get("source") == "prize"]
    assert [(x.seat, x.amount) for x in prize] == [("a", 1)]
    assert any(x.kind == "czempion" for x in won.player("a").prestige)
    assert position_codes(won) == []


def test_check38_a_player_is_worth_seven_or_nine():
    """§9 check 38 [L969-973]: beating a player gains 7, or 9 if the loser had more Glory at
    the end of the duel (a: 12 + 0, b: 13 + 1 behind the first player)."""
    state = _players_duel()
    glory = {s: state.player(s).glory for s in ("a", "b")}
    assert glory["b"] > glory["a"]
    state = step(state, Decline("b"), Decline("a"), Decline("b"), Decline("a"))
    for _ in range(2):
        state = play(state, roll_for(state, "a", HIGH), roll_for(state, "b", LOW))
        while state.duel is not None and state.duel.step not in ("roll", "over"):
            waiting = G.to_act(state)
            if waiting == ("table",) or not waiting:
                break
            state = step(state, Decline(waiting[0]))
    award = [x for x in state.ledger if x.seat == "a"][-1]
    assert (award.code, award.amount) == ("ledger/duel-won", 9)


# --- 39 Joust bracket [L882-889, L946-947, L988-992] --------------------------------------------


def test_check39_a_loser_is_out_and_plays_two_quest_cards_after_stage_one():
    """§9 check 39 [L882-889, L946-947]: out in stage 1: no more duels this Tournament, and up
    to 2 Quest cards afterwards."""
    state = to_action(hands={"a": ("list-milosny", "kolczuga")})
    state = play(state, Place("a", "quest-plans", take=("gra", "bal")))
    state = play(state, Place("b", "herald", slot=2), Place("a", "herald", slot=1))
    state = auto(state, lambda s: s.duel is not None and "a" in s.duel.names)
    state = fight(state, [False, False])
    while state.phase == "tournament" and state.duel is not None:
        assert "a" not in state.duel.names
        state = fight(state, [True, True])
    assert state.player("a").quest_extra == 2
    state = auto(state, lambda s: G.to_act(s) == ("a",) and s.phase == "tournament")
    state = play(state, PlayQuest("a", "gra"))
    if G.to_act(state) == ("b",):
        state = play(state, StopQuests("b"))
    state = play(state, PlayQuest("a", "bal"))
    assert G.to_act(state) != ("a",)
    assert codes(state, PlayQuest("a", "list-milosny")) == ["game/not-your-turn"]


# --- 40 Knight against Knight [L975-981] --------------------------------------------------------


def test_check40_knight_against_knight_glory_then_prestige_then_the_left_one():
    """§9 check 40 [L975-981]: no dice; higher Glory, then Prestige, then the left-hand Knight.
    Automatic: every Knight-against-Knight duel of a Joust agrees with the Knights' data; the
    rule's own cases are in test_glory_duel_rules test_57_knight_against_knight."""
    knights = BOX.data.knights
    seen = 0
    for seed in (6, 7):
        state = auto(to_action(), lambda s: s.phase == "tournament" and s.pending is None
                     and G.to_act(s) == ("table",), seed=seed)  # fmt: skip
        for r in state.tournament.results:
            if r.left in knights and r.right in knights:
                left, right = knights[r.left], knights[r.right]
                better = (left.glory, left.prestige) >= (right.glory, right.prestige)
                assert r.winner == (r.left if better else r.right)
                seen += 1
    assert seen >= 2
    left, right = (duel.Knight(n, "nobility", 7, 1, 5) for n in ("L", "R"))
    assert duel.knight_vs_knight(left, right) == ("L", "left")
    assert duel.knight_vs_knight(left, dataclasses.replace(right, glory=6)) == ("R", "glory")
    assert duel.knight_vs_knight(left, dataclasses.replace(right, prestige=2)) == ("R", "prestige")
