"""A new game set up from the host's page: which game, the seats with their names, the options.

The host page offers what ``choices()`` lists (every registered game with its player counts, its
options with their rulebook references and its shipped data sets) and sends back a ``setup``
object with its ``start`` intent; ``read_setup`` checks it and says what is wrong in a catalog
sentence, so a bad form changes nothing. Seats are colours (the pages draw a seat in its colour);
each may carry a name the players chose, shown beside the colour everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bridge import gamedata
from bridge.box.drafts import drafts
from bridge.box.errors import BoxError
from bridge.box.file import box_data
from bridge.box.library import listed, read_box_file
from bridge.game_files import camera_profile_path
from bridge.seats import SEAT_NAMES, family_colours, seat_names
from engine import data as engine_data
from engine import refs, registry, selfplay
from engine.game import Game
from engine.i18n import DEFAULT_LANG, has_message, ref_text
from engine.violations import InputError, RuleViolation
from vision.calibration import load_profile

MAX_NAME = 24
"""Longest seat name accepted (characters): a name must fit beside its colour on a phone."""


@dataclass(frozen=True)
class Setup:
    """A checked setup: the game, its seats in order, their names and the chosen options."""

    game: Game[Any, Any]
    seats: tuple[str, ...]
    names: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    auto_pass: bool | None = None
    """Whether a seat whose only option is a pass passes by itself (None: as the table had it)."""


class SetupError(ValueError):
    """A setup that cannot be used: ``code`` is the catalog sentence, ``params`` fill it."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


readable_ref = refs.readable
"""A rulebook reference as players read it (``engine.refs.readable``)."""


ColoursFor = Callable[[str], tuple[str, ...]]
"""The seat colours a table can seat for a game (its camera's stickers name them), in order."""


@cache
def sticker_colours(key: str) -> tuple[str, ...]:
    """The seat colours the game's built-in camera profile names (its seat stickers, in order),
    those the pages can name: a camera table seats these (magenta and white, say)."""
    path = camera_profile_path(key)
    if path is None:
        return ()
    profile = load_profile(path)
    colours: list[str] = []
    for _, label in sorted(profile.markers.items()):
        kind, _, seat = label.partition(":")
        if kind == profile.seat_sticker and seat and seat not in colours:
            colours.append(seat)
    return tuple(c for c in colours if has_message(f"ui/colour-{c}"))


def seat_colours(key: str) -> tuple[str, ...]:
    """Every colour a seat of this game may take: the pages' colours, then its stickers'."""
    return (*SEAT_NAMES, *(c for c in sticker_colours(key) if c not in SEAT_NAMES))


def _jsonable(value: Any) -> Any:
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def start_options(game: Game[Any, Any]) -> dict[str, Any]:
    """The options the form starts from: the game's defaults, or, for a game that cannot start
    with them (its printed data incomplete), its first simulated setup's (as ``herald serve``)."""
    info = game.info
    defaults = info.option_defaults()
    seats = seat_names(max(info.min_players, min(3, info.max_players)))
    try:
        engine_data.setup(game, seats, dict(defaults), gamedata.load(game, defaults))
        return defaults
    except (InputError, RuleViolation):
        return {**defaults, **selfplay.setups(game, len(seats))[0].options}


BOX_PREFIX = "box:"
"""How the form names a box kept at the table in the data option."""
DRAFT_PREFIX = "draft:"
"""How the form names a draft (listed, never played: ``bridge.box.drafts``)."""


def choices(
    library: Path | None = None, colours_for: ColoursFor | None = None, lang: str = DEFAULT_LANG
) -> dict[str, Any]:
    """What the host page may choose: every registered game, its seats, options and data sets
    (the shipped ones and the boxes kept in ``library``, each as ``box:<file>`` with its name),
    each option's rulebook reference in ``lang``.

    ``colours_for`` names the colours this table can seat for a game (a camera table: its
    stickers'), which the form offers first and starts from; None: every colour a seat may take.
    """
    games = []
    for key in registry.game_keys():
        game = registry.get_game(key)
        info = game.info
        colours = colours_for(key) if colours_for is not None else seat_colours(key)
        count = max(info.min_players, min(3, info.max_players))
        spec = engine_data.data_spec(game)
        options = [
            {
                "name": o.name,
                "default": _jsonable(o.default),
                "choices": [_jsonable(c) for c in o.choices],
                "ref": ref_text(o.ref, lang),
                "doc": o.doc,
            }
            for o in info.options
        ]
        games.append(
            {
                "key": key,
                "name": info.name,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "options": options,
                "start": {k: _jsonable(v) for k, v in start_options(game).items()},
                "data_option": spec.option if spec else None,
                "data_sets": sorted(spec.shipped) if spec else [],
                "colours": list(colours),
                "seats": list(colours[:count]),
                "data_boxes": kept_boxes(key, library) if spec else [],
            }
        )
    return {"games": games, "colours": list(SEAT_NAMES)}


def kept_boxes(key: str, library: Path | None) -> list[dict[str, Any]]:
    """The boxes of game ``key`` kept at the table, as the form offers them, each with the
    families' colours its players are seated by (``bridge.seats.family_colours``; a box that can
    no longer be read is left out: ``herald box check`` says why)."""
    if library is None:
        return []
    out: list[dict[str, Any]] = []
    game = registry.get_game(key)
    for path in listed(library, key):
        try:
            box = read_box_file(path)
            colours = family_colours(game, box_data(game, box, str(path.resolve())))
        except BoxError:
            continue
        out.append({"value": f"{BOX_PREFIX}{path.name}", "name": box.name,
                    "colours": list(colours)})  # fmt: skip
    for path in drafts(library, key):  # listed as drafts, never started (the form disables them)
        try:
            name = read_box_file(path).name
        except BoxError:
            continue
        out.append({"value": f"{DRAFT_PREFIX}{path.name}", "name": name, "colours": [],
                    "draft": True})  # fmt: skip
    return out


def read_setup(data: Any, library: Path | None = None) -> Setup:
    """The setup a host page sent, checked; ``SetupError`` names the first thing wrong. A data
    option ``box:<file>`` names a box kept in ``library``: the options keep its path."""
    if not isinstance(data, dict):
        raise SetupError("setup/malformed")
    key = data.get("game")
    if not isinstance(key, str) or key not in registry.game_keys():
        raise SetupError("setup/unknown-game", game=str(key)[:40])
    game = registry.get_game(key)
    info = game.info
    seats_in = data.get("seats")
    if not isinstance(seats_in, list):
        raise SetupError("setup/malformed")
    options = _options(game, data.get("options", {}), library)
    allowed = (*seat_colours(key), *_box_colours(game, options))
    if not info.min_players <= len(seats_in) <= info.max_players:
        raise SetupError("setup/players", game=info.name, low=info.min_players,
                         high=info.max_players, count=len(seats_in))  # fmt: skip
    seats: list[str] = []
    names: dict[str, str] = {}
    for entry in seats_in:
        seat = entry.get("seat") if isinstance(entry, dict) else None
        if seat not in allowed:
            raise SetupError("setup/colour", colour=str(seat)[:20])
        if seat in seats:
            raise SetupError("setup/colour-twice", colour=seat)
        name = entry.get("name", "")
        if not isinstance(name, str) or len(name.strip()) > MAX_NAME:
            raise SetupError("setup/name", colour=seat, limit=MAX_NAME)
        seats.append(seat)
        if name.strip():
            names[seat] = name.strip()
    auto_pass = data.get("auto_pass")
    if auto_pass is not None and not isinstance(auto_pass, bool):
        raise SetupError("setup/malformed")
    return Setup(game, tuple(seats), names, options, auto_pass)


def _box_colours(game: Game[Any, Any], options: dict[str, Any]) -> tuple[str, ...]:
    """The families' colours of the box or data file the options play on (its seats)."""
    spec = engine_data.data_spec(game)
    if spec is None or options.get(spec.option) in (None, *spec.shipped):
        return ()
    try:
        return family_colours(game, gamedata.load(game, options))
    except InputError:
        return ()  # the game refuses the box when it starts, in its own sentence


def _kept_path(key: str, value: Any, library: Path | None) -> Path | None:
    """The kept box a ``box:<file>`` value names (only a file listed in the library for this
    game: a name is never joined to a path)."""
    if library is None or not isinstance(value, str) or not value.startswith(BOX_PREFIX):
        return None
    name = value[len(BOX_PREFIX) :]
    return next((p for p in listed(library, key) if p.name == name), None)


def _options(game: Game[Any, Any], given: Any, library: Path | None) -> dict[str, Any]:
    """The options given, each one the game declares with one of its choices (or a shipped data
    set for the data option); what is not given keeps its default."""
    if not isinstance(given, dict):
        raise SetupError("setup/malformed")
    specs = {o.name: o for o in game.info.options}
    spec = engine_data.data_spec(game)
    out: dict[str, Any] = {}
    for name, value in given.items():
        option = specs.get(name)
        if option is None:
            raise SetupError("setup/option", option=str(name)[:40])
        if spec is not None and name == spec.option:
            kept = _kept_path(game.info.key, value, library)
            if kept is not None:
                value = str(kept.resolve())
            elif value not in spec.shipped:
                raise SetupError("setup/option-value", option=name, value=str(value)[:40])
        elif option.choices and value not in option.choices:
            raise SetupError("setup/option-value", option=name, value=str(value)[:40])
        out[name] = value
    return out
