"""Victory and tie-breaks at the end of a round (digest §1.1-1.2 [EN p.15 §7.0-7.2; PL
§7.0-7.3]) with both worked examples."""

from __future__ import annotations

from frcore_builders import lord, table, troops

from engine.games.france1429 import rounds, victory, views
from engine.games.france1429.state import FranceState

THREE = ("grady", "david", "other", "kirsten")


def _fiefs(
    state: FranceState, lid: str, seat: str, village: str, *fiefs: str, **kw: object
) -> FranceState:
    return lord(state, lid, seat, village, fiefs=tuple(fiefs), **kw)


def test_vp_count_fief_titles_king_and_pope_not_the_queen() -> None:
    """§1.1: 1 VP per Fief title, +1 King, +1 Pope; the Queen, Bishops, Cardinals: 0."""
    state = table()
    state = _fiefs(state, "charles", "grady", "bourg", "bourg", king=True)
    state = lord(state, "alienor", "grady", "bourg", queen=True)
    state = lord(state, "arthur", "david", "blaye", bishop=1, cardinal=True, pope=True)
    assert victory.vp(state, "grady") == 2
    assert victory.vp(state, "david") == 1
    rows = {r.seat: r for r in views.score(state)}
    assert [line.code for line in rows["grady"].lines] == ["score/fief", "score/king"]


def test_king_breaks_the_tie_between_two_solo_winners() -> None:
    """§1.2 example (EN): Grady 3 Fiefs, David 1, a third 1, Kirsten 2 Fiefs + King: Grady
    and Kirsten have 3 VP; Kirsten wins on the King tie-break."""
    state = table(THREE)
    state = _fiefs(state, "quentin", "grady", "bourg", "bourg", "green")
    state = _fiefs(state, "thierry", "grady", "sigy", "sigy")
    state = _fiefs(state, "francois", "david", "blaye", "blaye")
    state = _fiefs(state, "gauvain", "other", "st-gerome", "gerome")
    state = _fiefs(state, "charles", "kirsten", "st-medard", "medard", "abzac", king=True)
    assert victory.winners(state) == ("kirsten",)


def test_a_solo_victory_beats_a_bigger_alliance() -> None:
    """§1.2 example (both; §13 item 62): Grady (3 Fiefs) married to David (1 Fief + King) =
    5 VP together; Gunter, unallied, has 3 Fiefs: Gunter wins."""
    state = table(("grady", "david", "gunter", "kirsten"))
    state = _fiefs(state, "quentin", "grady", "bourg", "bourg", "green", spouse="jeanne")
    state = _fiefs(state, "thierry", "grady", "sigy", "sigy")
    state = _fiefs(state, "jeanne", "david", "blaye", "blaye", spouse="quentin")
    state = lord(state, "charles", "david", "blaye", king=True)
    state = _fiefs(state, "gauvain", "gunter", "st-gerome", "gerome", "medard")
    state = _fiefs(state, "arthur", "gunter", "st-paul", "abzac")
    assert victory.ally(state, "grady") == "david"
    assert victory.winners(state) == ("gunter",)


def test_an_alliance_wins_with_four_vp_and_a_married_family_cannot_win_alone() -> None:
    """§1.2: allies win together with 4 VP; a player in an alliance cannot win solo."""
    state = table(("grady", "david", "gunter", "kirsten"))
    state = _fiefs(state, "quentin", "grady", "bourg", "bourg", "green", spouse="jeanne")
    state = _fiefs(state, "thierry", "grady", "sigy", "sigy")
    state = _fiefs(state, "jeanne", "david", "blaye", "blaye", spouse="quentin")
    assert set(victory.winners(state)) == {"david", "grady"}


def test_no_alliance_with_three_players_so_a_married_family_wins_alone() -> None:
    """§1.2 / §10.1: in a 3-player game marriage makes no alliance; everyone wins alone."""
    state = table(("grady", "david", "gunter"))
    state = _fiefs(state, "quentin", "grady", "bourg", "bourg", "green", spouse="jeanne")
    state = _fiefs(state, "thierry", "grady", "sigy", "sigy")
    state = _fiefs(state, "jeanne", "david", "blaye", "blaye", spouse="quentin")
    assert victory.ally(state, "grady") is None
    assert victory.winners(state) == ("grady",)


def test_fewer_vp_than_needed_means_no_winner() -> None:
    state = _fiefs(table(), "quentin", "grady", "bourg", "bourg", "green")
    assert victory.winners(state) == ()


def test_tie_breaks_in_order_after_the_crowns_most_villages() -> None:
    """§1.2: King → Pope → Queen Regent → Fiefs → Bishoprics → Villages: two families with 3
    Fiefs and no crowns, the one with more Villages wins."""
    state = table()
    state = _fiefs(state, "quentin", "grady", "bourg", "bourg", "green", bishop=4)
    state = _fiefs(state, "thierry", "grady", "sigy", "sigy")
    state = _fiefs(state, "francois", "david", "blaye", "blaye", "gerome", bishop=1)
    state = _fiefs(state, "gauvain", "david", "st-medard", "medard")
    assert victory.tiebreak(state, "grady")[:5] == victory.tiebreak(state, "david")[:5]
    state = troops(state, "david", "st-paul", maa=1)
    assert victory.winners(state) == ("david",)


def test_end_of_round_passes_the_first_player_card_left_or_ends_the_game() -> None:
    """§5 Phase 7: Disasters discarded, victory checked, the First Player card passes left."""
    state = table()
    after = rounds.end_round(state)
    assert after.phase == "marriage" and after.first == 1 and after.round == 2
    won = rounds.end_round(_fiefs(state, "quentin", "grady", "bourg", "bourg", "green", "sigy"))
    assert won.phase == "over" and won.winners == ("grady",)
