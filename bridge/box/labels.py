"""The words the "Your box" page's forms show, in the page's language: each field's label and a
short description (where it is printed, the rulebook section that needs it), each component's
name, and the printed names of a field's choices.

They come from the game's own message catalog, by a file convention rather than a game's code:
for a property ``prop`` of ``owner`` (the ``$defs`` entry it belongs to, or the property whose
object or list holds it, or nothing at a file's top):

- ``<game>:box/field/<owner>.<prop>``, else ``<game>:box/field/<prop>``, else the core's
  ``box/field/<prop>`` (the notes every data file has: ``source``, ``invented``…): the label;
- the same under ``box/help/``: the description;
- ``<game>:box/enum/<owner>.<prop>/<value>``, else ``<game>:box/enum/<value>``: a choice's name;
- ``<game>:box/item/<owner>``, else the core's ``box/item``: the name of one entry of a list
  (a Lord, a Townsfolk card);
- ``<game>:box/schema/<schema file>``: the file's own name.

Only presentation is added (``title``, ``description``, ``options``: ``enum_titles``, a tick box
for a yes/no value; JSON Editor's ``basicCategoryTitle``) and a value's types are put in the
shape JSON Editor draws with words rather than raw type names (``_one_kind``, allowing exactly
the same values): what is valid is decided by the server's check, never by a form. A game that
leaves a word out shows the data file's key, as before; ``missing_labels`` lists what a game
leaves out, so its tests can insist on every word in every language.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.i18n import DEFAULT_LANG, LANGUAGES, catalog, message

_GROUPS = ("$defs", "definitions")
_NESTED = ("items", "additionalProperties", "prefixItems")
_CHOICES = ("oneOf", "anyOf", "allOf", "then", "else")


@dataclass(frozen=True)
class Field:
    """One property of a schema, where the catalog looks for its words."""

    owner: str
    name: str
    enum: tuple[Any, ...] = ()
    shown: bool = True
    """False for a ``$defs`` entry that is only a list of choices (no field of its own)."""

    def codes(self, kind: str, game: str) -> tuple[str, ...]:
        """The catalog codes of this field's ``kind`` (``field``, ``help``), most specific first."""
        own = (f"{game}:box/{kind}/{self.owner}.{self.name}",) if self.owner else ()
        return (*own, f"{game}:box/{kind}/{self.name}", f"box/{kind}/{self.name}")

    def enum_codes(self, game: str, value: Any) -> tuple[str, ...]:
        own = (f"{game}:box/enum/{self.owner}.{self.name}/{value}",) if self.owner else ()
        return (*own, f"{game}:box/enum/{value}")


def _found(codes: tuple[str, ...], lang: str) -> str | None:
    """The first of ``codes`` the catalog words in ``lang`` (English when it lacks that one)."""
    for code in codes:
        if code in catalog(lang) or code in catalog(DEFAULT_LANG):
            return message(code, lang)
    return None


def labelled(schema: Any, game: str, schema_name: str, lang: str) -> Any:
    """A form schema (``workshop.form_schema``) with its words in ``lang``; ``schema`` is not
    changed. ``schema_name`` is the file the data file's ``$schema`` names."""
    if not isinstance(schema, dict):
        return schema
    out = _walk(schema, game, "", lang)
    title = _found((f"{game}:box/schema/{schema_name}",), lang)
    if title is not None:
        out["title"] = title
        out.pop("description", None)
    out["basicCategoryTitle"] = message("box/basic-category", lang)  # JSON Editor's first tab
    return out


def _walk(schema: Any, game: str, owner: str, lang: str, field: Field | None = None) -> Any:
    if isinstance(schema, list):
        return [_walk(s, game, owner, lang, field) for s in schema]
    if not isinstance(schema, dict):
        return schema
    schema = _one_kind(schema)
    out = dict(schema)
    for group in _GROUPS:
        if isinstance(schema.get(group), dict):
            out[group] = {n: _item(_unsaid(_walk(d, game, n, lang, Field("", n))), game, n, lang)
                          for n, d in schema[group].items()}  # fmt: skip
    for key in (*_NESTED, *_CHOICES):
        if key in schema:
            out[key] = _walk(schema[key], game, owner, lang, field)
            if key == "items" and isinstance(out[key], dict) and owner:
                out[key] = _item(out[key], game, owner, lang)
            if key in ("oneOf", "anyOf") and isinstance(out[key], list):
                out[key] = [_variant(v, lang) for v in out[key]]
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {
            name: _property(sub, game, Field(owner, name), lang)
            for name, sub in schema["properties"].items()
        }
    if out.get("type") == "boolean":  # a box to tick, not a choice of "true" and "false"
        out["options"] = {**out.get("options", {}), "checkbox": True}
    if field is not None and isinstance(schema.get("enum"), list):
        titles = [_choice(field, game, value, lang) for value in schema["enum"]]
        out["options"] = {**schema.get("options", {}), "enum_titles": titles}
    return out


def _property(schema: Any, game: str, field: Field, lang: str) -> Any:
    shown = _walk(schema, game, field.name, lang, field)
    if not isinstance(shown, dict):
        return shown
    label = _found(field.codes("field", game), lang)
    if label is not None:
        shown["title"] = label
        for key in ("anyOf", "oneOf"):  # a tick box is labelled by its field, not "yes or no"
            if isinstance(shown.get(key), list):
                shown[key] = [{**b, "title": label} if isinstance(b, dict) and b.get("type")
                              == "boolean" else b for b in shown[key]]  # fmt: skip
    help_text = _found(field.codes("help", game), lang)
    if help_text is not None:
        shown["description"] = help_text
    return shown


def _unsaid(schema: Any) -> Any:
    """A definition without the schema's own English notes for developers (the fields it holds
    carry the catalog's words)."""
    if not isinstance(schema, dict) or "description" not in schema:
        return schema
    return {k: v for k, v in schema.items() if k != "description"}


def _item(schema: Any, game: str, owner: str, lang: str) -> Any:
    """One entry of a list named as the box names it ("Lord 3", "Karta Postaci 2")."""
    name = _found((f"{game}:box/item/{owner}", "box/item"), lang)
    if name is None or not isinstance(schema, dict) or "$ref" in schema:
        return schema
    return {**schema, "title": name}


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
               (type(None), "null"), (list, "array"), (dict, "object"))  # fmt: skip


def _one_kind(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema in the shape JSON Editor draws without a switch of raw type names: a list
    of choices gets the type its values have (JSON Editor offers every JSON type for an
    ``enum`` without one), and a value of several types (a number or null) becomes a choice
    between them (``anyOf``), so that each can be named in the page's language (``_variant``).
    Nothing valid changes: the types are exactly those the choices or the list allow."""
    out = schema
    if isinstance(schema.get("enum"), list) and "type" not in schema:
        kinds = sorted({next(n for t, n in _JSON_TYPES if type(v) is t) for v in schema["enum"]})
        out = {**out, "type": kinds[0] if len(kinds) == 1 else kinds}
    kinds_of = out.get("type")
    if isinstance(kinds_of, list) and "oneOf" not in out and "anyOf" not in out:
        out = {k: v for k, v in out.items() if k != "type"}
        out["anyOf"] = [{"type": kind} for kind in kinds_of]
    return out


def _variant(schema: Any, lang: str) -> Any:
    """One of a field's forms (a file's name or the data written here, a number or not known
    yet), named by its kind on the form's switch; the field's own description says the rest."""
    if not isinstance(schema, dict):
        return schema
    kind = schema.get("type", "object" if "$ref" in schema or "properties" in schema else None)
    if not isinstance(kind, str) or f"box/variant/{kind}" not in catalog(DEFAULT_LANG):
        return schema
    out = {k: v for k, v in schema.items() if k != "description"}
    return {**out, "title": message(f"box/variant/{kind}", lang)}


def _choice(field: Field, game: str, value: Any, lang: str) -> str:
    if value is None:
        return message("box/enum-null", lang)
    if not isinstance(value, str):
        return str(value)
    return _found(field.enum_codes(game, value), lang) or value


def fields(schema: Any, owner: str = "") -> Iterator[Field]:
    """Every property of a schema, at any depth, with its choices when it has any."""
    if isinstance(schema, list):
        for sub in schema:
            yield from fields(sub, owner)
        return
    if not isinstance(schema, dict):
        return
    for group in _GROUPS:
        if isinstance(schema.get(group), dict):
            for name, sub in schema[group].items():
                if isinstance(sub, dict) and isinstance(sub.get("enum"), list):
                    yield Field("", name, tuple(sub["enum"]), shown=False)
                yield from fields(sub, name)
    for key in (*_NESTED, *_CHOICES):
        if key in schema:
            yield from fields(schema[key], owner)
    if isinstance(schema.get("properties"), dict):
        for name, sub in schema["properties"].items():
            yield Field(owner, name, tuple(_enum(sub)))
            yield from fields(sub, name)


def _enum(schema: Any) -> Iterator[Any]:
    """The choices of a property: its own ``enum``, or its list items', or its variants'."""
    if not isinstance(schema, dict):
        return
    yield from schema.get("enum", []) if isinstance(schema.get("enum"), list) else []
    for key in ("items", *_CHOICES):
        sub = schema.get(key)
        for one in sub if isinstance(sub, list) else [sub]:
            yield from _enum(one)


def missing_labels(schema: Any, game: str) -> list[str]:
    """What a game's catalog leaves out for ``schema``, in any language Herald ships: a field
    without a label or a description, a string choice without its printed name."""
    gaps: list[str] = []
    for lang in LANGUAGES:
        words = catalog(lang)
        for field in fields(schema):
            where = f"{field.owner}.{field.name}" if field.owner else field.name
            for kind in ("field", "help") if field.shown else ():
                if not any(code in words for code in field.codes(kind, game)):
                    gaps.append(f"{lang}: {kind} {where}")
            for value in field.enum:
                if isinstance(value, str) and not any(
                    code in words for code in field.enum_codes(game, value)
                ):
                    gaps.append(f"{lang}: enum {where}/{value}")
    return sorted(set(gaps))
