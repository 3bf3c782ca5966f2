"""How the suite is spread over pytest-xdist's workers (``make test`` runs ``--dist loadgroup``).

A test file stays on one worker by default, so its module fixtures (a served table, a browser, a
played game) start once: every test without an ``xdist_group`` mark gets its file's. A module
whose parts are independent (one served table per game, say) marks them with groups of their own,
so they spread over the workers. Groups that hold a ``slow`` test are handed out first: a long
group started last would leave the other workers idle while it finishes.
"""

from __future__ import annotations

import pytest


def _group(item: pytest.Item) -> str:
    marks = [m for m in item.iter_markers("xdist_group")]
    if marks:
        return "_".join(sorted(str(m.args[0] if m.args else m.kwargs["name"]) for m in marks))
    return item.nodeid.split("::", 1)[0]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow_groups: set[str] = set()
    for item in items:
        if not any(True for _ in item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
        if item.get_closest_marker("slow") is not None:
            slow_groups.add(_group(item))
    # a stable sort: the order within each group, and among the other groups, is unchanged
    items.sort(key=lambda item: _group(item) not in slow_groups)
