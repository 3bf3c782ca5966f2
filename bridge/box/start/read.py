"""One entry for every kind of file a box may be started from, told apart by their contents (not
their names): a VASSAL module (a zip with a build file), a TTS save (JSON with ``ObjectStates``),
a TTS save packed with its pictures (a zip holding one such JSON, as TTS Mod Backup's
``.ttsmod`` does), or a start written by ``herald box start`` (JSON, read again as untrusted).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bridge.box.archive import looks_like_zip, read_archive
from bridge.box.errors import BoxError

from .common import FORMAT, START_LIMITS, Start, Why, from_json
from .fetch import Pictures
from .tts import save_start
from .vassal import is_module, module_start

MAX_SAVE_BYTES = 64 * 1024 * 1024
"""A TTS save with every script of a large mod is a few MB; its pictures are not in it."""


def read_start(
    raw: bytes,
    file_name: str,
    *,
    mods: Path | None = None,
    local: bool = False,
    fetch: Callable[[str], bytes | Why] | None = None,
) -> Start:
    """The start ``raw`` (the file named ``file_name``) gives. A save's pictures are looked for
    among those packed with it, in the TTS mod folder ``mods``, as local files when ``local``
    (the command line) and through ``fetch`` when the host asked; ``BoxError`` names what is
    wrong with a file no start can be made from."""
    name = Path(file_name).name or file_name
    if looks_like_zip(raw):
        members = read_archive(raw, START_LIMITS).members
        if is_module(members):
            return module_start(members, name)
        saves = [m for m in members if m.lower().endswith(".json")]
        for member in saves:
            doc = _json(members[member], member)
            if isinstance(doc, dict) and "ObjectStates" in doc:
                pictures = Pictures(packed=members, mods=mods, local=local, fetch=fetch)
                return save_start(doc, member, pictures)
        raise BoxError("box/start-unknown", file=name)
    if len(raw) > MAX_SAVE_BYTES:
        raise BoxError("box/start-too-large", size=len(raw), limit=MAX_SAVE_BYTES)
    doc = _json(raw, name)
    if isinstance(doc, dict) and doc.get("format") == FORMAT:
        return from_json(doc)
    if not isinstance(doc, dict) or "ObjectStates" not in doc:
        raise BoxError("box/start-unknown", file=name)
    return save_start(doc, name, Pictures(mods=mods, local=local, fetch=fetch))


def _json(raw: bytes, name: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        if looks_like_zip(raw) or raw.lstrip()[:1] not in (b"{", b"["):
            raise BoxError("box/start-unknown", file=name) from exc
        raise BoxError("box/start-bad-json", file=name, reason=str(exc)[:200]) from exc
