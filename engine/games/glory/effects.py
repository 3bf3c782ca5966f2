"""Gaining and paying: how a reward, an ally or an upgrade changes a player, with the ledger.

Every Glory change goes through ``add_glory`` so the ledger (§8) names its source; every gain
of tokens respects the rulebook's limits: one Prestige token of a kind [L1008-1010], one level at
a time and never above IV [L559-560], allies only while their stack has them. The box's printed
contents are looked up through the state's ``Box`` (``data_types``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from engine.evolve import evolve
from engine.games.glory.components import AllyKind, Level, PrestigeKind, RelicKind
from engine.games.glory.data_types import Box, EventCard, Reward
from engine.games.glory.duel_state import Ally, Prestige, Relic
from engine.games.glory.refs import GREF
from engine.games.glory.state import GloryState, LedgerLine, Pending, Player

ON_GAIN_GLORY: dict[str, int] = {"minstrel": 4, "dama": 5, "lichwiarz": -2}
"""Glory on gaining the ally [L1370, L1393, L1400]."""
ON_GAIN_COINS: dict[str, int] = {"lichwiarz": 6}
ON_GAIN_PRESTIGE: dict[str, PrestigeKind] = {"krol": "faworyt-krola", "wasal": "swita"}
"""Król gives "Faworyt Króla", Wasal "Świta" [L1005-1006, L1390, L1410]."""


def box(state: GloryState) -> Box:
    """The printed contents the game was started with: kept in the state, never read here."""
    return state.box


def carries_special_ally(event: EventCard) -> bool:
    """A Sojusz Event: a Special Ally lies on the card for its action field [L1307-1313]."""
    return any(r.special_ally for r in (event.rewards or (event.reward,)))


def multiset(items: Iterable[str]) -> tuple[str, ...]:
    """A deck as the referee keeps it: the card ids left, sorted (order is the table's)."""
    return tuple(sorted(items))


def remove(pool: tuple[Any, ...], items: Iterable[Any]) -> tuple[Any, ...] | None:
    """``pool`` without ``items`` (as multisets); None when ``items`` is not in ``pool``."""
    left = Counter(pool)
    for item in items:
        if left[item] <= 0:
            return None
        left[item] -= 1
    return tuple(sorted(left.elements()))


def set_player(state: GloryState, player: Player) -> GloryState:
    i = state.index(player.seat)
    return evolve(state, players=(*state.players[:i], player, *state.players[i + 1 :]))


def add_glory(
    state: GloryState, seat: str, amount: int, code: str, key: str, **params: Any
) -> GloryState:
    """Change a seat's Glory and write the ledger line (the source and rule of the change)."""
    if amount == 0:
        return state
    p = state.player(seat)
    line = LedgerLine(seat, amount, code, GREF[key], state.round, dict(params))
    state = set_player(state, evolve(p, glory=p.glory + amount))
    return evolve(state, ledger=(*state.ledger, line))


def glory_lines(state: GloryState, seat: str, lines: Iterable[tuple[int, str, str]]) -> GloryState:
    for amount, code, key in lines:
        state = add_glory(state, seat, amount, code, key)
    return state


def gain_prestige(player: Player, kind: PrestigeKind) -> Player:
    """A second token of a kind already held is simply not received [L562-563, L1008-1010]."""
    if any(p.kind == kind for p in player.prestige):
        return player
    return evolve(player, prestige=(*player.prestige, Prestige(kind)))


def gain_ally(state: GloryState, seat: str, kind: AllyKind, source: str) -> GloryState:
    """Give ``seat`` an ally token and apply its one-time effect on gaining [L1362-1367]."""
    p = state.player(seat)
    held = p.held if kind in p.held else (*p.held, kind)
    p = evolve(p, allies=(*p.allies, Ally(kind)), held=held)
    p = evolve(p, coins=p.coins + ON_GAIN_COINS.get(kind, 0))
    if kind in ON_GAIN_PRESTIGE:
        p = gain_prestige(p, ON_GAIN_PRESTIGE[kind])
    state = set_player(state, p)
    if kind in ON_GAIN_GLORY:
        state = add_glory(state, seat, ON_GAIN_GLORY[kind], "ledger/ally-gained", "allies",
                          ally=kind, source=source)  # fmt: skip
    return state


def take_from_stacks(state: GloryState, kind: AllyKind) -> GloryState | None:
    """Take one ``kind`` token from the stacks (Scroll first); None when none is left."""
    stacks = dict(state.ally_stacks)
    for name in ("scroll", "special", "I", "II", "III"):
        left = remove(stacks.get(name, ()), [kind])
        if left is not None:
            stacks[name] = left
            return evolve(state, ally_stacks=stacks)
    return None


def upgrade_level(level: Level, from_level: Level | None) -> Level | None:
    """The level after a one-step upgrade, or None when it cannot apply (never a skip)."""
    if from_level is not None and level != from_level:
        return None
    if level >= 4:
        return None
    new: Level = level + 1  # type: ignore[assignment]
    return new


def apply_reward(state: GloryState, seat: str, reward: Reward, source: str, key: str) -> GloryState:
    """Give ``seat`` a reward (negative amounts are paid, never below zero for tokens).

    Titles and Quest cards drawn face down leave a ``Pending`` draw for the table to reveal.
    """
    p = state.player(seat)
    p = evolve(
        p,
        coins=max(0, p.coins + reward.coins),
        strength=max(0, p.strength + reward.strength),
        faith=max(0, p.faith + reward.faith),
    )
    for relic in reward.relics:
        p = evolve(p, relics=(*p.relics, Relic(relic)))
    for kind in reward.prestige:
        p = gain_prestige(p, kind)
    for up in reward.upgrades:
        level = upgrade_level(getattr(p, up.item), up.from_level)
        if level is not None:
            p = evolve(p, **{up.item: level})
    state = set_player(state, p)
    state = add_glory(state, seat, reward.glory, "ledger/reward", key, source=source)
    for ally in reward.allies:
        taken = take_from_stacks(state, ally)
        if taken is not None:
            state = gain_ally(taken, seat, ally, source)
    if reward.titles is not None and reward.titles.draw > 0:
        state = draw_titles(state, seat, reward.titles.draw, reward.titles.keep, source)
    elif reward.quests > 0:
        count = min(reward.quests, sum(len(d) for d in state.quest_decks.values()))
        if count:
            state = evolve(state, pending=Pending("draw-quests", seat, count, source=source))
    return state


def draw_titles(state: GloryState, seat: str, draw: int, keep: int, source: str) -> GloryState:
    """Draw Titles face down; an empty deck is first made again from the discards [L476-480]."""
    if len(state.title_deck) < draw and state.title_discard:
        state = evolve(state, title_deck=multiset((*state.title_deck, *state.title_discard)),
                       title_discard=())  # fmt: skip
    count = min(draw, len(state.title_deck))
    if count == 0:
        return state
    return evolve(state, pending=Pending("draw-titles", seat, count, min(keep, count),
                                         source=source))  # fmt: skip


def relic_kinds(player: Player) -> list[RelicKind]:
    return [r.kind for r in player.relics]


def ally_count(player: Player, kind: str) -> int:
    return sum(1 for a in player.allies if a.kind == kind)


def prestige_total(player: Player) -> int:
    """Active and inactive tokens: the final tie-break counts both [L1024-1026]."""
    return len(player.prestige)


def refresh_tokens(player: Player) -> Player:
    """Every Ally, Relic and Prestige token back to its active side [L583]."""
    return evolve(
        player,
        allies=tuple(Ally(a.kind) for a in player.allies),
        relics=tuple(Relic(r.kind) for r in player.relics),
        prestige=tuple(Prestige(p.kind) for p in player.prestige),
    )
