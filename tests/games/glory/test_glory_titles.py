"""Titles Phase scoring (rules/glory.md §7.1, §8, §9 check 42; seed 001 lines cited per test).

The Title cards are stand-ins built here from the seed's texts [L1547-1627]; every Glory value
but Wpływowy's 4 [L677-679] is invented for the test.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from engine.games.glory import titles
from engine.games.glory.data_types import Opponent, QuestCard, TitleCard
from engine.games.glory.duel_state import Ally, Prestige, Relic
from engine.games.glory.state import Player
from engine.i18n import message, violation_text
from engine.violations import InputError, RuleViolation

WPLYWOWY = TitleCard("wplywowy", "Wpływowy", 4, needs={"allies": 5})
MECENAS = TitleCard("mecenas", "Mecenas", 5, needs={"coins": 3}, allies={"minstrel": 2})
BOGATY = TitleCard("bogaty", "Bogaty", 4, needs={"coins": 6})
SZCZESLIWY = TitleCard("szczesliwy", "Szczęśliwy", 3, needs={"coins": 3, "strength": 3})
SILNY = TitleCard("silny", "Silny", 5, needs={"challenges-won": 5})
PODROZNIK = TitleCard("podroznik", "Podróżnik", 4, needs={"market-played": 5})
ZAMOZNY = TitleCard("zamozny", "Zamożny", 5, horse=4, armour=4)
SLAWNY = TitleCard("slawny", "Sławny", 4, needs={"prestige": 4})
POBOZNY = TitleCard("pobozny", "Pobożny", 6, needs={"relics": 3, "faith": 3}, allies={"mniszka": 1})
FUNDATOR = TitleCard("fundator", "Fundator", 5, needs={"relics": 4, "coins": 2})
SZLACHETNY = TitleCard(
    "szlachetny",
    "Szlachetny",
    6,
    allies={"minstrel": 1, "krolowa": 1, "giermek": 1},
    forbid_allies=("drab",),
)
GROZNY = TitleCard("grozny", "Groźny", 4, allies={"fechmistrz": 2, "drab": 2})
DZIELNY = TitleCard("dzielny", "Dzielny", 6, duel=Opponent(attack=11, prestige=1))


def allies(*kinds: Any, active: bool = True) -> tuple[Ally, ...]:
    return tuple(Ally(k, active) for k in kinds)


def market_quests(n: int, other: int = 0) -> tuple[tuple[str, ...], dict[str, QuestCard]]:
    cards = [QuestCard(f"m{i}", f"Market {i}", "market") for i in range(n)]
    cards += [QuestCard(f"r{i}", f"Romance {i}", "romance") for i in range(other)]
    return tuple(c.id for c in cards), {c.id: c for c in cards}


def matches(player: Player, cards: list[TitleCard]) -> bool:
    """Independent oracle: a bipartite matching of every needed unit to a distinct held unit
    (Kuhn's augmenting paths), with conditions checked directly."""
    held: list[tuple[str, str]] = [("coins", "")] * player.coins
    held += [("strength", "")] * player.strength + [("faith", "")] * player.faith
    held += [("prestige", p.kind) for p in player.prestige]
    held += [("allies", a.kind) for a in player.allies] + [
        ("relics", r.kind) for r in player.relics
    ]
    wants: list[tuple[str, str]] = []  # (pool, kind or "" for any)
    for card in cards:
        if (card.horse or 0) > player.horse or (card.armour or 0) > player.armour:
            return False
        if any(
            k in player.held or k in {a.kind for a in player.allies} for k in card.forbid_allies
        ):
            return False
        wants += [(str(pool), "") for pool, n in card.needs.items() for _ in range(n)]
        wants += [("allies", str(k)) for k, n in card.allies.items() for _ in range(n)]
        wants += [("relics", str(k)) for k, n in card.relics.items() for _ in range(n)]
    owner: list[int | None] = [None] * len(held)

    def fits(w: int, u: int) -> bool:
        return held[u][0] == wants[w][0] and wants[w][1] in ("", held[u][1])

    def augment(w: int, seen: set[int]) -> bool:
        for u in range(len(held)):
            if u not in seen and fits(w, u):
                seen.add(u)
                current = owner[u]
                if current is None or augment(current, seen):
                    owner[u] = w
                    return True
        return False

    return all(augment(w, set()) for w in range(len(wants)))


def brute_force(player: Player, cards: list[TitleCard]) -> int:
    """The best total over every subset, by the matching oracle (no search)."""
    best = 0
    for r in range(len(cards) + 1):
        for subset in itertools.combinations(cards, r):
            assert titles.feasible(player, list(subset)) == matches(player, list(subset))
            if matches(player, list(subset)):
                best = max(best, sum(c.glory or 0 for c in subset))
    return best


# --- allies ----------------------------------------------------------------------------------


def test_wplywowy_any_five_allies_gives_4_L676_682() -> None:
    """Wpływowy: any 5 allies, 4 Glory [L677-679]; 4 allies are not enough."""
    five = Player("p", allies=allies("drab", "krol", "dama", "biskup", "wasal"))
    result = titles.score(five, [WPLYWOWY])
    assert result.scored == ("wplywowy",)
    assert result.total == 4
    assert result.lines[0].amount == 4 and result.lines[0].code == "glory/title"
    assert result.lines[0].params["title"] == "Wpływowy"
    assert "L641-651" in result.lines[0].ref
    assert sorted(result.assignment["wplywowy"]["allies"]) == sorted(  # type: ignore[arg-type]
        ["drab", "krol", "dama", "biskup", "wasal"]
    )
    four = Player("p", allies=allies("drab", "krol", "dama", "biskup"))
    assert titles.score(four, [WPLYWOWY]).total == 0


def test_allies_used_for_wplywowy_cannot_serve_another_ally_title_L676_682() -> None:
    """ "Other ally Titles must be met with allies other than those 5" [L679-682]."""
    six = Player(
        "p", coins=3, allies=allies("minstrel", "minstrel", "krol", "dama", "wasal", "herold")
    )
    # 6 allies: Wpływowy (5 any) and Mecenas (2 Minstrels) need 7 distinct tokens.
    assert not titles.feasible(six, [WPLYWOWY, MECENAS])
    result = titles.score(six, [WPLYWOWY, MECENAS])
    assert result.scored == ("mecenas",)  # 5 Glory beats Wpływowy's 4
    seven = Player(
        "p",
        coins=3,
        allies=allies("minstrel", "krol", "minstrel", "dama", "wasal", "herold", "biskup"),
    )
    result = titles.score(seven, [WPLYWOWY, MECENAS])
    assert result.scored == ("wplywowy", "mecenas") and result.total == 9
    # The named kinds go to Mecenas; Wpływowy takes the other five, whatever their order.
    assert result.assignment["mecenas"]["allies"] == ["minstrel", "minstrel"]
    assert "minstrel" not in result.assignment["wplywowy"]["allies"]  # type: ignore[operator]


def test_inactive_tokens_count_for_titles_L1542() -> None:
    """Flipped Allies, Prestige tokens and Relics still count [L1542]."""
    flipped = Player(
        "p",
        faith=3,
        allies=allies("drab", "krol", "dama", "biskup", "wasal", "mniszka", active=False),
        prestige=tuple(Prestige(k, False) for k in ("pani-serca", "swita", "urzad", "czempion")),
        relics=tuple(Relic(k, False) for k in ("medalion", "amulet", "pierscien")),
    )
    result = titles.score(flipped, [WPLYWOWY, SLAWNY, POBOZNY])
    assert result.scored == ("wplywowy", "slawny", "pobozny")
    assert result.total == 4 + 4 + 6
    assert result.assignment["pobozny"] == {
        "allies": ["mniszka"],
        "relics": ["medalion", "amulet", "pierscien"],
        "faith": 3,
    }


# --- once per player; units counted one by one ----------------------------------------------


def test_a_title_scores_once_even_if_met_twice_L649() -> None:
    """12 Coins meet Bogaty twice over, and the card given twice (public and goal) scores once."""
    rich = Player("p", coins=12)
    result = titles.score(rich, [BOGATY, BOGATY])
    assert result.scored == ("bogaty",) and result.total == 4
    assert len(result.lines) == 1
    assert not titles.feasible(rich, [BOGATY, BOGATY])
    assert titles.feasible(rich, [BOGATY])


def test_nine_coins_satisfy_bogaty_and_mecenas_eight_do_not_L646_L1540() -> None:
    """Coins are counted unit by unit (§11.25): Bogaty 6 + Mecenas 3 need 9 Coins [L1584-1601]."""
    minstrels = allies("minstrel", "minstrel")
    nine = Player("p", coins=9, allies=minstrels)
    assert titles.feasible(nine, [BOGATY, MECENAS])
    result = titles.score(nine, [BOGATY, MECENAS])
    assert result.scored == ("bogaty", "mecenas") and result.total == 9
    assert result.assignment["bogaty"] == {"coins": 6}
    assert result.assignment["mecenas"] == {"allies": ["minstrel", "minstrel"], "coins": 3}
    eight = Player("p", coins=8, allies=minstrels)
    assert not titles.feasible(eight, [BOGATY, MECENAS])
    assert titles.score(eight, [BOGATY, MECENAS]).scored == ("mecenas",)


def test_exact_optimum_beats_greedy() -> None:
    """Greedy by value takes A (5 Glory, 4 Coins) and has 2 Coins left for nothing; the exact
    search gives the 6 Coins to B and C (3 + 3) instead [L646]."""
    a = TitleCard("a", "A", 5, needs={"coins": 4})
    b = TitleCard("b", "B", 3, needs={"coins": 3})
    c = TitleCard("c", "C", 3, needs={"coins": 3})
    p = Player("p", coins=6)
    result = titles.score(p, [a, b, c])
    assert result.scored == ("b", "c") and result.total == 6
    # Allies: a greedy Wpływowy taking the first five tokens would use up a Minstrel.
    p2 = Player(
        "p",
        coins=3,
        allies=allies("krol", "dama", "wasal", "herold", "biskup", "minstrel", "minstrel"),
    )
    assert titles.score(p2, [WPLYWOWY, MECENAS]).total == 9


def test_ties_prefer_more_cards_then_the_first_ids() -> None:
    """Equal Glory: more cards, then alphabetically first ids (a deterministic proposal)."""
    big = TitleCard("big", "Big", 6, needs={"coins": 6})
    x = TitleCard("x", "X", 3, needs={"coins": 3})
    y = TitleCard("y", "Y", 3, needs={"coins": 3})
    assert titles.score(Player("p", coins=6), [big, x, y]).scored == ("x", "y")
    z = TitleCard("z", "Z", 3, needs={"coins": 3})
    assert titles.score(Player("p", coins=3), [z, y, x]).scored == ("x",)


def test_search_matches_brute_force_on_random_holdings() -> None:
    """``feasible`` agrees with a unit-by-unit matching on every subset, and the search finds
    the best subset, on seeded random players (the sum checks are exact, not greedy)."""
    rng = random.Random(42)
    amulets = TitleCard("amulets", "Amulets", 2, relics={"amulet": 2}, needs={"relics": 1})
    cards = [WPLYWOWY, MECENAS, BOGATY, SZCZESLIWY, SLAWNY, POBOZNY, FUNDATOR, SZLACHETNY, GROZNY]
    cards.append(amulets)
    kinds = ["minstrel", "drab", "mniszka", "krolowa", "giermek", "fechmistrz", "krol"]
    for _ in range(150):
        p = Player(
            "p",
            coins=rng.randint(0, 14),
            strength=rng.randint(0, 5),
            faith=rng.randint(0, 4),
            allies=allies(*rng.choices(kinds, k=rng.randint(0, 10))),
            relics=tuple(
                Relic(k) for k in rng.choices(["medalion", "amulet"], k=rng.randint(0, 8))
            ),
            prestige=tuple(
                Prestige(k) for k in ("urzad", "swita", "czempion")[: rng.randint(0, 3)]
            ),
        )
        hand = rng.sample(cards, rng.randint(1, 6))
        result = titles.score(p, hand)
        assert result.total == brute_force(p, hand)
        chosen = [c for c in hand if c.id in result.scored]
        assert titles.feasible(p, chosen)


# --- counters and conditions -----------------------------------------------------------------


def test_silny_needs_five_won_challenge_cards_L1549_1553() -> None:
    assert titles.score(Player("p", challenges_won=5), [SILNY]).scored == ("silny",)
    assert titles.score(Player("p", challenges_won=4), [SILNY]).scored == ()
    reasons = titles.explain_unmet(Player("p", challenges_won=4), SILNY)
    assert reasons == [message("glory:title/short-challenges-won", title="Silny", need=5, have=4,
                               seat="p")]  # fmt: skip


def test_podroznik_needs_five_market_cards_played_L1588_1591() -> None:
    """Only Market cards of the player's pile count; Romance cards do not [L1590-1591]."""
    played, quests = market_quests(5, other=3)
    result = titles.score(Player("p", played=played), [PODROZNIK], quests=quests)
    assert result.scored == ("podroznik",)
    assert result.assignment["podroznik"]["market-played"] == ["m0", "m1", "m2", "m3", "m4"]
    played4, quests4 = market_quests(4, other=3)
    assert titles.score(Player("p", played=played4), [PODROZNIK], quests=quests4).total == 0
    with pytest.raises(InputError):
        titles.score(Player("p", played=("nowhere",)), [PODROZNIK], quests=quests)


def test_played_cards_count_for_one_title_unless_shared() -> None:
    """GL-23: one played card serves one Title by default; ``shared`` lets it serve two."""
    other = TitleCard("wanderer", "Wanderer", 2, needs={"market-played": 3})
    played, quests = market_quests(6)
    p = Player("p", played=played)
    assert titles.score(p, [PODROZNIK, other], quests=quests).scored == ("podroznik",)
    shared = titles.score(p, [PODROZNIK, other], quests=quests, played_rule="shared")
    assert shared.scored == ("podroznik", "wanderer") and shared.total == 6
    played8, quests8 = market_quests(8)
    both = titles.score(Player("p", played=played8), [PODROZNIK, other], quests=quests8)
    assert both.assignment["wanderer"]["market-played"] == ["m5", "m6", "m7"]


def test_zamozny_needs_horse_and_armour_level_iv_L1621_1627() -> None:
    assert titles.score(Player("p", horse=4, armour=4), [ZAMOZNY]).total == 5
    assert titles.score(Player("p", horse=4, armour=3), [ZAMOZNY]).total == 0
    assert titles.explain_unmet(Player("p", horse=3, armour=4), ZAMOZNY) == [
        message("glory:title/low-horse", title="Zamożny", need="IV", have="III", seat="p")
    ]


def test_szlachetny_no_drab_ever_or_at_end_L1562_1566() -> None:
    """GL-25: "could not have had Drabs" reads as never during the game, by default."""
    court = allies("minstrel", "krolowa", "giermek")
    once = Player("p", allies=court, held=("drab", "minstrel", "krolowa", "giermek"))
    assert titles.score(once, [SZLACHETNY]).total == 0
    assert titles.score(once, [SZLACHETNY], drab_rule="at-end").total == 6
    [reason] = titles.explain_unmet(once, SZLACHETNY)
    assert "Drab" in reason
    now = Player("p", allies=(*court, Ally("drab", False)))
    assert titles.score(now, [SZLACHETNY], drab_rule="at-end").total == 0
    # Groźny needs 2 Drabs: the two cards never score together.
    p = Player("p", allies=(*court, *allies("drab", "drab", "fechmistrz", "fechmistrz")))
    assert titles.score(p, [SZLACHETNY, GROZNY]).scored == ("grozny",)


def test_dzielny_scores_only_with_a_won_duel_L1621_1627_L953() -> None:
    p = Player("p")
    assert titles.score(p, [DZIELNY]).total == 0
    won = titles.score(p, [DZIELNY], duels_won={"dzielny"})
    assert won.scored == ("dzielny",) and won.total == 6
    assert "Dzielny" in won.lines[0].ref
    assert titles.explain_unmet(p, DZIELNY) == [
        message("glory:title/no-duel", title="Dzielny", attack=11, prestige=1, seat="p")
    ]


def test_explain_unmet_lists_every_shortfall_and_nothing_when_met() -> None:
    p = Player("p", coins=1, allies=allies("minstrel", "drab"))
    reasons = titles.explain_unmet(p, MECENAS)
    assert reasons == [
        message("glory:title/short-coins", title="Mecenas", need=3, have=1, seat="p"),
        message(
            "glory:title/short-ally", title="Mecenas", need=2, name="Minstrel", have=1, seat="p"
        ),
    ]
    assert titles.explain_unmet(Player("p", coins=6), BOGATY) == []
    three = Player("p", allies=allies("krol", "dama", "wasal"))
    assert titles.explain_unmet(three, WPLYWOWY) == [
        message("glory:title/short-allies", title="Wpływowy", need=5, have=3, seat="p")
    ]


# --- missing data, SIR, options --------------------------------------------------------------


def test_missing_glory_value_raises_data_missing_L677_L1547() -> None:
    """Only Wpływowy's value survives in the seed (§11.4): a Title the player meets but whose
    value is null refuses the scoring, naming the Title."""
    unknown_value = TitleCard("bogaty", "Bogaty", None, needs={"coins": 6})
    with pytest.raises(RuleViolation) as err:
        titles.score(Player("p", coins=6), [unknown_value, WPLYWOWY])
    assert err.value.code == "data/missing"
    assert "Bogaty" in violation_text(err.value.violations[0])
    # A null value the player could not score anyway refuses nothing.
    assert titles.score(Player("p", coins=5), [unknown_value]).total == 0


def test_unknown_title_condition_raises_data_missing_naming_each() -> None:
    """Dworny's text is lost (§11.4); two unknown Titles are both named at once."""
    dworny = TitleCard("dworny", "Dworny", None, known=False)
    other = TitleCard("x", "Mystery", 3, known=False)
    with pytest.raises(RuleViolation) as err:
        titles.score(Player("p"), [dworny, other, BOGATY])
    assert [v.code for v in err.value.violations] == ["data/missing", "data/missing"]
    assert "Dworny" in violation_text(err.value.violations[0])
    assert "Mystery" in violation_text(err.value.violations[1])
    with pytest.raises(RuleViolation):
        titles.feasible(Player("p"), [dworny])


def test_sir_scores_every_title_without_checks_L1285_1287() -> None:
    sir = Player("sir", sir=True)
    result = titles.score(sir, [BOGATY, ZAMOZNY, DZIELNY])
    assert result.total == 4 + 5 + 6
    assert {line.code for line in result.lines} == {"glory/title-sir"}


def test_bad_option_is_an_input_error() -> None:
    with pytest.raises(InputError):
        titles.score(Player("p"), [BOGATY], drab_rule="sometimes")  # type: ignore[arg-type]


def test_every_line_and_reason_code_has_a_message() -> None:
    p = Player("p", coins=9, allies=allies("minstrel", "minstrel"))
    for line in titles.score(p, [BOGATY, MECENAS]).lines:
        assert message(f"glory:{line.code}", title=line.params["title"])
    for code in ("title/short-strength", "title/short-faith", "title/short-prestige",
                 "title/short-relics", "title/short-relic", "title/short-market-played",
                 "title/low-armour", "title/forbidden-now", "title/forbidden-held"):  # fmt: skip
        assert message(f"glory:{code}", title="T", need=1, have=0, seat="p", name="N")
