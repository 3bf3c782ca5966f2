"""Whether a Glory data file holds together: every fault of its content, the first one's path.

Checked when a data set is loaded (``data_file.parse``), before a game starts: unique ids,
rewards naming allies that have a stock, Tournament cards for 1-4 players whose sections fit
their bracket and the Knights there are, Special spaces first on the Ally Track, prices and
levels in range, a Challenge card with an opponent. What a game *needs* and the file leaves
``null`` is another question (``data_missing``).
"""

from __future__ import annotations

from collections import Counter

from engine.games.glory.components import KnightType, Level, Unsayable
from engine.games.glory.data_schema import KEYS
from engine.games.glory.data_types import BoxData, JoustSection, PasSection, Reward
from engine.violations import InputError

LEVELS_BOUGHT: tuple[Level, ...] = (2, 3, 4)
"""Levels a Marketplace upgrade can reach (equipment starts at I-II and ends at IV)."""

PLAYERS = range(1, 5)
"""Glory is played by 1 (solo) to 4 players."""
TOURNAMENT_KNIGHTS: tuple[KnightType, ...] = (
    "champion",
    "veteran",
    "king",
    "polish-nobility",
    "nobility",
)
"""The five Knight backs a Tournament card may call for [L299-301]."""


def check_data(data: BoxData) -> None:
    """Raise ``InputError`` (path of the first fault, every fault in the text) unless the data
    hold together: unique ids, rewards naming allies that have a stock, Tournament cards for
    1-4 players whose sections fit their bracket and the Knights there are, Special spaces
    first on the Ally Track, prices and levels in range, a Challenge card with an opponent…"""
    faults = _faults(data)
    if faults:
        path = faults[0][0]
        said = tuple((p, f"{t} (at {p})") for p, t in faults)
        more = "".join(f"; {t}" for _, t in said[1:])
        raise InputError("input/data", f"{said[0][1]}{more}", path, said)


def _faults(data: BoxData) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if data.stand_in and data.verified:
        out.append(("$.verified", "a stand-in set is invented, so it cannot be verified"))
    for name, key in KEYS.items():
        if name in ("knights", "allies"):
            continue
        seen: set[str] = set()
        for i, entry in enumerate(getattr(data, name)):
            ident = getattr(entry, key)
            if ident in seen:
                out.append((f"$.{name}[{i}].{key}", f"{key} {ident!r} appears twice"))
            seen.add(ident)
            if getattr(entry, "count", 1) < 1:
                out.append((f"$.{name}[{i}].count", "a count is at least 1"))
    stocks: set[str] = set()
    pairs: set[tuple[str, str | None]] = set()
    for i, stock in enumerate(data.allies):
        if (stock.kind, stock.stack) in pairs:
            out.append((f"$.allies[{i}]", f"{stock.kind} in stack {stock.stack} appears twice"))
        pairs.add((stock.kind, stock.stack))
        if stock.count is not None and stock.count < 0:
            out.append((f"$.allies[{i}].count", "a count is not negative"))
        if stock.count != 0:
            stocks.add(stock.kind)
    for path, reward in _rewards(data):
        for j, kind in enumerate(reward.allies):
            if kind not in stocks:
                out.append((f"{path}.allies[{j}]", f"no ally stock holds {kind!r}"))
        for j, up in enumerate(reward.upgrades):
            if up.from_level == 4:
                out.append((f"{path}.upgrades[{j}].from_level", "Level IV is the highest [L1761]"))
        if reward.titles is not None and not 1 <= reward.titles.keep <= reward.titles.draw:
            out.append((f"{path}.titles", "keep between 1 and the cards drawn"))
    for i, c in enumerate(data.characters):
        drawn, kept = c.titles_drawn, c.titles_kept
        if drawn is not None and kept is not None and kept > drawn:
            out.append((f"$.characters[{i}].titles_kept", "keeps more Titles than it draws"))
    for i, t in enumerate(data.titles):
        for need, n in t.needs.items():
            if n < 1:
                out.append((f"$.titles[{i}].needs.{need}", "a need is at least 1"))
        if t.duel is not None and t.duel.attack is not None and t.duel.attack < 0:
            out.append((f"$.titles[{i}].duel.attack", "Attack is not negative"))
    for i, q in enumerate(data.quests):
        path = f"$.quests[{i}]"
        if (q.deck == "challenge") != (q.opponent is not None):
            out.append((f"{path}.opponent", "a Challenge card, and only one, has an opponent"))
        if q.cost < 0 or (q.cost and q.deck != "market"):
            out.append((f"{path}.cost", "only a Market card costs Coins [L550-551]"))
        if q.rewards is not None and not q.rewards:
            out.append((f"{path}.rewards", "a card gives at least one reward (null: unknown)"))
    specials_done = False
    for i, space in enumerate(data.ally_track):
        if space.special and specials_done:
            out.append((f"$.ally_track[{i}].special", "the Special spaces come first [L235-236]"))
        specials_done = specials_done or not space.special
        if space.min_players not in PLAYERS:
            out.append((f"$.ally_track[{i}].min_players", "1 to 4 players"))
        if space.cost is not None and space.cost < 0:
            out.append((f"$.ally_track[{i}].cost", "a cost is not negative"))
    for i, fld in enumerate(data.fields):
        if fld.min_players not in PLAYERS:
            out.append((f"$.fields[{i}].min_players", "1 to 4 players"))
    for item in ("horse", "armour"):
        for level, price in getattr(data.prices, item).items():
            if level not in LEVELS_BOUGHT:
                out.append((f"$.prices.{item}.{level}", "a price is for Level II, III or IV"))
            if price is not None and price < 0:
                out.append((f"$.prices.{item}.{level}", "a price is not negative"))
    for i, e in enumerate(data.events):
        if e.kind == "action" and e.reward == Reward() and not e.rewards and e.known:
            out.append((f"$.events[{i}].reward", "an action Event gives something"))
    out += _tournament_faults(data)
    for i, s in enumerate(data.solo):
        if not 1 <= len(s.actions) <= 3:
            out.append((f"$.solo[{i}].actions", "a solo card shows actions I to III"))
        if "quest-plans" in s.actions and s.deck is None:
            out.append(
                (f"$.solo[{i}].deck", "Quest Plans on a solo card names a deck [L1229-1230]")
            )
    for name in ("characters", "titles", "quests", "events", "prizes"):
        for i, entry in enumerate(getattr(data, name)):
            out += _unsayable_faults(entry.unsayable, f"$.{name}[{i}].unsayable")
    for name, k in data.knights.items():
        out += _unsayable_faults(k.unsayable, f"$.knights[{name}].unsayable")
        if k.attack is not None and k.attack < 0:
            out.append((f"$.knights[{name}].attack", "Attack is not negative"))
        if k.prestige is not None and k.prestige < 0:
            out.append((f"$.knights[{name}].prestige", "Prestige is not negative"))
    return out


def _unsayable_faults(mark: Unsayable | None, path: str) -> list[tuple[str, str]]:
    """An unsayable mark names the printed text and what the vocabulary lacks: a blank one
    would say nothing of the card (issue #24: "named as such, with what is missing")."""
    if mark is None:
        return []
    return [(f"{path}.{part}", f"an unsayable mark says the card's {said}")
            for part, said in (("printed", "printed text"), ("missing", "missing vocabulary"))
            if not getattr(mark, part).strip()]  # fmt: skip


def _rewards(data: BoxData) -> list[tuple[str, Reward]]:
    """Every Reward in the data with its path."""
    out: list[tuple[str, Reward]] = [("$.standard_prize", data.standard_prize)]
    for i, c in enumerate(data.characters):
        if c.income is not None:
            out.append((f"$.characters[{i}].income", c.income))
    for i, q in enumerate(data.quests):
        out += [(f"$.quests[{i}].rewards[{j}]", r) for j, r in enumerate(q.rewards or ())]
    for i, e in enumerate(data.events):
        out += [(f"$.events[{i}].reward", e.reward), (f"$.events[{i}].cost", e.cost)]
        out += [(f"$.events[{i}].rewards[{j}]", r) for j, r in enumerate(e.rewards)]
    for i, p in enumerate(data.prizes):
        if p.reward is not None:
            out.append((f"$.prizes[{i}].reward", p.reward))
    return out


def _tournament_faults(data: BoxData) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    typed = [k.type for k in data.knights.values() if k.type not in ("card", "sir")]
    have = Counter(typed) if None not in typed else None
    for i, card in enumerate(data.tournaments):
        path = f"$.tournaments[{i}]"
        if not card.players or any(p not in PLAYERS for p in card.players):
            out.append((f"{path}.players", "a Tournament card is for 1 to 4 players [L283]"))
            continue
        if len(set(card.players)) != len(card.players):
            out.append((f"{path}.players", "a player count appears twice"))
        joust = card.type == "joust"
        if (card.joust is None) == joust or (card.pas is None) != joust:
            out.append((path, f"a {card.type} card has {card.type} sections only"))
            continue
        sections: list[JoustSection | PasSection] = [*(card.joust or ()), *(card.pas or ())]
        for r, section in enumerate(sections):
            spath = f"{path}.{'joust' if joust else 'pas'}[{r}]"
            types: list[KnightType]
            if isinstance(section, JoustSection):
                types = list(section.starting.values()) + list(section.after)
                out += _joust_faults(section, card.players, spath)
            else:
                types = [t for city in section.cities for t in city]
                for c, city in enumerate(section.cities):
                    if not city:
                        out.append((f"{spath}.cities[{c}]", "a city has at least one Knight"))
            wrong = [t for t in types if t not in TOURNAMENT_KNIGHTS]
            if wrong:
                out.append((spath, f"no Knight back {wrong[0]!r} [L299-301]"))
            elif have is not None:
                for t, n in sorted(Counter(types).items()):
                    if n > have[t]:
                        out.append((spath, f"calls for {n} {t} Knights; the data have {have[t]}"))
    return out


def _joust_faults(
    section: JoustSection, players: tuple[int, ...], path: str
) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    slots = section.slots
    if slots < 2 or slots & (slots - 1):
        out.append((f"{path}.slots", "a knock-out bracket has 2, 4, 8… spaces"))
        return out
    for k in section.starting:
        if not 0 <= k < slots:
            out.append((f"{path}.starting.{k}", f"the bottom row has spaces 0-{slots - 1}"))
    free = slots - len(section.starting)
    if free < max(players):
        out.append((f"{path}.starting", f"leaves {free} spaces for {max(players)} players"))
    if len(section.after) < free - min(players):
        out.append(
            (f"{path}.after", f"fills {len(section.after)} of {free - min(players)} empty spaces")
        )
    return out
