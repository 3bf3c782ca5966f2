"""A game's box data: what is printed on its components, loaded at the edge and handed in.

The rules are pure: they read no file and keep no cache. A game whose printed contents are data
(a tile distribution, card texts, prices, dice faces) declares a :class:`DataSpec` as its
``data_spec``: the option that names the data, the sets shipped in its package's ``data/``
folder, and a pure ``parse`` from the JSON document to the game's typed value. The caller (the
CLI, the referee, whoever starts a session or a simulation) loads the named set once with
:func:`load` and hands the :class:`GameData` to ``setup``, which keeps the value in the state.

Shipped sets are read through the registry's package files, as the message catalogs are; a
user's own file is read by the ``read`` function the caller passes in (``bridge.gamedata``), so
nothing in engine/ opens a path a user named. The digest of the parsed value goes into the
session's log header (``engine.log``): a replay with other data is refused, naming both digests.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from engine import codec, registry
from engine.capabilities import HAS_DATA, capability
from engine.violations import InputError

Reader = Callable[[str], str]
"""The text of a named file; raises ``InputError`` (``input/file``) when it cannot be read."""

INLINE = "inline"
"""The source of data given as a JSON object in the options rather than named."""


@dataclass(frozen=True)
class DataDoc:
    """What a game's ``parse`` gets: one document and the means to read the files it names.

    ``source`` is what the options named (a shipped set's name, a path, or ``"inline"``);
    ``beside`` reads a file named in the document, beside it; ``shipped`` reads a file of the
    game's own ``data/`` folder (a document may extend a shipped set). ``builtin`` is true for
    a set shipped with the game (its format is checked by the game's tests, not at each load).
    """

    source: str
    doc: Any
    beside: Reader
    shipped: Reader
    builtin: bool = False


META_KEYS = frozenset({"$schema", "format", "name", "invented", "verified", "source", "missing",
                       "notes", "incomplete", "extends"})  # fmt: skip
"""Keys that describe a data document rather than hold a printed value."""


def count_values(doc: Any, top: bool = True) -> int:
    """The printed values a document gives: every scalar that is not null, the document's own
    notes (``source``, ``missing``…) aside."""
    if isinstance(doc, dict):
        return sum(count_values(v, False) for k, v in doc.items() if not (top and k in META_KEYS))
    if isinstance(doc, list):
        return sum(count_values(v, False) for v in doc)
    return 0 if doc is None else 1


@dataclass(frozen=True)
class Provenance:
    """Where a data set's values come from when its document ``extends`` a shipped set.

    A group's box that extends the stand-in is labelled by what it is: the values it sets are
    its own (checked against its copy when it says ``"verified": true``), those it leaves to the
    shipped set are that set's (invented, for the stand-in). ``base`` names the set extended
    ("": none); ``taken`` the top-level fields taken from it; ``inherited`` the printed values
    they hold (:func:`count_values`, a file they name counted with its values: a map file, say);
    ``base_invented`` whether that set is invented; ``own_invented`` what the document itself
    says of ``invented`` (None: nothing); ``verified`` whether it says it was checked against a
    printed copy.
    """

    base: str = ""
    taken: tuple[str, ...] = ()
    inherited: int = 0
    base_invented: bool = False
    own_invented: bool | None = None
    verified: bool = False

    @property
    def invented_values(self) -> int:
        """How many values are still the shipped set's invented ones (0: none)."""
        return self.inherited if self.base_invented else 0


@dataclass(frozen=True)
class DataSpec:
    """How a game's data are named and parsed (a game's ``data_spec`` attribute).

    ``option``: the setup option naming the data (``None`` or missing: ``default``);
    ``shipped``: the sets in the package's ``data/`` folder, name → file; ``parse``: the pure
    function from a document to the typed value the rules use (``InputError`` with the JSON
    path of a fault); ``encode``: the value as JSON, from which the digest is taken.
    """

    option: str
    default: str
    shipped: Mapping[str, str]
    parse: Callable[[DataDoc], Any]
    encode: Callable[[Any], Any] = codec.encode
    provenance: Callable[[DataDoc], Provenance] | None = None
    """Where the values of an ``extends`` document come from (None: the game does not say)."""
    in_state: str | None = None
    kept: Callable[[GameData], Any] | None = None
    """``in_state``: the top-level field of the game's state that holds what the rules keep of
    the data; ``kept``: that field's JSON for loaded data. Declared, a state file may name its
    data set there instead of repeating it (:func:`expand_state`, :func:`compact_state`)."""


@dataclass(frozen=True)
class GameData:
    """A game's loaded data: where it came from, the digest of its content, the typed value."""

    source: str
    digest: str
    value: Any
    provenance: Provenance = Provenance()
    """What of the value is still a shipped set's (a document that ``extends`` one)."""

    def ref(self) -> dict[str, str]:
        """What a log header records: the source and the digest."""
        return {"source": self.source, "digest": self.digest}


def data_spec(game: object) -> DataSpec | None:
    """The game's data declaration, or None for a game whose rules need no data."""
    found = capability(game, HAS_DATA)
    spec = found.data_spec if found is not None else None
    return spec if isinstance(spec, DataSpec) else None


def digest(value: Any) -> str:
    """``sha256:`` of the canonical JSON of ``value`` (key order and spacing do not count)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_json(text: str, where: str) -> Any:
    """JSON from a data file's text; ``InputError`` (``input/json``) names the place."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            "input/json", f"{where} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from exc


def load(
    game: Any, options: Mapping[str, Any] | None = None, read: Reader | None = None
) -> GameData | None:
    """The data ``options`` name for ``game`` as a :class:`GameData`, or None when the game
    declares no data.

    The option's value is a shipped set's name, a JSON object (the document itself), or a
    path read with ``read`` (the caller's reader: without one a path is refused, since the
    engine opens no file a user named). ``InputError`` names a file that cannot be read or a
    document that breaks the game's format.
    """
    spec = data_spec(game)
    if spec is None:
        return None
    key = game.info.key
    source = (options or {}).get(spec.option)
    source = spec.default if source is None else source
    shipped = _shipped_reader(key)
    if isinstance(source, dict):
        doc = DataDoc(INLINE, source, _no_files, shipped)
    elif isinstance(source, str) and source in spec.shipped:
        file = spec.shipped[source]
        doc = DataDoc(source, parse_json(shipped(file), file), shipped, shipped, builtin=True)
    elif isinstance(source, str) and source:
        if read is None:
            raise InputError(
                "input/data",
                f"{key} data {source!r} is a file the caller reads; shipped sets: "
                f"{', '.join(spec.shipped)}",
                f"$.options.{spec.option}",
            )
        head, sep, _ = source.rpartition("/")  # a name in the file is read beside it
        folder = head + sep
        doc = DataDoc(source, parse_json(read(source), source), _beside(read, folder), shipped)
    else:
        raise InputError(
            "input/data",
            f"{spec.option} names a shipped set ({', '.join(spec.shipped)}), a file or a JSON "
            f"object, not {source!r}",
            f"$.options.{spec.option}",
        )
    return from_doc(game, doc)


def from_doc(game: Any, doc: DataDoc) -> GameData:
    """The game's data parsed from ``doc`` (its readers already chosen by the caller: a box file
    reads the files a document names from inside the box, never from the disk or the shipped
    sets). ``InputError`` names a document that breaks the game's format; ``ValueError`` for a
    game without data."""
    spec = data_spec(game)
    if spec is None:
        raise ValueError(f"{game.info.key} takes no data")
    value = spec.parse(doc)
    found = spec.provenance(doc) if spec.provenance is not None else Provenance()
    return GameData(doc.source, digest(spec.encode(value)), value, found)


def shipped_reader(key: str) -> Reader:
    """Reads a file of the game's own ``data/`` folder by name (what ``DataDoc.shipped`` is for a
    shipped set)."""
    return _shipped_reader(key)


def setup(
    game: Any,
    players: tuple[str, ...],
    options: dict[str, Any] | None = None,
    data: GameData | None = None,
) -> Any:
    """``game.setup`` with the game's data: ``data`` as loaded by the caller, or (None) the
    set the options name, loaded here (a shipped set or an inline object; a file needs the
    caller's reader, see :func:`load`)."""
    if data_spec(game) is None:
        if data is not None:
            raise InputError("input/data", f"{game.info.key} takes no data")
        return game.setup(tuple(players), options)
    if data is None:
        data = load(game, options)
    return game.setup(tuple(players), options, data)


def check_same(recorded: Mapping[str, str] | None, data: GameData | None) -> None:
    """Refuse to replay a session with data other than those it was started with: a log header
    records ``{"source", "digest"}`` and the loaded data must have that digest."""
    if recorded is None:
        return
    given = data.digest if data is not None else "none"
    if recorded.get("digest") != given:
        raise InputError(
            "input/data-digest",
            f"the session was played with data {recorded.get('source')!r} "
            f"({recorded.get('digest')}); the data loaded now differ ({given})",
            "$.data",
        )


REF_KEYS = frozenset({"set", "digest"})
"""A data reference in a state: ``{"set": NAME, "digest": "sha256:…"}`` (digest optional)."""


def reference(data: GameData) -> dict[str, str]:
    """The reference a state file may hold in place of ``data``'s content."""
    return {"set": data.source, "digest": data.digest}


def is_reference(held: Any) -> TypeGuard[dict[str, str]]:
    """Whether a state's data field is a reference rather than the data themselves."""
    return (
        isinstance(held, dict)
        and isinstance(held.get("set"), str)
        and bool(held["set"])
        and set(held) <= REF_KEYS
        and isinstance(held.get("digest", ""), str)
    )


def expand_state(game: Any, state: Any, read: Reader | None = None) -> Any:
    """A state's JSON with a data reference replaced by the data it names.

    People write positions by hand: a state whose data field (``DataSpec.in_state``) says
    ``{"set": "stand-in", "digest": "sha256:…"}`` gets the named set loaded (a shipped set,
    or a file through ``read``) and put in its place. A digest that differs from the set's
    content is refused naming both, so a position written against other data is never judged
    with these. Anything else is returned as it is.
    """
    spec = data_spec(game)
    if spec is None or spec.in_state is None or spec.kept is None or not isinstance(state, dict):
        return state
    held = state.get(spec.in_state)
    if not is_reference(held):
        return state
    where = f"$.{spec.in_state}"
    try:
        loaded = load(game, {spec.option: held["set"]}, read)
    except InputError as exc:
        raise InputError(exc.code, exc.detail, f"{where}.set") from exc
    assert loaded is not None
    wanted = held.get("digest")
    if wanted is not None and wanted != loaded.digest:
        raise InputError(
            "input/data-digest",
            f"the position names data {held['set']!r} with digest {wanted}; that set's digest "
            f"is {loaded.digest} (its content differs)",
            f"{where}.digest",
        )
    return {**state, spec.in_state: spec.kept(loaded)}


def compact_state(game: Any, state: Any, data: GameData | None) -> Any:
    """A state's JSON with its data field replaced by a reference to ``data`` when it holds
    exactly what ``data`` gives (data given inline have no name and stay embedded)."""
    spec = data_spec(game)
    if (
        spec is None
        or spec.in_state is None
        or spec.kept is None
        or data is None
        or data.source == INLINE
        or not isinstance(state, dict)
        or spec.in_state not in state
    ):
        return state
    if state[spec.in_state] != codec.encode(spec.kept(data)):
        return state
    return {**state, spec.in_state: reference(data)}


def top_level_provenance(doc: DataDoc, shipped: Mapping[str, str]) -> Provenance:
    """The :class:`Provenance` of a document whose ``extends`` takes every top-level field it
    leaves out from a shipped set (a game whose ``extends`` works so declares it as its
    ``DataSpec.provenance``); an empty one for a
    document that extends nothing (or names no shipped set: the game's parse refuses that)."""
    raw = doc.doc
    base_name = raw.get("extends") if isinstance(raw, dict) else None
    if not isinstance(base_name, str) or base_name not in shipped:
        return Provenance()
    file = shipped[base_name]
    base = parse_json(doc.shipped(file), file)
    if not isinstance(base, dict):
        return Provenance()
    taken = tuple(k for k in base if k not in raw and k not in META_KEYS)
    inherited = 0
    for key in taken:
        value = base[key]
        named_file = isinstance(value, str) and value.endswith(".json") and "/" not in value
        found = parse_json(doc.shipped(value), value) if named_file else None
        inherited += count_values(found) if named_file else count_values(value, False)
    own = raw.get("invented")
    return Provenance(
        base_name,
        taken,
        inherited,
        bool(base.get("invented", False)),
        own if isinstance(own, bool) else None,
        raw.get("verified") is True,
    )


def _shipped_reader(key: str) -> Reader:
    def read(name: str) -> str:
        if "/" in name or "\\" in name or name.startswith("."):
            raise InputError("input/data", f"a shipped data file names a file beside it: {name!r}")
        try:
            node = registry.package_files(key).joinpath("data").joinpath(name)
            return node.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError("input/file", f"cannot read the shipped {name}: {exc}") from exc

    return read


_DRIVE = re.compile(r"[A-Za-z]:[\\/]")


def is_absolute(name: str) -> bool:
    """Whether a file a document names is an absolute path (``/home/…``, ``C:\\…``): it is read
    where it says, never joined to the document's folder."""
    return name.startswith(("/", "\\")) or _DRIVE.match(name) is not None


def _beside(read: Reader, folder: str) -> Reader:
    def read_beside(name: str) -> str:
        return read(name if is_absolute(name) else folder + name)

    return read_beside


def _no_files(name: str) -> str:
    raise InputError("input/data", f"data given inline cannot name a file ({name!r})")
