"""RULES §1: sides, victory conditions, check order, witch score."""

from engine.catch_the_witch import Reason, Side, rules, view
from engine.catch_the_witch.domain import Form
from tests.engine.scenarios.generate import SCENARIOS, quiet_day, to_knights_day_vote
from tests.support.table import FOUR, SIX, Table

FISH = [["fish", "fish"]] * 7


def test_s1_each_victory_reason_is_reachable():
    for reason, (build, _) in SCENARIOS.items():
        table = build()
        assert table.state.outcome.reason == Reason(reason)
        assert table.state.outcome.winner == Reason(reason).winner


def test_s1_seals_complete_on_the_knights_day_wins_without_a_final_vote():
    t = Table(FOUR, required=[["fish", "fish"]] * 5)
    t.ready_all()
    for day in range(1, 6):
        t.places(Bo="river", Cy="river", Di="river")
        t.witch("Ann", "forest")
        t.evening()
        if day in (1, 2, 5):  # two seals before, the third on the Knights' day
            t.passed_ritual(["Bo", "Cy"], {"Bo": "fish", "Cy": "fish"})
        else:
            t.curse_day()
        if t.state.outcome:
            break
        t.votes()
        t.ok_all()
    assert t.state.outcome.reason is Reason.SEALS_COMPLETE
    assert t.state.outcome.day == 5 == rules.knights_day(t.state)


def test_s1_last_witch_exiled_on_the_knights_day_is_knights_vote_success():
    t = SCENARIOS["knights_vote_success"][0]()
    assert t.state.outcome.reason is Reason.KNIGHTS_VOTE_SUCCESS  # b before c


def test_s1_jester_exiled_on_the_knights_day_wins_alone():
    roles = {"Ann": "witch", "Bo": "jester", "Cy": "villager", "Di": "villager"}
    t = to_knights_day_vote(Table(roles, required=FISH))
    t.votes(Ann="Bo", Cy="Bo", Di="Bo")
    assert t.state.outcome.winner is Side.JESTER
    assert t.state.outcome.reason is Reason.JESTER_EXILED


def test_s1_knights_vote_fails_when_a_non_witch_is_exiled():
    t = to_knights_day_vote(Table(FOUR, required=FISH))
    t.votes(Ann="Di", Bo="Di", Cy="Di")
    assert t.state.outcome.reason is Reason.KNIGHTS_VOTE_FAIL


def test_s1_all_remaining_witches_frogs_after_the_vote():
    """One witch exiled, the other a frog: 'all witches exiled' does not hold, frogs do."""
    t = Table(SIX, required=[["fish", "fish"], ["fish"] * 3, ["fish"] * 3])
    t.ready_all()
    quiet_day(t)
    # Day 2: Ann frogs Eve (alone together in the forest); Ann is exiled at the vote.
    t.places(Bo="river", Cy="river", Di="river", Fay="river")
    t.plans()
    t.do("Eve", "witch_place", place="forest")
    t.do("Ann", "witch_place", place="forest")
    t.do("Eve", "witch_spell", spell="none")
    t.do("Ann", "witch_spell", spell="frog", target="Eve")
    t.end_witches_turn()
    assert t.state.cat("Eve").form is Form.FROG
    t.evening()
    t.curse_day()
    t.votes(Bo="Ann", Cy="Ann", Di="Ann", Fay="Ann")
    assert t.state.outcome.reason is Reason.WITCHES_ALL_FROGS


def test_s1_witches_take_over_counts_crow_and_jester_as_non_witches():
    roles = {"Ann": "witch", "Bo": "crow", "Cy": "jester", "Di": "villager", "Eve": "villager"}
    t = Table(roles, required=FISH)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="river", Eve="river")
    t.witch("Ann", "forest")
    t.evening()
    t.curse_day()
    t.votes(Ann="Di", Bo="Di", Eve="Di")
    t.ok_all()
    # Ann + Bo(crow) + Cy(jester) + Eve: 3 non-witches vs 1 witch, no take-over yet.
    assert t.state.outcome is None
    assert not rules._witches_take_over(t.state)


def test_s1_no_take_over_without_a_witch_in_human_form():
    t = Table(FOUR)
    t.state.cat("Ann").form = Form.FROG
    t.state.cat("Bo").form = Form.FROG
    t.state.cat("Cy").form = Form.FROG
    assert not rules._witches_take_over(t.state)


def test_s1_witch_score_counts_every_frog_including_witch_frogs():
    t = SCENARIOS["witches_all_frogs"][0]()
    final = view(t.state, "Bo")
    assert final["reveal"]["witch_score"] == 2
    assert set(final["reveal"]["roles"]) == set(SIX)
    assert final["outcome"] == {"winner": "villagers", "reason": "witches_all_frogs", "day": 2}
