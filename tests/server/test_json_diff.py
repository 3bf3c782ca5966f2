"""bridge.json_diff makes RFC 6902 patches that a standard implementation (python-json-patch,
the library the pages' fast-json-patch mirrors) applies to rebuild the new document exactly."""

from __future__ import annotations

from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.json_diff import diff

KEYS = st.sampled_from(["a", "b", "c", "x/y", "t~1", "", "0"])
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3)
DOCS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, DOCS, max_size=5), st.dictionaries(KEYS, DOCS, max_size=5))
def test_applying_the_diff_gives_the_new_document(old: dict[str, Any], new: dict[str, Any]) -> None:
    got = jsonpatch.apply_patch(old, diff(old, new))
    assert got == new
    assert all(type(a) is type(b) for a, b in zip(_leaves(got), _leaves(new), strict=True))


def _leaves(doc: Any) -> list[Any]:
    if isinstance(doc, dict):
        return [leaf for k in sorted(doc) for leaf in _leaves(doc[k])]
    if isinstance(doc, list):
        return [leaf for item in doc for leaf in _leaves(item)]
    return [doc]


def test_equal_documents_need_no_operation() -> None:
    doc = {"rows": [[1, None], [2, 3]], "phase": "turn"}
    assert diff(doc, {"rows": [[1, None], [2, 3]], "phase": "turn"}) == []


def test_a_value_changed_in_place_is_one_replace_at_its_path() -> None:
    old = {"players": [{"seat": "red", "coins": 3}, {"seat": "blue", "coins": 5}]}
    new = {"players": [{"seat": "red", "coins": 3}, {"seat": "blue", "coins": 7}]}
    assert diff(old, new) == [{"op": "replace", "path": "/players/1/coins", "value": 7}]


def test_a_grown_list_gets_its_new_items_appended() -> None:
    assert diff({"log": [1, 2]}, {"log": [1, 2, 3]}) == [
        {"op": "add", "path": "/log/-", "value": 3}
    ]


def test_keys_with_slash_and_tilde_are_escaped() -> None:
    ops = diff({"a/b": 1, "c~d": 1}, {"a/b": 2, "c~d": 2})
    assert [o["path"] for o in ops] == ["/a~1b", "/c~0d"]


def test_true_is_not_taken_for_one() -> None:
    assert diff({"v": 1}, {"v": True}) == [{"op": "replace", "path": "/v", "value": True}]
