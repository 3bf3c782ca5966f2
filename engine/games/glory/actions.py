"""The Action Phase (§4.2): pawns placed one at a time in Initiative order, resolved at once.

Which fields are circles (one pawn a round) and which are areas, and which are covered at
lower player counts, is printed on the board: it comes from the data file's ``fields``. The
Event's action field, when the round's Event has one, is the field ``"event"``.
"""

from __future__ import annotations

from collections import Counter

from engine.evolve import evolve
from engine.games.glory.components import missing_data
from engine.games.glory.data_types import DECKS, ActionField, Deck, Reward
from engine.games.glory.effects import (
    ally_count,
    apply_reward,
    box,
    draw_titles,
    gain_ally,
    multiset,
    remove,
    set_player,
    upgrade_level,
)
from engine.games.glory.refs import Refused, refuse_if, v
from engine.games.glory.state import GloryState, Pending, Place, Placement
from engine.games.glory.tournament import crests, free_knights, place_joust_crest, place_pas_crest
from engine.violations import Violation

EVENT_FIELD = "event"
GAINS: dict[str, Reward] = {
    "training": Reward(strength=3),
    "prayer": Reward(faith=3),
    "service": Reward(coins=3),
    "guard": Reward(coins=2),
    "solo-training": Reward(strength=2),
    "initiative": Reward(coins=1),
}
"""What the simple actions give [L417-436, L444-452]."""
QUEST_PLANS = 2
"""Quest Plans takes 2 cards [L438-452]; Królowa +1 (GL-decision on the ally pairing)."""
NEW_GOAL_DRAW, NEW_GOAL_KEEP = 3, 1
"""New Goal: draw 3 Titles, keep 1 [L476-480]."""


def field_of(state: GloryState, field_id: str) -> ActionField | None:
    for f in box(state).data.fields:
        if f.id == field_id:
            return f
    return None


def event_field_open(state: GloryState) -> bool:
    event = box(state).events.get(state.event or "")
    return event is not None and event.kind == "action"


def occupied(state: GloryState, field_id: str) -> bool:
    return any(p.field == field_id for p in state.placements)


def action_actor(state: GloryState) -> str | None:
    if not state.order:
        return None
    seat = state.order[state.turn % len(state.order)]
    return seat if state.player(seat).pawns > 0 else None


def next_turn(state: GloryState) -> GloryState:
    """The next seat in Initiative order that still has a pawn [L385-388]."""
    n = len(state.order)
    for k in range(1, n + 1):
        i = (state.turn + k) % n
        if state.player(state.order[i]).pawns > 0:
            return evolve(state, turn=i)
    return state


def discount(state: GloryState, seat: str) -> int:
    """Dyplomata: 1 Coin less at the Marketplace and the Allies action, each [L1407-1411]."""
    return ally_count(state.player(seat), "dyplomata")


def price(state: GloryState, seat: str, item: str) -> tuple[int, int] | None:
    """(new level, Coins) of a Marketplace upgrade of ``item``; None above Level IV."""
    p = state.player(seat)
    level = upgrade_level(getattr(p, item), None)
    if level is None:
        return None
    table = getattr(box(state).data.prices, item)
    coins = table.get(level)
    if coins is None:
        raise missing_data(f"the Marketplace price of {item} Level {level}",
                           "price an upgrade", "the game data file (prices)")  # fmt: skip
    return level, max(0, coins - discount(state, seat))


def apply_place(state: GloryState, move: Place) -> GloryState:
    actor = action_actor(state)
    if state.phase != "action" or state.pending is not None:
        raise Refused(v("action/not-now", "action"))
    if move.seat != actor:
        raise Refused(v("action/not-your-turn", "action-order", seat=move.seat, actor=actor or "-"))
    n = len(state.players)
    if move.field == EVENT_FIELD:
        if not event_field_open(state):
            raise Refused(v("action/no-event-field", "event"))
        if occupied(state, EVENT_FIELD):
            raise Refused(v("action/slot-taken", "slot", field=EVENT_FIELD))
        action = "event"
    else:
        f = field_of(state, move.field)
        if f is None:
            raise Refused(v("action/unknown-field", "action", field=move.field))
        if f.min_players > n:
            raise Refused(v("action/field-blocked", "blocked", field=move.field,
                            players=f.min_players))  # fmt: skip
        if f.slot is None:
            raise missing_data(f"whether {f.id} is a circle or an area", "place a pawn",
                               "the game data file (fields)")  # fmt: skip
        if f.slot and occupied(state, move.field):
            raise Refused(v("action/slot-taken", "slot", field=move.field))
        action = f.action
    p = state.player(move.seat)
    state = set_player(state, evolve(p, pawns=p.pawns - 1))
    state = evolve(state, placements=(*state.placements, Placement(move.field, move.seat)))
    state = _resolve(state, move, action)
    return next_turn(state)


def _resolve(state: GloryState, move: Place, action: str) -> GloryState:
    seat = move.seat
    p = state.player(seat)
    if action in GAINS:
        if action == "initiative":
            if seat in state.initiative_pawns:
                raise Refused(v("action/initiative-once", "initiative", seat=seat))
            state = evolve(state, initiative_pawns=(*state.initiative_pawns, seat))
        return apply_reward(state, seat, GAINS[action], action, "action")
    if action == "quest-plans":
        return take_quests(state, move, QUEST_PLANS + ally_count(p, "krolowa"), "quest-plans")
    if action == "marketplace":
        if move.item is None:
            raise Refused(v("action/market-item", "marketplace"))
        offer = price(state, seat, move.item)
        if offer is None:
            raise Refused(v("action/market-max", "marketplace", item=move.item))
        level, coins = offer
        if p.coins < coins:
            raise Refused(v("action/cannot-afford", "afford", cost=coins, have=p.coins))
        return set_player(state, evolve(p, coins=p.coins - coins, **{move.item: level}))
    if action == "allies":
        return _take_ally(state, move)
    if action == "herald":
        return _herald(state, move)
    if action == "new-goal":
        return draw_titles(state, seat, NEW_GOAL_DRAW, NEW_GOAL_KEEP, "new-goal")
    if action == "event":
        return _event(state, move)
    raise Refused(v("action/unknown-field", "action", field=move.field))


def take_quests(state: GloryState, move: Place, count: int, source: str) -> GloryState:
    """Face-up cards named in ``take`` and face-down draws in ``draw``; no refill [L487-492]."""
    problems: list[Violation] = []
    if len(move.take) + len(move.draw) != count:
        problems.append(v("action/quest-count", "quest-plans", count=count))
    columns = dict(state.columns)
    b = box(state)
    for card in move.take:
        q = b.quests.get(card)
        left = remove(columns.get(q.deck, ()), [card]) if q else None
        if q is None or left is None:
            problems.append(v("action/not-face-up", "quest-plans", card=card))
            continue
        columns[q.deck] = tuple(c for i, c in enumerate(columns[q.deck])
                                if i != columns[q.deck].index(card))  # fmt: skip
    for deck, n in Counter(move.draw).items():
        if n > len(state.quest_decks.get(deck, ())):
            problems.append(v("action/deck-empty", "quest-plans", deck=deck))
    refuse_if(problems)
    p = state.player(move.seat)
    state = set_player(state, evolve(p, hand=multiset((*p.hand, *move.take))))
    state = evolve(state, columns=columns)
    if move.draw:
        pending = Pending("draw-quests", move.seat, len(move.draw), decks=tuple(move.draw),
                          source=source)  # fmt: skip
        state = evolve(state, pending=pending)
    return state


def _take_ally(state: GloryState, move: Place) -> GloryState:
    """One token from the Ally Track, paying its space's cost; no refill [L461-466]."""
    space = move.space
    if space is None or not 0 <= space < len(state.ally_track) or state.ally_track[space] is None:
        raise Refused(v("action/no-ally", "allies-action", space=(space or 0) + 1))
    cost = box(state).data.ally_track[space].cost
    if cost is None:
        raise missing_data(f"the cost of Ally Track space {space + 1}", "take an ally",
                           "the game data file (ally_track)")  # fmt: skip
    cost = max(0, cost - discount(state, move.seat))
    p = state.player(move.seat)
    if p.coins < cost:
        raise Refused(v("action/cannot-afford", "afford", cost=cost, have=p.coins))
    kind = state.ally_track[space]
    assert kind is not None
    track = (*state.ally_track[:space], None, *state.ally_track[space + 1 :])
    state = set_player(state, evolve(p, coins=p.coins - cost))
    return gain_ally(evolve(state, ally_track=track), move.seat, kind, "ally-track")


def _herald(state: GloryState, move: Place) -> GloryState:
    """Register now; Joust once a round, Pas d'armes never twice in a city [L467-474]."""
    t = state.tournament
    if t is None:
        raise Refused(v("action/no-tournament", "herald"))
    p = state.player(move.seat)
    if t.type == "joust":
        if p.herald_uses or crests(t, move.seat):
            raise Refused(v("action/herald-once", "herald", seat=move.seat))
        state = place_joust_crest(state, move.seat, move.slot, "herald")
    else:
        if crests(t, move.seat) >= 3:
            raise Refused(v("action/herald-max", "herald", seat=move.seat))
        state = place_pas_crest(state, move.seat, move.city, move.slot, "herald")
    p = state.player(move.seat)
    return set_player(state, evolve(p, herald_uses=p.herald_uses + 1))


def _event(state: GloryState, move: Place) -> GloryState:
    """The Event's action field: pay the cost beside it, take its reward [L1296-1297]."""
    event = box(state).events[state.event or ""]
    p = state.player(move.seat)
    cost = event.cost
    if p.coins < cost.coins or p.strength < cost.strength or p.faith < cost.faith:
        raise Refused(v("action/cannot-afford-event", "afford", event=event.name))
    p = evolve(p, coins=p.coins - cost.coins, strength=p.strength - cost.strength,
               faith=p.faith - cost.faith)  # fmt: skip
    state = set_player(state, p)
    reward = event.reward
    if reward.quests:
        state = take_quests(state, move, reward.quests, "event")
        reward = evolve(reward, quests=0)
    if reward.special_ally:
        if state.event_ally is not None:
            state = gain_ally(state, move.seat, state.event_ally, "event")
            state = evolve(state, event_ally=None)
        reward = evolve(reward, special_ally=False)
    return apply_reward(state, move.seat, reward, event.id, "event")


# --- what can be done ----------------------------------------------------------------------


def legal_places(state: GloryState, seat: str) -> list[Place]:
    """Every placement open to ``seat`` now (the checks still run on each)."""
    out: list[Place] = []
    p = state.player(seat)
    n = len(state.players)
    fields = [f for f in box(state).data.fields if f.min_players <= n
              and not (f.slot and occupied(state, f.id))]  # fmt: skip
    if event_field_open(state) and not occupied(state, EVENT_FIELD):
        event = box(state).events[state.event or ""]
        fee = event.cost
        if p.coins >= fee.coins and p.strength >= fee.strength and p.faith >= fee.faith:
            for choice, reward in enumerate(event.rewards or (event.reward,)):
                if reward.quests:
                    picks = _quest_picks(state, seat, reward.quests)
                    out += [evolve(m, field=EVENT_FIELD, choice=choice) for m in picks]
                else:
                    out.append(Place(seat, EVENT_FIELD, choice=choice))
    seen: set[str] = set()
    for f in fields:
        if f.action in seen and f.action != "herald":
            continue
        seen.add(f.action)
        if f.action in GAINS:
            if f.action == "initiative" and seat in state.initiative_pawns:
                continue
            out.append(Place(seat, f.id))
        elif f.action == "quest-plans":
            out += [evolve(m, field=f.id) for m in
                    _quest_picks(state, seat, QUEST_PLANS + ally_count(p, "krolowa"))]  # fmt: skip
        elif f.action == "marketplace":
            for item in ("horse", "armour"):
                offer = price(state, seat, item)
                if offer is not None and offer[1] <= p.coins:
                    out.append(Place(seat, f.id, item=item))
        elif f.action == "allies":
            for i, kind in enumerate(state.ally_track):
                cost = box(state).data.ally_track[i].cost
                if kind is not None and cost is not None \
                        and max(0, cost - discount(state, seat)) <= p.coins:  # fmt: skip
                    out.append(Place(seat, f.id, space=i))
        elif f.action == "herald" and f.id not in seen:
            seen.add(f.id)
            out += _herald_moves(state, seat, f.id)
        elif f.action == "new-goal" and (state.title_deck or state.title_discard):
            out.append(Place(seat, f.id))
    return out


def _herald_moves(state: GloryState, seat: str, field: str) -> list[Place]:
    t = state.tournament
    if t is None:
        return []
    if t.type == "joust":
        if state.player(seat).herald_uses or crests(t, seat):
            return []
        return [Place(seat, field, slot=i) for i, e in enumerate(t.bracket[0]) if e is None]
    if crests(t, seat) >= 3:
        return []
    return [Place(seat, field, city=c, slot=s) for c, s in free_knights(t, seat)]


def _quest_picks(state: GloryState, seat: str, count: int) -> list[Place]:
    """Ways to take ``count`` Quest cards: face-up ones and face-down draws per deck."""
    face_up = sorted({c for d in DECKS for c in state.columns.get(d, ())})
    decks: list[Deck] = [d for d in DECKS if state.quest_decks.get(d)]
    options: list[tuple[str, ...]] = [(c,) for c in face_up]
    options += [("deck:" + d,) for d in decks]
    up = Counter(c for d in DECKS for c in state.columns.get(d, ()))
    out: list[Place] = []
    for pick in _multichoose([o[0] for o in options], count):
        take = tuple(x for x in pick if not x.startswith("deck:"))
        draw = tuple(x[5:] for x in pick if x.startswith("deck:"))
        if any(n > up[c] for c, n in Counter(take).items()):
            continue
        if any(n > len(state.quest_decks.get(d, ())) for d, n in Counter(draw).items()):
            continue
        out.append(Place(seat, "", take=take, draw=draw))  # type: ignore[arg-type]
    return out


def _multichoose(items: list[str], k: int) -> list[tuple[str, ...]]:
    """Multisets of size ``k`` from ``items`` (deck draws may repeat, face-up cards are checked)."""
    if k == 0:
        return [()]
    out: list[tuple[str, ...]] = []

    def rec(start: int, acc: tuple[str, ...]) -> None:
        if len(acc) == k:
            out.append(acc)
            return
        for i in range(start, len(items)):
            rec(i, (*acc, items[i]))

    rec(0, ())
    return out
