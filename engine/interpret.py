"""From what the table shows to the move that was made, for every game (camera and TTS input).

A table source reports observations: a component in a board region, with the attributes it
could read, in the vocabulary of the game's profiles. Two special components say what the
source could not see: ``{"component": "unread", "region": R, "attrs": {"kind": K}}`` (pieces of
kind ``K`` in ``R`` are left out on both sides, never assumed present or absent) and
``{"component": "coverage", "attrs": {"kinds": [K, ...]}}`` (the source reads those kinds
everywhere, so seeing none means there is none). Otherwise only the kinds an observation shows
are compared.

The engine does not read rules from pictures. It asks the game's own rules: every legal move,
every chance move the table visibly shows (a revealed row, say), and a move followed by the
choice its effect asked for, is applied; each resulting position is laid out in the same
vocabulary (the game's :class:`TableReading`), and the one that matches the observation is the
answer. No match, or several equally good ones, is reported as such so the referee asks a
person to confirm: never a silent guess. A piece read without its face (``"<kind>:?"``) matches
any piece of its kind in the same region.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from engine.game import Interpretation
from engine.violations import InputError

Key = tuple[str, str]
"""(component, region), the readable attributes folded into the component name."""

Blind = frozenset[tuple[str, str]]
"""(kind, region) pairs the source reported it could not read."""


def kind_of(component: str) -> str:
    """The kind of a component name (``pawn:blue`` → ``pawn``)."""
    return component.split(":", 1)[0]


class TableReading(Protocol):
    """What a game tells the core about reading its table (its profile vocabulary)."""

    kinds: tuple[str, ...]
    """The kinds of piece a move can change (others on the table are not part of a move)."""

    def pieces(self, state: Any, kinds: set[str]) -> Counter[Key]:
        """The position laid out as (component, region) pieces of the given kinds."""
        ...

    def component(self, kind: str, component: str, attrs: Mapping[str, Any]) -> str:
        """An observed component's key with what was read of it folded in (``"<kind>:?"``
        when its face was not read)."""
        ...

    def forgive(self, state: Any, missing: Counter[Key], extra: Counter[Key]) -> None:
        """Drop from ``extra`` pieces the rules allow to linger on the table (in place)."""
        ...

    def chance(self, state: Any, seen: Sequence[Mapping[str, Any]]) -> list[Any]:
        """The chance moves the observation shows completely (never guessed)."""
        ...

    def follow_ups(self, state: Any, after: Any) -> list[Any]:
        """Moves the same seat makes at once after a move (the choice its effect asks for)."""
        ...


@runtime_checkable
class Narrowing(Protocol):
    """A game whose rules settle some of the table's ties (an optional part of its reading)."""

    def narrow(
        self, state: Any, found: Sequence[tuple[tuple[Any, ...], Any]]
    ) -> list[tuple[Any, ...]]:
        """Of the candidates (each with the position it ends in, all leaving the table as
        seen), the ones a player could really have meant.

        Only rules may drop one: a sequence that ends where another does but costs the same
        seat more for nothing else (a longer walk to the same town, a Move more to the same
        Village). What the camera cannot see and a player could mean is never decided here;
        those stay, and the table is asked.
        """
        ...


def observed(
    seen: Sequence[Mapping[str, Any]], reading: TableReading
) -> tuple[Counter[Key], set[str], Blind]:
    """The observation as pieces, the kinds it covers (shown or declared by ``coverage``),
    and the (kind, region) pairs it could not read (``unread``)."""
    known = set(reading.kinds)
    out: Counter[Key] = Counter()
    kinds: set[str] = set()
    blind: set[tuple[str, str]] = set()
    for i, item in enumerate(seen):
        if not isinstance(item, Mapping) or not isinstance(item.get("component"), str):
            raise InputError("input/observation", "an observation needs a 'component'", f"$[{i}]")
        component, region = item["component"], item.get("region")
        attrs = item.get("attrs") or {}
        if component == "unread":
            if attrs.get("kind") in known and isinstance(region, str):
                blind.add((attrs["kind"], region))
            continue
        if component == "coverage":
            covered = attrs.get("kinds")
            if isinstance(covered, list):
                kinds.update(k for k in covered if k in known)
            continue
        kind = kind_of(component)
        if kind not in known or not isinstance(region, str):
            continue  # coins, cards, stacks, pieces outside every region: not part of a move
        kinds.add(kind)
        out[(reading.component(kind, component, attrs), region)] += 1
    return out, kinds, frozenset(blind)


def _unblind(pieces: Counter[Key], blind: Blind) -> Counter[Key]:
    if not blind:
        return pieces
    return Counter({k: n for k, n in pieces.items() if (kind_of(k[0]), k[1]) not in blind})


def distance(
    reading: TableReading, state: Any, seen: Counter[Key], kinds: set[str], blind: Blind
) -> int:
    """Pieces in the position and not on the table, or the other way round."""
    expected = _unblind(reading.pieces(state, kinds), blind)
    missing = expected - seen
    extra = seen - expected
    reading.forgive(state, missing, extra)
    for (component, region), n in list(extra.items()):
        if not component.endswith(":?"):
            continue
        prefix = component[:-1]
        for key in [k for k in missing if k[1] == region and k[0].startswith(prefix)]:
            take = min(n, missing[key])
            missing[key] -= take
            extra[(component, region)] -= take
            n -= take
    return sum((+missing).values()) + sum((+extra).values())


def interpret(
    game: Any, reading: TableReading, state: Any, seen: Sequence[Mapping[str, Any]]
) -> Interpretation:
    """The move(s) that turn ``state`` into what the table shows (see the module docstring)."""
    found, kinds, blind = observed(seen, reading)
    pieces = _unblind(found, blind)
    if not kinds:
        return Interpretation((), False, notes=("nothing the game tracks was seen",))
    now = distance(reading, state, pieces, kinds, blind)
    if now == 0:
        return Interpretation((), True)
    options = list(game.legal_moves(state))
    options += [m for m in reading.chance(state, seen) if not game.check(state, m)]
    scored: list[tuple[int, tuple[Any, ...], Any]] = []  # (distance, sequence, its end)
    for move in options:
        after = game.apply_unchecked(state, move)
        scored.append((distance(reading, after, pieces, kinds, blind), (move,), after))
        for choice in reading.follow_ups(state, after):
            done = game.apply_unchecked(after, choice)
            scored.append((distance(reading, done, pieces, kinds, blind), (move, choice), done))
    if not scored:
        return Interpretation((), False, distance=now, notes=("no legal move now",))
    best = min(d for d, _, _ in scored)
    if best >= now:
        return Interpretation((), False, distance=now, notes=("no legal move explains it",))
    fits = [(seq, end) for d, seq, end in scored if d == best]
    top = tuple(seq for seq, _ in fits)
    if best == 0 and len(top) > 1 and isinstance(reading, Narrowing):
        top = tuple(reading.narrow(state, fits)) or top
    if best == 0 and len(top) == 1:
        return Interpretation(top[0], False)
    return Interpretation((), False, top, best)
