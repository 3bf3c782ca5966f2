"""The "Your box" page's work, without the web: the files of a starting set, the schemas that
shape their forms, and the check of a box being entered (what breaks a rule, what is left to
complete, how far along it is, with how many players it plays).

A data file names its schema by its ``$schema`` key; the schema is read from the game's shipped
``data/`` folder only, never from what the page sent, so a form can never loosen a check.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema

from engine import registry
from engine.data import count_values as data_count_values
from engine.data import data_spec, shipped_reader
from engine.i18n import DEFAULT_LANG, message, violation_text

from .errors import BoxError, refusal_text
from .file import DATA_DIR, Box, make_box
from .labels import labelled
from .report import Playability, checked, is_gap

FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,80}\.json")
"""A data file's name in a box being entered: a plain name, so that it is a box member."""
META = frozenset({"$schema", "format", "name", "invented", "verified", "source", "missing",
                  "notes", "incomplete"})  # fmt: skip
"""Keys that describe a data file rather than hold a printed value (not counted as values)."""


@dataclass(frozen=True)
class Draft:
    """A box being entered on the page: its game, name, the main file and every file by name."""

    game: str
    name: str
    main: str
    files: Mapping[str, Any]

    def box(self) -> Box:
        """The draft as a box (``BoxError`` for a name that cannot be a member)."""
        for file in self.files:
            if not FILE_NAME.fullmatch(file):
                raise BoxError("box/bad-name", name=file)
        if self.main not in self.files:
            raise BoxError("box/no-data", member=self.main)
        members = {
            DATA_DIR + file: json.dumps(doc, ensure_ascii=False, indent=2).encode("utf-8")
            for file, doc in self.files.items()
        }
        return make_box(self.game, self.name, DATA_DIR + self.main, members)


def parse_draft(body: Any) -> Draft:
    """A draft from the page's JSON body; ``BoxError`` (``box/bad-draft``) when it is not one."""
    if not isinstance(body, dict):
        raise BoxError("box/bad-draft", reason="not a JSON object")
    game, name, main, files = (body.get(k) for k in ("game", "name", "main", "files"))
    if not (isinstance(game, str) and isinstance(main, str) and isinstance(files, dict)):
        raise BoxError("box/bad-draft", reason="game, main and files are needed")
    if game not in registry.game_keys():
        raise BoxError("box/unknown-game", game=game, known=", ".join(registry.game_keys()))
    if not isinstance(name, str) or not name.strip():
        name = registry.get_game(game).info.name
    return Draft(game, name.strip()[:80], main, files)


def start_files(box: Box) -> dict[str, Any]:
    """What the page edits of a box: each data file, parsed, by its name."""
    return {
        member[len(DATA_DIR) :]: json.loads(raw.decode("utf-8"))
        for member, raw in sorted(box.members.items())
        if member.startswith(DATA_DIR) and member.endswith(".json")
    }


def schemas(game_key: str, files: Mapping[str, Any], lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """Each file's JSON Schema, from the ``$schema`` it names, read from the game's own shipped
    files (None for a file that names none, or one the game does not ship), with the game's
    words for its fields in ``lang`` (``labels``)."""
    read = shipped_reader(game_key)
    found: dict[str, Any] = {}
    for file, doc in files.items():
        named = doc.get("$schema") if isinstance(doc, dict) else None
        try:
            raw = json.loads(read(named)) if isinstance(named, str) else None
        except (ValueError, OSError):
            raw = None
        shown = form_schema(as_shown(raw, doc)) if raw is not None else None
        found[file] = labelled(shown, game_key, str(named), lang) if shown is not None else None
    return found


def as_shown(schema: Any, doc: Any) -> Any:
    """The schema of what ``doc`` is: a root that is a ``$ref`` to one of its ``$defs``, or an
    ``if``/``then``/``else`` choice between them, made the definition ``doc`` meets, so that the
    form shows its components on tabs as for a schema written out at the top. JSON Editor draws
    neither a root ``$ref``'s components on tabs nor an ``if`` at all."""
    for _ in range(8):  # a schema referring to itself in a loop stops here
        if not isinstance(schema, dict):
            return schema
        defs = {k: schema[k] for k in ("$defs", "definitions") if k in schema}
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            group, _, name = ref[2:].partition("/")
            found = schema.get(group, {}).get(name)
            if not isinstance(found, dict):
                return schema
            rest = {k: v for k, v in schema.items() if k != "$ref" and k not in defs}
            schema = {**found, **rest, **defs}
        elif "if" in schema and ("then" in schema or "else" in schema):
            met = jsonschema.Draft202012Validator({**schema["if"], **defs}).is_valid(doc)
            branch = schema.get("then" if met else "else", {})
            rest = {k: v for k, v in schema.items() if k not in ("if", "then", "else")}
            schema = {**rest, **branch} if isinstance(branch, dict) else rest
        else:
            return schema
    return schema


def form_schema(schema: Any, top: bool = True, key: str = "") -> Any:
    """The schema as the page's forms show it: each component (a top-level list or object) on a
    tab of its own, fields in the file's order, a field's name as its title, the file's own notes
    hidden. Only presentation keys are added (JSON Editor's ``propertyOrder``, ``title``,
    ``options``); what is valid is still decided by the server's check, never by the form."""
    if isinstance(schema, list):
        return [form_schema(s, False) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: form_schema(v, False, k) if k not in ("properties", "$defs", "definitions") else v
           for k, v in schema.items()}  # fmt: skip
    for group in ("$defs", "definitions"):
        if isinstance(schema.get(group), dict):
            out[group] = {n: form_schema(d, False, n) for n, d in schema[group].items()}
    if isinstance(schema.get("properties"), dict):
        props = {}
        for order, (name, sub) in enumerate(schema["properties"].items()):
            shown = form_schema(sub, False, name)
            if isinstance(shown, dict):
                shown = {"title": name, **shown, "propertyOrder": order}
                if top and name in META:
                    shown["options"] = {**shown.get("options", {}), "hidden": True}
            props[name] = shown
        out["properties"] = props
        if top:
            out["format"] = "categories"
    elif key and "title" not in out and "$ref" not in out:
        out["title"] = key
    return out


def count_values(doc: Any, top: bool = True) -> int:
    """The printed values a file gives: every scalar that is not null, the file's own notes
    (``source``, ``missing``…) aside (``engine.data.count_values``, as ``data check`` counts)."""
    return data_count_values(doc, top)


def report(draft: Draft, lang: str) -> dict[str, Any]:
    """The live check of a draft: refused (with the sentence), or its gaps, its progress and the
    player counts it plays."""
    game = registry.get_game(draft.game)
    try:
        _, plays = checked(game, draft.box(), f"{draft.name} (draft)")
    except BoxError as exc:
        return {"ok": False, "code": exc.code, "message": refusal_text(exc, lang),
                "where": exc.path,
                "faults": [{"where": p, "text": t} for p, t in exc.faults]}  # fmt: skip
    gaps = [v for v in plays.missing() if is_gap(v)]
    given = sum(count_values(doc) for doc in draft.files.values())
    return {
        "ok": True,
        "playable": list(plays.playable),
        "given": given,
        "missing": len(gaps),
        "summary": summary(game, plays, given, len(gaps), lang),
        "gaps": [
            {"what": str(v.params.get("what", "")), "text": violation_text(v, lang)} for v in gaps
        ],
    }


def _gap(v: Any, lang: str) -> dict[str, str]:
    return {"what": str(v.params.get("what", "")), "text": violation_text(v, lang)}


def summary(game: Any, plays: Playability, given: int, missing: int, lang: str) -> str:
    """The page's progress line: the game's name, the values given of those needed, and the
    player counts the box plays ("…: 183 of 240 values; playable with 3–4 players")."""
    if plays.playable:
        players = playable_text(plays.playable, lang) + others_need(plays, lang)
    else:
        players = message("box/not-playable", lang, n=missing)
    return message("box/progress", lang, game=game.info.name, given=given,
                   total=given + missing, players=players)  # fmt: skip


def others_need(plays: Playability, lang: str) -> str:
    """For a box that starts some player counts but not others, what the others still need
    ("; 5–6 players need 2 more things, the first: colours[4]"), so a group sees at once
    whether its evening's table is covered. Counts refused for the same reasons are joined."""
    groups: list[tuple[list[int], tuple[Any, ...]]] = []
    for n in sorted(plays.refused):
        reasons = tuple(v for v in plays.refused[n] if is_gap(v))
        if not reasons:
            continue
        if groups and groups[-1][0][-1] == n - 1 and groups[-1][1] == reasons:
            groups[-1][0].append(n)
        else:
            groups.append(([n], reasons))
    parts = []
    for counts, reasons in groups:
        span = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        first = str(reasons[0].params.get("what", "")) or reasons[0].code
        parts.append(message("box/others-need", lang, players=span, n=len(reasons), first=first))
    return "".join(f"; {part}" for part in parts)


def playable_text(counts: tuple[int, ...], lang: str) -> str:
    """ "playable with 3–6 players" (or "with 1 player") for the counts a box starts with."""
    low, high = counts[0], counts[-1]
    if low == high:
        return message("box/playable-one", lang, n=low)
    return message("box/playable-range", lang, low=low, high=high)


def starting_sets(game_key: str) -> list[str]:
    """The shipped sets a box can start from."""
    spec = data_spec(registry.get_game(game_key))
    return list(spec.shipped) if spec is not None else []
