"""Game profiles: which TTS objects are which game components, and where the board regions are.

A profile is a JSON data file (``tts/profile.json`` in the game's package); it turns the game-free
``TTSObject`` list into the ``vision.snapshot.TableSnapshot`` the camera pipeline also produces,
so the referee's diff → candidate move → engine path is the same for both table sources. It names
things; it never decides whether anything is legal.

Components are recognised by regular expressions on ``nickname``, ``gm_notes``, ``description``,
``name``, ``type`` and ``guid`` and by required ``tags``. Named groups fill the component name
template (``"pawn:{color}"``). Regions are, in order of precedence as listed:

* ``rect``: a fixed rectangle of the table (``x``/``z`` ranges, world units);
* ``grid``: a fixed rectangle cut into ``cols`` × ``rows`` cells; cells give ``{col}``/``{row}``
  (1-based numbers, or the labels when ``cols``/``rows`` is a list);
* ``zone``: every scripting zone matching a pattern; an object inside the zone's box is in it;
* ``anchor``: a ``rect`` or ``grid`` in the local frame of every object of a component rule
  (a player's board): it moves and turns with the board, and the anchor's groups (``{color}``)
  are available to the region name.

Local frames: TTS turns an object by ``rotY`` degrees about the up axis; a world offset
``(dx, dz)`` from the anchor is, in the anchor's frame,
``lx = dx·cos(rotY) − dz·sin(rotY)``, ``lz = dx·sin(rotY) + dz·cos(rotY)`` (Unity's convention,
where an unturned board's local axes equal the world's).
"""

from __future__ import annotations

import json
import math
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.game_files import tts_profile_path
from bridge.tts.errors import ProfileError
from bridge.tts.objects import TTSObject
from engine.registry import game_keys
from vision.snapshot import Observation, TableSnapshot

_MATCH_FIELDS = ("nickname", "gm_notes", "description", "name", "type", "guid")


class _Bad(Exception):
    def __init__(self, where: str, detail: str) -> None:
        super().__init__(f"{where}: {detail}")
        self.where = where
        self.detail = detail


@dataclass(frozen=True)
class Match:
    """One way to recognise an object: every given pattern must match (``re.search``)."""

    patterns: tuple[tuple[str, re.Pattern[str]], ...] = ()
    tags: tuple[str, ...] = ()

    def groups(self, obj: TTSObject) -> dict[str, str] | None:
        """The named groups if ``obj`` matches, else None."""
        obj_tags = {t.casefold() for t in obj.tags}
        if any(t.casefold() not in obj_tags for t in self.tags):
            return None
        found: dict[str, str] = {}
        for fld, pattern in self.patterns:
            m = pattern.search(getattr(obj, fld) or "")
            if m is None:
                return None
            found.update({k: v for k, v in m.groupdict().items() if v is not None})
        return found

    @property
    def group_names(self) -> set[str]:
        return {name for _f, p in self.patterns for name in p.groupindex}


@dataclass(frozen=True)
class ComponentRule:
    """Objects matching any of ``match`` are the component ``template`` (with its groups)."""

    id: str
    template: str
    match: tuple[Match, ...]
    optional: Match = field(default_factory=Match)
    attrs: Mapping[str, str] = field(default_factory=dict)
    contents: bool = False
    zones: bool = False

    def classify(self, obj: TTSObject, lowercase: frozenset[str]) -> dict[str, str] | None:
        if obj.is_zone and not self.zones:
            return None
        for alt in self.match:
            groups = alt.groups(obj)
            if groups is not None:
                extra = self.optional.groups(obj) if self.optional.patterns else None
                if extra:
                    groups = {**extra, **groups}
                return {k: (v.lower() if k in lowercase else v) for k, v in groups.items()}
        return None


@dataclass(frozen=True)
class Area:
    """A rectangle, optionally cut into a grid, in world or anchor-local coordinates."""

    x: tuple[float, float]
    z: tuple[float, float]
    cols: tuple[str, ...] | None = None
    rows: tuple[str, ...] | None = None

    def locate(self, lx: float, lz: float) -> dict[str, str] | None:
        """Cell parameters of a point inside the area, None outside."""
        fx = _fraction(lx, self.x)
        fz = _fraction(lz, self.z)
        if fx is None or fz is None:
            return None
        params: dict[str, str] = {}
        if self.cols is not None:
            params["col"] = self.cols[min(int(fx * len(self.cols)), len(self.cols) - 1)]
        if self.rows is not None:
            params["row"] = self.rows[min(int(fz * len(self.rows)), len(self.rows) - 1)]
        return params


@dataclass(frozen=True)
class RegionRule:
    """One region (or family of regions) of the table; see the module doc for the kinds."""

    template: str
    area: Area | None = None
    anchor: str | None = None
    zone: Match | None = None


@dataclass(frozen=True)
class Profile:
    """A game's TTS profile, loaded and checked."""

    game: str
    components: tuple[ComponentRule, ...]
    regions: tuple[RegionRule, ...]
    lowercase: frozenset[str] = frozenset()
    title: str = ""


@dataclass(frozen=True)
class _Region:
    """A concrete region on this table: an area placed in the world."""

    template: str
    params: Mapping[str, str]
    area: Area | None = None
    origin: tuple[float, float] = (0.0, 0.0)
    turn_deg: float = 0.0
    half: tuple[float, float] | None = None  # zone box half-size in its own frame
    owner_guid: str | None = None

    def name_at(self, x: float, z: float) -> str | None:
        dx, dz = x - self.origin[0], z - self.origin[1]
        t = math.radians(self.turn_deg)
        lx = dx * math.cos(t) - dz * math.sin(t)
        lz = dx * math.sin(t) + dz * math.cos(t)
        if self.half is not None:
            if abs(lx) > self.half[0] or abs(lz) > self.half[1]:
                return None
            return self.template.format(**self.params)
        assert self.area is not None
        cell = self.area.locate(lx, lz)
        if cell is None:
            return None
        return self.template.format(**{**self.params, **cell})


# -- loading -------------------------------------------------------------------------------


def available_profiles() -> list[str]:
    """Game keys that ship a TTS profile (``tts/profile.json`` in the game's package)."""
    return sorted(k for k in game_keys() if tts_profile_path(k) is not None)


def load_profile(game: str) -> Profile:
    """The shipped profile of ``game`` (its key).

    Raises:
        ProfileError: no such profile, or the file breaks the profile format.
    """
    known = available_profiles()
    if game not in known:
        raise ProfileError("tts/profile-unknown", game=game, known=", ".join(known) or "none")
    entry = tts_profile_path(game)
    assert entry is not None
    return parse_profile(json.loads(entry.read_text(encoding="utf-8")), name=f"{game}.json")


def load_profile_file(path: str | Path) -> Profile:
    """A profile from a file of the user's (same format)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ProfileError("tts/profile-invalid", name=str(p), where="$", detail=str(exc)) from exc
    return parse_profile(data, name=str(p))


def parse_profile(data: Any, name: str = "<profile>") -> Profile:
    """Check and compile a decoded profile document.

    Raises:
        ProfileError: with the JSON path of the first problem.
    """
    try:
        return _parse_profile(data)
    except _Bad as exc:
        raise ProfileError(
            "tts/profile-invalid", name=name, where=exc.where, detail=exc.detail
        ) from exc


def _parse_profile(data: Any) -> Profile:
    if not isinstance(data, Mapping):
        raise _Bad("$", "a profile is a JSON object")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise _Bad("$.game", "a non-empty string")
    lowercase = frozenset(_str_list(data.get("lowercase", []), "$.lowercase"))
    comps_raw = data.get("components")
    if not isinstance(comps_raw, list) or not comps_raw:
        raise _Bad("$.components", "a non-empty list")
    components = tuple(_component(c, f"$.components[{i}]") for i, c in enumerate(comps_raw))
    ids = [c.id for c in components]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise _Bad("$.components", f"duplicate ids {sorted(dupes)}")
    by_id = {c.id: c for c in components}
    regions_raw = data.get("regions", [])
    if not isinstance(regions_raw, list):
        raise _Bad("$.regions", "a list")
    regions = tuple(_region(r, f"$.regions[{i}]", by_id) for i, r in enumerate(regions_raw))
    title = data.get("title", "")
    return Profile(
        game=game,
        components=components,
        regions=regions,
        lowercase=lowercase,
        title=title if isinstance(title, str) else "",
    )


def _fields(template: str, where: str) -> set[str]:
    try:
        names = {f for _lit, f, _spec, _conv in string.Formatter().parse(template) if f}
    except ValueError as exc:
        raise _Bad(where, f"bad template {template!r}: {exc}") from exc
    for n in names:
        if not n.isidentifier():
            raise _Bad(where, f"template field {n!r} is not a plain name")
    return names


def _match(raw: Any, where: str) -> Match:
    if not isinstance(raw, Mapping):
        raise _Bad(where, "a match is an object")
    unknown = set(raw) - {*_MATCH_FIELDS, "tags"}
    if unknown:
        raise _Bad(where, f"unknown match keys {sorted(unknown)}")
    patterns = []
    for fld in _MATCH_FIELDS:
        if fld in raw:
            if not isinstance(raw[fld], str):
                raise _Bad(f"{where}.{fld}", "a regular expression string")
            try:
                patterns.append((fld, re.compile(raw[fld])))
            except re.error as exc:
                raise _Bad(f"{where}.{fld}", f"bad regular expression: {exc}") from exc
    tags = tuple(_str_list(raw.get("tags", []), f"{where}.tags"))
    if not patterns and not tags:
        raise _Bad(where, "a match needs at least one pattern or tag")
    return Match(patterns=tuple(patterns), tags=tags)


def _component(raw: Any, where: str) -> ComponentRule:
    if not isinstance(raw, Mapping):
        raise _Bad(where, "a component rule is an object")
    cid, template = raw.get("id"), raw.get("component")
    if not isinstance(cid, str) or not cid:
        raise _Bad(f"{where}.id", "a non-empty string")
    if not isinstance(template, str) or not template:
        raise _Bad(f"{where}.component", "a non-empty string")
    match_raw = raw.get("match")
    if isinstance(match_raw, Mapping):
        match_raw = [match_raw]
    if not isinstance(match_raw, list) or not match_raw:
        raise _Bad(f"{where}.match", "a match object or a non-empty list of them")
    alts = tuple(_match(m, f"{where}.match[{i}]") for i, m in enumerate(match_raw))
    needed = _fields(template, f"{where}.component")
    for i, alt in enumerate(alts):
        missing = needed - alt.group_names
        if missing:
            raise _Bad(f"{where}.match[{i}]", f"no group named {sorted(missing)} for the template")
    optional = _match(raw["optional"], f"{where}.optional") if "optional" in raw else Match()
    attrs = raw.get("attrs", {})
    if not isinstance(attrs, Mapping) or not all(isinstance(v, str) for v in attrs.values()):
        raise _Bad(f"{where}.attrs", "an object of template strings")
    for key, tmpl in attrs.items():
        _fields(tmpl, f"{where}.attrs.{key}")
    return ComponentRule(
        id=cid,
        template=template,
        match=alts,
        optional=optional,
        attrs=dict(attrs),
        contents=bool(raw.get("contents", False)),
        zones=bool(raw.get("zones", False)),
    )


def _labels(raw: Any, where: str) -> tuple[str, ...] | None:
    if raw is None:
        return None
    if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0:
        return tuple(str(i + 1) for i in range(raw))
    if isinstance(raw, list) and raw and all(isinstance(v, str) for v in raw):
        return tuple(raw)
    raise _Bad(where, "a positive count or a non-empty list of labels")


def _range(raw: Any, where: str) -> tuple[float, float]:
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
        or raw[0] == raw[1]
    ):
        raise _Bad(where, "[start, end], two different numbers")
    return (float(raw[0]), float(raw[1]))


def _area(raw: Any, where: str, grid: bool) -> Area:
    if not isinstance(raw, Mapping):
        raise _Bad(where, "an object with x and z ranges")
    x = _range(raw.get("x"), f"{where}.x")
    z = _range(raw.get("z"), f"{where}.z")
    if not grid:
        return Area(x=x, z=z)
    return Area(
        x=x,
        z=z,
        cols=_labels(raw.get("cols", 1), f"{where}.cols"),
        rows=_labels(raw.get("rows", 1), f"{where}.rows"),
    )


def _region(raw: Any, where: str, by_id: Mapping[str, ComponentRule]) -> RegionRule:
    if not isinstance(raw, Mapping):
        raise _Bad(where, "a region rule is an object")
    template = raw.get("region")
    if not isinstance(template, str) or not template:
        raise _Bad(f"{where}.region", "a non-empty string")
    needed = _fields(template, f"{where}.region")
    kinds = [k for k in ("rect", "grid", "zone") if k in raw]
    if len(kinds) != 1:
        raise _Bad(where, "exactly one of rect, grid or zone")
    kind = kinds[0]
    available: set[str] = set()
    area = zone = None
    if kind == "zone":
        if "anchor" in raw:
            raise _Bad(f"{where}.anchor", "a zone region cannot have an anchor")
        zone = _match(raw["zone"], f"{where}.zone")
        available = zone.group_names
    else:
        area = _area(raw[kind], f"{where}.{kind}", grid=kind == "grid")
        if kind == "grid":
            available = {"col", "row"}
    anchor = raw.get("anchor")
    if anchor is not None:
        if anchor not in by_id:
            raise _Bad(f"{where}.anchor", f"no component rule with id {anchor!r}")
        for alt in by_id[anchor].match:
            available = available | alt.group_names
    missing = needed - available
    if missing:
        raise _Bad(f"{where}.region", f"nothing provides {sorted(missing)}")
    return RegionRule(template=template, area=area, anchor=anchor, zone=zone)


def _str_list(raw: Any, where: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise _Bad(where, "a list of strings")
    return list(raw)


def _fraction(v: float, bounds: tuple[float, float]) -> float | None:
    f = (v - bounds[0]) / (bounds[1] - bounds[0])
    return f if 0.0 <= f < 1.0 else None


# -- building a snapshot -------------------------------------------------------------------


@dataclass(frozen=True)
class Classified:
    """One object a profile recognised, before regions are assigned."""

    obj: TTSObject
    rule: ComponentRule
    groups: Mapping[str, str]
    container: TTSObject | None = None
    root: TTSObject | None = None


def classify(objects: Sequence[TTSObject], profile: Profile) -> list[Classified]:
    """Every object (and, for ``contents`` rules, every object inside) the profile recognises."""
    out: list[Classified] = []

    def visit(obj: TTSObject, container: TTSObject | None, root: TTSObject | None) -> None:
        for rule in profile.components:
            groups = rule.classify(obj, profile.lowercase)
            if groups is not None:
                out.append(Classified(obj, rule, groups, container=container, root=root))
                if rule.contents:
                    for inner in obj.contained:
                        visit(inner, obj, root if root is not None else obj)
                return

    for obj in objects:
        visit(obj, None, None)
    return out


def _regions_on_table(
    objects: Sequence[TTSObject], profile: Profile, found: Sequence[Classified]
) -> list[_Region]:
    placed: list[_Region] = []
    for rule in profile.regions:
        if rule.zone is not None:
            for obj in objects:
                groups = rule.zone.groups(obj) if obj.is_zone else None
                if groups is None or obj.position is None:
                    continue
                sx, _sy, sz = obj.scale or (1.0, 1.0, 1.0)
                placed.append(
                    _Region(
                        template=rule.template,
                        params=_lower(groups, profile.lowercase),
                        origin=(obj.position[0], obj.position[2]),
                        turn_deg=obj.rotation[1] if obj.rotation else 0.0,
                        half=(abs(sx) / 2, abs(sz) / 2),
                        owner_guid=obj.guid,
                    )
                )
        elif rule.anchor is not None:
            for c in found:
                if c.rule.id != rule.anchor or c.container is not None:
                    continue
                if c.obj.position is None:
                    continue
                placed.append(
                    _Region(
                        template=rule.template,
                        params=dict(c.groups),
                        area=rule.area,
                        origin=(c.obj.position[0], c.obj.position[2]),
                        turn_deg=c.obj.rotation[1] if c.obj.rotation else 0.0,
                        owner_guid=c.obj.guid,
                    )
                )
        else:
            placed.append(_Region(template=rule.template, params={}, area=rule.area))
    return placed


def _lower(groups: Mapping[str, str], lowercase: frozenset[str]) -> dict[str, str]:
    return {k: (v.lower() if k in lowercase else v) for k, v in groups.items()}


def region_of(x: float, z: float, regions: Sequence[_Region], exclude: str = "") -> str | None:
    """The first region (in profile order) containing the table point (x, z)."""
    for region in regions:
        if exclude and region.owner_guid == exclude:
            continue
        name = region.name_at(x, z)
        if name is not None:
            return name
    return None


def build_snapshot(
    objects: Sequence[TTSObject], profile: Profile, *, time: float, source: str = "tts"
) -> TableSnapshot:
    """The ``TableSnapshot`` of these TTS objects under ``profile``.

    Objects the profile does not recognise are left out. Only what both the live table and a save
    report goes into an observation (so a card's ``CardID``, known only from saves, does not). An
    object inside a container is
    reported with its container's region and ``attrs["container"]`` set to the container's GUID;
    whether it is face up is then unknown (``None``).
    """
    found = classify(objects, profile)
    regions = _regions_on_table(objects, profile, found)
    region_by_guid: dict[str, str | None] = {}
    observations: list[Observation] = []
    for c in found:
        obj = c.obj
        attrs: dict[str, Any] = {"nickname": obj.nickname}
        for key, tmpl in c.rule.attrs.items():
            try:
                attrs[key] = tmpl.format(**c.groups)
            except KeyError:
                continue  # an optional group that did not match
        if obj.value is not None:
            attrs["value"] = obj.value
        if c.container is None:
            pos = obj.position
            region = region_of(pos[0], pos[2], regions, exclude=obj.guid) if pos else None
            region_by_guid[obj.guid] = region
            observations.append(
                Observation(
                    component=c.rule.template.format(**c.groups),
                    region=region,
                    board_xy=(pos[0], pos[2]) if pos else None,
                    rotation_deg=obj.rotation[1] if obj.rotation else None,
                    face_up=None if obj.face_down is None else not obj.face_down,
                    source_id=obj.guid or None,
                    attrs=attrs,
                )
            )
        else:
            attrs["container"] = c.container.guid
            observations.append(
                Observation(
                    component=c.rule.template.format(**c.groups),
                    region=_container_region(c.root or c.container, region_by_guid, regions),
                    source_id=obj.guid or None,
                    attrs=attrs,
                )
            )
    return TableSnapshot(source=source, time=time, observations=tuple(observations))


def _container_region(
    container: TTSObject, known: Mapping[str, str | None], regions: Sequence[_Region]
) -> str | None:
    if container.guid in known:
        return known[container.guid]
    pos = container.position
    return region_of(pos[0], pos[2], regions, exclude=container.guid) if pos else None
