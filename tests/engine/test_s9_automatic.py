"""RULES §9: time running out and Away, step by step (the §9 table)."""

import pytest

from engine.catch_the_witch import IllegalAction, Phase, StartTimer, apply
from engine.catch_the_witch.domain import Form, Ingredient
from tests.support.table import FOUR, SIX, Table

FISH = [["fish", "fish"]] * 7
TIMED = {"discussion_limit": 30}


def away(t: Table, name: str) -> None:
    t.do(t.state.host, "mark_away", target=name)


def test_s9_role_check_away_counts_as_ready():
    t = Table(FOUR)
    for name in ("Ann", "Bo", "Cy"):
        t.do(name, "ready")
    away(t, "Di")
    assert t.phase is Phase.MORNING


def test_s9_the_morning_waits_for_nobody_away_or_not():
    t = Table(FOUR, required=FISH)
    t.ready_all()
    away(t, "Bo")
    assert t.phase is Phase.MORNING and t.state.today.places == {}  # its timer ends it
    t.timeout()
    assert t.phase is Phase.PLACE_CHOICE and "Bo" in t.state.today.places


def test_s9_place_choice_timeout_is_a_random_place_no_restore_and_the_knight_gathers():
    t = Table(SIX, settings=TIMED, required=FISH)
    t.ready_all()
    assert any(isinstance(e, StartTimer) for e in t.effects)
    t.places(Bo="river")
    t.timeout()
    assert t.phase is Phase.WITCHES
    assert set(t.state.today.places) == {"Bo", "Cy", "Di", "Fay"}
    assert set(t.state.today.witch_plans) == {"Ann", "Eve"}  # random plans
    assert not t.state.today.guarding and t.state.today.restore is None


def test_s9_place_choice_away_is_a_random_place_at_once():
    t = Table(FOUR, required=FISH)
    t.ready_all()
    t.morning()
    away(t, "Bo")
    assert "Bo" in t.state.today.places
    t.places(Cy="river", Di="river")
    t.plans()
    assert t.phase is Phase.WITCHES


def test_s9_knight_away_after_choosing_guard_guards_a_random_place():
    t = Table(SIX, required=FISH)
    t.ready_all()
    t.morning()
    t.do("Di", "choose_guard")
    away(t, "Di")
    t.places(Bo="river", Cy="river", Fay="river")
    t.plans()
    assert t.phase is Phase.WITCHES and t.state.today.guard_place is not None


def test_s9_an_away_witch_gets_a_random_plan_at_once_then_gathers_there_casting_nothing():
    t = Table(SIX, required=FISH)
    t.ready_all()
    t.morning()
    away(t, "Eve")
    plan = t.state.today.witch_plans["Eve"]  # the place choice's automatic move, at once
    t.places(Bo="river", Cy="river", Di="river", Fay="river", Ann="forest")
    assert t.phase is Phase.WITCHES
    assert t.state.today.witch_choices["Eve"].place is plan
    assert t.state.today.witch_choices["Eve"].spell.value == "none"
    assert t.view("Ann")["your_turn"]


def test_s9_evening_ok_and_discussion_count_away_cats_as_done():
    t = Table(FOUR, required=FISH)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    away(t, "Di")
    for name in ("Ann", "Bo", "Cy"):
        t.do(name, "ok")
    assert t.phase is Phase.DISCUSSION
    for name in ("Ann", "Bo", "Cy"):
        t.do(name, "end_talk")
    assert t.phase is Phase.PROPOSAL


def evening(settings=None) -> Table:
    t = Table(FOUR, required=FISH, settings=settings)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    t.evening()
    return t


def test_s9_chief_proposal_timeout_or_away_is_a_random_valid_proposal():
    t = evening(TIMED)
    t.timeout()
    assert t.phase is Phase.APPROVAL and len(t.state.today.proposals[-1].members) == 2
    t2 = evening()
    away(t2, "Ann")  # Ann is the Chief and the host: marks herself
    assert t2.phase is Phase.APPROVAL


def test_s9_yes_no_timeout_and_away_count_as_yes():
    t = evening(TIMED)
    t.propose(["Bo", "Cy"])
    t.do("Bo", "approve", yes=False)
    t.timeout()
    assert t.state.today.proposals[-1].yes == ["Ann", "Cy", "Di"]
    t2 = evening()
    away(t2, "Di")
    t2.propose(["Bo", "Cy"])
    assert t2.state.approvals["Di"] is True


def test_s9_ritual_away_plays_the_oldest_card_or_an_empty_paw():
    t = evening()
    t.state.cat("Bo").hand = [Ingredient.MUSHROOM, Ingredient.FISH]
    t.state.cat("Cy").hand = []
    t.propose(["Bo", "Cy"])
    t.approve_all(True)
    t.ok_all()
    away(t, "Bo")
    away(t, "Cy")
    assert t.state.today.ritual_result == "failure"
    assert t.state.cat("Bo").hand == [Ingredient.FISH]


def test_s9_exile_vote_timeout_and_away_count_as_skip():
    t = evening(TIMED)
    t.curse_day()
    t.do("Bo", "vote", target="Ann")
    t.timeout()
    assert t.state.today.vote.votes == {"Ann": None, "Bo": "Ann", "Cy": None, "Di": None}
    assert t.state.cat("Ann").form is Form.EXILED


def test_s9_away_ends_when_the_cat_acts_and_an_automatic_choice_can_be_changed():
    t = Table(FOUR, required=FISH)
    t.ready_all()
    t.morning()
    away(t, "Bo")
    assert t.state.cat("Bo").away
    t.do("Bo", "choose_place", place="meadow")
    assert not t.state.cat("Bo").away
    assert t.state.today.places["Bo"].value == "meadow"


def test_s9_only_the_host_marks_away_and_not_twice():
    t = Table(FOUR)
    with pytest.raises(IllegalAction, match="Only the host"):
        t.do("Bo", "mark_away", target="Cy")
    away(t, "Cy")
    with pytest.raises(IllegalAction, match="already Away"):
        away(t, "Cy")
    assert t.view("Bo")["players"][2]["away"] is True


def test_s9_without_a_limit_the_timed_steps_have_no_deadline():
    t = evening()
    assert t.state.deadline is None
    with pytest.raises(IllegalAction, match="no timer"):
        t.do(None, "timeout")


def test_s9_a_stale_timer_is_refused():
    t = evening(TIMED)
    stale = t.state.step - 1
    with pytest.raises(IllegalAction, match="earlier step"):
        apply(t.state, {"type": "timeout", "step": stale}, t.now + 999)


def test_s9_an_illegal_action_leaves_the_state_unchanged():
    t = evening()
    before = t.state.model_dump_json()
    with pytest.raises(IllegalAction):
        t.do("Bo", "propose", members=["Bo", "Cy"])
    assert t.state.model_dump_json() == before
