"""RULES §6: Seer, Herbalist, Guardian Knight, Pickpocket."""

import pytest

from engine.catch_the_witch import IllegalAction, Phase, tables
from engine.catch_the_witch.domain import Form, Ingredient
from tests.support.table import FOUR, SIX, Table

FISH = [["fish", "fish"]] + [["fish"] * 3] * 6
SEVEN = {"Ann": "witch", "Bo": "herbalist", "Cy": "seer", "Di": "knight", "Eve": "witch",
         "Fay": "villager", "Gus": "crow"}  # fmt: skip


def evening_of_day_one(roles, **places) -> Table:
    t = Table(roles, required=FISH)
    t.ready_all()
    t.places(**places)
    for name, role in roles.items():
        if role == "witch":
            t.witch(name, "forest")
    return t


def test_s6_1_seer_looks_once_a_day_and_reads_crow_as_not_a_witch():
    t = evening_of_day_one(SEVEN, Bo="river", Cy="river", Di="river", Fay="river", Gus="river")
    t.do("Cy", "seer_look", target="Gus")
    assert t.view("Cy")["me"]["seer_results"] == [{"day": 1, "target": "Gus", "witch": False}]
    with pytest.raises(IllegalAction, match="once per day"):
        t.do("Cy", "seer_look", target="Ann")
    with pytest.raises(IllegalAction, match="Only the Seer"):
        t.do("Bo", "seer_look", target="Ann")
    assert "seer_results" not in t.view("Bo")["me"]


def test_s6_1_seer_window_closes_when_the_exile_vote_starts():
    t = evening_of_day_one(SEVEN, Bo="river", Cy="river", Di="river", Fay="river", Gus="river")
    t.evening()
    t.curse_day()
    assert t.phase is Phase.VOTE
    with pytest.raises(IllegalAction, match="not possible now"):
        t.do("Cy", "seer_look", target="Ann")


def test_s6_1_seer_cannot_look_at_herself_or_exiled_cats():
    t = evening_of_day_one(SEVEN, Bo="river", Cy="river", Di="river", Fay="river", Gus="river")
    with pytest.raises(IllegalAction, match="another cat"):
        t.do("Cy", "seer_look", target="Cy")
    t.state.cat("Fay").form = Form.EXILED
    with pytest.raises(IllegalAction, match="Exiled"):
        t.do("Cy", "seer_look", target="Fay")
    t.do("Cy", "seer_look", target="Ann")
    assert t.view("Cy")["me"]["seer_results"][0]["witch"] is True


def test_s6_1_where_the_seer_first_looks_on_day_two_a_day_one_look_is_refused(monkeypatch):
    """tables.SEER_FIRST_DAY (docs/balance.md): at 11 cats the Seer first looks on day 2.
    A day-1 look is refused in words and changes nothing; the view tells every phone the
    table's rule (the Seer's role card says it); from day 2 the Seer looks as usual."""
    monkeypatch.setitem(tables.SEER_FIRST_DAY, len(SEVEN), 2)
    t = evening_of_day_one(SEVEN, Bo="river", Cy="river", Di="river", Fay="river", Gus="river")
    assert t.view("Bo")["seer_first_day"] == 2
    with pytest.raises(IllegalAction, match="first looks on day 2") as refused:
        t.do("Cy", "seer_look", target="Ann")
    assert refused.value.code == "seer_not_yet" and refused.value.params == {"day": 2}
    assert t.view("Cy")["me"]["seer_results"] == [] and not t.view("Cy")["me"]["seer_used_today"]
    t.evening()
    t.curse_day()
    t.votes()
    t.ok_all()
    t.places(Bo="river", Cy="river", Di="river", Fay="river", Gus="river")
    t.witch("Ann", "forest")
    t.witch("Eve", "forest")
    t.do("Cy", "seer_look", target="Ann")
    assert t.view("Cy")["me"]["seer_results"] == [{"day": 2, "target": "Ann", "witch": True}]


def test_s6_1_the_seer_looks_from_day_one_at_every_count_but_five_eight_and_eleven():
    assert {n: day for n, day in tables.SEER_FIRST_DAY.items() if day != 1} == {5: 3, 8: 3, 11: 2}
    assert set(tables.SEER_FIRST_DAY) == set(tables.ROLE_COUNTS)


def test_s6_2_herbalist_restores_a_frog_who_gathers_nothing_that_day():
    t = evening_of_day_one(FOUR, Bo="river", Cy="river", Di="river")
    t.state.cat("Di").form = Form.FROG
    t.evening()
    t.curse_day()
    t.votes()
    t.ok_all()
    t.morning()
    with pytest.raises(IllegalAction, match="Only the Herbalist"):
        t.do("Cy", "choose_place", place="river", restore="Di")
    with pytest.raises(IllegalAction, match="Cy is not a frog"):
        t.do("Bo", "choose_place", place="river", restore="Cy")
    t.do("Bo", "choose_place", place="river", restore="Di")
    assert t.view("Bo")["me"]["restore"] == "Di"
    t.places(Cy="river")
    t.witch("Ann", "forest")
    assert t.state.cat("Di").form is Form.HUMAN
    assert t.view("Cy")["today"]["restored"] == ["Di"]
    assert t.state.cat("Di").hand == [Ingredient.FISH]  # from day 1 only


def test_s6_2_a_herbalist_frogged_the_same_day_restores_nobody():
    t = evening_of_day_one(SIX, Bo="meadow", Cy="river", Di="river", Fay="river")
    t.state.cat("Cy").form = Form.FROG
    t.evening()
    t.curse_day()
    t.votes()
    t.ok_all()
    t.morning()
    t.do("Bo", "choose_place", place="meadow", restore="Cy")
    t.places(Di="river", Fay="river")
    t.witch("Ann", "meadow", "frog", "Bo")
    t.witch("Eve", "forest")
    assert t.state.cat("Bo").form is Form.FROG
    assert t.state.cat("Cy").form is Form.FROG
    assert t.state.today.restored == []


def test_s6_3_knight_guard_is_final_and_hidden_from_counts():
    t = Table(SIX, required=FISH)
    t.ready_all()
    t.morning()
    t.do("Di", "choose_guard")
    with pytest.raises(IllegalAction, match="cannot be changed"):
        t.do("Di", "choose_place", place="river")
    with pytest.raises(IllegalAction, match="already chose to Guard"):
        t.do("Di", "choose_guard")
    with pytest.raises(IllegalAction, match="Only the Guardian Knight"):
        t.do("Bo", "choose_guard")
    t.places(Bo="river", Cy="river", Fay="meadow")
    t.plans()
    assert t.phase is Phase.GUARD
    assert t.view("Bo")["phase"] == "place_choice"  # only the Knight knows
    t.do("Di", "guard_place", place="river")
    with pytest.raises(IllegalAction, match="not possible now"):
        t.do("Di", "guard_place", place="meadow")
    assert t.view("Ann")["me"]["counts"] == {"forest": 0, "meadow": 1, "river": 2}


def test_s6_3_guard_place_timeout_is_a_random_open_place():
    t = Table(SIX, settings={"discussion_limit": 30}, required=FISH)
    t.ready_all()
    t.morning()
    t.do("Di", "choose_guard")
    t.places(Bo="river", Cy="river", Fay="meadow")
    t.plans()
    t.timeout()
    assert t.phase is Phase.WITCHES
    assert t.state.today.guard_place is not None


def test_s6_3_the_guard_keeps_the_place_choices_countdown_on_every_phone():
    """The Knight's guard step had a fresh countdown of its own, so his phone
    showed a different time from every other at the same moment. It now ends when the
    place choice would have, as every phone shows, or GUARD_MIN_SECONDS after it began."""
    t = Table(SIX, settings={"discussion_limit": 60}, required=FISH)
    t.ready_all()
    t.morning()
    place_deadline = t.state.deadline
    t.do("Di", "choose_guard")
    t.places(Bo="river", Cy="river", Fay="meadow")
    t.plans()
    assert t.phase is Phase.GUARD
    deadlines = {name: t.view(name)["deadline"] for name in [*SIX, None]}
    assert set(deadlines.values()) == {place_deadline}, deadlines
    assert [e.deadline for e in t.effects if type(e).__name__ == "StartTimer"][-1] == place_deadline

    late = Table(SIX, settings={"discussion_limit": 30}, required=FISH)
    late.ready_all()
    late.morning()
    late.do("Di", "choose_guard")
    late.now = late.state.deadline - 3  # the last cat chooses with 3 s left
    late.places(Bo="river", Cy="river", Fay="meadow")
    late.plans()
    assert late.phase is Phase.GUARD
    floor = late.now + tables.GUARD_MIN_SECONDS
    assert {late.view(name)["deadline"] for name in [*SIX, None]} == {floor}


def test_s6_4_pickpocket_peeks_once_and_takes_one_card_unseen_by_the_victim():
    t = evening_of_day_one(FOUR, Bo="river", Cy="river", Di="meadow")
    t.do("Cy", "pickpocket_peek", target="Di")
    assert t.view("Cy")["me"]["peek"] == {"target": "Di", "hand": ["moonflower"]}
    with pytest.raises(IllegalAction, match="once per day"):
        t.do("Cy", "pickpocket_peek", target="Bo")
    with pytest.raises(IllegalAction, match="no fish card"):
        t.do("Cy", "pickpocket_take", card="fish")
    before = t.view("Di")
    t.do("Cy", "pickpocket_take", card="moonflower")
    assert t.state.cat("Cy").hand == [Ingredient.FISH, Ingredient.MOONFLOWER]
    assert t.state.cat("Di").hand == []
    after = t.view("Di")
    assert "peek" not in after["me"] and after["me"]["notes"] == before["me"]["notes"]


def test_s6_4_pickpocket_may_take_nothing_and_the_window_closes_at_the_first_yes_no_vote():
    t = evening_of_day_one(FOUR, Bo="river", Cy="river", Di="meadow")
    with pytest.raises(IllegalAction, match="Peek at a cat's hand first"):
        t.do("Cy", "pickpocket_take", card=None)
    t.do("Cy", "pickpocket_peek", target="Bo")
    t.do("Cy", "pickpocket_take", card=None)
    assert t.state.cat("Bo").hand == [Ingredient.FISH]
    t.evening()
    t.propose(["Bo", "Cy"])
    with pytest.raises(IllegalAction, match="until the first yes/no vote"):
        t.do("Cy", "pickpocket_peek", target="Di")


def test_s6_4_pickpocket_targets_another_cat_in_human_form():
    t = evening_of_day_one(FOUR, Bo="river", Cy="river", Di="meadow")
    t.state.cat("Di").form = Form.FROG
    with pytest.raises(IllegalAction, match="not in human form"):
        t.do("Cy", "pickpocket_peek", target="Di")
    with pytest.raises(IllegalAction, match="another cat"):
        t.do("Cy", "pickpocket_peek", target="Cy")


def test_s6_abilities_need_human_form():
    t = evening_of_day_one(SEVEN, Bo="river", Cy="river", Di="river", Fay="river", Gus="river")
    t.state.cat("Cy").form = Form.FROG
    with pytest.raises(IllegalAction, match="Frogs cannot"):
        t.do("Cy", "seer_look", target="Ann")


def test_s6_4_a_card_is_taken_only_in_the_peek_s_window_not_once_the_yes_no_vote_began():
    """§6.4: the whole ability, the take too, ends when the day's first yes/no vote starts
    (a take after it could empty a ritual member's hand under its phone, which is told
    of the take only with the step's end: docs/protocol.md)."""
    t = evening_of_day_one(FOUR, Bo="river", Cy="river", Di="meadow")
    t.do("Cy", "pickpocket_peek", target="Di")
    t.evening()
    t.propose(["Bo", "Di"])
    with pytest.raises(IllegalAction, match="Peek at a cat's hand first"):
        t.do("Cy", "pickpocket_take", card="moonflower")
    assert t.state.cat("Di").hand == [Ingredient.MOONFLOWER]
