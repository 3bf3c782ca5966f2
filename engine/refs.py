"""Rulebook references as players read them: the section (and page or line), never a file id.

The engine's refs point at the rules digest and the stored seed file
(``rules/fief_tiles.md §5 income [003_8da931cd88ab5f77.txt:L152-156]``) so a maintainer can
check a rule; a player is shown ``§5 income (L152-156)`` (issue 15, point 4). Every JSON form a
page reads carries both: ``ref`` for the maintainer, ``where`` for the player.
"""

from __future__ import annotations

import re

_FILE_ID = re.compile(r"\b[0-9]+_[0-9a-f]{8,}\.txt:")
_DIGEST = re.compile(r"(^|;\s*)rules/[\w./-]+\.md\s*")
_BRACKETS = re.compile(r"\s*\[([^\]]*)\]")


def readable(ref: str) -> str:
    """``ref`` without the digest's file name or the stored file's id (``§3.1 (L111-123)``)."""
    text = _DIGEST.sub(r"\1", _FILE_ID.sub("", ref)).strip()
    return _BRACKETS.sub(r" (\1)", text).strip()
