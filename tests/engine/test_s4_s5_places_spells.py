"""RULES §4 places and ingredients, §5 witch spells."""

import pytest

from engine.catch_the_witch import IllegalAction, Phase, tables
from engine.catch_the_witch.domain import Form, Ingredient, Place
from engine.rng import new_rng_state
from tests.support.table import FOUR, SIX, Table

FISH = [["fish", "fish"], ["fish"] * 3, ["fish"] * 3, ["fish"] * 3, ["fish"] * 3, ["fish"] * 3]


def test_s4_places_open_by_day():
    assert tables.open_places(1) == [Place.FOREST, Place.MEADOW, Place.RIVER]
    assert Place.CAVE in tables.open_places(3) and Place.TOWER not in tables.open_places(4)
    assert Place.TOWER in tables.open_places(5)
    t = Table(FOUR, required=[["fish", "fish"]])
    t.ready_all()
    with pytest.raises(IllegalAction, match="cave is not open"):
        t.places(Bo="cave")


def test_s4_everyone_in_human_form_gets_one_card_of_their_place_witches_too():
    t = Table(FOUR, required=[["fish", "fish"]])
    t.ready_all()
    t.places(Bo="river", Cy="meadow", Di="forest")
    t.witch("Ann", "forest")
    hands = {c.name: c.hand for c in t.state.players}
    assert hands == {"Ann": [Ingredient.MUSHROOM], "Bo": [Ingredient.FISH],
                     "Cy": [Ingredient.MOONFLOWER], "Di": [Ingredient.MUSHROOM]}  # fmt: skip


def six_on_day_two(**kwargs) -> Table:
    t = Table(SIX, required=FISH, **kwargs)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="river", Fay="river")
    t.witch("Ann", "forest")
    t.witch("Eve", "forest")
    t.evening()
    t.curse_day()
    t.votes()
    t.ok_all()
    return t


def test_s5_frog_is_never_unlocked_on_day_one_at_six_cats():
    t = Table(SIX, required=FISH)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="river", Fay="meadow")
    t.plans()
    t.do("Ann", "witch_place", place="meadow")
    assert t.view("Ann")["unlocked_spells"] == []
    with pytest.raises(IllegalAction, match="frog spell is not unlocked"):
        t.do("Ann", "witch_spell", spell="frog", target="Fay")


def test_s5_at_four_cats_a_frog_may_be_cast_on_day_one():
    """tables.FROG_FIRST_DAY (docs/balance.md): at 4 cats a day-1 Frog cannot win (two
    cats stay in human form against the witch), so it is not held back; everywhere else
    it is, as RULES.md §5 says."""
    assert {n: day for n, day in tables.FROG_FIRST_DAY.items() if day != 2} == {4: 1}
    assert set(tables.FROG_FIRST_DAY) == set(tables.ROLE_COUNTS)
    t = Table(FOUR, required=FISH)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="meadow")
    assert t.view("Ann")["unlocked_spells"] == ["frog"]
    t.witch("Ann", "meadow", "frog", "Di")
    assert t.state.cat("Di").form is Form.FROG
    assert t.view("Ann")["me"]["notes"][-1]["worked"] is True
    assert t.state.outcome is None


def test_s5_frog_on_a_lone_cat_works_and_the_witch_learns_it():
    t = six_on_day_two()
    t.places(Bo="river", Cy="river", Di="river", Fay="meadow")
    t.witch("Ann", "meadow", "frog", "Fay")
    t.witch("Eve", "forest")
    assert t.state.cat("Fay").form is Form.FROG
    assert t.state.cat("Fay").hand == [Ingredient.FISH]  # keeps day 1, gathers nothing today
    assert t.view("Ann")["me"]["notes"][-1] == {"day": 2, "kind": "spell", "spell": "frog",
                                                "worked": True}  # fmt: skip
    assert t.view("Bo")["today"]["new_frogs"] == ["Fay"]


def test_s5_frog_fails_in_front_of_a_witness():
    t = six_on_day_two()
    t.places(Bo="river", Cy="river", Di="meadow", Fay="meadow")
    t.witch("Ann", "meadow", "frog", "Fay")
    t.witch("Eve", "forest")
    assert t.state.cat("Fay").form is Form.HUMAN
    assert t.view("Ann")["me"]["notes"][-1]["worked"] is False


def test_s5_where_a_frog_allows_one_witness_it_takes_two_to_stop_it(monkeypatch):
    """tables.FROG_WITNESSES (docs/balance.md): at the counts where a Frog allows one
    witness, one non-witch beside the target does not stop it; two do. The phones say
    which rule the table plays (the view's frog_witnesses)."""
    monkeypatch.setitem(tables.FROG_WITNESSES, len(SIX), 1)
    t = six_on_day_two()
    assert t.view("Bo")["frog_witnesses"] == 1
    t.places(Bo="river", Cy="river", Di="meadow", Fay="meadow")
    t.witch("Ann", "meadow", "frog", "Fay")  # Di saw it: one witness
    t.witch("Eve", "forest")
    assert t.state.cat("Fay").form is Form.FROG
    t.evening()
    t.curse_day()
    t.votes()
    t.ok_all()
    t.places(Bo="river", Cy="meadow", Di="meadow")
    t.witch("Ann", "meadow", "frog", "Di")  # Bo is elsewhere; Cy saw it
    t.witch("Eve", "forest")
    assert t.state.cat("Di").form is Form.FROG
    assert t.view("Ann")["me"]["notes"][-1]["worked"] is True


def test_s5_two_witnesses_stop_a_frog_even_where_one_is_allowed(monkeypatch):
    monkeypatch.setitem(tables.FROG_WITNESSES, len(SIX), 1)
    t = six_on_day_two()
    t.places(Bo="river", Cy="meadow", Di="meadow", Fay="meadow")
    t.witch("Ann", "meadow", "frog", "Fay")  # Cy and Di saw it
    t.witch("Eve", "forest")
    assert t.state.cat("Fay").form is Form.HUMAN
    assert t.view("Ann")["me"]["notes"][-1]["worked"] is False


def test_s5_target_must_be_at_the_witch_place_and_not_herself():
    t = six_on_day_two()
    t.places(Bo="river", Cy="river", Di="river", Fay="meadow")
    t.plans()
    t.do("Ann", "witch_place", place="meadow")
    with pytest.raises(IllegalAction, match="Bo is not at the meadow"):
        t.do("Ann", "witch_spell", spell="frog", target="Bo")
    with pytest.raises(IllegalAction, match="another cat"):
        t.do("Ann", "witch_spell", spell="frog", target="Ann")
    with pytest.raises(IllegalAction, match="needs a target"):
        t.do("Ann", "witch_spell", spell="frog")
    with pytest.raises(IllegalAction, match="Choose a place"):
        t.do("Eve", "witch_spell", spell="none")


def test_s5_two_witches_frogging_each_other_both_become_frogs():
    t = six_on_day_two()
    t.places(Bo="river", Cy="river", Di="river", Fay="river")
    t.witches_at("forest", Ann=("frog", "Eve"), Eve=("frog", "Ann"))
    assert t.state.outcome.reason.value == "witches_all_frogs"


def test_s5_two_frogs_on_one_target_make_one_frog():
    t = six_on_day_two()
    t.places(Bo="river", Cy="river", Di="river", Fay="meadow")
    t.witch("Ann", "meadow", "frog", "Fay")
    t.witch("Eve", "meadow", "frog", "Fay")
    assert t.view("Bo")["today"]["new_frogs"] == ["Fay"]


def held_rituals(t: Table, count: int) -> None:
    t.state.rituals_held = count  # as if `count` rituals had been performed


def test_s5_snatch_unlocks_after_one_ritual_and_ignores_witnesses():
    t = six_on_day_two()
    t.places(Bo="river", Cy="river", Di="river", Fay="river")
    t.plans()
    t.do("Ann", "witch_place", place="river")
    with pytest.raises(IllegalAction, match="snatch spell is not unlocked"):
        t.do("Ann", "witch_spell", spell="snatch", target="Bo")
    held_rituals(t, 1)
    t.do("Ann", "witch_spell", spell="snatch", target="Bo")
    t.witch("Eve", "forest")
    # Bo had one fish from day 1; Ann took it, then both gathered today.
    assert t.state.cat("Bo").hand == [Ingredient.FISH]
    assert t.state.cat("Ann").hand == [Ingredient.MUSHROOM, Ingredient.FISH, Ingredient.FISH]


def test_s5_snatch_on_an_empty_hand_fails():
    t = six_on_day_two()
    t.state.cat("Bo").hand = []
    held_rituals(t, 1)
    t.places(Bo="river", Cy="river", Di="river", Fay="river")
    t.witch("Ann", "river", "snatch", "Bo")
    t.witch("Eve", "forest")
    assert t.view("Ann")["me"]["notes"][-1]["worked"] is False


def snatching_at_the_river(hands: dict[str, list[Ingredient]]) -> Table:
    """Day 2, one ritual held, everyone at the river (Snatch ignores witnesses), with the
    given hands before step ①."""
    t = six_on_day_two()
    held_rituals(t, 1)
    for name, hand in hands.items():
        t.state.cat(name).hand = list(hand)
    t.places(Bo="river", Cy="river", Di="river", Fay="river")
    return t


def test_s5_snatch_takes_from_the_hand_before_step_1_not_from_a_card_just_snatched():
    """Ann (seat 1) snatches Bo's only card; Eve snatches from Ann, whose hand was empty
    before step ①: Eve's spell fails and Ann keeps the card."""
    t = snatching_at_the_river({"Ann": [], "Bo": [Ingredient.CRYSTAL], "Eve": []})
    t.witch("Ann", "river", "snatch", "Bo")
    t.witch("Eve", "river", "snatch", "Ann")
    assert [spell.worked for spell in t.state.today.spells] == [True, False]
    assert t.state.cat("Ann").hand == [Ingredient.CRYSTAL, Ingredient.FISH]
    assert t.state.cat("Eve").hand == [Ingredient.FISH]
    assert t.state.cat("Bo").hand == [Ingredient.FISH]


def test_s5_two_witches_snatching_each_other_swap_their_cards():
    for seed in range(8):  # whatever the draws, each takes the other's card as it was
        t = snatching_at_the_river({"Ann": [Ingredient.CRYSTAL], "Eve": [Ingredient.CANDLE]})
        t.state.rng = new_rng_state(seed + 1)
        t.witches_at("river", Ann=("snatch", "Eve"), Eve=("snatch", "Ann"))
        assert t.state.cat("Ann").hand == [Ingredient.CANDLE, Ingredient.FISH]
        assert t.state.cat("Eve").hand == [Ingredient.CRYSTAL, Ingredient.FISH]


def test_s5_two_snatches_on_one_card_take_it_once():
    t = snatching_at_the_river({"Ann": [], "Bo": [Ingredient.CRYSTAL], "Eve": []})
    t.witch("Ann", "river", "snatch", "Bo")
    t.witch("Eve", "river", "snatch", "Bo")
    assert [spell.worked for spell in t.state.today.spells] == [True, False]
    cards = [card for cat in t.state.players for card in cat.hand]
    assert cards.count(Ingredient.CRYSTAL) == 1 and t.state.cat("Ann").hand[0] is Ingredient.CRYSTAL


def test_s5_spoil_makes_every_card_at_the_place_rotten():
    t = six_on_day_two()
    held_rituals(t, 2)
    t.places(Bo="river", Cy="river", Di="meadow", Fay="river")
    t.witch("Ann", "river", "spoil")
    t.witch("Eve", "forest")
    assert t.state.cat("Bo").hand[-1] is Ingredient.ROTTEN
    assert t.state.cat("Ann").hand[-1] is Ingredient.ROTTEN
    assert t.state.cat("Di").hand[-1] is Ingredient.MOONFLOWER
    with pytest.raises(IllegalAction, match="takes no target"):
        t2 = six_on_day_two()
        held_rituals(t2, 2)
        t2.places(Bo="river", Cy="river", Di="meadow", Fay="river")
        t2.plans()
        t2.do("Ann", "witch_place", place="river")
        t2.do("Ann", "witch_spell", spell="spoil", target="Bo")


def test_s5_a_spell_at_the_guarded_place_fails_and_the_knight_learns_it():
    t = six_on_day_two()
    t.places(Bo="river", Cy="river", Fay="meadow")
    t.do("Di", "choose_guard")
    t.plans()
    assert t.phase is Phase.GUARD
    assert t.view("Di")["me"]["counts"] == {"forest": 0, "meadow": 1, "river": 2}
    t.do("Di", "guard_place", place="meadow")
    t.witch("Ann", "meadow", "frog", "Fay")
    t.witch("Eve", "forest")
    assert t.state.cat("Fay").form is Form.HUMAN
    assert t.view("Di")["me"]["notes"][-1]["kind"] == "guard_repelled"
    assert t.state.cat("Di").hand == [Ingredient.FISH]  # gathered day 1 only


def test_s5_timeout_gives_the_plan_and_no_spell():
    t = six_on_day_two()
    t.places(Bo="river", Cy="river", Di="river", Fay="meadow")
    t.plans(Ann="river", Eve="meadow")
    t.do("Ann", "witch_place", place="meadow")
    t.timeout()
    choices = t.state.today.witch_choices
    assert choices["Ann"].place is Place.MEADOW and choices["Ann"].spell.value == "none"
    assert choices["Eve"].place is Place.MEADOW and choices["Eve"].spell.value == "none"
    assert t.phase is Phase.EVENING
