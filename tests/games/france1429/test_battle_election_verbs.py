"""``herald rules france1429 battle BATTLE.json`` and ``election ELECTION.json`` (issue 12): one
battle from given dice, one election from given votes, through the real command line and the
game's own moves, checked against the rulebook's worked examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from bridge.cli import main
from engine.verbs import EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK


def _herald(*args: str) -> Any:
    return CliRunner().invoke(main, ["rules", "france1429", *args])


def _file(tmp_path: Path, name: str, doc: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


GRADY_DAVID = {
    "village": "l-epervier",
    "fortification": "stronghold",
    "attacker": {"men_at_arms": 5, "knights": 3, "lords": ["beaudoin"]},
    "defender": {"men_at_arms": 2, "knights": 3, "lords": ["thierry"]},
    "rolls": [
        {"attacker": [1, 3], "defender": [3, 2],
         "attacker_losses": {"men_at_arms": 2, "knights": 1}},
        {"attacker": [2], "defender": [1, 1]},
    ],
}  # fmt: skip


def test_battle_the_grady_david_example(tmp_path: Path) -> None:
    """§9.2 and §9.4 example [EN §6.2, PL §6.2]: Grady's 15 SP against David in his Stronghold
    roll 3 - 1 = 2 dice; 1 + 3 = 4 hits cost David 1 Man at Arms and 1 Knight, David's 3 + 2 =
    5 hits cost Grady 2 Men at Arms and 1 Knight (his choice); then Grady's 10 SP roll 2 - 1 = 1
    die, David 2."""
    result = _herald("battle", _file(tmp_path, "b.json", GRADY_DAVID), "--json")
    assert result.exit_code == EXIT_OK, result.output
    report = json.loads(result.output)
    first, second = report["rolls"]
    assert first["dice"] == {"attacker": 2, "defender": 2}
    assert first["hits"] == {"attacker": 4, "defender": 5}  # keyed by who rolled (issue 27)
    assert first["losses"]["attacker"] == {"men_at_arms": 2, "knights": 1, "lords_killed": [],
                                           "default": False}  # fmt: skip
    assert first["losses"]["defender"]["men_at_arms"] == 1
    assert first["losses"]["defender"]["knights"] == 1
    assert first["losses"]["defender"]["default"] is True  # the only allocation 4 hits allow
    assert second["dice"] == {"attacker": 1, "defender": 2}
    assert report["left"]["attacker"]["men_at_arms"] == 3 - 2
    assert report["left"]["defender"]["men_at_arms"] == 1 - 1
    text = _herald("battle", _file(tmp_path, "b.json", GRADY_DAVID)).output
    assert "Roll 1: attacker 2 dice [1, 3] → 4 hits; defender 2 dice [3, 2] → 5 hits." in text


def test_battle_refuses_a_roll_with_the_wrong_number_of_dice(tmp_path: Path) -> None:
    """§9.2: the dice each side rolls are set by its strength; another count is refused."""
    doc = {**GRADY_DAVID, "rolls": [{"attacker": [1, 3, 2], "defender": [3, 2]}]}
    result = _herald("battle", _file(tmp_path, "b.json", doc))
    assert result.exit_code == EXIT_ILLEGAL
    assert "2 attacker's dice and 2 defender's dice" in result.output


def test_battle_losses_the_rules_do_not_allow_are_refused(tmp_path: Path) -> None:
    """§9.4: as many strength points as the hits allow; 5 hits cannot spare the Knights."""
    roll = {"attacker": [1, 3], "defender": [3, 2], "attacker_losses": {"men_at_arms": 1}}
    result = _herald("battle", _file(tmp_path, "b.json", {**GRADY_DAVID, "rolls": [roll]}))
    assert result.exit_code == EXIT_ILLEGAL and "battle/losses" in result.output
    assert "Men at Arms+Knights 5+0; 2+1." in result.output  # the refusal lists the valid ones


def test_battle_bad_files_are_bad_input(tmp_path: Path) -> None:
    assert _herald("battle", _file(tmp_path, "b.json", {"rolls": []})).exit_code == EXIT_INPUT
    doc = {**GRADY_DAVID, "village": "atlantis"}
    assert _herald("battle", _file(tmp_path, "b.json", doc)).exit_code == EXIT_INPUT
    doc = {**GRADY_DAVID, "attacker": {"men_at_arms": 5, "lords": ["nobody"]}}
    result = _herald("battle", _file(tmp_path, "b.json", doc))
    assert result.exit_code == EXIT_INPUT and "unknown Lord 'nobody'" in result.output
    schema = json.loads(_herald("battle", "--schema").output)
    assert schema["$defs"]["BattleFile"]["required"] == ["attacker", "defender", "rolls"]


SIGY = {
    "office": "bishop",
    "bishopric": 5,
    "candidates": ["francois", "thierry"],
    "families": [
        {"seat": "david", "lords": ["thierry"], "controls": ["sigy", "st-paul"],
         "vote_for": "thierry", "decoy": "francois"},
        {"seat": "grady", "lords": ["francois"], "controls": ["st-ciers-dabzac", "beaujeu"],
         "vote_for": "francois"},
        {"seat": "kirsten", "lords": ["arthur"], "bishops": {"arthur": 4},
         "vote_for": "francois"},
    ],
}  # fmt: skip


def test_election_the_sigy_example(tmp_path: Path) -> None:
    """§10.3 example [EN §1.4.1, PL §1.41]: David casts 3 votes (Sigy, the Principal Village, 2
    + St Paul 1), Grady 2, Kirsten's Bishop from an earlier round 2: François 4, Thierry 3:
    François is Bishop."""
    result = _herald("election", _file(tmp_path, "e.json", SIGY), "--json")
    assert result.exit_code == EXIT_OK, result.output
    report = json.loads(result.output)
    assert report["votes_per_family"] == {"david": 3, "grady": 2, "kirsten": 2}
    assert report["count"] == {"francois": 4, "thierry": 3}
    assert report["winner"] == "francois"
    assert ["david", "thierry", "francois"] in report["markers"]  # FOR and DECOY revealed


def test_election_a_tie_elects_nobody(tmp_path: Path) -> None:
    """§10.3 (§13 item 8): a tie → no Bishop this round."""
    families = [dict(f) for f in SIGY["families"]]  # type: ignore[union-attr]
    families[2]["vote_for"] = ""  # Kirsten abstains
    families[0]["controls"] = ["sigy"]  # David 2 (the Principal Village), Grady 2
    result = _herald("election", _file(tmp_path, "e.json", {**SIGY, "families": families}),
                     "--json")  # fmt: skip
    assert result.exit_code == EXIT_OK, result.output
    report = json.loads(result.output)
    assert report["count"] == {"francois": 2, "thierry": 2} and report["winner"] is None
    assert "Nobody is elected." in _herald("election", str(tmp_path / "e.json")).output


def test_election_an_ineligible_candidate_is_refused(tmp_path: Path) -> None:
    """§10.3: a Bishop cannot stand for another Bishopric."""
    doc = {**SIGY, "candidates": ["francois", "arthur"]}
    result = _herald("election", _file(tmp_path, "e.json", doc))
    assert result.exit_code == EXIT_ILLEGAL and "arthur" in result.output


KING = {
    "office": "king",
    "candidates": ["charles"],
    "families": [
        {"seat": "grady", "lords": ["charles"], "titled": ["charles"], "vote_for": "charles"},
        {"seat": "david", "lords": ["arthur"], "bishops": {"arthur": 1}, "pope": "arthur",
         "vote_for": "charles"},
        {"seat": "kirsten", "lords": ["quentin", "gauvain"], "titled": ["quentin", "gauvain"],
         "vote_for": "charles"},
    ],
}  # fmt: skip


def test_election_file_names_the_pope_captives_and_the_excommunicated(tmp_path: Path) -> None:
    """§10.6 (issue 27: the file states every input the count reads): 3 votes or more, among
    them the Pope's, elect the King; without a church vote nobody is King (``winner`` null); a
    captive or excommunicated Lord casts no vote (§9.7, §10.5)."""
    report = json.loads(_herald("election", _file(tmp_path, "k.json", KING), "--json").output)
    assert report["votes_per_family"] == {"grady": 1, "david": 1, "kirsten": 2}
    assert report["winner"] == "charles"
    lay = [dict(f) for f in KING["families"]]  # type: ignore[union-attr]
    lay[1] = {"seat": "david", "lords": ["arthur"], "titled": ["arthur"], "vote_for": "charles"}
    report = json.loads(_herald("election", _file(tmp_path, "k.json", {**KING, "families": lay}),
                                "--json").output)  # fmt: skip
    assert report["count"] == {"charles": 4} and report["winner"] is None
    held = [dict(f) for f in KING["families"]]  # type: ignore[union-attr]
    held[2] = {**held[2], "captives": ["quentin"], "excommunicated": ["gauvain"]}
    report = json.loads(_herald("election", _file(tmp_path, "k.json", {**KING, "families": held}),
                                "--json").output)  # fmt: skip
    assert report["votes_per_family"]["kirsten"] == 0 and report["count"] == {"charles": 2}
    assert report["winner"] is None  # 2 votes: fewer than 3


def test_election_file_refusals_name_the_rule_and_options_change_the_count(tmp_path: Path) -> None:
    """An ineligible candidate is refused naming the rule (issue 27); the file's ``options``
    are the game's: the Polish edition lets an untitled man stand for King (PL L716-717)."""
    untitled = [dict(f) for f in KING["families"]]  # type: ignore[union-attr]
    untitled[0] = {**untitled[0], "titled": []}
    doc = {**KING, "families": untitled}
    result = _herald("election", _file(tmp_path, "k.json", doc), "--json")
    assert result.exit_code == EXIT_ILLEGAL
    assert json.loads(result.output)["rules"] == {"charles": "election/untitled"}
    text = _herald("election", str(tmp_path / "k.json")).output
    assert "charles holds no Title: a King candidate must be a Titled Lord" in text
    result = _herald("election", _file(tmp_path, "k.json", {**doc, "options": {"edition": "pl"}}),
                     "--json")  # fmt: skip
    assert result.exit_code == EXIT_OK and json.loads(result.output)["winner"] == "charles"
    bad = _herald("election", _file(tmp_path, "k.json", {**doc, "options": {"edition": "fr"}}))
    assert bad.exit_code == EXIT_INPUT and "edition is one of en, pl" in bad.output
    stray = [{**untitled[0], "captives": ["thierry"]}, *untitled[1:]]
    bad = _herald("election", _file(tmp_path, "k.json", {**KING, "families": stray}))
    assert bad.exit_code == EXIT_INPUT and "not one of its lords" in bad.output


def test_election_a_bishop_elected_this_round_does_not_vote_yet(tmp_path: Path) -> None:
    """§10.3: "Newly created Bishops cannot cast 2 votes this round" (EN p.5 §1.4): Kirsten's
    Bishop of this round adds nothing, so Thierry's 3 beat François's 2."""
    families = [dict(f) for f in SIGY["families"]]  # type: ignore[union-attr]
    families[2] = {**families[2], "new_bishops": ["arthur"]}
    result = _herald("election", _file(tmp_path, "e.json", {**SIGY, "families": families}),
                     "--json")  # fmt: skip
    report = json.loads(result.output)
    assert report["votes_per_family"]["kirsten"] == 0 and report["winner"] == "thierry"


def _battle(tmp_path: Path, doc: dict[str, Any]) -> Any:
    result = _herald("battle", _file(tmp_path, "b.json", doc), "--json")
    assert result.exit_code == EXIT_OK, result.output
    return json.loads(result.output)


def test_battle_file_a_cavalcade_and_the_winner(tmp_path: Path) -> None:
    """§8.5: the Cavalcade's defender deals +1 hit per die it rolls; ``hits`` is keyed by who
    rolled (issue 27); the side left standing is the ``winner``."""
    doc = {
        "cavalcade": True,
        "attacker": {"knights": 3, "lords": ["beaudoin"]},
        "defender": {"men_at_arms": 2, "lords": ["thierry"]},
        "rolls": [{"attacker": [1, 1], "defender": [1]}],
    }
    report = _battle(tmp_path, doc)
    assert report["rolls"][0]["hits"] == {"attacker": 2, "defender": 2}  # 1 + 1 per die
    assert report["over"] and report["winner"] == "attacker"
    plain = _battle(tmp_path, {**doc, "cavalcade": False})
    assert plain["rolls"][0]["hits"] == {"attacker": 2, "defender": 1}
    assert plain["left"]["defender"]["captured"] == ["thierry"]
    undecided = _battle(tmp_path, {**doc, "rolls": [{"attacker": [1, 1], "defender": [1]}][:0]})
    assert undecided["winner"] is None


def test_battle_file_relics_and_the_holy_spear_option(tmp_path: Path) -> None:
    """§12.2: the Grail takes 1 from each of the attacker's dice when its side defends; the
    Spear adds 1 hit to its side's roll when attacking, and when defending too under the PL
    edition (option ``holy_spear``, §15 item 11)."""
    doc = {
        "attacker": {"knights": 3, "lords": ["beaudoin"]},
        "defender": {"knights": 3, "lords": ["thierry"], "relics": {"holy-grail": "thierry"}},
        "rolls": [{"attacker": [1, 3], "defender": [2, 2]}],
    }
    assert _battle(tmp_path, doc)["rolls"][0]["hits"] == {"attacker": 2, "defender": 4}
    spear = {**doc, "defender": {"knights": 3, "lords": ["thierry"],
                                 "relics": {"holy-spear": "thierry"}}}  # fmt: skip
    assert _battle(tmp_path, spear)["rolls"][0]["hits"] == {"attacker": 4, "defender": 4}
    pl = _battle(tmp_path, {**spear, "options": {"edition": "pl"}})
    assert pl["rolls"][0]["hits"] == {"attacker": 4, "defender": 5}
    stray = {**doc, "defender": {"knights": 3, "relics": {"holy-grail": "thierry"}}}
    bad = _herald("battle", _file(tmp_path, "b.json", stray))
    assert bad.exit_code == EXIT_INPUT and "not one of defender's Lords" in bad.output


def test_battle_file_allies_pool_their_strength(tmp_path: Path) -> None:
    """§9.1-9.2 (FR-32): an ally joins the attacker when the battle is declared; the side's
    strength is pooled for its dice (3 + 4 = 7 SP: 2 dice); a Cavalcade takes no allies."""
    doc = {
        "attacker": {"men_at_arms": 2, "lords": ["beaudoin"]},
        "defender": {"knights": 2, "lords": ["thierry"]},
        "allies": [{"name": "kirsten", "side": "attacker", "men_at_arms": 3,
                    "lords": ["quentin"]}],
        "rolls": [{"attacker": [1, 1], "defender": [1, 1]}],
    }  # fmt: skip
    report = _battle(tmp_path, doc)
    assert report["rolls"][0]["dice"] == {"attacker": 2, "defender": 2}
    assert "kirsten" in report["left"]
    one_die = [{"attacker": [1], "defender": [1, 1]}]
    alone = _battle(tmp_path, {**doc, "allies": [], "rolls": one_die})
    assert alone["rolls"][0]["dice"]["attacker"] == 1
    bad = _herald("battle", _file(tmp_path, "b.json", {**doc, "cavalcade": True}))
    assert bad.exit_code == EXIT_INPUT and "two families only" in bad.output


def test_battle_file_a_secret_passage_lifts_the_fortification_penalty(tmp_path: Path) -> None:
    """§11.4: the attacker plays a Secret Passage at his decision after a roll: from the next
    roll on, no Stronghold penalty (Grady's 10 SP roll 2 dice, not 2 - 1)."""
    first = {**GRADY_DAVID["rolls"][0], "secret_passage": True}  # type: ignore[index]
    doc = {**GRADY_DAVID, "rolls": [first, {"attacker": [2, 1], "defender": [1, 1]}]}
    report = _battle(tmp_path, doc)
    assert report["rolls"][0]["secret_passage"] is True
    assert report["rolls"][1]["dice"] == {"attacker": 2, "defender": 2}


def test_battle_file_under_the_polish_edition_the_winner_may_let_beaten_lords_go(
    tmp_path: Path,
) -> None:
    """PL L1635-1637 (FR-26, ``captives`` ``optional``): the file names the beaten Lords the
    winner lets go (``released``); they stay free in the Village, the others are captives. The
    English edition takes them all."""
    doc = {
        "attacker": {"knights": 3, "lords": ["beaudoin"]},
        "defender": {"men_at_arms": 1, "knights": 1, "lords": ["gauvain", "blanche"],
                     "titled": ["gauvain"]},
        "rolls": [{"attacker": [1, 3], "defender": [1]}],
        "options": {"edition": "pl"},
        "released": ["blanche"],
    }  # fmt: skip
    report = _battle(tmp_path, doc)
    assert report["rolls"][0]["released"] == ["blanche"]
    assert report["left"]["defender"]["captured"] == ["gauvain"]
    assert report["left"]["defender"]["lords"] == ["blanche"]
    english = _battle(tmp_path, {**doc, "options": {}})
    assert english["left"]["defender"]["captured"] == ["gauvain", "blanche"]
