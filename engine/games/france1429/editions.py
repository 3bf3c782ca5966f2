"""Where the English rulebook (seed 004) and the Polish one (seed 000) print different rules.

A group owns one edition and plays it as printed, so the option ``edition`` (``en`` | ``pl``) sets
every one of these readings at once; each reading is also an option of its own whose default,
``edition``, follows the edition, so a group may still mix (the PL Assassination in an EN game).
The list is the digest's §15 "Rule conflicts between the two seeds"; docs/rules-decisions.md
gives each with its seed lines. Kept apart from the state so the rules, the setup form and the
docs read one table.
"""

from __future__ import annotations

from typing import Any

FOLLOW = "edition"
"""The value of a per-reading option that takes the reading the chosen edition prints."""

EDITIONS = ("en", "pl")

PRINTED: dict[str, dict[str, Any]] = {
    "crown_prince_titles": {"en": "en", "pl": "pl"},  # FR-8, §15 item 9
    "duplicate_disaster": {"en": "reroll", "pl": "discard"},  # FR-16, §15 item 5
    "assassination": {"en": "en", "pl": "pl"},  # FR-17, §15 item 6
    "king_needs_title": {"en": "en", "pl": "pl"},  # FR-18, §15 item 7
    "captives": {"en": "always", "pl": "optional"},  # FR-26, §15 item 16
    "battle_allies": {"en": "switch", "pl": "fixed"},  # FR-32, §15 item 14
    "tax_follows_title": {"en": "en", "pl": "pl"},  # FR-4, digest §6.1 FAQ
    "holy_spear": {"en": "en", "pl": "pl"},  # FR-30, §15 item 11
    "relic_transfer": {"en": "en", "pl": "pl"},  # FR-34, §15 item 12
}
"""Each reading the two editions print differently: the option's value under each edition."""


def printed(options: dict[str, Any], name: str) -> Any:
    """The value of option ``name`` in force: its own, or (``edition``, or not given at all, as
    in a hand-written position) the one the table's edition prints."""
    value = options.get(name)
    if name in PRINTED and value in (None, FOLLOW):
        edition = options.get("edition") or "en"
        return PRINTED[name][edition if edition in EDITIONS else "en"]
    return value
