"""The Titles Phase (rules/glory.md §7.1, §8): which Title cards a player scores, and with what.

At the end of the game each player scores the 3 public Titles and their own Personal Goals whose
conditions they meet [L641-651, L1538-1545]. Pure functions over a ``state.Player``:

* ``score`` finds the assignment of the player's holdings to cards that gives the most Glory
  (the referee proposes it; ties: more cards, then the alphabetically first card ids);
* ``feasible`` validates a set of cards a player declares;
* ``explain_unmet`` gives the sentences telling why one card cannot be met at all.

The rules they follow (GL-22 to GL-27 in docs/rules-decisions.md):

* a card scores at most once per player, even if met twice over or held twice [L649, L1542];
* one unit (a Coin, a Strength, Faith or Prestige token, an Ally, a Relic, and by default a
  played Quest card) satisfies at most one card [L646, L676-682, L1540-1542]; flipped
  (inactive) tokens count [L1542];
* Horse and Armour levels, the "no Drab" clause and the Dzielny duel are conditions, not units.

The search is exact. A card's needs are counts per pool (Coins, Strength, Faith, Prestige, the
played-card pools) and, for Allies and Relics, counts of named kinds plus "any N". Named needs
can only take tokens of their kind and "any" needs can take every token, so by Hall's theorem a
set of cards fits exactly when, for every pool and named kind, the summed needs do not exceed
what is held, and the summed Ally (Relic) needs, named and any together, do not exceed the
tokens held. Subsets are searched depth-first, best Glory first, with a bound on the Glory
still reachable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast, get_args

from engine.game import Line
from engine.games.glory.components import GAME_KEY, missing_data, ref
from engine.games.glory.data_types import QuestCard, TitleCard
from engine.games.glory.state import Player
from engine.i18n import DEFAULT_LANG, message
from engine.violations import InputError, RuleViolation

DrabRule = Literal["never", "at-end"]
"""Szlachetny's "could not have had Drabs" [L1564]: no Drab ever held (``never``, the default:
the past tense "nie mógł mieć" against the other Titles' "musi mieć"), or none at game end."""
DRAB_RULES: tuple[str, ...] = get_args(DrabRule)

PlayedRule = Literal["exclusive", "shared"]
"""Whether one played Quest card may count for two Titles: ``exclusive`` (the default: the
discard pile is part of the pool, one card per Title [L646, L1423]) or ``shared``."""
PLAYED_RULES: tuple[str, ...] = get_args(PlayedRule)

REF = {
    "titles": ref("§7.1", "L641-651, L1538-1545"),
    "duel": ref("§7.1 Dzielny", "L953, L1621-1627"),
    "sir": ref("Appendix A Titles", "L1285-1287"),
}

COUNTED = ("coins", "strength", "faith", "prestige")
"""Pools whose units are alike: a count is all a card needs of them."""
PLAYED = ("challenges-won", "market-played")
"""Counters of the player's public discard pile (Silny, Podróżnik)."""
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
DATA_FILE = "the box data file (data/box.json)"


@dataclass(frozen=True)
class TitleScore:
    """What one player scores in the Titles Phase.

    ``scored`` lists card ids in the order given; ``lines`` one Glory line per scored card;
    ``assignment`` maps each scored card to the units it uses: counts for Coins, Strength,
    Faith and Challenge cards won, kinds for Allies, Relics and Prestige, card ids for Market
    cards, and the Horse/Armour level a card asks for.
    """

    seat: str
    scored: tuple[str, ...]
    lines: tuple[Line, ...]
    assignment: dict[str, dict[str, int | list[str]]]
    total: int


@dataclass(frozen=True, slots=True)
class _Pools:
    """The player's holdings as the Titles Phase counts them (flipped tokens included)."""

    counts: dict[str, int]
    kinds: dict[str, dict[str, int]]
    allies: tuple[str, ...]
    relics: tuple[str, ...]
    prestige: tuple[str, ...]
    market: tuple[str, ...]

    def tokens(self, family: str) -> tuple[str, ...]:
        return self.allies if family == "allies" else self.relics


def _check_options(drab_rule: str, played_rule: str) -> None:
    if drab_rule not in DRAB_RULES:
        raise InputError("input/options", f"drab_rule is one of {DRAB_RULES}, not {drab_rule!r}")
    if played_rule not in PLAYED_RULES:
        raise InputError(
            "input/options", f"played_rule is one of {PLAYED_RULES}, not {played_rule!r}"
        )


def _market_played(player: Player, quests: Mapping[str, QuestCard]) -> tuple[str, ...]:
    out: list[str] = []
    for card_id in player.played:
        card = quests.get(card_id)
        if card is None:
            raise InputError(
                "input/titles", f"played card {card_id!r} is not a known Quest card", "played"
            )
        if card.deck == "market":
            out.append(card_id)
    return tuple(out)


def _pools(player: Player, quests: Mapping[str, QuestCard] | None, need_market: bool) -> _Pools:
    market: tuple[str, ...] = ()
    if need_market:
        if quests is None:
            raise InputError("input/titles", "counting Market cards played needs the Quest cards")
        market = _market_played(player, quests)
    allies: tuple[str, ...] = tuple(a.kind for a in player.allies)
    relics: tuple[str, ...] = tuple(r.kind for r in player.relics)
    counts = {
        "coins": player.coins,
        "strength": player.strength,
        "faith": player.faith,
        "prestige": len(player.prestige),
        "challenges-won": player.challenges_won,
        "market-played": len(market),
        "allies": len(allies),
        "relics": len(relics),
    }
    kinds = {"allies": dict(Counter(allies)), "relics": dict(Counter(relics))}
    prestige = tuple(p.kind for p in player.prestige)
    return _Pools(counts, kinds, allies, relics, prestige, market)


def _need(card: TitleCard, key: str) -> int:
    """How many units of pool ``key`` a card needs ("allies"/"relics": of any kind)."""
    return cast("dict[str, int]", card.needs).get(key, 0)


def _named(card: TitleCard, family: str) -> dict[str, int]:
    """Named kinds a card needs in ``family`` ("allies" or "relics")."""
    named = cast("dict[str, int]", card.allies if family == "allies" else card.relics)
    return {k: n for k, n in named.items() if n > 0}


def _needs_market(cards: Iterable[TitleCard]) -> bool:
    return any(_need(card, "market-played") > 0 for card in cards)


def _forbidden(player: Player, card: TitleCard, drab_rule: DrabRule) -> list[str]:
    now = {a.kind for a in player.allies}
    seen = now | set(player.held) if drab_rule == "never" else now
    return [kind for kind in card.forbid_allies if kind in seen]


def _alone(
    player: Player,
    card: TitleCard,
    pools: _Pools,
    drab_rule: DrabRule,
    duels_won: Collection[str],
) -> bool:
    """Whether a card can be met on its own: its conditions (levels, no Drab, the duel) and
    each of its needs against what is held."""
    if card.horse is not None and player.horse < card.horse:
        return False
    if card.armour is not None and player.armour < card.armour:
        return False
    if card.duel is not None and card.id not in duels_won:
        return False
    if card.forbid_allies and _forbidden(player, card, drab_rule):
        return False
    counts = pools.counts
    totals = {"allies": 0, "relics": 0}
    for key, n in card.needs.items():
        if key in totals:
            totals[key] += n
        elif n > counts[key]:
            return False
    for family, named in (("allies", card.allies), ("relics", card.relics)):
        have = pools.kinds[family]
        for kind, n in named.items():
            if n > have.get(kind, 0):
                return False
            totals[family] += n
        if totals[family] > counts[family]:
            return False
    return True


def _dims(cards: Iterable[TitleCard], played_rule: PlayedRule) -> list[tuple[str, str]]:
    """The dimensions a set of cards can conflict on: pools, then named kinds."""
    pools = [*COUNTED, "allies", "relics", *(PLAYED if played_rule == "exclusive" else ())]
    named: set[tuple[str, str]] = set()
    for card in cards:
        named.update(("allies", str(k)) for k, n in card.allies.items() if n > 0)
        named.update(("relics", str(k)) for k, n in card.relics.items() if n > 0)
    return [("pool", p) for p in pools] + sorted(named)


def _vector(card: TitleCard, dims: Sequence[tuple[str, str]]) -> tuple[int, ...]:
    """A card's needs along ``dims``; the Ally and Relic pools count named and "any" needs."""
    allies = cast("dict[str, int]", card.allies)
    relics = cast("dict[str, int]", card.relics)
    pool = dict(cast("dict[str, int]", card.needs))
    pool["allies"] = pool.get("allies", 0) + sum(allies.values())
    pool["relics"] = pool.get("relics", 0) + sum(relics.values())
    by_family = {"pool": pool, "allies": allies, "relics": relics}
    return tuple(by_family[family].get(key, 0) for family, key in dims)


def _capacity(pools: _Pools, dims: Sequence[tuple[str, str]]) -> tuple[int, ...]:
    return tuple(
        pools.counts[key] if family == "pool" else pools.kinds[family].get(key, 0)
        for family, key in dims
    )


def _fits(vectors: Iterable[tuple[int, ...]], capacity: tuple[int, ...]) -> bool:
    used = [0] * len(capacity)
    for vector in vectors:
        used = [u + v for u, v in zip(used, vector, strict=True)]
    return all(u <= c for u, c in zip(used, capacity, strict=True))


def _unique(cards: Iterable[TitleCard]) -> list[TitleCard]:
    """Each Title once per player, even when held twice [L649]; the first copy is kept."""
    seen: set[str] = set()
    out: list[TitleCard] = []
    for card in cards:
        if card.id not in seen:
            seen.add(card.id)
            out.append(card)
    return out


def _refuse_unknown(player: Player, cards: Iterable[TitleCard]) -> None:
    faults = [
        v
        for card in cards
        if not card.known
        for v in missing_data(
            f"the condition of Title '{card.name}'",
            f"score the Titles of {player.seat}",
            DATA_FILE,
        ).violations
    ]
    if faults:
        raise RuleViolation(faults)


def _refuse_glory(player: Player, cards: Iterable[TitleCard]) -> None:
    faults = [
        v
        for card in cards
        if card.glory is None
        for v in missing_data(
            f"the Glory value of Title '{card.name}'",
            f"score the Titles of {player.seat}",
            DATA_FILE,
        ).violations
    ]
    if faults:
        raise RuleViolation(faults)


def _best(
    glory: Sequence[int],
    ids: Sequence[str],
    vectors: Sequence[tuple[int, ...]],
    cap: tuple[int, ...],
) -> tuple[int, ...]:
    """Indices of the best fitting subset: most Glory, then most cards, then smallest ids."""
    order = sorted(range(len(glory)), key=lambda i: (-glory[i], ids[i]))
    reach = [0] * (len(order) + 1)
    for pos in range(len(order) - 1, -1, -1):
        reach[pos] = reach[pos + 1] + max(0, glory[order[pos]])
    best: tuple[int, ...] = ()
    best_key: tuple[int, int, tuple[str, ...]] = (0, 0, ())

    def better(key: tuple[int, int, tuple[str, ...]]) -> bool:
        if key[:2] != best_key[:2]:
            return key[:2] > best_key[:2]
        return key[2] < best_key[2]

    def visit(pos: int, used: tuple[int, ...], chosen: tuple[int, ...], total: int) -> None:
        nonlocal best, best_key
        if pos == len(order):
            key = (total, len(chosen), tuple(sorted(ids[i] for i in chosen)))
            if better(key):
                best, best_key = chosen, key
            return
        if total + reach[pos] < best_key[0]:
            return
        i = order[pos]
        after = tuple(u + v for u, v in zip(used, vectors[i], strict=True))
        if all(a <= c for a, c in zip(after, cap, strict=True)):
            visit(pos + 1, after, (*chosen, i), total + glory[i])
        visit(pos + 1, used, chosen, total)

    visit(0, (0,) * len(cap), (), 0)
    return tuple(sorted(best))


def _assign(
    player: Player, cards: Sequence[TitleCard], pools: _Pools, played_rule: PlayedRule
) -> dict[str, dict[str, int | list[str]]]:
    """A concrete assignment for cards known to fit: named kinds first, "any" from the rest."""
    out: dict[str, dict[str, int | list[str]]] = {card.id: {} for card in cards}
    for family in ("allies", "relics"):
        free = list(pools.tokens(family))
        taken: dict[str, list[str]] = {card.id: [] for card in cards}
        for card in cards:
            for kind, n in _named(card, family).items():
                for _ in range(n):
                    free.remove(kind)
                    taken[card.id].append(kind)
        for card in cards:
            n = _need(card, family)
            taken[card.id] += free[:n]
            del free[:n]
        for card in cards:
            if taken[card.id]:
                out[card.id][family] = taken[card.id]
    prestige = list(pools.prestige)
    market = list(pools.market)
    for card in cards:
        entry = out[card.id]
        for pool in ("coins", "strength", "faith", "challenges-won"):
            if n := _need(card, pool):
                entry[pool] = n
        if n := _need(card, "prestige"):
            entry["prestige"], prestige = prestige[:n], prestige[n:]
        if n := _need(card, "market-played"):
            entry["market-played"] = market[:n]
            if played_rule == "exclusive":
                market = market[n:]
        if card.horse is not None:
            entry["horse"] = player.horse
        if card.armour is not None:
            entry["armour"] = player.armour
    return out


def _line(card: TitleCard, code: str, reference: str) -> Line:
    assert card.glory is not None
    return Line(card.id, card.glory, code, reference, {"title": card.name, "card": card.id})


def score(
    player: Player,
    cards: Sequence[TitleCard],
    *,
    quests: Mapping[str, QuestCard] | None = None,
    drab_rule: DrabRule = "never",
    played_rule: PlayedRule = "exclusive",
    duels_won: Collection[str] = (),
) -> TitleScore:
    """The Titles a player scores, with the assignment giving the most Glory.

    Args:
        player: the player at the end of the game (flipped tokens count [L1542]).
        cards: the 3 public Titles and the player's Personal Goals; a Title given twice
            scores once [L649].
        quests: Quest cards by id, to count the Market cards in ``player.played``
            (needed only when a card asks for Market cards).
        drab_rule: the "no Drab" reading (GL-25).
        played_rule: whether one played card may count for two Titles (GL-23).
        duels_won: ids of the Titles whose Titles-Phase duel (Dzielny) the player won; a card
            with a ``duel`` scores only if listed [L953].

    Raises:
        RuleViolation: ``data/missing`` naming every Title whose condition is unknown, or whose
            Glory value is unknown while the player could meet it (``known``/``glory`` null).
        InputError: a bad option, or a played card missing from ``quests``.

    SIR (``player.sir``) scores every card without checks [L1285-1287]; call this for SIR only
    in the Rywal scenario.
    """
    _check_options(drab_rule, played_rule)
    unique = _unique(cards)
    if player.sir:
        _refuse_glory(player, unique)
        lines = tuple(_line(c, "glory/title-sir", REF["sir"]) for c in unique)
        return TitleScore(
            player.seat,
            tuple(c.id for c in unique),
            lines,
            {c.id: {} for c in unique},
            sum(line.amount for line in lines),
        )
    _refuse_unknown(player, unique)
    pools = _pools(player, quests, _needs_market(unique))
    candidates = [c for c in unique if _alone(player, c, pools, drab_rule, duels_won)]
    _refuse_glory(player, candidates)
    dims = _dims(candidates, played_rule)
    chosen_idx = _best(
        [c.glory or 0 for c in candidates],
        [c.id for c in candidates],
        [_vector(c, dims) for c in candidates],
        _capacity(pools, dims),
    )
    picked = {candidates[i].id for i in chosen_idx}
    chosen = [c for c in unique if c.id in picked]
    lines = tuple(
        _line(c, "glory/title", REF["duel"] if c.duel is not None else REF["titles"])
        for c in chosen
    )
    return TitleScore(
        player.seat,
        tuple(c.id for c in chosen),
        lines,
        _assign(player, chosen, pools, played_rule),
        sum(line.amount for line in lines),
    )


def feasible(
    player: Player,
    cards: Sequence[TitleCard],
    *,
    quests: Mapping[str, QuestCard] | None = None,
    drab_rule: DrabRule = "never",
    played_rule: PlayedRule = "exclusive",
    duels_won: Collection[str] = (),
) -> bool:
    """Whether the player can meet every card of a declared set at once, each unit used once.

    A set naming the same Title twice is not feasible (a Title scores once [L649]). Glory
    values are not needed; a card whose condition is unknown raises ``data/missing``.
    """
    _check_options(drab_rule, played_rule)
    if len({c.id for c in cards}) != len(cards):
        return False
    if player.sir:
        return True
    _refuse_unknown(player, cards)
    pools = _pools(player, quests, _needs_market(cards))
    if not all(_alone(player, c, pools, drab_rule, duels_won) for c in cards):
        return False
    dims = _dims(cards, played_rule)
    return _fits((_vector(c, dims) for c in cards), _capacity(pools, dims))


def _m(code: str, lang: str, **params: object) -> str:
    return message(f"{GAME_KEY}:{code}", lang, **params)


def explain_unmet(
    player: Player,
    card: TitleCard,
    *,
    quests: Mapping[str, QuestCard] | None = None,
    drab_rule: DrabRule = "never",
    duels_won: Collection[str] = (),
    lang: str = DEFAULT_LANG,
) -> list[str]:
    """Why ``card`` cannot be met even on its own, one sentence per shortfall (empty: it can).

    Other cards are ignored: a card met alone may still lose its units to a better set.
    """
    _check_options(drab_rule, "exclusive")
    if player.sir:
        return []
    _refuse_unknown(player, [card])
    pools = _pools(player, quests, _needs_market([card]))
    common = {"title": card.name, "seat": player.seat}
    out: list[str] = []
    for pool in (*COUNTED, *PLAYED):
        need = _need(card, pool)
        if need > pools.counts[pool]:
            have = pools.counts[pool]
            out.append(_m(f"title/short-{pool}", lang, need=need, have=have, **common))
    for family, one in (("allies", "ally"), ("relics", "relic")):
        held = pools.tokens(family)
        named = _named(card, family)
        for kind, need in named.items():
            have = held.count(kind)
            if need > have:
                name = _m(f"{one}/{kind}", lang)
                out.append(
                    _m(f"title/short-{one}", lang, need=need, have=have, name=name, **common)
                )
        total = sum(named.values()) + _need(card, family)
        if _need(card, family) > 0 and total > len(held):
            out.append(_m(f"title/short-{family}", lang, need=total, have=len(held), **common))
    for item, need_level, level in (
        ("horse", card.horse, player.horse),
        ("armour", card.armour, player.armour),
    ):
        if need_level is not None and level < need_level:
            out.append(
                _m(
                    f"title/low-{item}",
                    lang,
                    need=ROMAN[need_level],
                    have=ROMAN[level],
                    **common,
                )
            )
    now = {a.kind for a in player.allies}
    for kind in _forbidden(player, card, drab_rule):
        code = "title/forbidden-now" if kind in now else "title/forbidden-held"
        out.append(_m(code, lang, name=_m(f"ally/{kind}", lang), **common))
    if card.duel is not None and card.id not in duels_won:
        attack = "?" if card.duel.attack is None else card.duel.attack
        prestige = "?" if card.duel.prestige is None else card.duel.prestige
        out.append(_m("title/no-duel", lang, attack=attack, prestige=prestige, **common))
    return out
