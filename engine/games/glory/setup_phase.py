"""Setup (§3.2-3.3): what the table deals, the Characters chosen, the hands kept.

The table's deal is one chance move (``SetupDeal``) checked against the box: three public
Titles, each seat's Character offer, the random turn order, the Ally Track by player count, four
face-up cards per Quest deck, one Event per round and the first Tournament. Then every seat
chooses a Character at once (hidden simultaneous choices), the table deals Title draws and
starting Quest cards (``DealHands``), and every seat keeps its Personal Goals and returns any
starting Quest cards for 1 Strength each [L249-251].
"""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

from engine.evolve import evolve
from engine.games.glory import solo, tournament
from engine.games.glory.components import COLUMN, PUBLIC_TITLES, Level
from engine.games.glory.data_types import DECKS, Box, BoxData
from engine.games.glory.effects import (
    add_glory,
    box,
    gain_ally,
    multiset,
    remove,
    set_player,
)
from engine.games.glory.effects import (
    carries_special_ally as _special,
)
from engine.games.glory.refs import Refused, refuse_if, v
from engine.games.glory.state import (
    ChooseCharacter,
    DealHands,
    GloryState,
    KeepCards,
    Player,
    SetupDeal,
)
from engine.violations import Violation


def initial(players: tuple[Player, ...], options: dict[str, Any], box: Box) -> GloryState:
    """The table before the deal: every deck, stack and Knight still in the box."""
    data = box.data
    stacks: dict[str, list[str]] = {}
    for stock in data.allies:
        if stock.stack is not None and stock.count:
            stacks.setdefault(stock.stack, []).extend([stock.kind] * stock.count)
    return GloryState(
        players=players,
        options=options,
        box=box,
        title_deck=multiset(t.id for t in data.titles for _ in range(t.count)),
        quest_decks={
            d: multiset(q.id for q in data.quests if q.deck == d for _ in range(q.count))
            for d in DECKS
        },
        ally_stacks={k: multiset(v) for k, v in stacks.items()},  # type: ignore[misc]
        # Rival: SIR's Knight token lies on its Player Board, out of the Tournaments [L1186]
        knight_pool=multiset(k for k, d in data.knights.items() if d.type != "card"
                             and not (options.get("solo") == "rywal"
                                      and k == options.get("sir_knight"))),
    )  # fmt: skip


def special_spaces(players: int) -> int:
    """Two Special Allies on the track, one with 1-2 players [L235-236]."""
    return 1 if players <= 2 else 2


def open_spaces(data: BoxData, players: int) -> tuple[bool, ...]:
    """Which Ally Track spaces are in use at this player count (the rest are covered)."""
    specials = special_spaces(players)
    out: list[bool] = []
    seen = 0
    for space in data.ally_track:
        if space.special:
            seen += 1
            out.append(seen <= specials)
        else:
            out.append(space.min_players <= players)
    return tuple(out)


def check_track(
    state: GloryState, track: tuple[str | None, ...], key: str
) -> tuple[dict[str, tuple[str, ...]], list[Violation]]:
    """The stacks after laying ``track`` (None spaces are empty or covered), and the faults."""
    data = box(state).data
    spaces = open_spaces(data, len(state.players))
    problems: list[Violation] = []
    if len(track) != len(spaces):
        return dict(state.ally_stacks), [v("setup/track-length", key, spaces=len(spaces),
                                          given=len(track))]  # fmt: skip
    stacks: dict[str, tuple[str, ...]] = dict(state.ally_stacks)
    for i, (kind, used) in enumerate(zip(track, spaces, strict=True)):
        if kind is None:
            continue
        if not used:
            problems.append(v("setup/track-blocked", key, space=i + 1))
            continue
        names = ("special",) if data.ally_track[i].special else ("I", "II", "III")
        for name in names:
            left = remove(stacks.get(name, ()), [kind])
            if left is not None:
                stacks[name] = left
                break
        else:
            problems.append(v("setup/ally-not-in-stack", key, ally=kind, space=i + 1))
    return stacks, problems


def apply_deal(state: GloryState, move: SetupDeal) -> GloryState:
    b = box(state)
    seats = [p.seat for p in state.players]
    problems: list[Violation] = []
    titles = remove(state.title_deck, move.titles)
    if len(move.titles) != PUBLIC_TITLES or titles is None:
        problems.append(v("setup/titles", "titles-setup", count=PUBLIC_TITLES))
        titles = state.title_deck
    problems += _check_offers(state, b, move.offers)
    if sorted(move.order) != sorted(seats):
        problems.append(v("setup/order", "order", seats=", ".join(seats)))
    elif solo.is_solo(state) and move.order[0] != solo.human(state):
        problems.append(v("solo/player-first", "solo", seat=solo.human(state)))
    stacks, track_problems = check_track(state, move.track, "ally-setup")
    problems += track_problems
    decks = dict(state.quest_decks)
    for deck in DECKS:
        cards = move.columns.get(deck, ())
        left = remove(decks.get(deck, ()), cards)
        if left is None or len(cards) != min(COLUMN, len(decks.get(deck, ()))):
            problems.append(v("setup/column", "quest-setup", deck=deck, count=COLUMN))
        else:
            decks[deck] = left
    problems += _check_events(b, move.events)
    event_ally_problem, stacks = _event_ally(b, move.events[0] if move.events else None,
                                             move.event_ally, stacks)  # fmt: skip
    problems += event_ally_problem
    refuse_if(problems)
    state = evolve(
        state,
        public_titles=tuple(move.titles),
        title_deck=titles,
        order=tuple(move.order),
        ally_track=tuple(move.track),
        ally_stacks=stacks,
        columns={d: tuple(move.columns.get(d, ())) for d in DECKS},
        quest_decks=decks,
        events=tuple(move.events),
        event_ally=move.event_ally,
        players=tuple(evolve(p, offered=tuple(move.offers[p.seat])) for p in state.players),
    )
    state = tournament.apply_deal(state, move.tournament, round_no=1)
    return evolve(state, phase="characters")


def _check_offers(state: GloryState, b: Box, offers: dict[str, tuple[str, ...]]) -> list[Violation]:
    problems: list[Violation] = []
    first = bool(state.options.get("first_game"))
    if sorted(offers) != sorted(p.seat for p in state.players):
        return [v("setup/offers-seats", "characters")]
    used: Counter[str] = Counter()
    for seat, cards in offers.items():
        if state.player(seat).sir:  # SIR gets no Character card [L1191]
            if cards:
                problems.append(v("solo/sir-no-character", "solo", seat=seat))
            continue
        if any(c not in b.characters for c in cards):
            problems.append(v("setup/unknown-character", "characters", seat=seat))
            continue
        levels = sorted(b.characters[c].level for c in cards)
        want = [1] if first else [1, 2, 3]
        if levels != want:
            problems.append(v("setup/offer-levels", "characters", seat=seat,
                              levels=", ".join(map(str, want))))  # fmt: skip
        used.update(cards)
    for card, n in used.items():
        if card in b.characters and n > b.characters[card].count:
            problems.append(v("setup/character-count", "characters", card=card))
    return problems


def _check_events(b: Box, events: tuple[str, ...]) -> list[Violation]:
    if len(events) != 3:
        return [v("setup/events", "events-setup")]
    problems = []
    for i, event in enumerate(events):
        card = b.events.get(event)
        if card is None or card.round != i + 1:
            problems.append(v("setup/event-round", "events-setup", event=event, round=i + 1))
    return problems


def _event_ally(
    b: Box, event: str | None, ally: str | None, stacks: dict[str, tuple[str, ...]]
) -> tuple[list[Violation], dict[str, tuple[str, ...]]]:
    """A Sojusz Event carries the top Special Ally on its card [L1307-1313]."""
    card = b.events.get(event or "")
    wants = card is not None and card.kind == "action" and _special(card)
    if not wants:
        return ([v("setup/event-ally", "event")] if ally else []), stacks
    if ally is None:
        return ([v("setup/event-ally", "event")] if stacks.get("special") else []), stacks
    left = remove(stacks.get("special", ()), [ally])
    if left is None:
        return [v("setup/ally-not-in-stack", "event", ally=ally, space=0)], stacks
    return [], {**stacks, "special": left}


def apply_choose(state: GloryState, move: ChooseCharacter) -> GloryState:
    p = state.player(move.seat)
    if p.character:
        raise Refused(v("setup/character-chosen", "characters", seat=move.seat))
    if move.character not in p.offered:
        raise Refused(v("setup/character-not-offered", "characters", seat=move.seat,
                        card=move.character, offered=", ".join(p.offered)))  # fmt: skip
    state = set_player(state, evolve(p, character=move.character, offered=()))
    if all(q.character for q in state.players if not q.sir):
        state = _start_resources(state)
        state = evolve(state, phase="hands")
    return state


def _start_resources(state: GloryState) -> GloryState:
    """Starting resources and Glory, and +1 GP per place behind the first player [L151-169]."""
    b = box(state)
    for pos, seat in enumerate(state.order):
        p = state.player(seat)
        if p.sir:
            if solo.is_rival(state):  # no Character card; 10 Glory [L1190-1191]
                state = add_glory(state, seat, solo.SIR_START_GLORY, "ledger/sir-start", "solo")
            continue
        c = b.characters[p.character]
        horse, armour = solo.start_equipment(state, c.horse or 2, c.armour or 2)
        # an experienced player may start with lower Horse and/or Armour [L194-198]
        lower = (state.options.get("handicap") or {}).get(seat, {})
        horse = cast(Level, max(1, horse - int(lower.get("horse", 0))))
        armour = cast(Level, max(1, armour - int(lower.get("armour", 0))))
        p = evolve(
            p,
            coins=c.coins or 0,
            strength=c.strength or 0,
            faith=c.faith or 0,
            horse=horse,
            armour=armour,
        )
        state = set_player(state, p)
        state = add_glory(state, seat, c.glory or 0, "ledger/character", "characters",
                          character=c.id)  # fmt: skip
        state = add_glory(state, seat, pos, "ledger/turn-order", "order", position=pos + 1)
    return state


def hand_counts(state: GloryState, seat: str) -> tuple[int, dict[str, int], int]:
    """(Titles drawn, Quest cards per deck, Special Allies) the table deals ``seat``."""
    p = state.player(seat)
    if p.sir:  # Rival: one hidden Title as SIR's Personal Goal [L1190-1191]
        return (solo.SIR_GOALS if solo.is_rival(state) else 0), {}, 0
    c = box(state).characters[p.character]
    quests: dict[str, int] = {d: n for d, n in (c.quests or {}).items() if n}
    behind = state.order.index(seat)
    if behind:
        quests["challenge"] = quests.get("challenge", 0) + behind
    return c.titles_drawn or 0, quests, 1 if c.special_ally else 0


def apply_hands(state: GloryState, move: DealHands) -> GloryState:
    b = box(state)
    problems: list[Violation] = []
    title_deck = state.title_deck
    decks = dict(state.quest_decks)
    stacks = dict(state.ally_stacks)
    for p in state.players:
        titles_n, quests_n, allies_n = hand_counts(state, p.seat)
        titles = move.titles.get(p.seat, ())
        left = remove(title_deck, titles)
        if left is None or len(titles) != titles_n:
            problems.append(v("setup/title-draw", "goals", seat=p.seat, count=titles_n))
        else:
            title_deck = left
        cards = move.quests.get(p.seat, ())
        got: Counter[str] = Counter(b.quests[c].deck for c in cards if c in b.quests)
        if any(c not in b.quests for c in cards) or dict(got) != quests_n:
            problems.append(v("setup/quest-draw", "quest-setup", seat=p.seat,
                              counts=_counts_text(quests_n)))  # fmt: skip
        else:
            for c in cards:
                deck = b.quests[c].deck
                left_deck = remove(decks[deck], [c])
                if left_deck is None:
                    problems.append(v("setup/card-not-in-deck", "quest-setup", card=c))
                    break
                decks[deck] = left_deck
        allies = move.allies.get(p.seat, ())
        left_special = remove(stacks.get("special", ()), allies)
        if len(allies) != allies_n or left_special is None:
            problems.append(v("setup/special-ally", "characters", seat=p.seat, count=allies_n))
        else:
            stacks["special"] = left_special
    refuse_if(problems)
    state = evolve(state, title_deck=title_deck, quest_decks=decks, ally_stacks=stacks)
    for p in state.players:
        if p.sir:  # SIR keeps its Title unseen: nothing to choose
            state = set_player(state, evolve(p, goals=tuple(move.titles.get(p.seat, ()))))
            continue
        state = set_player(state, evolve(p, offered=tuple(move.titles.get(p.seat, ())),
                                         hand=tuple(move.quests.get(p.seat, ()))))  # fmt: skip
        for ally in move.allies.get(p.seat, ()):
            state = gain_ally(state, p.seat, ally, "character")
    return evolve(state, phase="keep")


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {d}" for d, n in sorted(counts.items())) or "none"


def apply_keep(state: GloryState, move: KeepCards) -> GloryState:
    """Keep Personal Goals; return starting Quest cards for 1 Strength each [L173-177, L249-251]."""
    p = state.player(move.seat)
    if p.sir or (not p.offered and p.goals):
        raise Refused(v("setup/already-kept", "goals", seat=move.seat))
    c = box(state).characters[p.character]
    keep_n = min(c.titles_kept or 0, len(p.offered))
    problems: list[Violation] = []
    if remove(p.offered, move.goals) is None or len(move.goals) != keep_n:
        problems.append(v("setup/keep-goals", "goals", seat=move.seat, count=keep_n))
    starting = return_limit(state, p)
    if remove(p.hand, move.returned) is None or len(move.returned) > starting:
        problems.append(v("setup/return-quests", "quest-setup", seat=move.seat, count=starting))
    refuse_if(problems)
    back = remove(p.offered, move.goals) or ()
    hand = remove(p.hand, move.returned) or ()
    decks = dict(state.quest_decks)
    b = box(state)
    for card in move.returned:
        deck = b.quests[card].deck
        decks[deck] = multiset((*decks[deck], card))
    state = evolve(state, title_deck=multiset((*state.title_deck, *back)), quest_decks=decks)
    p = evolve(p, goals=tuple(move.goals), offered=(), hand=hand,
               strength=p.strength + len(move.returned))  # fmt: skip
    return set_player(state, evolve(p, done_quests=True))


def return_limit(state: GloryState, p: Any) -> int:
    """How many starting Quest cards a seat may return for Strength [L249-251]: any of its
    hand ("dowolne karty Wypraw", GL-30), or with ``quest_return`` 'character' at most as
    many as its Character card lists."""
    if state.options.get("quest_return", "any") == "any":
        return len(p.hand)
    return sum((box(state).characters[p.character].quests or {}).values())


def keep_pending(state: GloryState) -> tuple[str, ...]:
    """Seats still to keep their dealt cards (``done_quests`` marks a seat that has kept)."""
    return tuple(s for s in state.order if not state.player(s).sir
                 and not state.player(s).done_quests)  # fmt: skip
