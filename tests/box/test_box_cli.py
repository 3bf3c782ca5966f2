"""``herald box`` (issue #24 point 4): exit 0 for a good box, 2 with one sentence for a refused one,
in English and Polish; an import that is refused leaves the library as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridge.cli import main

from .box_support import exported


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_export_check_show_import_and_list(tmp_path: Path) -> None:
    box = tmp_path / "vw.herald-box"
    code, out, _ = _run("box", "export", "viscounts", "--data", "stand-in", "-o", str(box))
    assert code == 0 and box.exists() and "sha256:" in out
    code, out, _ = _run("box", "check", str(box))
    assert code == 0 and "1–4 players" in out
    code, out, _ = _run("box", "show", str(box), "--json")
    shown = json.loads(out)
    assert code == 0 and shown["game"] == "viscounts" and shown["playable_with"] == [1, 2, 3, 4]
    assert shown["digest"] == exported("viscounts", "stand-in").digest
    db = tmp_path / "herald.db"
    code, out, _ = _run("box", "import", str(box), "--db", str(db))
    assert code == 0
    code, out, _ = _run("box", "list", "--db", str(db))
    assert code == 0 and out.strip().endswith(".herald-box") and "viscounts" in out


def test_a_box_that_is_not_yet_playable_is_good_but_says_so_in_polish(tmp_path: Path) -> None:
    """Glory's ``box`` set leaves the printed values the rulebook lacks unknown: a good file,
    not yet playable, and the count of what to complete is said with a Polish plural."""
    box = tmp_path / "glory.herald-box"
    assert _run("box", "export", "glory", "--data", "box", "-o", str(box))[0] == 0
    code, out, _ = _run("box", "check", str(box), "--lang", "pl")
    assert code == 0 and "jeszcze nie da się grać" in out and "rzeczy do uzupełnienia" in out


@pytest.mark.parametrize("key", ["france1429", "glory", "viscounts"])
def test_every_shipped_box_set_is_a_good_start_not_a_refused_box(key: str, tmp_path: Path) -> None:
    """The ``box`` set is where a group starts typing its box: every value it lacks is a gap to
    complete, never a broken rule (Viscounts' "is not known" gaps were once counted as 322
    broken rules, so the page refused the very set it offers to start from)."""
    box = tmp_path / f"{key}.herald-box"
    assert _run("box", "export", key, "--data", "box", "-o", str(box))[0] == 0
    code, out, err = _run("box", "check", str(box))
    assert code == 0, err
    assert "not yet playable" in out


def test_refusals_exit_2_with_one_sentence_and_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "herald.db"
    good = tmp_path / "good.herald-box"
    good.write_bytes(exported("france1429", "stand-in").to_bytes())
    assert _run("box", "import", str(good), "--db", str(db))[0] == 0
    library = sorted(p.name for p in Path(f"{db}.boxes").rglob("*"))
    bad = tmp_path / "bad.herald-box"
    bad.write_bytes(good.read_bytes()[:-40])
    refused = (
        ("check", str(bad)),
        ("import", str(bad), "--db", str(db)),
        ("check", str(good), "--game", "viscounts"),
        ("show", str(tmp_path / "none")),
    )
    for args in refused:
        code, _, err = _run("box", *args)
        assert code == 2, args
        assert err.startswith("Box refused:") and len(err.strip().splitlines()) == 1, err
    code, _, err = _run("box", "check", str(bad), "--lang", "pl")
    assert code == 2 and err.startswith("Pudełko odrzucone:")
    assert sorted(p.name for p in Path(f"{db}.boxes").rglob("*")) == library


def test_selfplay_plays_on_a_box_file(tmp_path: Path) -> None:
    """``herald rules GAME selfplay --data BOX``: the referee plays whole games on a box (#24)."""
    box = tmp_path / "mine.herald-box"
    box.write_bytes(exported("middle-ages").to_bytes())
    code, out, _ = _run("rules", "middle-ages", "selfplay", "--games", "2", "--data", str(box),
                        "--json")  # fmt: skip
    result = json.loads(out)
    assert code == 0 and result["games"] == 2 and result["errors"] == 0 and result["moves"] > 0
    code, _, err = _run("rules", "middle-ages", "selfplay", "--games", "1", "--data",
                        str(tmp_path / "none.herald-box"))  # fmt: skip
    assert code == 2 and err.strip()
