"""The effect vocabulary of Viscounts of the West Kingdom: a small grammar a user types in.

The rulebook prints every effect as icons (digest §2 "Card anatomy", §6 "Effect glossary"):
gains, flips, free actions, timed abilities and the arrow (left a cost, action, condition or
event; right the reward). A box's cards are data written in this grammar
(docs/viscounts-effects.md has every form with an example), so the printed cards of a box can be
typed in without writing code; ``parse_ability`` and ``parse_effect`` read a text into typed
values and refuse one they cannot read with an :class:`EffectError` naming the card and the
part (its ability, its hire effect, a site's bonus...).

An *ability* (the bottom of a Townsfolk card, a Church Favour card, a Building's uncovered
ability) starts with its timing: ``immediate:`` (when played onto the board), ``persistent:``
(while it lies there) or ``push-off:`` (when pushed off the right edge) [seed L323-324]. Its body
is an *effect*: ``[LEFT ->] REWARD``, or, in a persistent ability only, a symbol conversion
``2 merchant -> 1 cleric`` (the Traveller, seed L284-293). A REWARD is alternatives separated by
`` or ``, each a comma-separated list of atoms, all of which happen in order. LEFT lists an
event (``on collision``, ``after trade``...), conditions (``no villain``, ``3+ noble``) and
costs (``2 silver``, ``1 corruption``, ``discard 1``).

Pure: text in, frozen dataclasses out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

from engine.i18n import CodedError, message
from engine.violations import InputError

Timing = Literal["immediate", "persistent", "push-off"]
Symbol = Literal["merchant", "builder", "noble", "cleric", "villain"]
BuildingKind = Literal["workshop", "trading-post", "guildhall"]
Place = Literal["effect", "ability", "scheme", "scoring"]
"""Where a text stands: a plain effect (a hire effect, a site's bonus, a Castle section, a
Collision bonus, a Manuscript's immediate effect, a Player card), a timed ability, a solo Scheme
card's step, or a Manuscript's end-game scoring condition. Some atoms belong to one place only."""

TIMINGS: tuple[Timing, ...] = ("immediate", "persistent", "push-off")
SYMBOLS: tuple[Symbol, ...] = ("merchant", "builder", "noble", "cleric", "villain")
BUILDINGS: tuple[BuildingKind, ...] = ("workshop", "trading-post", "guildhall")

GAINS = ("silver", "ink", "stone", "gold", "resource", "virtue", "corruption", "debt", "deed")
"""What a gain atom ``N WHAT`` gives: Silver, a resource (``resource``: Ink, Stone or Gold of
the player's choice, never Silver, seed L1031-1032), Virtue or Corruption, an unpaid Debt or an
acquired Deed (seed L1026-1063)."""

COSTS = ("silver", "ink", "stone", "gold", "resource", "virtue", "corruption", "debt")
"""What may be paid left of an arrow (taking a Debt or Corruption is a price too)."""

EVENTS = (
    "on collision",
    "on hire",
    "on meeting",
    "after trade",
    "after build",
    "after workers",
    "after transcribe",
)
"""When a timed ability fires: any player's Collision (the Collision icon, seed L1054-1055),
each Hire however it happens (Workshop 1, seed L527-528), a Meeting, or after the main action
named (the Trader's ``after trade``, seed L463-465)."""

FLIPS = ("debt", "deed", "debt-or-deed")
"""What a flip turns over: an unpaid Debt, an acquired Deed, or either (seed L1038-1042)."""

COUNTERS = (
    *SYMBOLS,
    "building",
    *BUILDINGS,
    "paid-debt",
    "unpaid-debt",
    "granted-deed",
    "acquired-deed",
    "worker",
    "manuscript",
)
"""What ``per`` counts in a scoring condition (seed L791-794: VP per Building built, per Noble
or Villain symbol on all the player's cards and board, per paid Debt)."""

ACTIONS = (
    "free-hire",
    "free-manuscript",
    "free-build",
    "free-workers",
    "shift-worker",
    "reorder",
    "discard",
    "destroy",
    "shuffle-in",
)
"""The glossary's actions (seed L1044-1096): a free Hire of any visible Townsfolk, a free
Manuscript of cost 3 or 4 from any stack, a free Build of the Building named (``any``) on any
site, N free Workers into any level-1 section, shifting a level-1 Worker, reordering the board,
Discard or Destroy 1 card from hand or deck top, shuffling the discard pile into the deck."""

OPTIONAL = frozenset({"reorder", "discard", "destroy", "shift-worker"})
"""Actions always optional (seed L1065-1089); every other effect is mandatory (L1024-1025)."""

MODIFIERS = ("hand-limit", "free-move", "dismiss-cost")
"""A persistent change of a rule: hand limit +N (Workshop 3, seed L530-531), N spaces of free
movement (Trading Post 1, L524-525), dismissing costs N Silver (Trading Post 2, L525-526)."""

AI_ACTIONS = ("move", "dismiss", "main-goal", "draw")
"""A solo Scheme card's own steps (digest §8): move the AI Viscount N spaces, dismiss the
Townsfolk at its town, attempt its Main Goal, draw N Future Schemes onto its discard pile."""

_AMOUNT = re.compile(r"^\+?(\d+)$")

PLAIN_SLOTS = frozenset({"effect", "immediate", "persistent", "push-off", "scheme"})
PERSISTENT_SLOTS = frozenset({"persistent"})
LEFT_SLOTS = frozenset({"effect", "immediate", "persistent", "push-off", "scheme", "scoring"})

REWARD_FORMS: tuple[tuple[str, frozenset[str]], ...] = (
    ("N " + "|".join(GAINS), PLAIN_SLOTS),
    ("N GAIN per " + "|".join(COUNTERS), PLAIN_SLOTS),
    ("flip [N] " + "|".join(FLIPS), PLAIN_SLOTS),
    ("free-hire", PLAIN_SLOTS),
    ("free-manuscript", PLAIN_SLOTS),
    ("free-build " + "|".join((*BUILDINGS, "any")), PLAIN_SLOTS),
    ("free-workers N", PLAIN_SLOTS),
    ("shift-worker", PLAIN_SLOTS),
    ("reorder", PLAIN_SLOTS),
    ("discard [N]", PLAIN_SLOTS),
    ("destroy [N]", PLAIN_SLOTS),
    ("shuffle-in", PLAIN_SLOTS),
    ("N " + "|".join(SYMBOLS), PERSISTENT_SLOTS),
    ("hand-limit N", PERSISTENT_SLOTS),
    ("free-move N", PERSISTENT_SLOTS),
    ("dismiss-cost N", PERSISTENT_SLOTS),
    ("move N", frozenset({"scheme"})),
    ("dismiss", frozenset({"scheme"})),
    ("main-goal", frozenset({"scheme"})),
    ("draw N", frozenset({"scheme"})),
    ("N vp", frozenset({"scoring"})),
    ("N vp per COUNTER", frozenset({"scoring"})),
)
"""Every reward form the grammar reads, with where it may stand (a place, or an ability's
timing): what a refusal lists as "what can be said here" and the picker offers."""

LEFT_FORMS: tuple[tuple[str, frozenset[str]], ...] = (
    ("|".join(EVENTS), PERSISTENT_SLOTS),
    ("no SYMBOL", LEFT_SLOTS),
    ("N+ SYMBOL", LEFT_SLOTS),
    ("N " + "|".join(COSTS), LEFT_SLOTS),
    ("discard [N]", LEFT_SLOTS),
    ("destroy [N]", LEFT_SLOTS),
)
"""Every form left of an arrow (an event, a condition, a cost), with where it may stand."""

_SIDE_OF = {
    "effect/left-side": "left",
    "effect/two-events": "left",
    "effect/event-persistent": "left",
    "effect/unknown-word": None,
    "effect/bad-amount": None,
    "effect/not-here": "reward",
    "effect/symbols-persistent": "reward",
    "effect/symbols-gated": "reward",
    "effect/scoring-vp": "reward",
    "effect/free-build": "reward",
}
"""The refusals that list what the vocabulary can say at that place (None: on the side of the
arrow where the fault stands)."""


def forms_at(place: str, timing: str | None, side: str) -> tuple[str, ...]:
    """The forms the grammar reads on ``side`` (``"left"`` or ``"reward"``) of an effect at
    ``place`` (an ability's ``timing`` when it has one), a symbol conversion included."""
    slot = timing or place
    table = LEFT_FORMS if side == "left" else REWARD_FORMS
    found = tuple(form for form, where in table if slot in where)
    if side == "reward" and slot == "persistent":
        found += ("N SYMBOL -> M SYMBOL",)
    return found


class EffectError(InputError):
    """An effect text this grammar cannot read: the catalog sentence ``code`` (a
    ``viscounts:effect/...`` code) names the ``card``, the ``part`` and what is wrong.

    An ``InputError`` (``input/effect``), so whoever loads a data file refuses the file as it
    refuses any other bad input; ``text(lang)`` is the sentence a user reads."""

    def __init__(
        self, code: str, card: str, part: str, text: str, forms: tuple[str, ...] = (), **params: Any
    ) -> None:
        self.message_code = f"viscounts:{code}"
        self.params = {"card": card, "part": part, "text": text, **params}
        self.forms = forms
        """What the vocabulary can say where the fault stands (empty: the sentence says it)."""
        extra = ", ".join(f"{k}={v!r}" for k, v in params.items())
        super().__init__("input/effect", f"{card}, {part}: {code} in {text!r} ({extra})", part)

    def text(self, lang: str = "en") -> str:
        """The sentence a user reads, from the message catalog, and then what can be said
        there instead, so a user who meets the refusal learns the forms, not only the fault."""
        sentence = CodedError(self.message_code, **self.params).text(lang)
        if not self.forms:
            return sentence
        can = message("viscounts:effect/can-say", lang, forms="; ".join(self.forms))
        return f"{sentence} {can}"


@dataclass(frozen=True, slots=True)
class Gain:
    """``N WHAT``: gain N of a ``GAINS`` item; ``per``: N for each ``COUNTERS`` item (``vp``
    only in a scoring condition, where ``what`` may be ``vp``)."""

    what: str
    amount: int
    per: str | None = None


@dataclass(frozen=True, slots=True)
class Symbols:
    """``N SYMBOL``: symbols the owner has while the ability is active (persistent only)."""

    symbol: Symbol
    amount: int


@dataclass(frozen=True, slots=True)
class Flip:
    """``flip N debt|deed|debt-or-deed``: turn over N unpaid Debts / acquired Deeds / either."""

    what: str
    amount: int = 1


@dataclass(frozen=True, slots=True)
class Action:
    """A glossary action (``ACTIONS``) or a Scheme step (``AI_ACTIONS``); ``amount`` how many
    (Workers placed, cards discarded, spaces moved), ``building`` what a free Build builds."""

    kind: str
    amount: int = 1
    building: str | None = None

    @property
    def optional(self) -> bool:
        """Whether the player may decline it (seed L1065-1089)."""
        return self.kind in OPTIONAL


@dataclass(frozen=True, slots=True)
class Modifier:
    """A persistent rule change (``MODIFIERS``) by ``amount``."""

    kind: str
    amount: int


Atom = Gain | Symbols | Flip | Action | Modifier


@dataclass(frozen=True, slots=True)
class Condition:
    """Left of an arrow: ``no villain`` (no Villain symbol on the board) or ``N+ SYMBOL`` (at
    least N of that symbol on the board)."""

    symbol: Symbol
    at_least: int | None
    """None: the board shows none of ``symbol``."""


@dataclass(frozen=True, slots=True)
class Effect:
    """``[event, conditions, costs ->] reward``: when ``event`` happens (None: when the text
    is resolved) and every condition holds, paying ``cost`` gives one of ``reward``'s
    alternatives (each a sequence of atoms, resolved in order)."""

    reward: tuple[tuple[Atom, ...], ...]
    event: str | None = None
    conditions: tuple[Condition, ...] = ()
    cost: tuple[Gain | Action, ...] = ()

    @property
    def choice(self) -> bool:
        """Whether the player picks one of several alternatives."""
        return len(self.reward) > 1


@dataclass(frozen=True, slots=True)
class Conversion:
    """``N SYMBOL -> M SYMBOL``: while active, every ``give`` symbols may count as ``get``
    (the Traveller: two Merchants as one Cleric, seed L284-293). Used in payment checks."""

    give: Symbol
    give_amount: int
    get: Symbol
    get_amount: int


@dataclass(frozen=True, slots=True)
class Ability:
    """A timed ability: its ``timing`` and what it does (an effect or a symbol conversion)."""

    timing: Timing
    body: Effect | Conversion


@dataclass(frozen=True, slots=True)
class _Where:
    card: str
    part: str
    text: str
    place: Place
    timing: Timing | None
    side: str = "reward"

    def fail(self, code: str, **params: Any) -> EffectError:
        side = _SIDE_OF.get(code, "")
        forms = forms_at(self.place, self.timing, side or self.side) if side != "" else ()
        return EffectError(code, self.card, self.part, self.text, forms, **params)


def _words(item: str) -> list[str]:
    return item.split()


def _amount(where: _Where, word: str) -> int:
    match = _AMOUNT.match(word)
    if match is None or int(match.group(1)) < 1:
        raise where.fail("effect/bad-amount", word=word)
    return int(match.group(1))


def _split(where: _Where, text: str, sep: str) -> list[str]:
    parts = [p.strip() for p in text.split(sep)]
    if any(not p for p in parts):
        raise where.fail("effect/empty-item")
    return parts


def _atom(where: _Where, item: str) -> Atom:
    words = _words(item)
    head = words[0]
    if where.place == "scoring" and (head == "flip" or head in ACTIONS or head in MODIFIERS):
        raise where.fail("effect/scoring-vp", word=item)  # end-game scoring gives VP only
    if head == "flip":
        rest = words[1:]
        amount = _amount(where, rest.pop(0)) if rest and _AMOUNT.match(rest[0]) else 1
        if len(rest) != 1 or rest[0] not in FLIPS:
            raise where.fail("effect/unknown-word", word=item)
        return Flip(rest[0], amount)
    if head in ACTIONS or head in AI_ACTIONS:
        if head in AI_ACTIONS and where.place != "scheme":
            raise where.fail("effect/not-here", word=head)
        if head == "free-build":
            if len(words) != 2 or words[1] not in (*BUILDINGS, "any"):
                raise where.fail("effect/free-build", word=item)
            return Action(head, 1, words[1])
        if len(words) > 2:
            raise where.fail("effect/unknown-word", word=item)
        return Action(head, _amount(where, words[1]) if len(words) == 2 else 1)
    if head in MODIFIERS:
        if where.timing != "persistent":
            raise where.fail("effect/not-here", word=head)
        if len(words) != 2:
            raise where.fail("effect/bad-amount", word=item)
        return Modifier(head, _amount(where, words[1]))
    if not _AMOUNT.match(head):
        raise where.fail("effect/unknown-word", word=head)
    amount = _amount(where, head)
    if len(words) < 2:
        raise where.fail("effect/unknown-word", word=item)
    what = words[1]
    per: str | None = None
    if len(words) == 4 and words[2] == "per":
        per = words[3]
        if per not in COUNTERS:
            raise where.fail("effect/unknown-word", word=per)
    elif len(words) != 2:
        raise where.fail("effect/unknown-word", word=" ".join(words[2:]))
    if what in SYMBOLS and per is None:
        if where.timing != "persistent":
            raise where.fail("effect/symbols-persistent", word=item)
        return Symbols(what, amount)
    if what == "vp":
        if where.place != "scoring":
            raise where.fail("effect/not-here", word=what)
        return Gain("vp", amount, per)
    if what not in GAINS:
        raise where.fail("effect/unknown-word", word=what)
    if where.place == "scoring":
        raise where.fail("effect/scoring-vp", word=item)
    return Gain(what, amount, per)


def _reward(where: _Where, text: str) -> tuple[tuple[Atom, ...], ...]:
    return tuple(
        tuple(_atom(where, item) for item in _split(where, alt, ","))
        for alt in _split(where, text, " or ")
    )


def _left(where: _Where, text: str) -> tuple[str | None, tuple[Condition, ...], tuple[Any, ...]]:
    event: str | None = None
    conditions: list[Condition] = []
    costs: list[Gain | Action] = []
    for item in _split(where, text, ","):
        words = _words(item)
        if item in EVENTS:
            if event is not None:
                raise where.fail("effect/two-events", word=item)
            event = item
        elif words[0] == "no" and len(words) == 2 and words[1] in SYMBOLS:
            conditions.append(Condition(words[1], None))
        elif len(words) == 2 and words[0].endswith("+") and words[1] in SYMBOLS:
            conditions.append(Condition(words[1], _amount(where, words[0][:-1])))
        elif words[0] in ("discard", "destroy"):
            amount = _amount(where, words[1]) if len(words) == 2 else 1
            if len(words) > 2:
                raise where.fail("effect/unknown-word", word=item)
            costs.append(Action(words[0], amount))
        elif len(words) == 2 and _AMOUNT.match(words[0]) and words[1] in COSTS:
            costs.append(Gain(words[1], _amount(where, words[0])))
        else:
            raise where.fail("effect/left-side", word=item)
    if event is not None and where.timing != "persistent":
        raise where.fail("effect/event-persistent", word=event)
    return event, tuple(conditions), tuple(costs)


def _conversion(where: _Where, left: str, right: str) -> Conversion | None:
    """``N SYMBOL -> M SYMBOL``; None for any other text (``3+ villain -> 1 noble`` is a
    condition, not a conversion: its left number is not a plain amount)."""
    a, b = _words(left), _words(right)
    if not (len(a) == 2 and len(b) == 2 and a[1] in SYMBOLS and b[1] in SYMBOLS):
        return None
    if not (_AMOUNT.match(a[0]) and _AMOUNT.match(b[0])):
        return None
    if where.timing != "persistent":
        raise where.fail("effect/conversion-persistent")
    give, get = a[1], b[1]
    if give == get:
        raise where.fail("effect/conversion-same", word=give)
    return Conversion(give, _amount(where, a[0]), get, _amount(where, b[0]))


def _body(where: _Where, text: str) -> Effect | Conversion:
    body = " ".join(text.split()).lower()
    if not body:
        raise where.fail("effect/empty")
    halves = body.split("->")
    if len(halves) > 2:
        raise where.fail("effect/arrows")
    if len(halves) == 1:
        return Effect(_reward(where, body))
    left, right = halves[0].strip(), halves[1].strip()
    if not left or not right:
        raise where.fail("effect/arrow-side")
    converted = _conversion(where, left, right)
    if converted is not None:
        return converted
    event, conditions, cost = _left(replace(where, side="left"), left)
    reward = _reward(where, right)
    gives_symbols = any(isinstance(a, Symbols) for alt in reward for a in alt)
    if gives_symbols and (event is not None or cost):
        raise where.fail("effect/symbols-gated", word=right)
    return Effect(reward, event, conditions, cost)


def parse_effect(text: str, card: str, part: str, place: Place = "effect") -> Effect:
    """A plain effect (no timing): a hire effect, a site or Connection bonus, a Castle
    section, a Collision bonus, a Manuscript's immediate effect (``place="effect"``), a Scheme
    card's step (``"scheme"``), or a Manuscript's scoring condition (``"scoring"``, VP atoms
    only). ``EffectError`` names ``card`` and ``part`` when the text does not read."""
    where = _Where(card, part, text, place, None)
    body = _body(where, text)
    if isinstance(body, Conversion):  # pragma: no cover - _conversion refuses it first
        raise where.fail("effect/conversion-persistent")
    return body


def parse_ability(text: str, card: str, part: str = "ability") -> Ability:
    """A timed ability ``TIMING: BODY`` (the bottom of a Townsfolk card, a Church Favour
    card's, a Building's uncovered one). ``EffectError`` names ``card`` and ``part``."""
    head, colon, rest = text.partition(":")
    timing = head.strip().lower()
    where = _Where(card, part, text, "ability", None)
    if not colon:
        raise where.fail("effect/no-timing")
    if timing not in TIMINGS:
        raise where.fail("effect/unknown-timing", word=timing)
    where = _Where(card, part, text, "ability", timing)
    return Ability(timing, _body(where, rest))


def symbols_of(text: list[str], card: str, part: str = "symbols") -> tuple[Symbol, ...]:
    """A card's left-side symbols (``["merchant", "villain"]``), each a ``SYMBOLS`` name."""
    where = _Where(card, part, " ".join(text), "effect", None)
    for word in text:
        if word not in SYMBOLS:
            raise where.fail("effect/unknown-symbol", word=word)
    return tuple(cast(Symbol, w) for w in text)
