"""Rulebook references of the whole game (§1-4, §7-9) and how a refused move is reported.

The duel's references stay in ``components.REF``; these cover setup, the round's phases and
scoring. A phase module refuses a move by raising ``Refused`` with every violation it found, so
``check`` and ``apply`` run the same code and can never disagree.
"""

from __future__ import annotations

from engine.games.glory.components import GAME_KEY, ref
from engine.violations import Violation

GREF: dict[str, str] = {
    "overview": ref("§1", "L18-38"),
    "winner": ref("§1 winner", "L1024-1026, L1861"),
    "setup": ref("§3.2", "L124-271"),
    "titles-setup": ref("§3.2 step 2", "L131-132"),
    "characters": ref("§3.2 step 3-5", "L134-163, L179-182"),
    "order": ref("§3.2 step 6", "L165-169, L207-214"),
    "goals": ref("§3.2 step 7", "L173-177"),
    "ally-setup": ref("§3.2 step 8", "L219-243"),
    "quest-setup": ref("§3.2 step 10", "L247-252"),
    "events-setup": ref("§3.2 step 12", "L258-262"),
    "blocked": ref("§3.2 step 14", "L266-268, L404-407"),
    "tournament-setup": ref("§3.3", "L275-325, L996-1000"),
    "phases": ref("§4.1", "L326-362"),
    "action": ref("§4.2", "L363-486"),
    "action-order": ref("§4.2 turn order", "L385-388"),
    "afford": ref("§4.2 cost", "L394-395"),
    "slot": ref("§4.2 fields", "L399-411"),
    "initiative": ref("§4.2 Initiative", "L432-436"),
    "quest-plans": ref("§4.2 Quest Plans", "L438-452, L487-492"),
    "marketplace": ref("§4.2 Marketplace", "L454-460, L559-560"),
    "allies-action": ref("§4.2 Allies", "L461-466"),
    "herald": ref("§4.2 Herald", "L467-474, L496-503"),
    "new-goal": ref("§4.2 New Goal", "L476-480"),
    "event": ref("§7.4 Events", "L365-381, L1294-1357"),
    "quest": ref("§4.3", "L537-563, L1416-1423"),
    "prestige-unique": ref("§7.3", "L562-563, L1008-1010"),
    "refresh": ref("§4.4", "L565-598"),
    "registration": ref("§4.5", "L599-629, L652-675"),
    "pas-register": ref("§4.5 Pas d'armes", "L604-616"),
    "joust-register": ref("§4.5 Joust", "L618-629, L665-675"),
    "tournament": ref("§4.6", "L631-634, L982-1000"),
    "joust-prize": ref("§4.6 prize", "L115-118, L319-325, L988-992"),
    "joust-quests": ref("§4.3 Joust extra", "L882-889, L946-947, L991-992"),
    "final-quest": ref("§4.7", "L636-639"),
    "titles": ref("§7.1", "L641-651, L1538-1545"),
    "allies": ref("§7.5", "L1358-1411"),
    "equipment": ref("§7.7", "L1741-1761, L559-560"),
    "ledger": ref("§8", "L162-169, L1150-1152"),
    "solo": ref("Appendix A", "L1163-1287"),
    "data": ref("§11 missing data", "L101-109"),
}


def v(code: str, key: str, **params: object) -> Violation:
    """A violation of a whole-game rule, scoped to Glory's catalog."""
    return Violation(code, GREF[key], dict(params), GAME_KEY)


class Refused(Exception):
    """A move the rules forbid now; carries every violation found."""

    def __init__(self, *violations: Violation) -> None:
        super().__init__("; ".join(x.code for x in violations))
        self.violations = list(violations)


def refuse_if(problems: list[Violation]) -> None:
    if problems:
        raise Refused(*problems)
