"""RULES §7 ritual, §8 vote and exile."""

import pytest

from engine.catch_the_witch import IllegalAction, Phase
from engine.catch_the_witch.domain import Form, Ingredient
from tests.support.table import FOUR, Table

FISH = [["fish", "fish"]] * 7


def at_ritual(members=("Ann", "Bo"), required=FISH, roles=FOUR, settings=None) -> Table:
    t = Table(roles, required=required, settings=settings)
    t.ready_all()
    t.places(**{n: "river" for n, r in roles.items() if r != "witch"})
    for name, role in roles.items():
        if role == "witch":
            t.witch(name, "river")
    t.evening()
    t.propose(list(members))
    t.approve_all(True)
    t.ok_all()
    assert t.phase is Phase.RITUAL
    return t


def test_s7_nightshade_only_for_the_witch_side_and_never_used_up():
    t = at_ritual()
    with pytest.raises(IllegalAction, match="Only witches and the Crow"):
        t.do("Bo", "play_card", card="nightshade")
    assert t.view("Ann")["me"]["playable"] == ["fish", "nightshade"]
    t.do("Ann", "play_card", card="nightshade")
    assert t.state.cat("Ann").hand == [Ingredient.FISH]
    t.do("Bo", "play_card", card="fish")
    assert t.view("Cy")["today"]["ritual_result"] == "failure"


def test_s7_empty_paw_only_with_an_empty_hand():
    t = at_ritual()
    with pytest.raises(IllegalAction, match="empty paw is only for an empty hand"):
        t.do("Bo", "play_card", card="empty")
    t.state.cat("Bo").hand = []
    assert t.view("Bo")["me"]["playable"] == ["empty"]
    t.do("Bo", "play_card", card="empty")
    with pytest.raises(IllegalAction, match="already played"):
        t.do("Bo", "play_card", card="fish")


def test_s7_only_members_play_and_only_cards_in_hand():
    t = at_ritual()
    with pytest.raises(IllegalAction, match="Only ritual members"):
        t.do("Cy", "play_card", card="fish")
    with pytest.raises(IllegalAction, match="no candle card"):
        t.do("Bo", "play_card", card="candle")
    with pytest.raises(IllegalAction, match="no banana card"):
        t.do("Bo", "play_card", card="banana")


def test_s7_success_iff_the_cards_equal_the_required_multiset_and_cards_are_discarded():
    t = at_ritual(members=("Bo", "Cy"))
    t.do("Bo", "play_card", card="fish")
    # Who has still to play is the step's waiting list; nobody else learns what Bo played,
    # nor is pushed anything while the other members are still to play (every frame is billed).
    assert t.view("Di")["waiting"] == ["Cy"] and "played" not in t.view("Di")["today"]
    t.do("Cy", "play_card", card="fish")
    assert t.state.seals == 1 and t.state.rituals_held == 1
    assert t.state.cat("Bo").hand == [] and t.state.cat("Cy").hand == []


def test_s7_rotten_never_matches():
    t = at_ritual(members=("Bo", "Cy"))
    t.state.cat("Bo").hand = [Ingredient.ROTTEN]
    t.do("Bo", "play_card", card="rotten")
    t.do("Cy", "play_card", card="fish")
    assert t.state.today.ritual_result == "failure" and t.state.rituals_held == 1


def test_s7_the_cards_played_are_never_shown_even_at_the_end():
    t = at_ritual(members=("Ann", "Bo"))
    t.do("Ann", "play_card", card="nightshade")
    t.do("Bo", "play_card", card="fish")
    t.ok_all()
    t.timeout()
    t.votes(Bo="Ann", Cy="Ann", Di="Ann")
    final = t.view("Bo")
    assert final["phase"] == "game_over"
    assert "nightshade" not in str(final["reveal"]["timeline"])


def to_vote() -> Table:
    t = at_ritual(members=("Bo", "Cy"))
    t.do("Bo", "play_card", card="fish")
    t.do("Cy", "play_card", card="fish")
    t.ok_all()
    t.timeout()
    assert t.phase is Phase.VOTE
    return t


def test_s8_a_cat_is_exiled_with_strictly_more_votes_than_every_other():
    t = to_vote()
    t.votes(Ann="Di", Bo="Ann", Cy="Ann", Di=None)
    assert t.state.cat("Ann").form is Form.EXILED
    assert t.state.outcome.reason.value == "witches_exiled"


def test_s8_a_tie_exiles_nobody_and_skips_do_not_compete():
    t = to_vote()
    t.votes(Ann="Bo", Bo="Ann")  # Cy and Di skip
    vote = t.view("Cy")["today"]["vote"]
    assert vote == {"votes": {"Ann": "Bo", "Bo": "Ann", "Cy": None, "Di": None}, "exiled": None}
    t.ok_all()
    t2 = to_vote()
    t2.votes(Ann="Di")  # one vote against three skips still exiles
    assert t2.state.cat("Di").form is Form.EXILED


def test_s8_votes_are_changeable_secret_until_counted_and_only_the_final_is_kept():
    t = to_vote()
    t.do("Bo", "vote", target="Cy")
    t.do("Bo", "vote", target="Ann")
    assert t.view("Cy")["today"]["vote"] is None
    assert t.view("Bo")["me"]["vote"] == "Ann"
    t.votes(Ann="Bo", Cy="Di", Di="Cy")
    assert t.view("Cy")["today"]["vote"]["votes"]["Bo"] == "Ann"
    assert "Cy" not in str(t.state.today.vote.votes["Bo"])


def test_s8_no_self_votes_and_frogs_neither_vote_nor_are_voted_for():
    t = to_vote()
    with pytest.raises(IllegalAction, match="yourself"):
        t.do("Bo", "vote", target="Bo")
    t.state.cat("Di").form = Form.FROG
    with pytest.raises(IllegalAction, match="not in human form"):
        t.do("Bo", "vote", target="Di")
    with pytest.raises(IllegalAction, match="Frogs cannot"):
        t.do("Di", "vote", target="Bo")


def test_s8_role_of_the_exiled_is_hidden_unless_the_room_option_is_on():
    for reveal in (False, True):
        t = at_ritual(
            members=("Bo", "Cy"),
            settings={"discussion_limit": None, "reveal_role_on_exile": reveal},
        )
        t.do("Bo", "play_card", card="fish")
        t.do("Cy", "play_card", card="fish")
        t.ok_all()
        t.timeout()
        t.votes(Ann="Di", Bo="Di", Cy="Di")
        seen = t.view("Bo")
        di = next(p for p in seen["players"] if p["name"] == "Di")
        assert ("role" in di) is reveal
        assert ("exiled_role" in seen["today"]) is reveal


def test_s8_exiled_cats_still_confirm_announcements():
    t = to_vote()
    t.votes(Ann="Di", Bo="Di", Cy="Di")
    assert "Di" in t.view(None)["waiting"]  # the table screen
    t.do("Di", "ok")
