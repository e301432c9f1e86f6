"""RULES §3: the flow of a day."""

import pytest

from engine.catch_the_witch import IllegalAction, Phase, rules, tables
from engine.catch_the_witch.domain import Form
from tests.support.table import FOUR, SIX, Table

FISH = [["fish", "fish"]] * 7


def started(roles=FOUR, **kwargs) -> Table:
    t = Table(roles, required=kwargs.pop("required", FISH), **kwargs)
    t.ready_all()
    return t


def test_s3_1_role_check_waits_for_every_ready_and_has_no_timer():
    t = Table(FOUR)
    for name in ("Ann", "Bo", "Cy"):
        t.do(name, "ready")
    assert t.phase is Phase.ROLE_CHECK and t.state.deadline is None
    assert t.view("Bo")["waiting"] == ["Di"]
    with pytest.raises(IllegalAction, match="already Ready"):
        t.do("Ann", "ready")
    t.do("Di", "ready")
    assert t.phase is Phase.MORNING and t.state.day == 1


def test_s3_2_morning_draws_from_open_places_with_the_day_size():
    t = Table(SIX, seed=11)
    t.ready_all()
    required = t.view("Bo")["today"]["required"]
    assert len(required) == 2
    assert set(required) <= {"mushroom", "moonflower", "fish"}


def test_s3_3_a_place_can_be_changed_until_the_witches_turn():
    t = started()
    t.places(Bo="river", Cy="forest")
    t.places(Bo="meadow")
    assert t.view("Bo")["me"]["place"] == "meadow"
    t.places(Di="river")
    assert t.phase is Phase.PLACE_CHOICE  # the witch's plan is still missing
    t.plans()
    assert t.phase is Phase.WITCHES
    with pytest.raises(IllegalAction, match="not possible now"):
        t.places(Bo="river")


def test_s3_3_the_gathering_scene_gives_the_witches_counts_but_no_names():
    t = started(SIX)
    t.places(Bo="river", Cy="river", Di="forest", Fay="river")
    t.plans(Ann="meadow", Eve="meadow")
    ann = t.view("Ann")
    assert ann["phase"] == "witches" and ann["your_turn"]
    assert ann["me"]["counts"] == {"forest": 1, "meadow": 0, "river": 3}  # plans not counted
    assert "at_my_place" not in ann["me"]
    assert t.state.deadline == t.now + 15
    assert "counts" not in t.view("Bo")["me"]
    t.do("Ann", "witch_place", place="river")
    assert t.view("Ann")["me"]["at_my_place"] == ["Bo", "Cy", "Fay"]
    assert t.view("Eve")["me"]["witch_choices"]["Ann"]["place"] == "river"


def test_s3_3_witch_choices_are_final():
    t = started()
    t.places(Bo="river", Cy="river", Di="river")
    t.plans()
    t.do("Ann", "witch_place", place="forest")
    with pytest.raises(IllegalAction, match="final"):
        t.do("Ann", "witch_place", place="river")


def test_s3_4_evening_news_says_everyone_came_back_safely_and_everyone_taps_ok():
    t = started()
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    assert t.phase is Phase.EVENING
    assert t.view("Bo")["today"]["new_frogs"] == []
    t.state.cat("Di").form = Form.FROG  # frogs tap OK too
    t.ok_all()
    assert t.phase is Phase.DISCUSSION


def test_s3_4_discussion_ends_when_every_cat_in_human_form_taps_end_talk():
    t = started()
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    t.ok_all()
    for name in ("Ann", "Bo", "Cy"):
        t.do(name, "end_talk")
    assert t.phase is Phase.DISCUSSION
    t.do("Di", "end_talk")
    assert t.phase is Phase.PROPOSAL


def test_s3_4_discussion_limit_moves_on_at_zero():
    t = started(settings={"discussion_limit": 60})
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    t.ok_all()
    assert t.state.deadline == t.now + 60
    with pytest.raises(IllegalAction, match="not run out"):
        t.do(None, "timeout")
    t.timeout()
    assert t.phase is Phase.PROPOSAL


def to_proposal(t: Table) -> None:
    t.places(**{n: "river" for n in t.humans() if t.roles[n] != "witch"})
    for name in t.humans():
        if t.roles[name] == "witch":
            t.witch(name, "forest")
    t.evening()


def test_s3_5_proposal_needs_exactly_n_cats_in_human_form_from_the_chief():
    t = started()
    to_proposal(t)
    with pytest.raises(IllegalAction, match="Only the Chief"):
        t.do("Bo", "propose", members=["Bo", "Cy"])
    with pytest.raises(IllegalAction, match="exactly 2"):
        t.propose(["Ann"])
    with pytest.raises(IllegalAction, match="exactly 2"):
        t.propose(["Ann", "Ann"])
    t.propose(["Ann", "Bo"])  # the Chief may include herself
    assert t.phase is Phase.APPROVAL


def test_s3_5_chief_rotation_skips_frogs_and_exiled_and_passes_on_rejection():
    t = started(SIX)
    to_proposal(t)
    assert t.state.chief == "Ann"
    t.reject()
    assert t.state.chief == "Bo"
    t.state.cat("Cy").form = Form.FROG
    t.reject()
    assert t.state.chief == "Di"  # Cy skipped
    t.propose(["Di", "Fay", "Bo"][: len(t.state.today.required)])
    t.approve_all(True)
    t.ok_all()
    for name in t.state.today.ritual_members:
        t.do(name, "play_card", card="fish")
    t.ok_all()
    t.timeout()
    t.votes()
    t.ok_all()
    to_proposal(t)
    assert t.state.chief == "Eve"  # the cat after the last proposer (Di)


def test_s3_6_yes_no_votes_are_changeable_secret_and_then_revealed_with_names():
    t = started()
    to_proposal(t)
    t.propose(["Bo", "Cy"])
    t.do("Bo", "approve", yes=False)
    t.do("Bo", "approve", yes=True)
    assert t.view("Cy")["today"]["proposals"][-1] == {"chief": "Ann", "members": ["Bo", "Cy"]}
    assert t.view("Bo")["me"]["approve"] is True
    assert t.view("Bo")["waiting"] == ["Ann", "Cy", "Di"]  # Bo voted: the names waited for
    assert t.view("Cy")["waiting"] is None and t.view("Cy")["your_turn"]  # Cy: its own vote
    t.approve_all(True, Di=False)
    result = t.view("Cy")["today"]["proposals"][-1]
    assert result["yes"] == ["Ann", "Bo", "Cy"] and result["no"] == ["Di"] and result["passed"]
    assert t.phase is Phase.APPROVAL_RESULT


def test_s3_6_a_tie_rejects_and_fills_the_curse_gauge():
    t = started()
    to_proposal(t)
    t.propose(["Bo", "Cy"])
    t.approve_all(True, Cy=False, Di=False)
    assert t.view("Bo")["today"]["proposals"][-1]["passed"] is False
    assert t.state.curse == 1


def test_s3_6_full_curse_gauge_fails_the_ritual_and_goes_to_the_vote():
    t = started()
    to_proposal(t)
    t.curse_day()
    assert t.phase is Phase.VOTE
    assert t.state.today.ritual_result == "cursed"
    assert t.state.rituals_held == 0  # a curse auto-fail is not a ritual held
    t.votes()
    t.ok_all()
    assert t.state.curse == 0  # reset each day


def test_s3_7_ritual_result_then_a_four_second_squabble_then_the_vote():
    t = started()
    to_proposal(t)
    t.propose(["Bo", "Cy"])
    t.approve_all(True)
    t.ok_all()
    t.do("Bo", "play_card", card="fish")
    t.do("Cy", "play_card", card="fish")
    assert t.phase is Phase.RITUAL_RESULT
    assert t.view("Di")["today"]["ritual_result"] == "success"
    t.ok_all()
    assert t.phase is Phase.SQUABBLE and t.state.deadline == t.now + 4
    t.timeout()
    assert t.phase is Phase.VOTE


def test_s3_8_after_the_vote_result_the_next_morning():
    t = started()
    to_proposal(t)
    t.curse_day()
    t.votes()
    assert t.phase is Phase.VOTE_RESULT
    t.ok_all()
    assert t.phase is Phase.MORNING and t.state.day == 2
    assert rules.knights_day(t.state) == 5


def test_s3_1_a_cat_sees_its_own_ready():
    t = Table(FOUR)
    assert t.view("Ann")["me"]["done"] is False
    t.do("Ann", "ready")
    assert t.view("Ann")["me"]["done"] is True and t.view("Bo")["me"]["done"] is False


def test_s3_2_the_morning_is_timed_waits_for_nobody_and_leads_to_the_place_choice():
    t = started()
    assert t.phase is Phase.MORNING
    assert t.state.deadline == t.now + tables.MORNING_SECONDS
    assert rules.waiting_for(t.state) == [] and t.view("Bo")["waiting"] is None
    assert t.view("Bo")["today"]["required"] == ["fish", "fish"]
    with pytest.raises(IllegalAction, match="not possible now"):
        t.do("Bo", "choose_place", place="river")
    with pytest.raises(IllegalAction, match="not run out"):
        t.do(None, "timeout")
    assert t.phase is Phase.MORNING  # no move of anyone ends it
    t.timeout()
    assert t.phase is Phase.PLACE_CHOICE and t.state.day == 1


def test_s3_3_the_witches_turn_lasts_the_full_15_seconds_when_every_witch_has_chosen():
    t = started()
    t.places(Bo="river", Cy="river", Di="river")
    t.plans()
    started_at = t.now
    t.do("Ann", "witch_place", place="forest")
    t.do("Ann", "witch_spell", spell="none")
    assert t.phase is Phase.WITCHES and t.state.deadline == started_at + tables.WITCH_SECONDS
    with pytest.raises(IllegalAction, match="not run out"):
        t.do(None, "timeout")
    t.timeout()
    assert t.phase is Phase.EVENING
    assert t.state.cat("Ann").hand == ["mushroom"]


def test_s3_3_the_place_choice_waits_for_a_witch_and_keeps_her_tap_as_her_plan():
    t = started()
    t.places(Ann="river", Bo="river", Cy="river")
    t.places(Ann="meadow")  # changeable like anyone's place
    assert t.view("Ann")["me"]["place"] == "meadow"  # shown as anyone's tapped place
    assert t.phase is Phase.PLACE_CHOICE and rules.waiting_for(t.state) == ["Di"]
    t.places(Di="river")
    ann = t.view("Ann")["me"]
    assert ann["place"] == "meadow"  # pre-selected in her 15 s
    assert ann["counts"] == {"forest": 0, "meadow": 0, "river": 3}  # a plan is not counted
    t.timeout()  # no witch_place: she gathers at her plan, casting nothing
    assert t.state.today.witch_choices["Ann"].place == "meadow"
    assert t.state.cat("Ann").hand == ["moonflower"]
    t2 = started()
    t2.places(Bo="river", Cy="river", Di="river")
    assert t2.phase is Phase.PLACE_CHOICE and rules.waiting_for(t2.state) == ["Ann"]
    assert t2.view("Ann")["your_turn"] and t2.view("Bo")["waiting"] is None  # private list


def test_s3_3_a_witch_place_tapped_in_her_15_seconds_overrides_her_plan():
    t = started()
    t.places(Bo="river", Cy="river", Di="river")
    t.plans(Ann="meadow")
    t.witch("Ann", "river")
    assert t.state.cat("Ann").hand == ["fish"]
