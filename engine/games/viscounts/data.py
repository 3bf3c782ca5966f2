"""Viscounts of the West Kingdom's printed data as one typed value, ``ViscountsData``.

The rulebook seed (digest §2, §11 item 1) counts the components but prints almost none of
their contents: no Townsfolk, Manuscript, Player, Church Favour or Scheme card texts, no town
exchanges, building sites, Connections or Castle level-2 effects, no track bonuses, no stack
sizes. ``data/box.json`` ships what the seed gives, every other value ``null`` with a note
under ``missing`` (by path, with the seed lines that come closest);
``data/stand-in-invented.json`` is a complete invented set, marked ``invented`` throughout, so
an engine can play and simulate now. The types are in ``data_types``. Card effects are text in
the effect grammar (``effects``, docs/viscounts-effects.md), read when the data are parsed: a
card whose effect does not read is refused, naming card and part.

``SPEC`` is the package's ``data_spec`` (``engine.data``): option ``data`` = ``"stand-in"``
(default), ``"box"``, a user's file or an inline object; ``parse_data`` is pure over what the
caller read. ``data_gaps`` lists what a data set leaves unknown; ``refusals`` is why a game of a
player count cannot start with it, one ``Violation`` per value, each naming it.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import fields, is_dataclass
from typing import Any, cast

import jsonschema

from engine.data import DataDoc, DataSpec, GameData, Provenance, parse_json, top_level_provenance
from engine.games.viscounts.data_types import (
    COUNTS,
    PLAYERS,
    AiBoard,
    Board,
    BuildingType,
    Castle,
    ChurchFavour,
    Connection,
    Deck,
    Kingdom,
    Manuscript,
    Path,
    PlayerCard,
    SchemeCard,
    Side,
    Site,
    Town,
    Townsfolk,
    Track,
    ViscountsData,
)
from engine.games.viscounts.effects import (
    Ability,
    Effect,
    Symbol,
    parse_ability,
    parse_effect,
    symbols_of,
)
from engine.games.viscounts.schemas import DATA_SCHEMA
from engine.games.viscounts.sources import GAME_KEY, REF, Missing
from engine.violations import InputError, Violation

BUILTIN_SETS: dict[str, str] = {"stand-in": "stand-in-invented.json", "box": "box.json"}
DEFAULT_SET = "stand-in"

PARTS = COUNTS["board_parts"]
"""One printed Townsfolk and one printed Manuscript under each board part's deck and stack."""

SHOWN_ONLY = ("name_pl", "multiplier", "colours")
"""Field names whose gaps are only shown, never a reason to refuse a game: the Polish card
names, the Multiplier factor (the referee keeps counts as a ledger), the colours' names."""


# --- reading ---------------------------------------------------------------------------------


def data_schema() -> dict[str, Any]:
    """The JSON Schema of a data file (``schemas.DATA_SCHEMA``, shipped as
    ``data/data.schema.json``); a copy the caller may change."""
    return copy.deepcopy(DATA_SCHEMA)


def schema_error(doc: object) -> InputError | None:
    """The clearest schema error of ``doc`` as an ``InputError`` naming its JSON path."""
    validator = jsonschema.validators.validator_for(DATA_SCHEMA)(DATA_SCHEMA)
    error = jsonschema.exceptions.best_match(validator.iter_errors(cast(Any, doc)))
    if error is None:
        return None
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return InputError("input/schema", f"{path}: {error.message}", path)


def _eff(text: str | None, card: str, part: str, place: Any = "effect") -> Effect | None:
    return None if text is None else parse_effect(text, card, part, place)


def _abl(text: str | None, card: str, part: str = "ability") -> Ability | None:
    return None if text is None else parse_ability(text, card, part)


def _syms(raw: list[str] | None, card: str) -> tuple[Symbol, ...] | None:
    return None if raw is None else symbols_of(raw, card)


def _townsfolk(c: dict[str, Any]) -> Townsfolk:
    name = str(c["name"])
    return Townsfolk(
        id=str(c["id"]),
        name=name,
        deck=cast("Deck | None", c["deck"]),
        count=int(c.get("count", 1)),
        value=c.get("value"),
        symbols=_syms(c.get("symbols"), name),
        hire=_eff(c.get("hire"), name, "hire"),
        ability=_abl(c.get("ability"), name),
        colour=c.get("colour"),
        name_pl=c.get("name_pl"),
        invented=bool(c.get("invented", False)),
        source=str(c.get("source", "")),
    )


def _board(raw: dict[str, Any] | None) -> Board | None:
    if raw is None:
        return None
    towns = tuple(
        Town(
            str(t["id"]),
            int(t["part"]),
            cast(Path, t["path"]),
            t.get("number"),
            tuple(str(n) for n in t["next"]),
            t.get("exchange"),
            t.get("side"),
        )
        for t in raw["towns"]
    )
    sites = tuple(
        Site(
            str(s["id"]),
            int(s["part"]),
            cast(Side, s["side"]),
            _eff(s.get("bonus"), f"site {s['id']}", "bonus"),
        )
        for s in raw["sites"]
    )
    links = tuple(
        Connection(
            (str(k["sites"][0]), str(k["sites"][1])),
            _eff(k.get("effect"), f"connection {k['sites'][0]}-{k['sites'][1]}", "effect"),
        )
        for k in raw["connections"]
    )
    return Board(towns, sites, links, tuple(int(n) for n in raw["sides"]))


def _effects(
    raw: list[str | None] | None, card: str, part: str
) -> tuple[Effect | None, ...] | None:
    if raw is None:
        return None
    return tuple(_eff(t, card, f"{part}[{i}]") for i, t in enumerate(raw))


def parse_doc(doc: object, *, trusted: bool = False) -> ViscountsData:
    """A decoded data document as ``ViscountsData``: ``InputError`` (``input/schema``) naming
    the JSON path of the clearest fault if it does not fit the schema, an ``EffectError``
    (``input/effect``) naming the card and part whose effect does not read, or ``input/data``
    for data that contradict the rules (``data_problems``). ``trusted``: a shipped set is not
    validated against the schema again at each load. Pure: the caller reads the file."""
    error = None if trusted else schema_error(doc)
    if error is not None:
        raise error
    raw = cast(dict[str, Any], doc)
    castle, track, kingdom = raw["castle"], raw["track"], raw["kingdom"]
    value = ViscountsData(
        name=str(raw["name"]),
        colours=tuple(raw["colours"]),
        townsfolk=tuple(_townsfolk(c) for c in raw["townsfolk"]),
        manuscripts=tuple(
            Manuscript(
                str(m["id"]),
                m["back"],
                m.get("ribbon"),
                m.get("cost"),
                _eff(m.get("effect"), f"manuscript {m['id']}", "effect"),
                _eff(m.get("scoring"), f"manuscript {m['id']}", "scoring", "scoring"),
                bool(m.get("invented", False)),
                str(m.get("source", "")),
            )
            for m in raw["manuscripts"]
        ),
        church_favour=tuple(
            ChurchFavour(
                str(f["id"]),
                f.get("ribbon"),
                int(f.get("vp", 3)),
                _abl(f.get("ability"), f"Church Favour {f['id']}"),
                bool(f.get("invented", False)),
                str(f.get("source", "")),
            )
            for f in raw["church_favour"]
        ),
        player_cards=tuple(
            PlayerCard(
                int(p["number"]),
                _eff(p.get("gains"), f"Player card {p['number']}", "gains"),
                _eff(p.get("extra"), f"Player card {p['number']}", "extra"),
                bool(p.get("anywhere", False)),
                bool(p.get("invented", False)),
            )
            for p in raw["player_cards"]
        ),
        schemes=tuple(
            SchemeCard(
                str(s["id"]),
                s["kind"],
                _syms(s.get("symbols"), f"Scheme {s['id']}"),
                None
                if s.get("steps") is None
                else tuple(
                    parse_effect(t, f"Scheme {s['id']}", f"steps[{i}]", "scheme")
                    for i, t in enumerate(s["steps"])
                ),
                bool(s.get("invented", False)),
            )
            for s in raw["schemes"]
        ),
        ais=tuple(
            AiBoard(
                str(a["id"]),
                a.get("goal"),
                _eff(a.get("start"), f"AI {a['id']}", "start"),
                None if a.get("removes") is None else tuple(a["removes"]),
                None if a.get("priority") is None else tuple((str(r), u) for r, u in a["priority"]),
                a.get("min_workers"),
                bool(a.get("invented", False)),
            )
            for a in raw["ais"]
        ),
        printed_townsfolk=tuple(
            _townsfolk({**c, "deck": None}) for c in raw.get("printed_townsfolk", ())
        ),
        printed_manuscripts=tuple(
            Manuscript(
                str(m["id"]),
                "printed",
                None,
                m.get("cost"),
                _eff(m.get("effect"), f"printed manuscript {m['id']}", "effect"),
                None,
                bool(m.get("invented", False)),
                str(m.get("source", "")),
            )
            for m in raw.get("printed_manuscripts", ())
        ),
        starting_icons=None
        if raw.get("starting_icons") is None
        else tuple(_syms(k, "starting icons") for k in raw["starting_icons"]),
        board=_board(raw["board"]),
        castle=Castle(
            castle.get("level1"),
            None if castle.get("inward") is None else tuple(castle["inward"]),
            _effects(castle.get("level2"), "Castle", "level2"),
        ),
        buildings=tuple(
            BuildingType(
                str(b["kind"]),
                int(b["cost"]),
                tuple(b["vp"]),
                tuple(
                    _abl(t, f"{b['kind']} {i + 1}", "ability") for i, t in enumerate(b["abilities"])
                ),
            )
            for b in raw["buildings"]
        ),
        track=Track(
            track.get("spaces"),
            _effects(track.get("above"), "track", "above"),
            _effects(track.get("below"), "track", "below"),
        ),
        kingdom=Kingdom(
            {int(k): v for k, v in kingdom["poverty"].items()},
            {int(k): v for k, v in kingdom["prosperity"].items()},
        ),
        set_vp=tuple(raw["set_vp"]),
        multiplier=raw.get("multiplier"),
        invented=bool(raw.get("invented", False)),
        verified=bool(raw.get("verified", False)),
        source=str(raw.get("source", "")),
        missing={str(k): str(v) for k, v in raw.get("missing", {}).items()},
        notes={str(k): str(v) for k, v in raw.get("notes", {}).items()},
        doc=raw,
    )
    problems = data_problems(value)
    if problems:
        raise InputError("input/data", "; ".join(problems), "$")
    return value


def data_problems(d: ViscountsData) -> list[str]:
    """What in ``d`` contradicts the rules whatever the printed values: a repeated id, more
    cards of a kind than the box has (digest §2), a Starting card without its colour, a town
    whose arrow leads nowhere, an outer town without an exchange. Each a sentence naming the
    place (empty: none)."""
    out: list[str] = []
    for what, ids in (
        ("Townsfolk", [c.id for c in (*d.townsfolk, *d.printed_townsfolk)]),
        ("Manuscript", [m.id for m in (*d.manuscripts, *d.printed_manuscripts)]),
        ("Church Favour", [f.id for f in d.church_favour]),
        ("Player card", [str(p.number) for p in d.player_cards]),
        ("Scheme", [s.id for s in d.schemes]),
        ("AI", [a.id for a in d.ais]),
    ):
        out += [f"the {what} {i!r} is listed twice" for i, n in Counter(ids).items() if n > 1]
    for deck, most in (("common", COUNTS["common"]), ("famous", COUNTS["famous"])):
        if d.deck_count(cast(Deck, deck)) > most:
            out.append(f"more than {most} {deck} Townsfolk")
    for c in d.townsfolk:
        if c.deck is not None and (c.deck == "starting") != (c.colour is not None):
            out.append(
                f"townsfolk[{c.id}]: a colour belongs to Starting cards only, and each has one"
            )
    for colour in range(COUNTS["colours"]):
        if d.deck_count("starting", colour) > COUNTS["starting_per_colour"]:
            out.append(f"more than 8 Starting Townsfolk of colour {colour}")
    for back, most in (("grey", 5), ("black", 30)):
        if sum(m.back == back for m in d.manuscripts) > most:
            out.append(f"more than {most} {back}-backed Manuscripts")
    if d.board is not None:
        towns = {t.id for t in d.board.towns}
        out += [
            f"board.towns[{t.id}]: an arrow leads to {n!r}, which is no town"
            for t in d.board.towns
            for n in t.next
            if n not in towns
        ]
        out += [
            f"board.towns[{t.id}]: an outer town needs an exchange and a River side"
            for t in d.board.towns
            if t.path == "outer" and (t.exchange is None or t.side is None)
        ]
        sites = {s.id for s in d.board.sites}
        out += [
            f"board.connections: {a}-{b} links a site the board does not list"
            for k in d.board.connections
            for a, b in [k.sites]
            if a not in sites or b not in sites
        ]
        numbers = Counter(t.number for t in d.board.towns if t.number is not None)
        out += [
            f"board.towns: two towns have the red number {n}" for n, k in numbers.items() if k > 1
        ]
        out += [
            f"player_cards[{p.number}]: no town has the red number {p.number}"
            for p in d.player_cards
            if p.number not in numbers
        ]
    out += _castle_and_track_problems(d)
    schemes = {s.id for s in d.schemes}
    out += [
        f"ais[{a.id}].removes: {s!r} is no Scheme card"
        for a in d.ais
        for s in a.removes or ()
        if s not in schemes
    ]
    return out


def _castle_and_track_problems(d: ViscountsData) -> list[str]:
    """The Castle's inward map must name a level-2 section for each level-1 one; the track's
    bonus lists one per space (digest §5.3, §4 phase 5)."""
    out: list[str] = []
    c = d.castle
    if c.inward is not None:
        if c.level1 is not None and len(c.inward) != c.level1:
            out.append(f"castle.inward: {len(c.inward)} entries for {c.level1} level-1 sections")
        if c.level2 is not None:
            out += [
                f"castle.inward[{i}]: level-2 section {j} does not exist"
                for i, j in enumerate(c.inward)
                if j >= len(c.level2)
            ]
    t = d.track
    for name, bonuses in (("above", t.above), ("below", t.below)):
        if t.spaces is not None and bonuses is not None and len(bonuses) != t.spaces:
            out.append(f"track.{name}: {len(bonuses)} bonuses for {t.spaces} spaces")
    return out


def parse_data(source: DataDoc) -> ViscountsData:
    """The ``ViscountsData`` a data document describes. ``"extends": "stand-in"`` (or
    ``"box"``) takes every field the document leaves out from that shipped set, so a user can
    give just the Townsfolk of their box, say."""
    raw = source.doc
    if not isinstance(raw, dict):
        raise InputError("input/schema", f"{source.source}: a data document is a JSON object", "$")
    doc = dict(raw)
    base = doc.pop("extends", None)
    if base is not None:
        file = BUILTIN_SETS.get(base) if isinstance(base, str) else None
        if file is None:
            known = ", ".join(BUILTIN_SETS)
            raise InputError(
                "input/data", f"extends names a shipped set ({known}), not {base!r}", "$.extends"
            )
        doc = {**parse_json(source.shipped(file), file), **doc}
    value = parse_doc(doc, trusted=source.builtin)
    if source.builtin and value.name != source.source:
        raise InputError("input/data", f"the shipped {source.source!r} set is named {value.name!r}")
    return value


def _kept(data: GameData) -> Any:
    """What a state holds of the data: the document itself (``VState.doc``)."""
    return cast(ViscountsData, data.value).doc


def provenance(doc: DataDoc) -> Provenance:
    """What of a document that ``extends`` a shipped set is still that set's (``engine.data``)."""
    return top_level_provenance(doc, BUILTIN_SETS)


SPEC = DataSpec(
    option="data",
    default=DEFAULT_SET,
    shipped=BUILTIN_SETS,
    parse=parse_data,
    provenance=provenance,
    in_state="doc",
    kept=_kept,
)
"""The game's data declaration (``engine.data``): the ``data`` option names the set; the
default is the invented stand-in, so a game can be played now. A state file may hold
``"doc": {"set": "stand-in", "digest": "sha256:…"}`` instead of the 33 KB document."""


# --- what a game needs and the data lack ------------------------------------------------------

_REF_OF = {
    "townsfolk": "townsfolk",
    "manuscripts": "manuscripts",
    "church_favour": "church-favour",
    "player_cards": "player-cards",
    "schemes": "solo",
    "ais": "solo",
    "board": "board",
    "castle": "castle",
    "buildings": "buildings",
    "track": "track",
    "kingdom": "kingdom",
    "set_vp": "scoring",
    "printed_townsfolk": "printed-townsfolk",
    "printed_manuscripts": "printed-manuscripts",
    "starting_icons": "starting-icons",
}


def _nulls(value: Any, path: str, out: list[str]) -> None:
    """Every path under ``value`` that holds ``None``, items named by their id."""
    if value is None:
        out.append(path)
    elif isinstance(value, Effect | Ability):
        return  # a read effect is whole; its None fields mean "none", not "unknown"
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            if f.name in ("priority",) and getattr(value, f.name) is not None:
                continue  # the last resource's "until" is None: no limit
            if f.name not in ("invented", "source", "verified", "missing", "notes", "doc"):
                _nulls(getattr(value, f.name), f"{path}.{f.name}", out)
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            key = (
                getattr(item, "id", None)
                or getattr(item, "number", None)
                or getattr(item, "kind", None)
            )
            _nulls(item, f"{path}[{key if key is not None else i}]", out)
    elif isinstance(value, dict):
        for k, v in value.items():
            _nulls(v, f"{path}[{k}]", out)


_OPTIONAL_NULLS = ("hire", "ability", "effect", "scoring", "extra", "bonus", "name_pl", "exchange",
                   "side", "number")  # fmt: skip
"""Fields a complete card may leave empty: not every card has a hire effect or an ability,
not every Manuscript a scoring condition. A stand-in leaves them ``null`` on purpose; only the
box lists them (its ``missing`` notes say they are unknown, not absent)."""


_NOT_PRINTED = ("deck", "ribbon", "ability", "scoring")
"""What a card or tile printed on the board does not have: it lies in no deck, has no ribbon
(it is never taken), no ability, no end-game scoring (seed L652-654, L672-674)."""


def data_gaps(d: ViscountsData, *, everything: bool = False) -> list[Missing]:
    """What ``d`` leaves unknown: each ``null`` the file holds (a value the box prints that the
    seed lacks) and each list holding fewer items than the box has (digest §2 counts).

    In a stand-in (``invented``) a ``null`` of a card's optional part means the card has no
    such part; in the box set every ``null`` is unknown. ``everything=False`` keeps only what
    the rules need (``Missing.needed``)."""
    out: list[Missing] = []

    def gap(what: str, code: str, ref: str, needed: bool = True, **params: Any) -> None:
        if needed or everything:
            out.append(Missing(what, code, Missing.note_for(d.missing, what), ref, params, needed))

    short = (
        ("townsfolk", "common", d.deck_count("common"), COUNTS["common"]),
        ("townsfolk", "famous", d.deck_count("famous"), COUNTS["famous"]),
        ("townsfolk", "starting", d.deck_count("starting"), 4 * COUNTS["starting_per_colour"]),
        ("manuscripts", "manuscripts", len(d.manuscripts), 35),
        ("church_favour", "church_favour", len(d.church_favour), COUNTS["church_favour"]),
        ("player_cards", "player_cards", len(d.player_cards), COUNTS["player_cards"]),
        ("schemes", "schemes", len(d.schemes), 16),
        ("ais", "ais", len(d.ais), COUNTS["ais"]),
        ("printed_townsfolk", "printed_townsfolk", len(d.printed_townsfolk), PARTS),
        ("printed_manuscripts", "printed_manuscripts", len(d.printed_manuscripts), PARTS),
    )
    for path, kind, have, want in short:
        if have < want:
            gap(path, f"data/incomplete-{kind}", REF[_REF_OF[path]], count=have, total=want)
    if d.board is None:
        gap("board", "data/unknown-value", REF["board"])
    unsayable = unsayable_cards(d.doc)
    for what, printed, lacking in unsayable:
        gap(what, "data/missing-vocabulary", REF["data"], printed=printed, lacking=lacking)
    for top in _REF_OF:
        found: list[str] = []
        _nulls(getattr(d, top), top, found)
        for what in found:
            if what == "board" or any(what.startswith(f"{u}.") for u, _, _ in unsayable):
                continue
            leaf = what.rsplit(".", 1)[-1]
            if leaf == "colour":
                continue  # only a Starting card has one; its deck's gap covers an unknown deck
            if top.startswith("printed_") and leaf in _NOT_PRINTED:
                continue
            if d.invented and leaf in _OPTIONAL_NULLS:
                continue
            needed = leaf not in SHOWN_ONLY
            gap(what, "data/unknown-value", REF[_REF_OF[top]], needed)
    if d.multiplier is None:
        gap("multiplier", "data/unknown-value", REF["components"], False)
    for i, colour in enumerate(d.colours):
        if colour is None:
            gap(f"colours[{i}]", "data/unknown-value", REF["components"], False)
    return out


UNSAYABLE_IN = ("townsfolk", "manuscripts", "church_favour", "player_cards", "schemes",
                "printed_townsfolk", "printed_manuscripts")  # fmt: skip
"""The cards a data file may mark ``unsayable`` (the schema allows it on each)."""


def unsayable_cards(doc: Any) -> list[tuple[str, str, str]]:
    """``(path, printed, missing)`` of each card marked ``"unsayable": {"printed": ...,
    "missing": ...}``: a printed text the effect vocabulary cannot say. Such a card is a named
    gap (the box does not start a game until it is said), never guessed into another effect;
    its other unknown fields are not listed again."""
    out: list[tuple[str, str, str]] = []
    if not isinstance(doc, dict):
        return out
    for top in UNSAYABLE_IN:
        for item in doc.get(top) or ():
            if isinstance(item, dict) and isinstance(item.get("unsayable"), dict):
                key = item.get("id", item.get("number"))
                said = item["unsayable"]
                out.append((f"{top}[{key}]", str(said["printed"]), str(said["missing"])))
    return out


def read_players(players: object) -> int:
    """The player count, refused unless 1 to 4 (digest §1, §8)."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
        raise InputError("input/players", f"Viscounts is for 1 to 4 players, not {players!r}")
    return players


def refusals(d: ViscountsData, players: int) -> list[Violation]:
    """Why a game of ``players`` cannot start with ``d``: every value it needs and lacks, and
    a board side that does not fit the count. Empty: the game may start."""
    read_players(players)
    out = [g.violation() for g in data_gaps(d)]
    if d.board is not None and players not in d.board.sides:
        out.append(Violation("data/board-side", REF["board"], {"players": players}, GAME_KEY))
    return out


__all__ = [
    "COUNTS",
    "GAME_KEY",
    "PLAYERS",
    "SPEC",
    "ViscountsData",
    "data_gaps",
    "parse_data",
    "parse_doc",
    "refusals",
    "unsayable_cards",
]
