"""Estate income and the coin arithmetic of effects and event cards, each as an itemised ``Line``.

Income of estate E [L152-156, L233-332]: (base rate + 1 if a special-coin token lies under E)
times the tiles of every type E pays for (its printed symbols plus a story token's symbol).
"""

from __future__ import annotations

from engine.game import Line
from engine.games.middle_ages.components import (
    BASE_RATE,
    ESTATES,
    INCOME_REF,
    PRINTED,
    Estate,
    EventCard,
    ref,
)
from engine.games.middle_ages.state import Player

TOKENS_REF = ref("§5 Church/Palace tokens", "L295-316")


def count(player: Player, estate: Estate) -> int:
    return len(player.board[ESTATES.index(estate)])


def paid_types(player: Player, estate: Estate) -> tuple[Estate, ...]:
    """The tile types ``estate`` pays for: printed symbols plus a story token, in board order."""
    types = set(PRINTED[estate])
    for token in player.story_tokens:
        if token.estate == estate:
            types.add(token.symbol)
    return tuple(e for e in ESTATES if e in types)


def rate(player: Player, estate: Estate) -> int:
    return BASE_RATE[estate] + (1 if estate in player.special_coins else 0)


def income_line(player: Player, estate: Estate) -> Line:
    """What ``estate`` pays ``player`` now, itemised by tile type."""
    types = paid_types(player, estate)
    counts = {t: count(player, t) for t in types}
    r = rate(player, estate)
    return Line(
        source=f"income:{estate}",
        amount=r * sum(counts.values()),
        code="line/income",
        ref=INCOME_REF[estate] if r == BASE_RATE[estate] else f"{INCOME_REF[estate]}; {TOKENS_REF}",
        params={"estate": estate, "rate": r, "counts": counts},
    )


def symbols(player: Player, kind: str) -> int:
    """Farmer or Chest symbols across every tile on the Fief board (graveyard excluded)."""
    if kind == "farmers":
        return sum(t.farmers for column in player.board for t in column)
    return sum(t.chests for column in player.board for t in column)


def event_amount(player: Player, card: EventCard) -> int:
    """What a paying event card gives (or, negative, costs) ``player`` [§6]."""
    if card.effect == "symbols":
        return card.amount * symbols(player, card.symbol)
    if card.effect == "per-tile":
        return card.amount * sum(count(player, e) for e in card.estates)
    if card.effect == "graveyard":
        return card.amount * len(player.graveyard)
    if card.effect == "distinct":
        return card.amount * sum(1 for column in player.board if column)
    return 0
