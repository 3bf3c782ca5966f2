"""What a Glory game with given players and options needs that its data leave out.

Only what the game can actually use counts (``missing_for``): a game is refused only for those
values, each named with what it is needed for and where it is printed (the data file's
``missing`` notes), so a user knows what to transcribe from the box.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Any, cast, get_args

from engine.games.glory.components import (
    COLUMN,
    DIE_TYPES,
    GAME_KEY,
    PUBLIC_TITLES,
    REF,
    ROUNDS,
    Level,
    Unsayable,
)
from engine.games.glory.data_check import LEVELS_BOUGHT, PLAYERS
from engine.games.glory.data_schema import LIST_NAMES
from engine.games.glory.data_types import (
    DECKS,
    ActionKind,
    BoxData,
    RivalLevel,
    TournamentType,
)
from engine.violations import InputError, RuleViolation, Violation

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
DEFAULT_WHERE = "printed on the component; not in the rulebook text (rules/glory.md §11)"


@dataclass(frozen=True, slots=True)
class Missing:
    """A value a game needs that the data leaves ``null`` (or a list it holds only part of).

    ``what`` is the value's path (``titles[silny].glory``) or the list's name with what is
    short (``tournaments (joust, 2 players)``); ``why`` what the game needs it for; ``where``
    where it is printed and why the seed lacks it (the data file's ``missing`` note).
    """

    what: str
    why: str
    where: str
    unsayable: Unsayable | None = None

    def violation(self, code: str = "data/missing") -> Violation:
        """The refusal naming this value; a card the vocabulary cannot say has its own
        sentence (``data/missing-unsayable``: the card, its printed text, what is missing), a
        gap like any missing value (``…/missing…``), so a box with one is kept, not playable)."""
        if self.unsayable is not None:
            return Violation("data/missing-unsayable", REF["data"], {
                "what": self.what, "printed": self.unsayable.printed,
                "missing": self.unsayable.missing}, GAME_KEY)  # fmt: skip
        return Violation(code, REF["data"], {"what": self.what, "task": self.why,
                                             "where": self.where}, GAME_KEY)  # fmt: skip


def table_players(players: int) -> int:
    """The player count the table is set up for: a solo game is set up as for two players
    [L1189] (Ally Track, blocked spaces, Tournament cards)."""
    return 2 if players == 1 else players


SCENARIOS = ("wojownik", "samotnik", "rywal")
PERSONALITIES = ("wojownik", "maz-bozy")
SOLO_BASIC = 9
SOLO_PERSONALITY = 2
"""9 basic solo cards, and 2 of each personality (Wojownik, Mąż Boży) [L1193-1194]."""
LIST_LABEL: dict[str, str] = {
    "characters": "the Character cards",
    "titles": "the Title cards",
    "quests": "the Quest decks",
    "allies": "the ally tokens",
    "ally_track": "the Ally Track",
    "fields": "the action fields",
    "events": "the Event cards",
    "tournaments": "the Tournament cards",
    "prizes": "the Tournament Prize tokens",
    "solo": "the solo cards",
    "knights": "the Knight tokens",
}


UNSAYABLE = ("refuse", "leave-out")
"""The option ``unsayable``: refuse a game while a card is marked unsayable (the default), or
leave such cards out of the box (``without_unsayable``)."""
MARKED: tuple[tuple[str, str], ...] = (
    ("characters", "id"),
    ("titles", "id"),
    ("quests", "id"),
    ("events", "id"),
    ("prizes", "id"),
)
"""The lists whose entries may carry ``unsayable`` (and the Knights, by name)."""


def unsayable_cards(data: BoxData) -> list[tuple[str, Unsayable]]:
    """Every component marked unsayable, with its path (``quests[ratunek]``, ``knights[X]``)."""
    out: list[tuple[str, Unsayable]] = []
    for name, key in MARKED:
        for entry in getattr(data, name):
            if entry.unsayable is not None:
                out.append((f"{name}[{getattr(entry, key)}]", entry.unsayable))
    for knight in data.knights.values():
        if knight.unsayable is not None:
            out.append((f"knights[{knight.name}]", knight.unsayable))
    return out


def without_unsayable(data: BoxData) -> BoxData:
    """The box without its unsayable components: what a game with ``unsayable=leave-out``
    is set up from, as if those cards had stayed in the box's tray."""
    return replace(
        data,
        knights={n: k for n, k in data.knights.items() if k.unsayable is None},
        characters=tuple(c for c in data.characters if c.unsayable is None),
        titles=tuple(t for t in data.titles if t.unsayable is None),
        quests=tuple(q for q in data.quests if q.unsayable is None),
        events=tuple(e for e in data.events if e.unsayable is None),
        prizes=tuple(p for p in data.prizes if p.unsayable is None),
    )


@dataclass(frozen=True, slots=True)
class Options:
    """The options ``missing_for`` reads (other keys of the options dict are ignored)."""

    tournament: TournamentType
    first_game: bool
    solo: str | None
    difficulty: RivalLevel | None
    personality: str | None
    sir_knight: str = ""
    leave_out: bool = False


def read_options(players: int, options: dict[str, Any], knights: Collection[str] = ()) -> Options:
    """The game options that decide which data a game needs; ``InputError`` names a bad one.

    ``tournament``: ``"joust"`` or ``"pas-d-armes"`` (required); ``first_game`` (bool); ``solo``:
    the scenario (``"wojownik"``, ``"samotnik"``, ``"rywal"``), required with 1 player only;
    ``difficulty`` (``"easy"``/``"medium"``/``"hard"``; for "rywal", unset: all three);
    ``personality`` (``"wojownik"``/``"maz-bozy"``: the 2 personality cards added to SIR's deck);
    ``sir_knight``: Rywal, the Knight token whose Attack and Prestige SIR fights with [L1186-1187]
    (unset or ``""``: the data's ``rival`` values for the difficulty); ``unsayable``:
    ``"refuse"`` (default) or ``"leave-out"`` (``UNSAYABLE``).
    """
    if isinstance(players, bool) or players not in PLAYERS:
        raise InputError(
            "input/options", f"Glory is for 1 to 4 players, not {players!r}", "players"
        )
    tournament = options.get("tournament")
    if tournament not in ("joust", "pas-d-armes"):
        raise InputError(
            "input/options",
            f"tournament is 'joust' or 'pas-d-armes', not {tournament!r}",
            "tournament",
        )
    first = options.get("first_game", False)
    if not isinstance(first, bool):
        raise InputError("input/options", "first_game is true or false", "first_game")
    solo = options.get("solo")
    if players == 1 and solo not in SCENARIOS:
        raise InputError(
            "input/options", f"a 1-player game is solo: choose one of {list(SCENARIOS)}", "solo"
        )
    if players > 1 and solo is not None:
        raise InputError("input/options", "solo scenarios are for 1 player", "solo")
    if solo == "wojownik" and tournament != "joust":
        raise InputError(
            "input/options", "Wojownik is played with Joust only [L1169]", "tournament"
        )
    difficulty = options.get("difficulty")
    if difficulty not in (None, *get_args(RivalLevel)):
        raise InputError("input/options", f"unknown difficulty {difficulty!r}", "difficulty")
    personality = options.get("personality")
    if personality not in (None, *PERSONALITIES):
        raise InputError("input/options", f"unknown personality {personality!r}", "personality")
    sir_knight = options.get("sir_knight") or ""
    if not isinstance(sir_knight, str) or (sir_knight and sir_knight not in knights):
        raise InputError("input/options", f"no Knight named {sir_knight!r}", "sir_knight")
    unsayable = options.get("unsayable", "refuse")
    if unsayable not in UNSAYABLE:
        said = f"unsayable is one of {list(UNSAYABLE)}, not {unsayable!r}"
        raise InputError("input/options", said, "unsayable")
    return Options(
        cast(TournamentType, tournament),
        first,
        solo,
        cast(RivalLevel | None, difficulty),
        personality,
        sir_knight,
        unsayable == "leave-out",
    )


def missing_for(
    data: BoxData, players: int, options: dict[str, Any], *, simulate: bool = False
) -> list[Missing]:
    """The values a game with ``players`` and ``options`` needs that ``data`` leaves out.

    Only what the game can actually use counts: Level I Characters alone and no Prize tokens in
    a first game; no Prize tokens in Pas d'armes; the Knights of the types the matching
    Tournament cards call for (all of them while those cards are unknown); solo cards and SIR's
    values with 1 player only; the dice faces only to ``simulate`` rolls (a reported roll is
    checked against the seed's ranges). Title values, prices, action fields, the Quest decks
    and the Events are always needed. Empty: the game can be played to the end.

    A component marked ``unsayable`` is named (its printed text, what the vocabulary lacks)
    unless the option ``unsayable`` is ``leave-out``; the rest is checked without such
    components either way, so the list also says what leaving them out would cost (a deck
    too small, a Knight back too few).
    """
    opts = read_options(players, options, data.knights)
    table = table_players(players)
    out: dict[str, Missing] = {}
    marked = unsayable_cards(data)
    if marked:
        if not opts.leave_out:
            for what, said in marked:
                out[what] = Missing(what, "play the card", "printed on the card", said)
        data = without_unsayable(data)

    def need(what: str, why: str, key: str | None = None) -> None:
        if what not in out:
            out[what] = Missing(what, why, _where(data, key or what))

    used: set[str] = set(LIST_NAMES) - {"prizes", "solo"}
    if opts.tournament == "joust" and not opts.first_game:
        used.add("prizes")
    if players == 1:
        used.add("solo")
    for name in data.incomplete:
        if name in used:
            need(name, f"use {LIST_LABEL[name]} (the data hold only part of them)")
    _need_titles(data, players, opts, need)
    _need_characters(data, players, opts, need)
    _need_quests(data, players, opts, need)
    _need_allies(data, table, opts, need)
    _need_board(data, table, need)
    _need_events(data, need)
    _need_tournaments(data, table, opts, need)
    if "solo" in used:
        _need_solo(data, opts, need)
    if simulate:
        for die in DIE_TYPES:
            for i, face in enumerate(data.dice.of(die).faces):
                if face is None:
                    need(f"dice.{die}.faces[{i}]", f"simulate a roll of the {die} die")
    return list(out.values())


Need = Callable[..., None]


def _need_titles(data: BoxData, players: int, opts: Options, need: Need) -> None:
    why = "score the Title in the Titles Phase (§7.1, §8)"
    for t in data.titles:
        if t.glory is None:
            need(f"titles[{t.id}].glory", why)
        if not t.known:
            need(f"titles[{t.id}].needs", "check the Title's condition in the Titles Phase (§7.1)")
        if t.duel is not None:
            if t.duel.attack is None:
                need(f"titles[{t.id}].duel.attack", "fight the Title's duel (§7.1)")
            if t.duel.prestige is None:
                need(f"titles[{t.id}].duel.prestige", "break an Attack tie in the Title's duel")
    total = sum(t.count for t in data.titles)
    levels = (1,) if opts.first_game else (1, 2, 3)
    draws = sorted(
        (c.titles_drawn for c in data.characters if c.level in levels for _ in range(c.count)),
        key=lambda d: -(d or 0),
    )
    deal = PUBLIC_TITLES + sum(d or 0 for d in draws[:players])
    if total < deal:
        need("titles", f"lay out 3 public Titles and deal Personal Goals ({deal} cards)")


def _need_characters(data: BoxData, players: int, opts: Options, need: Need) -> None:
    levels = (1,) if opts.first_game else (1, 2, 3)
    for level in levels:
        cards = [c for c in data.characters if c.level == level]
        if sum(c.count for c in cards) < players:
            need(
                f"characters (Level {ROMAN[level]})",
                f"deal a Level {ROMAN[level]} Character card to each of {players} players (§3.2)",
                "characters",
            )
        for c in cards:
            for name in (
                "coins",
                "strength",
                "faith",
                "glory",
                "horse",
                "armour",
                "titles_drawn",
                "titles_kept",
                "quests",
                "special_ally",
            ):
                if getattr(c, name) is None:
                    need(f"characters[{c.id}].{name}", "set up a player with this Character (§3.2)")
            if c.income is None:
                need(f"characters[{c.id}].income", "pay this Character's income (§4.4)")


def _need_quests(data: BoxData, players: int, opts: Options, need: Need) -> None:
    levels = (1,) if opts.first_game else (1, 2, 3)
    for deck in DECKS:
        size = sum(q.count for q in data.quests if q.deck == deck)
        # the most the players' Characters can start with (any of them may be chosen)
        starts = sorted(((c.quests or {}).get(deck) or 0 for c in data.characters
                         if c.level in levels for _ in range(c.count)), reverse=True)  # fmt: skip
        least = COLUMN + sum(starts[:players])
        least += players * (players - 1) // 2 if deck == "challenge" else 0
        if size < least:
            need(
                f"quests ({deck})",
                f"deal {least} {deck} cards at setup (columns of 4, the Characters' starting "
                "cards, start-order compensation)",
                "quests",
            )
    for q in data.quests:
        if q.rewards is None:
            need(f"quests[{q.id}].rewards", "resolve the Quest card (§4.3)")
        if q.opponent is not None:
            if q.opponent.attack is None:
                need(f"quests[{q.id}].opponent.attack", "fight the Challenge duel (§4.3, §6)")
            if q.opponent.prestige is None:
                need(
                    f"quests[{q.id}].opponent.prestige", "break an Attack tie in the Challenge duel"
                )


def _need_allies(data: BoxData, table: int, opts: Options, need: Need) -> None:
    for stock in data.allies:
        if stock.stack is None:
            need(f"allies[{stock.kind}].stack", "sort the ally tokens into their stacks (§3.2)")
        if stock.count is None:
            need(f"allies[{stock.kind}].count", "know which allies the stacks hold (§3.2, §4.4)")
    specials = 1 if table <= 2 else 2
    track = list(enumerate(data.ally_track))
    special_spaces = [i for i, s in track if s.special][:specials]
    open_spaces = special_spaces + [i for i, s in track if not s.special and s.min_players <= table]
    if len(special_spaces) < specials or len(open_spaces) == len(special_spaces):
        need("ally_track", f"lay out the Ally Track for {table} players (§3.2 step 8)")
    for i in open_spaces:
        if data.ally_track[i].cost is None:
            need(f"ally_track[{i}].cost", "charge for an ally taken from the track (§4.2)")
    if any(s.count is None or s.stack is None for s in data.allies):
        return
    held = Counter[str]()
    for s in data.allies:
        held[str(s.stack)] += s.count or 0
    special_needed = len(special_spaces)
    if not opts.first_game and any(c.special_ally for c in data.characters if c.level == 3):
        special_needed += table
    if held["special"] < special_needed:
        need("allies (special)", f"place {special_needed} Special Allies at setup", "allies")
    if held["I"] < len(open_spaces) - len(special_spaces):
        need("allies (I)", "fill the Ally Track from stack I at setup (§3.2 step 8)", "allies")


def _need_board(data: BoxData, table: int, need: Need) -> None:
    for action in get_args(ActionKind):
        here = [f for f in data.fields if f.action == action and f.min_players <= table]
        if not here:
            need(f"fields ({action})", f"offer the {action} action (§4.2)", "fields")
        for f in here:
            if f.slot is None:
                need(f"fields[{f.id}].slot", "tell a circle (one pawn a round) from an area (§4.2)")
    for item in ("horse", "armour"):
        prices: dict[Level, int | None] = getattr(data.prices, item)
        for level in LEVELS_BOUGHT:
            if prices.get(level) is None:
                need(
                    f"prices.{item}.{level}", f"price a Marketplace upgrade to Level {ROMAN[level]}"
                )


def _need_events(data: BoxData, need: Need) -> None:
    for r in range(1, ROUNDS + 1):
        if not any(e.round == r for e in data.events):
            need(f"events (round {r})", f"draw the Event of round {r} (§3.2 step 12)", "events")
    for e in data.events:
        if e.round is None:
            need(f"events[{e.id}].round", "sort the Events into their 3 round sets (§3.2 step 12)")
        if not e.known:
            need(f"events[{e.id}].reward", "apply the Event (§7.4)")


def _need_tournaments(data: BoxData, table: int, opts: Options, need: Need) -> None:
    kind = opts.tournament
    cards = [c for c in data.tournaments if c.type == kind and table in c.players]
    if len(cards) < ROUNDS:
        need(
            f"tournaments ({kind}, {table} players)",
            f"draw an unused {kind} Tournament card for each of the 3 rounds (§3.3)",
            "tournaments",
        )
    types: set[str] = set()
    for card in cards:
        for section in card.joust or ():
            types |= set(section.starting.values()) | set(section.after)
        for pas in card.pas or ():
            types |= {t for city in pas.cities for t in city}
    knights = [k for k in data.knights.values() if k.type not in ("card", "sir")]
    for k in knights:
        if k.type is None:
            need(f"knights[{k.name}].type", "sort the Knights by their backs (§3.3)")
    if all(k.type is not None for k in knights):
        have = Counter(str(k.type) for k in knights)
        for card in cards:
            for section in card.joust or ():
                calls = Counter[str](section.starting.values()) + Counter[str](section.after)
                _need_backs(calls, have, need)
            for pas in card.pas or ():
                _need_backs(Counter[str](t for city in pas.cities for t in city), have, need)
    for k in knights:
        if len(cards) >= ROUNDS and k.type is not None and k.type not in types:
            continue
        for name in ("attack", "prestige", "glory"):
            if getattr(k, name) is None:
                need(
                    f"knights[{k.name}].{name}",
                    "set up and fight the Tournament Knights (§3.3, §6)",
                )
        if k.type == "veteran" and k.removes is None:
            need(f"knights[{k.name}].removes", "know which dice a Veteran takes away (§5.2)")
    if kind == "joust" and not opts.first_game:
        prizes = [p for p in data.prizes]
        if len(prizes) < ROUNDS:
            need("prizes", "draw an unused Tournament Prize token each round (§3.3 step 3)")
        for p in prizes:
            if p.reward is None:
                need(f"prizes[{p.id}].reward", "award the Joust prize (§4.6)")


def _need_backs(calls: Counter[str], have: Counter[str], need: Need) -> None:
    """A Tournament section calling for more Knights of a back than the box holds (possible
    once unsayable Knights are left out; ``data_check`` refuses it in a whole box)."""
    for back, n in sorted(calls.items()):
        if n > have[back]:
            need(f"knights ({back})", f"set up a Tournament section with {n} {back} Knights (§3.3)",
                 "knights")  # fmt: skip


def _need_solo(data: BoxData, opts: Options, need: Need) -> None:
    basic = [s for s in data.solo if s.personality == "basic"]
    if len(basic) < SOLO_BASIC:
        need("solo (basic)", "shuffle SIR's deck of 9 basic solo cards (Appendix A)", "solo")
    if opts.personality is not None:
        cards = [s for s in data.solo if s.personality == opts.personality]
        if len(cards) < SOLO_PERSONALITY:
            need(f"solo ({opts.personality})", "add the 2 personality cards to SIR's deck", "solo")
    if opts.solo == "rywal" and opts.sir_knight:
        knight = data.knights.get(opts.sir_knight)
        if knight is None:  # left out as unsayable
            need(f"knights[{opts.sir_knight}]", "fight as SIR with this Knight's values")
            return
        for name in ("attack", "prestige"):
            if getattr(knight, name) is None:
                need(f"knights[{knight.name}].{name}", "fight as SIR with this Knight's values")
    elif opts.solo == "rywal":
        levels = (opts.difficulty,) if opts.difficulty else get_args(RivalLevel)
        for level in levels:
            sir = data.rival.get(level)
            if sir is None or sir.attack is None or sir.prestige is None:
                need(f"rival.{level}", "fight as SIR at this difficulty (Appendix A)")


_SEGMENT = re.compile(r"(\.[^.\[\]]+|\[[^\]]*\])$")


def _where(data: BoxData, what: str) -> str:
    """Where a missing value is printed: the data's note for the path, or a more general one
    (``titles[silny].glory`` → ``titles[*].glory`` → ``titles[silny]`` → ``titles[*]`` →
    ``titles``); a Knight's own ``missing`` note."""
    if what.startswith("knights["):
        knight = data.knights.get(what[len("knights[") : what.rfind("]")])
        if knight is not None and knight.missing:
            return knight.missing
    exact = what
    while exact:
        for key in (exact, re.sub(r"\[[^\]]*\]", "[*]", exact)):
            if key in data.missing:
                return data.missing[key]
        cut = _SEGMENT.search(exact)
        exact = exact[: cut.start()] if cut else ""
    return DEFAULT_WHERE


def require_complete(
    data: BoxData, players: int, options: dict[str, Any], *, simulate: bool = False
) -> None:
    """Refuse to start a game whose data lack a value it needs: a ``RuleViolation`` with one
    ``data/missing`` violation per value (``missing_for``), each naming it."""
    missing = missing_for(data, players, options, simulate=simulate)
    if missing:
        raise RuleViolation(
            [replace(m, where=f"the data file ({m.where})").violation() for m in missing]
        )
