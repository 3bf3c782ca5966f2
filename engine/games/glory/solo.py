"""Solo play against SIR, the rulebook's automatic opponent (Appendix A, L1163-1287).

The table is set up as for two players, the human first on the Initiative Track and SIR second
[L1189-1191]. SIR has no Character card; in the Rival scenario it starts at 10 Glory with one
hidden Title as its Personal Goal. On SIR's turn of the Action Phase the table draws a solo card
(``SoloDraw``, chance: the deck is a multiset in ``GloryState.solo_deck``, all cards again at the
start of each Action Phase and whenever it runs out [L1203-1206]). SIR does Action I of the card
if it can be done in full, else II, else III, else the table draws again; SIR puts a pawn on the
field, collects nothing, and discards what the action would have given [L1208-1211]. A New Goal
leaves a Title draw for the table to reveal (the last card revealed is SIR's goal).

SIR registers for Tournaments only in the Rival scenario, by the placement rules of its Herald
action [L1240-1257]; its Registration turn is taken automatically (``register``), since nobody
decides for SIR. It duels as a Knight with the chosen Knight's Attack and Prestige
(``tournament.sir_stats``) and is worth 7 or 9 like a player [L1278-1283]. In the Titles Phase
it scores every public Title and its Personal Goal unchecked (``titles.score``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.evolve import evolve
from engine.games.glory import actions
from engine.games.glory import tournament as tour
from engine.games.glory.components import ROUNDS, Level, missing_data
from engine.games.glory.data_types import Deck, SoloCard
from engine.games.glory.duel import sir_as_knight, sir_vs_knight
from engine.games.glory.duel_state import Knight
from engine.games.glory.effects import (
    ON_GAIN_GLORY,
    add_glory,
    box,
    draw_titles,
    multiset,
    remove,
    set_player,
)
from engine.games.glory.refs import Refused, v
from engine.games.glory.state import (
    Entrant,
    GloryState,
    Move,
    Placement,
    Player,
    Register,
    SoloDraw,
)

SIR_SEAT = "sir"
"""SIR's seat name: it places pawns, blocks fields and (Rival) duels, but no person plays it."""
SIR_START_GLORY = 10
"""Rival: SIR has no Character card and starts at 10 Glory [L1190-1191]."""
SIR_GOALS = 1
"""Rival: SIR gets one hidden Title as its Personal Goal [L1190-1191]."""
SAMOTNIK_GLORY = {"easy": 65, "medium": 75, "hard": 85}
"""Samotnik: the Glory to reach by difficulty [L1176]."""
WOJOWNIK_EQUIPMENT: dict[str, tuple[Level | None, Level | None]] = {
    "easy": (None, None),
    "medium": (1, None),
    "hard": (1, 1),
}
"""Wojownik: (Horse, Armour) levels the player starts with by difficulty; None: as the
Character card gives [L1170-1174]."""
NEW_GOAL_DISCARD = 2
"""New Goal: SIR discards 2 Titles from the deck, then takes the next [L1234-1235]."""
QUEST_PLANS_CARDS = 4
"""Quest Plans: SIR removes all 4 face-up cards of the card's type [L1229-1232]."""
IGNORED_ALLY_COST = 2
"""Ally: SIR ignores the ally on the space costing 2 Coins [L1216]."""


def solo_players(players: tuple[str, ...]) -> tuple[Player, ...]:
    """The solo table: set up as a 2-player game with SIR as the second player [L1189-1191]."""
    return (Player(players[0]), Player(SIR_SEAT, sir=True))


def is_solo(state: GloryState) -> bool:
    return bool(state.options.get("solo"))


def is_rival(state: GloryState) -> bool:
    return state.options.get("solo") == "rywal"


def difficulty(state: GloryState) -> str:
    return str(state.options.get("difficulty") or "easy")


def human(state: GloryState) -> str:
    """The one person at a solo table."""
    return next(p.seat for p in state.players if not p.sir)


def sir_seat(state: GloryState) -> str:
    return next(p.seat for p in state.players if p.sir)


# --- setup ---------------------------------------------------------------------------------


def deck_cards(state: GloryState) -> tuple[str, ...]:
    """The whole solo deck: the 9 basic cards plus the chosen personality's 2 [L1193-1194]."""
    personality = state.options.get("personality")
    return multiset(s.id for s in box(state).data.solo
                    if s.personality in ("basic", personality))  # fmt: skip


def start_equipment(state: GloryState, horse: Level, armour: Level) -> tuple[Level, Level]:
    """The player's starting Horse and Armour: Wojownik lowers them by difficulty [L1170-1174]."""
    if state.options.get("solo") != "wojownik":
        return horse, armour
    h, a = WOJOWNIK_EQUIPMENT.get(difficulty(state), (None, None))
    return (h if h is not None else horse), (a if a is not None else armour)


# --- the Action Phase --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SirAction:
    """What SIR does with one action of a solo card: the field its pawn goes on, and what it
    discards (an Ally Track ``space``, the face-up cards of ``deck``) or where its crest goes."""

    kind: str
    field: str
    space: int | None = None
    deck: Deck | None = None
    city: int | None = None
    slot: int | None = None


def solo_card(state: GloryState, card_id: str) -> SoloCard:
    for s in box(state).data.solo:
        if s.id == card_id:
            return s
    raise KeyError(card_id)


def sir_to_act(state: GloryState) -> str | None:
    """SIR's seat when it is SIR's turn to place a pawn, else None."""
    if state.phase != "action" or state.pending is not None:
        return None
    seat = actions.action_actor(state)
    return seat if seat is not None and state.player(seat).sir else None


def plan(state: GloryState, card: SoloCard) -> SirAction | None:
    """The first of the card's Actions I-III that SIR can do in full [L1203-1205]; None: draw
    again."""
    for kind in card.actions:
        act = plan_action(state, kind, card.deck)
        if act is not None:
            return act
    return None


def plan_action(state: GloryState, kind: str, deck: Deck | None = None) -> SirAction | None:
    """One solo-card action, if SIR can do it in full now."""
    seat = sir_seat(state)
    if kind == "event":
        if actions.event_field_open(state) and not actions.occupied(state, actions.EVENT_FIELD):
            return SirAction(kind, actions.EVENT_FIELD)
        return None
    action = "allies" if kind == "special-ally" else kind
    field = open_field(state, action)
    if field is None:
        return None
    if kind == "initiative":
        return None if seat in state.initiative_pawns else SirAction(kind, field)
    if kind in ("allies", "special-ally"):
        space = ally_space(state, special=kind == "special-ally")
        return None if space is None else SirAction(kind, field, space=space)
    if kind == "quest-plans":
        if deck is None or len(state.columns.get(deck, ())) < QUEST_PLANS_CARDS:
            return None
        return SirAction(kind, field, deck=deck)
    if kind == "new-goal":
        if len(state.title_deck) + len(state.title_discard) < NEW_GOAL_DISCARD + 1:
            return None
        return SirAction(kind, field)
    if kind == "herald":
        return _plan_herald(state, seat, field)
    return SirAction(kind, field)  # a field SIR only blocks (Training, Service, Marketplace…)


def open_field(state: GloryState, action: str) -> str | None:
    """The first field of ``action`` open at this table: not covered, not a taken circle."""
    n = len(state.players)
    for f in box(state).data.fields:
        if f.action != action or f.min_players > n:
            continue
        if f.slot is None:
            raise missing_data(f"whether {f.id} is a circle or an area", "place SIR's pawn",
                               "the game data file (fields)")  # fmt: skip
        if not (f.slot and actions.occupied(state, f.id)):
            return f.id
    return None


def ally_space(state: GloryState, special: bool) -> int | None:
    """The Ally Track space SIR discards from: the leftmost Special Ally, or the leftmost
    ordinary ally not on the space costing 2 Coins [L1216-1219, L1223]."""
    data = box(state).data
    for i, kind in enumerate(state.ally_track):
        space = data.ally_track[i]
        if kind is None or space.special != special:
            continue
        if not special:
            if space.cost is None:
                raise missing_data(f"the cost of Ally Track space {i + 1}",
                                   "tell which ally SIR ignores",
                                   "the game data file (ally_track)")  # fmt: skip
            if space.cost == IGNORED_ALLY_COST:
                continue
        return i
    return None


def _plan_herald(state: GloryState, seat: str, field: str) -> SirAction | None:
    """Herald: only in Rival, where SIR registers if it can [L1240-1242]."""
    t = state.tournament
    if not is_rival(state) or t is None:
        return None
    if t.type == "joust":
        if state.player(seat).herald_uses or tour.crests(t, seat):
            return None
        slot = joust_slot(state, seat)
        return None if slot is None else SirAction("herald", field, slot=slot)
    if tour.crests(t, seat) >= tour.MAX_CITIES:
        return None
    pick = pas_knight(state, seat, herald=True)
    return None if pick is None else SirAction("herald", field, city=pick[0], slot=pick[1])


def apply_draw(state: GloryState, move: SoloDraw) -> GloryState:
    """The table drew ``move.card`` for SIR: do its first action SIR can do in full; none: the
    card is spent and the table draws again. A deck that ran out is whole again [L1205]."""
    seat = sir_to_act(state)
    if seat is None:
        raise Refused(v("solo/not-sir-turn", "solo", phase=state.phase))
    deck = state.solo_deck or deck_cards(state)
    left = remove(deck, [move.card])
    if left is None:
        raise Refused(v("solo/not-in-deck", "solo", card=move.card,
                        deck=", ".join(sorted(set(deck))) or "-"))  # fmt: skip
    state = evolve(state, solo_deck=left)
    act = plan(state, solo_card(state, move.card))
    if act is None:
        if any(plan(state, solo_card(state, c)) is not None for c in set(deck_cards(state))):
            return state  # draw again [L1205]
        # no card of the deck can be done: SIR places no more pawns this round (GL decision)
        p = state.player(seat)
        return actions.next_turn(set_player(state, evolve(p, pawns=0)))
    return actions.next_turn(do(state, seat, act))


def do(state: GloryState, seat: str, act: SirAction) -> GloryState:
    """SIR's pawn on the field and the action's discards; SIR collects nothing [L1208-1211]."""
    p = state.player(seat)
    state = set_player(state, evolve(p, pawns=p.pawns - 1))
    state = evolve(state, placements=(*state.placements, Placement(act.field, seat)))
    if act.kind == "initiative":
        return evolve(state, initiative_pawns=(*state.initiative_pawns, seat))
    if act.kind == "quest-plans":
        assert act.deck is not None
        return evolve(state, columns={**state.columns, act.deck: ()})
    if act.kind in ("allies", "special-ally"):
        return _discard_ally(state, seat, act)
    if act.kind == "new-goal":
        return draw_titles(state, seat, NEW_GOAL_DISCARD + 1, 1, "solo")
    if act.kind == "event":
        return _event_glory(state, seat)
    if act.kind == "herald":
        t = state.tournament
        assert t is not None
        if t.type == "joust":
            state = tour.place_joust_crest(state, seat, act.slot, "herald")
        else:
            state = tour.place_pas_crest(state, seat, act.city, act.slot, "herald")
        p = state.player(seat)
        return set_player(state, evolve(p, herald_uses=p.herald_uses + 1))
    return state


def _discard_ally(state: GloryState, seat: str, act: SirAction) -> GloryState:
    """The ally leaves the game; Rival: SIR scores a Minstrel's Glory, or a Special Ally's
    that gives Glory [L1221, L1224]."""
    assert act.space is not None
    kind = state.ally_track[act.space]
    assert kind is not None
    track = (*state.ally_track[: act.space], None, *state.ally_track[act.space + 1 :])
    state = evolve(state, ally_track=track)
    glory = ON_GAIN_GLORY.get(kind, 0)
    scores = kind == "minstrel" if act.kind == "allies" else glory > 0
    if is_rival(state) and scores and glory > 0:
        state = add_glory(state, seat, glory, "ledger/sir-ally", "solo", ally=kind)
    return state


def _event_glory(state: GloryState, seat: str) -> GloryState:
    """Rival: SIR on the Event field scores the Glory the Event gives [L1237-1238]."""
    event = box(state).events[state.event or ""]
    glory = max((event.reward.glory, *(r.glory for r in event.rewards)))
    if is_rival(state) and glory > 0:
        state = add_glory(state, seat, glory, "ledger/sir-event", "solo", event=event.name)
    return state


def keep_goal(state: GloryState) -> GloryState:
    """New Goal: of the Titles revealed to SIR, the first 2 go to the discard pile and the last
    becomes its Personal Goal [L1234-1235]."""
    pending = state.pending
    assert pending is not None and pending.kind == "keep-titles"
    *discard, goal = pending.cards
    p = state.player(pending.seat)
    state = set_player(state, evolve(p, goals=(*p.goals, goal)))
    return evolve(state, title_discard=multiset((*state.title_discard, *discard)), pending=None)


def sample(state: GloryState, rng: random.Random) -> Move | None:
    """The solo card a shuffled deck shows when SIR is to act."""
    if sir_to_act(state) is None:
        return None
    deck = state.solo_deck or deck_cards(state)
    return SoloDraw(rng.choice(deck))


# --- Registration and the Tournament (Rival) --------------------------------------------------


def knight_beats_sir(state: GloryState, knight: str) -> bool:
    """Would this Knight beat SIR? Both fight with fixed values (``duel.sir_vs_knight``)."""
    sir = tour.duellist(state, sir_seat(state))
    assert isinstance(sir, Knight)
    side = tour.knight_side(state, knight)
    if state.options.get("sir_duel", "knight") == "knight":
        winner, _ = sir_as_knight(sir, side)
    else:
        winner, _ = sir_vs_knight(sir, side)
    return winner != sir.name


def _knight(e: Entrant | None) -> str | None:
    return e.name if e is not None and not e.player else None


def _advancing(state: GloryState, group: list[Entrant | None]) -> str | None:
    """The visible Knight most likely to come out of ``group``: Knights meet Knights on Glory,
    then Prestige (§5.7), so the strongest by those."""
    knights = [k for k in map(_knight, group) if k is not None]
    if not knights:
        return None
    data = box(state).data.knights
    return max(knights, key=lambda k: (data[k].glory or 0, data[k].prestige or 0))


def joust_slot(state: GloryState, seat: str) -> int | None:
    """SIR's Joust space by its Herald rules [L1246-1253], each a preference over the next:
    1. not beside a Knight that would beat SIR; then not beside the player's crest;
    2. not where a Knight coming out of the neighbouring pair would beat SIR in stage 2; then
       not where the player could meet SIR in stage 2;
    3. the most Glory on the way to the final, counting the visible Knights;
    4. the rightmost space."""
    t = state.tournament
    assert t is not None and t.type == "joust"
    row = t.bracket[0]
    empty = [i for i, e in enumerate(row) if e is None]
    if not empty:
        return None
    person = human(state)
    data = box(state).data.knights
    stages = max(1, (len(row) - 1).bit_length())

    def group(i: int, level: int) -> list[Entrant | None]:
        start = ((i >> level) ^ 1) << level
        return list(row[start : start + (1 << level)])

    def key(i: int) -> tuple[bool, bool, bool, bool, int, int]:
        first = row[i ^ 1]
        k1 = _knight(first)
        beside_beater = k1 is not None and knight_beats_sir(state, k1)
        beside_player = first is not None and first.name == person
        second = group(i, 1) if stages > 1 else []
        k2 = _advancing(state, second)
        stage2_beater = k2 is not None and knight_beats_sir(state, k2)
        stage2_player = any(e is not None and e.name == person for e in second)
        glory = 0
        for level in range(stages - 1):
            k = _advancing(state, group(i, level))
            glory += (data[k].glory or 0) if k is not None else 0
        return beside_beater, beside_player, stage2_beater, stage2_player, -glory, -i

    return min(empty, key=key)


def pas_knight(state: GloryState, seat: str, herald: bool) -> tuple[int, int] | None:
    """(city, slot) of the best Knight (most Glory) SIR can beat, in a city SIR is not in yet;
    by Herald also one where the player has not challenged yet [L1255-1257]. Ties: the first
    in board order (Florence first, left to right). None: SIR skips."""
    t = state.tournament
    assert t is not None
    blocked = tour.cities_of(t, seat)
    if herald:
        blocked |= tour.cities_of(t, human(state))
    data = box(state).data.knights
    best: tuple[int, int] | None = None
    best_glory = -1
    for city, row in enumerate(t.cities):
        if city in blocked:
            continue
        for slot, ks in enumerate(row):
            if ks.crest or knight_beats_sir(state, ks.knight):
                continue
            glory = data[ks.knight].glory or 0
            if glory > best_glory:
                best, best_glory = (city, slot), glory
    return best


def register(state: GloryState, seat: str) -> GloryState:
    """SIR's Registration turn, taken for it by its Herald rules [L1271-1272]: a Joust space
    (SIR never passes), or a Pas d'armes Knight it can beat; none left: it places no more."""
    t = state.tournament
    assert t is not None
    if t.type == "joust":
        return tour.apply_register(state, Register(seat, slot=joust_slot(state, seat)))
    pick = pas_knight(state, seat, herald=False)
    if pick is not None:
        return tour.apply_register(state, Register(seat, pick[0], pick[1]))
    seats = tour.registrants(state)
    t = evolve(t, passed=(*t.passed, seat))
    state = evolve(state, tournament=t, turn=seats.index(seat) + 1)
    return tour.advance_registration(state)


# --- the end -----------------------------------------------------------------------------------


def solo_winners(state: GloryState) -> tuple[str, ...]:
    """The player's seat if they met the scenario's goal, else nobody [L1169-1178].

    Wojownik: won all 3 Tournaments (the Joust final each round); Samotnik: 65/75/85 Glory by
    difficulty; Rywal: more Glory than SIR (a tie is not more: the player does not win).
    """
    seat = human(state)
    scenario = state.options.get("solo")
    p = state.player(seat)
    if scenario == "wojownik":
        won = len(state.champions) == ROUNDS and all(c == seat for c in state.champions)
    elif scenario == "samotnik":
        won = p.glory >= SAMOTNIK_GLORY[difficulty(state)]
    else:
        won = p.glory > state.player(sir_seat(state)).glory
    return (seat,) if won else ()
