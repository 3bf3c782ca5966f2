"""Phase 1 elections (digest §10.2-10.6 [EN p.5-6 §1.3-1.8; PL §1.3-1.8]; referee checks §13
items 5-12), with the Sigy example of §10.3."""

from __future__ import annotations

from dataclasses import replace

import pytest
from frcore_builders import lord, table, troops

from engine import flow, rules
from engine.games.france1429 import GAME, control, hear_ye
from engine.games.france1429.game import apply, legal_moves
from engine.games.france1429.moves import Candidate, Done, Vote
from engine.games.france1429.state import Election, FranceState
from engine.violations import RuleViolation


def _sigy() -> FranceState:
    """Bishopric 5 (Sigy principal, St Paul, St Ciers d'Abzac, Beaujeu): David holds St Paul and
    Sigy, Grady St Ciers d'Abzac and Beaujeu; Kirsten has the Bishop of Bourg from an earlier
    round; François (Grady's) and Thierry (David's) stand."""
    state = table()
    state = troops(troops(state, "david", "st-paul", maa=1), "david", "sigy", maa=1)
    state = troops(troops(state, "grady", "st-ciers-dabzac", maa=1), "grady", "beaujeu", maa=1)
    state = lord(state, "francois", "grady", "beaujeu")
    state = lord(state, "thierry", "david", "sigy")
    state = lord(state, "arthur", "kirsten", "bourg", bishop=4, bishop_round=0)
    return state


def test_bishop_votes_per_family_sigy_example() -> None:
    """§10.3 example (§13 item 7): David 3 (Sigy principal 2 + St Paul 1), Grady 2, Kirsten's
    old Bishop 2."""
    state = _sigy()
    assert hear_ye.votes(state, "david", "bishop", 5) == 3
    assert hear_ye.votes(state, "grady", "bishop", 5) == 2
    assert hear_ye.votes(state, "kirsten", "bishop", 5) == 2
    assert hear_ye.votes(state, "gunter", "bishop", 5) == 0


def test_sigy_election_grady_and_kirsten_make_francois_bishop() -> None:
    """§10.3 example: Grady and Kirsten back François (4) against David's 3 for his candidate:
    François becomes Bishop of Sigy; the markers are revealed in one event."""
    state = replace(_sigy(), election=Election("bishop", 5), offices=("pope", "king"))
    state = rules.apply(GAME, state, Candidate("grady", "francois"))
    state = rules.apply(GAME, state, Candidate("david", "thierry"))
    state = rules.apply(GAME, state, Done("kirsten"))
    state = rules.apply(GAME, state, Done("gunter"))
    assert state.election is not None and state.election.stage == "vote"
    assert flow.actors(GAME, state) == ("grady", "david", "kirsten")
    state = rules.apply(GAME, state, Vote("grady", 1, 2))
    assert state.find_lord("francois").bishop is None  # sealed: nothing shows yet
    state = rules.apply(GAME, state, Vote("david", 2))
    state = rules.apply(GAME, state, Vote("kirsten", 1))
    assert state.lord("francois").bishop == 5
    assert state.last_election is not None
    assert state.last_election.votes == {"francois": 4, "thierry": 3}


def test_a_tie_elects_nobody() -> None:
    """§10.3 (§13 item 8): a tie → no Bishop this round."""
    state = replace(_sigy(), election=Election("bishop", 5, (("grady", "francois"),
                    ("david", "thierry")), "vote"))  # fmt: skip
    backing = {"francois": ["grady"], "thierry": ["kirsten"]}
    assert hear_ye.result(state, backing) == ""
    assert hear_ye.result(state, {"francois": [], "thierry": []}) == ""  # nobody: needs 1


def test_a_bishop_election_is_held_only_when_every_village_is_controlled() -> None:
    """§10.3 (§13 item 5)."""
    state = _sigy()
    assert hear_ye.next_election(replace(state, offices=("bishop:5",))).election is not None
    bare = state.with_troops(replace(state.troops_at("grady", "st-ciers-dabzac"), maa=0))
    bare = control.refresh(bare, "st-ciers-dabzac")
    assert hear_ye.next_election(replace(bare, offices=("bishop:5",))).election is None


def test_bishop_candidates_are_unmarried_men_not_king_not_captive() -> None:
    """§10.3 (§13 item 6)."""
    state = replace(_sigy(), election=Election("bishop", 5))
    state = lord(state, "jeanne", "grady", "beaujeu")
    with pytest.raises(RuleViolation) as info:
        apply(state, Candidate("grady", "jeanne"))
    assert info.value.code == "election/not-male"  # the refusal says which rule (issue 27)
    married = state.with_lord(replace(state.lord("francois"), spouse="jeanne"))
    assert Candidate("grady", "francois") not in legal_moves(married)
    assert Candidate("grady", "francois") in legal_moves(state)


def test_the_pope_needs_more_than_half_of_the_for_votes() -> None:
    """§10.5 (§13 item 9): 4 Cardinals, 2 abstain, 2 back X: X wins (2 > 1); with the option
    'all', 2 of 4 is not enough."""
    state = table()
    for lid, seat in (("arthur", "grady"), ("francois", "david"), ("quentin", "kirsten"),
                      ("thierry", "gunter")):  # fmt: skip
        state = lord(state, lid, seat, "blaye", bishop=1 if lid == "arthur" else None,
                     cardinal=True)  # fmt: skip
    state = replace(state, election=Election("pope", 0, (("grady", "arthur"),), "vote"))
    assert hear_ye.result(state, {"arthur": ["grady", "david"]}) == "arthur"
    strict = replace(state, options={**state.options, "pope_majority": "all"})
    assert hear_ye.result(strict, {"arthur": ["grady", "david"]}) == ""


def test_the_king_needs_three_votes_and_the_church() -> None:
    """§10.6 (§13 items 10-11): at least 3 votes, more than any other, including 2 Bishops, a
    Cardinal or the Pope."""
    state = table()
    state = lord(state, "charles", "grady", "bourg", fiefs=("bourg",))
    state = lord(state, "thierry", "david", "blaye", fiefs=("blaye",))
    state = lord(state, "quentin", "david", "blaye", fiefs=("green",))
    state = lord(state, "gauvain", "david", "blaye", bishop=1)
    state = replace(state, election=Election("king", 0, (("grady", "charles"),), "vote"))
    assert hear_ye.votes(state, "david", "king") == 3
    assert hear_ye.result(state, {"charles": ["david"]}) == ""  # one Bishop only
    state = lord(state, "francois", "david", "blaye", bishop=2)
    assert hear_ye.result(state, {"charles": ["david"]}) == "charles"
    untitled = lord(table(), "beaudoin", "grady", "bourg")
    assert not hear_ye.eligible(untitled, "king", untitled.lord("beaudoin"))
    pl = replace(untitled, options={**untitled.options, "king_needs_title": "pl"})
    assert hear_ye.eligible(pl, "king", pl.lord("beaudoin"))


def test_a_kings_wife_becomes_queen() -> None:
    """§10.6, §13 item 13: the King's wife is Queen at once."""
    state = lord(table(), "charles", "grady", "bourg", fiefs=("bourg",), spouse="jeanne")
    state = lord(state, "jeanne", "david", "blaye", spouse="charles")
    for lid, seat in (("gauvain", "david"), ("francois", "kirsten")):
        state = lord(state, lid, seat, "blaye", bishop=1 if lid == "gauvain" else 2,
                     fiefs=("green",) if lid == "gauvain" else ())  # fmt: skip
    state = replace(state, election=Election("king", 0, (("grady", "charles"),), "vote"),
                    offices=())  # fmt: skip
    from engine.flow import Reveal

    ballots = tuple((s, Vote(s, 1)) for s in ("grady", "david", "kirsten"))
    state = hear_ye.reveal(state, Reveal("election/vote", ballots))
    assert state.lord("charles").king and state.lord("jeanne").queen


def test_only_families_with_votes_vote_and_markers_name_candidates() -> None:
    """§10.2 (§13 item 12): each family seals at most one FOR and one DECOY, on candidates;
    a family without votes has no markers to place."""
    state = replace(_sigy(), election=Election("bishop", 5, (("grady", "francois"),), "vote"))
    codes = [v.code for v in rules.check(GAME, state, Vote("gunter", 1))]
    assert codes == ["turn/not-your-turn"]
    assert [v.code for v in rules.check(GAME, state, Vote("grady", 2))] == [
        "election/not-a-candidate"
    ]
    state = rules.apply(GAME, state, Vote("grady", 1))
    assert [v.code for v in rules.check(GAME, state, Vote("grady", 1))] == ["flow/already-sealed"]


def test_an_opportunity_card_between_the_candidacies_and_a_dead_candidate_wins_nothing() -> None:
    """EN §2.4 (Opportunity cards "at any time during any phase except during the Draw phase")
    and the PL FAQ (L2478-2480: between the declaration of candidates and the vote, yes; FR-10):
    while the candidates are declared, another family assassinates François (PL edition: no
    roll); the votes on him are lost and Thierry's 3 elect him. No card during the sealed vote."""
    from frcore_builders import hand

    from engine.games.france1429.game import window_moves
    from engine.games.france1429.moves import Answer, Interject
    from engine.games.france1429.state import ASSASSINATION

    state = _sigy()
    state = replace(state, options={**state.options, "edition": "pl"})
    state = hand(lord(state, "gauvain", "gunter", "bourg"), "gunter", ASSASSINATION)
    state = replace(state, election=Election("bishop", 5), offices=())
    state = rules.apply(GAME, state, Candidate("grady", "francois"))
    state = rules.apply(GAME, state, Candidate("david", "thierry"))
    kill = Interject("gunter", ASSASSINATION, "francois", "gauvain")
    assert kill in window_moves(state, "gunter")
    state = rules.apply(GAME, state, kill)
    state = rules.apply(GAME, state, Answer("grady", False))  # no Secret Passage
    assert state.find_lord("francois") is None and state.election is not None
    state = rules.apply(GAME, state, Done("kirsten"))
    state = rules.apply(GAME, state, Done("gunter"))
    assert GAME.position(state).windows == ()  # the sealed vote: no card
    for vote in (Vote("grady", 1), Vote("david", 2), Vote("kirsten", 1)):
        state = rules.apply(GAME, state, vote)
    assert state.lord("thierry").bishop == 5
