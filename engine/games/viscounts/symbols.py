"""Paying for a main action with symbols (digest §4 phase 3, §5, §9 checks 19, 21, 23, 26).

A main action is paid with the matching symbols on the player board (the three cards' printed
symbols, uncovered Buildings and other persistent abilities such as a Church Favour card's),
symbol conversions (the Traveller's two Merchants as one Cleric, seed L284-293), Villains (wild
during a main action only, seed L259-265), a dismissed card's printed symbols, and one resource
per missing symbol (Silver for Merchants, Stone for Builders, Gold for Nobles, Ink for Clerics).
Pure arithmetic over what lies on the board; the rules modules decide what lies there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from engine.games.viscounts.effects import Ability, Condition, Conversion, Effect, Symbol, Symbols

BUY_WITH: dict[Symbol, str] = {
    "merchant": "silver",
    "builder": "stone",
    "noble": "gold",
    "cleric": "ink",
}
"""The resource that buys one missing symbol of each kind, 1:1, only in its action (§4 phase 3)."""

ACTION_SYMBOL: dict[str, Symbol] = {
    "trade": "merchant",
    "build": "builder",
    "workers": "noble",
    "transcribe": "cleric",
}
"""The symbol each main action is paid with (§5.1-5.4)."""

TRADE_RATE = {"silver": 1, "resource": 2, "ink": 2, "stone": 2, "gold": 2, "destroy": 3, "flip": 4}
"""Merchants per exchange at a town of each kind (§5.1, seed L436-455)."""

WORKER_TABLE = ((8, 4), (5, 3), (3, 2), (1, 1))
"""Nobles → Workers placed (§5.3, seed L539-541): 1/3/5/8 → 1/2/3/4."""


@dataclass(frozen=True, slots=True)
class Supply:
    """The symbols a player has for a main action: ``printed`` (cards on the board and a
    dismissed card), ``granted`` (persistent abilities: ``N SYMBOL``), and ``conversions``."""

    printed: Counter[str]
    granted: Counter[str]
    conversions: tuple[Conversion, ...] = ()

    def plain(self, symbol: Symbol) -> int:
        """The symbols of this kind without Villains or conversions."""
        return self.printed[symbol] + self.granted[symbol]


def supply(printed: Iterable[Iterable[Symbol]], abilities: Iterable[Ability | None] = ()) -> Supply:
    """What the board gives: the printed symbols of each card (a dismissed card's included)
    and what persistent abilities grant or convert (other timings give no symbols).

    A persistent ability may gate its symbols on conditions (``3+ villain -> 1 noble``: the
    arrow's left side may hold a condition, seed L280-283). The conditions are judged on the
    board without any gated symbols, so two gated abilities never feed each other and the
    result does not depend on the order the cards lie in (docs/rules-decisions.md VW-64)."""
    counted: Counter[str] = Counter()
    for symbols in printed:
        counted.update(symbols)
    granted: Counter[str] = Counter()
    conversions: list[Conversion] = []
    gated: list[Effect] = []
    for ability in abilities:
        if ability is None or ability.timing != "persistent":
            continue
        body = ability.body
        if isinstance(body, Conversion):
            conversions.append(body)
        elif isinstance(body, Effect) and body.event is None and not body.conditions:
            granted.update(_granted(body))
        elif isinstance(body, Effect) and body.event is None and not body.cost:
            gated.append(body)
    plain = Supply(counted, granted.copy(), tuple(conversions))
    for body in gated:
        if all(_holds(plain, c) for c in body.conditions):
            granted.update(_granted(body))
    return Supply(counted, granted, tuple(conversions))


def _granted(body: Effect) -> Counter[str]:
    out: Counter[str] = Counter()
    for alternative in body.reward[:1]:
        for atom in alternative:
            if isinstance(atom, Symbols):
                out[atom.symbol] += atom.amount
    return out


def _holds(s: Supply, c: Condition) -> bool:
    """A condition over the board's symbols, Villains not wild (they are wild only in paying a
    main action, seed L259-265)."""
    have = count(s, c.symbol, main_action=False)
    return have == 0 if c.at_least is None else have >= c.at_least


def count(s: Supply, symbol: Symbol, *, main_action: bool = True) -> int:
    """How many ``symbol`` the supply pays: its own, what conversions into it yield (each
    from symbols of another kind, whole groups only), and every Villain when paying a main
    action (Villains are wild only there; never in final scoring, seed L264-265)."""
    total = s.plain(symbol)
    for c in s.conversions:
        if c.get == symbol and c.give != symbol:
            total += s.plain(c.give) // c.give_amount * c.get_amount
    if main_action and symbol != "villain":
        total += s.plain("villain")
    return total


def shortfall(s: Supply, symbol: Symbol, required: int) -> int:
    """How many resources (``BUY_WITH[symbol]``) the player must spend to reach ``required``."""
    return max(0, required - count(s, symbol))


def workers_for(nobles: int) -> int:
    """Workers placed for ``nobles`` Nobles (§5.3: 1/3/5/8 → 1/2/3/4; fewer than 1: none)."""
    return next((w for least, w in WORKER_TABLE if nobles >= least), 0)


def exchanges(merchants: int, exchange: str) -> int:
    """The most times a town's exchange may be used with ``merchants`` Merchants (§9 check
    21: floor(Merchants ÷ rate); the player may use it fewer times)."""
    return merchants // TRADE_RATE[exchange]
