"""Builders for whole-game Glory tests: positions reached through the real move API.

Every position starts from ``GAME.setup`` with the invented stand-in data (the box's printed values
are not in the seed) and moves forward only through ``engine.rules.apply``: the table's deal, the
Characters chosen, the hands kept, pawns placed, and so on. The table's moves are written out
explicitly where a test depends on what was dealt (``setup_deal``, ``deal_hands``,
``tournament_deal``); elsewhere ``auto`` plays the simplest legal move and samples the table with a
seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from engine import data as gamedata
from engine import rules
from engine.game import TABLE
from engine.games.glory import GAME, duel
from engine.games.glory.data_types import DECKS, Box, JoustSection, PasSection
from engine.games.glory.duel_state import CommitStrength, Decline, Die, Duellist, Recover, Roll
from engine.games.glory.setup_phase import hand_counts, open_spaces
from engine.games.glory.state import (
    ChooseCharacter,
    DealHands,
    DuelStep,
    GloryState,
    KeepCards,
    Move,
    Place,
    Register,
    SetupDeal,
    StopQuests,
    TournamentDeal,
)
from engine.games.glory.tournament import section

G = GAME
STAND_IN = gamedata.load(GAME, {"data": "stand-in"})
"""The stand-in data, loaded once for every test (as a caller of the engine loads them)."""
assert STAND_IN is not None and isinstance(STAND_IN.value, Box)
BOX: Box = STAND_IN.value
DATA = BOX.data
SEATS2 = ("a", "b")
SEATS3 = ("a", "b", "c")
SEATS4 = ("a", "b", "c", "d")

LEVEL2 = ("dworzanin", "giermek-krolewski", "pielgrzym", "najemnik")
LEVEL3 = ("rycerz-zakonny", "baron", "hrabina", "kasztelan")
TITLES = ("bogaty", "mecenas", "slawny")
SPECIALS = ("dyplomata", "poslaniec")
STACK_I = ("drab", "weteran", "giermek", "fechmistrz", "mniszka", "minstrel", "kuchmistrz")
COLUMNS: dict[str, tuple[str, ...]] = {
    "romance": ("gra", "bal", "serenada", "wstazka"),
    "market": ("uczta", "odpust", "zbrojownia", "herbarz"),
    "challenge": ("rozbojnik", "obrona-mostu", "czarny-rycerz", "stary-wiarus"),
}
EVENTS = ("krolewskie-wesele", "sojusz-b", "krucjata")
"""Round 1 Królewskie wesele (+2 Strength each), round 2 Sojusz, round 3 Krucjata."""


def new(players: tuple[str, ...] = SEATS2, **options: Any) -> GloryState:
    return gamedata.setup(G, players, {"data": "stand-in", **options}, STAND_IN)


def codes(state: GloryState, move: Move) -> list[str]:
    """The violation codes of ``move`` through the game's own check (after the turn gate)."""
    return [v.code for v in G.check(state, move)]


def all_codes(state: GloryState, move: Move) -> list[str]:
    """The violation codes through the one checked entry point (generic gates first)."""
    return [v.code for v in rules.check(G, state, move)]


def play(state: GloryState, *moves: Move) -> GloryState:
    for move in moves:
        state = rules.apply(G, state, move)
    return state


def position_codes(state: GloryState) -> list[str]:
    return [v.code for v in G.check_position(state)]


# --- setup --------------------------------------------------------------------------------------


def track_for(players: int, specials: Iterable[str] = SPECIALS) -> tuple[str | None, ...]:
    """An Ally Track laid as the rules say: open Special spaces from ``specials``, the other open
    spaces from stack I, covered spaces empty."""
    spaces = open_spaces(DATA, players)
    special = list(specials)
    plain = list(STACK_I)
    out: list[str | None] = []
    for used, space in zip(spaces, DATA.ally_track, strict=True):
        if not used:
            out.append(None)
        else:
            out.append(special.pop(0) if space.special else plain.pop(0))
    return tuple(out)


def tournament_deal(
    state: GloryState, round_no: int = 1, card: str | None = None, prize: str | None = None
) -> TournamentDeal:
    """The first unused Tournament card of the game's type and player count, its Knights taken by
    type in name order (Pas d'armes cities by Glory, highest first)."""
    kind = state.options.get("tournament", "joust")
    n = len(state.players)
    if card is None:
        card = next(
            c.id
            for c in DATA.tournaments
            if c.type == kind and n in c.players and c.id not in state.used_tournaments
        )
    sec = section(BOX.tournaments[card], round_no)
    pool = sorted(state.knight_pool)

    def take(kind_: str) -> str:
        name = next(k for k in pool if DATA.knights[k].type == kind_)
        pool.remove(name)
        return name

    knights: list[str] = []
    if isinstance(sec, PasSection):
        for i, types in enumerate(sec.cities):
            city = sorted((take(t) for t in types), key=lambda k: -(DATA.knights[k].glory or 0))
            knights += (["|"] if i else []) + city
    else:
        assert isinstance(sec, JoustSection)
        knights = [take(sec.starting[i]) if i in sec.starting else "" for i in range(sec.slots)]
    if prize is None:
        first = bool(state.options.get("first_game"))
        unused = [p.id for p in DATA.prizes if p.id not in state.used_prizes]
        prize = unused[0] if kind == "joust" and not first and unused else ""
    return TournamentDeal(card, tuple(knights), prize)


def setup_deal(state: GloryState, **changes: Any) -> SetupDeal:
    """A legal setup deal for ``state``'s seats (order = seating order), with ``changes``."""
    seats = [p.seat for p in state.players]
    values: dict[str, Any] = {
        "titles": TITLES,
        "offers": {
            s: ("rycerz",) if state.options.get("first_game") else ("rycerz", LEVEL2[i], LEVEL3[i])
            for i, s in enumerate(seats)
        },
        "order": tuple(seats),
        "track": track_for(len(seats)),
        "columns": dict(COLUMNS),
        "events": EVENTS,
        "tournament": tournament_deal(state),
        "event_ally": None,
    }
    if "columns" in changes:
        changes = {**changes, "columns": {**COLUMNS, **changes["columns"]}}
    values.update(changes)
    return SetupDeal(**values)


def choose(state: GloryState, **characters: str) -> GloryState:
    """Every seat keeps a Character (``rycerz``, Level I, unless named)."""
    for p in state.players:
        state = play(state, ChooseCharacter(p.seat, characters.get(p.seat, "rycerz")))
    return state


def deal_hands(state: GloryState, **extra_quests: tuple[str, ...]) -> DealHands:
    """What the table deals each seat: the first Titles and Quest cards left, in name order;
    ``extra_quests`` names a seat's cards in place of the defaults (same decks and counts)."""
    titles_left = sorted(state.title_deck)
    decks = {d: sorted(state.quest_decks.get(d, ())) for d in DECKS}
    special = sorted(state.ally_stacks.get("special", ()))
    titles: dict[str, tuple[str, ...]] = {}
    quests: dict[str, tuple[str, ...]] = {}
    allies: dict[str, tuple[Any, ...]] = {}
    for p in state.players:
        n_titles, per_deck, n_allies = hand_counts(state, p.seat)
        titles[p.seat] = tuple(titles_left.pop(0) for _ in range(n_titles))
        if p.seat in extra_quests:
            cards = list(extra_quests[p.seat])
            for c in cards:
                decks[BOX.quests[c].deck].remove(c)
        else:
            cards = [decks[d].pop(0) for d, n in per_deck.items() for _ in range(n)]
        quests[p.seat] = tuple(cards)
        allies[p.seat] = tuple(special.pop(0) for _ in range(n_allies))
    return DealHands(titles, quests, allies)


def keep_all(state: GloryState) -> GloryState:
    """Every seat keeps its first dealt Titles and returns no Quest card."""
    for seat in G.to_act(state):
        p = state.player(seat)
        keep = BOX.characters[p.character].titles_kept or 0
        state = play(state, KeepCards(seat, tuple(sorted(p.offered)[:keep])))
    return state


def to_action(
    players: tuple[str, ...] = SEATS2,
    options: dict[str, Any] | None = None,
    characters: dict[str, str] | None = None,
    hands: dict[str, tuple[str, ...]] | None = None,
    **deal: Any,
) -> GloryState:
    """Round 1's Action Phase after an explicit setup (Level I Characters by default)."""
    state = new(players, **(options or {}))
    state = play(state, setup_deal(state, **deal))
    state = choose(state, **(characters or {}))
    state = play(state, deal_hands(state, **(hands or {})))
    state = keep_all(state)
    assert state.phase == "action" and state.round == 1
    return state


# --- moving on ------------------------------------------------------------------------------------


def place_all(state: GloryState, field: str = "guard") -> GloryState:
    """Every remaining pawn onto ``field`` (an area), in turn, until the Action Phase ends."""
    while state.phase == "action" and state.pending is None:
        (seat,) = G.to_act(state)
        state = play(state, Place(seat, field))
    return state


def stop_quests(state: GloryState) -> GloryState:
    """Every seat still to play Quest cards stops."""
    while state.phase in ("quest", "final-quest") and state.pending is None:
        waiting = G.to_act(state)
        if not waiting or waiting[0] == TABLE:
            break
        state = play(state, StopQuests(waiting[0]))
    return state


PREFER = ("decline", "stop")


def auto(
    state: GloryState,
    until: Callable[[GloryState], bool],
    seed: int = 1,
    limit: int = 5000,
) -> GloryState:
    """Play on until ``until(state)``: the table sampled with a seeded rng; a seat declines or
    stops when it may, else takes its first legal move (a Joust crest: the first free space)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if until(state):
            return state
        move = G.sample_chance(state, rng)
        if move is None:
            moves = G.legal_moves(state)
            assert moves, f"no legal move at {state.phase}"
            move = _simplest(moves)
        state = play(state, move)
    raise AssertionError(f"not reached within {limit} moves")


def _simplest(moves: list[Any]) -> Any:
    for m in moves:
        inner = m.move if isinstance(m, DuelStep) else m
        if type(inner).kind in PREFER:
            return m
    for m in moves:
        if isinstance(m, Register) and m.slot is not None:
            return m
    for m in moves:
        if isinstance(m, Place) and m.field == "guard":
            return m
    return moves[0]


# --- duels ----------------------------------------------------------------------------------------

HIGH = {"strength": 5, "horse": 4, "armour": 3}
LOW = {"strength": 1, "horse": 0, "armour": 0}


def roll_for(state: GloryState, side: str, faces: dict[str, int]) -> DuelStep:
    """The table's roll of ``side`` in the current pass, every die showing ``faces[type]``."""
    d = state.duel
    assert d is not None
    pool = duel.pool(d, d.index(side))
    dice = tuple(Die(t, faces[t]) for t, n in pool.items() for _ in range(n))  # type: ignore[arg-type]
    return DuelStep(Roll(side, dice))


def fight(state: GloryState, passes: Iterable[bool], commit: int = 0) -> GloryState:
    """Fight the current duel pass by pass: the player (the first player side) rolls high when
    the pass is True and low when False, after committing ``commit`` Strength in pass 1; Knights
    roll low; every other decision is a decline."""
    plan = list(passes)
    d = state.duel
    assert d is not None
    player = next(s.name for s in d.sides if isinstance(s, Duellist))
    names = d.names
    while state.duel is not None and state.duel.names == names:
        d = state.duel
        waiting = duel.to_act(d)
        if waiting == (TABLE,):
            for i, side in enumerate(d.sides):
                if not d.boards[i].rolled and duel.pool(d, i):
                    high = side.name == player and plan[d.pass_no - 1]
                    state = play(state, roll_for(state, side.name, HIGH if high else LOW))
                    break
            continue
        (seat,) = waiting
        step: Any = Recover(seat) if d.step == "recover" else Decline(seat)
        if commit and seat == player and d.step == "strength" and d.pass_no == 1:
            step = CommitStrength(seat, commit)
        state = play(state, DuelStep(step))
    return state
