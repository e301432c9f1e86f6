"""RULES §3.3 as amended (docs/engine.md): in the witches' 15 s every cat in
human form who is not a witch guesses where a witch gathers, which spell and on whom, so
that every phone has the same pop-up to tap. A guess is its guesser's alone and the rules
never read it."""

import pytest

from engine.catch_the_witch import IllegalAction, Phase
from engine.catch_the_witch.actions import parse_action
from tests.support.table import FOUR, Table

FISH = [["fish", "fish"]] * 6


def _in_the_witches_turn() -> Table:
    t = Table(FOUR, required=FISH)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="meadow")
    t.plans()
    assert t.phase is Phase.WITCHES
    return t


def test_s3_3_a_cat_who_is_not_a_witch_guesses_place_spell_and_target_in_that_order():
    t = _in_the_witches_turn()
    with pytest.raises(IllegalAction) as refused:
        t.do("Bo", "guess_spell", spell="none")
    assert refused.value.code == "choose_place_first"
    t.do("Bo", "guess_place", place="forest")
    assert t.view("Bo")["me"]["guess"] == {"place": "forest", "spell": None, "target": None}
    t.do("Bo", "guess_spell", spell="none")
    assert t.view("Bo")["me"]["guess"]["spell"] == "none"
    t.do("Di", "guess_place", place="river")
    t.do("Di", "guess_spell", spell="none")


def test_s3_3_a_guess_is_final_once_tapped_like_a_witchs_choice():
    t = _in_the_witches_turn()
    t.do("Bo", "guess_place", place="forest")
    for kind, fields in (("guess_place", {"place": "river"}), ("guess_spell", {"spell": "none"})):
        if kind == "guess_spell":
            t.do("Bo", "guess_spell", spell="none")
        with pytest.raises(IllegalAction) as refused:
            t.do("Bo", kind, **fields)
        assert refused.value.code == "guess_final"


def test_s3_3_a_guessed_spell_is_checked_as_a_witchs_is_except_for_where_its_target_is():
    t = _in_the_witches_turn()  # day 1 at four cats: Frog is open (tables.FROG_FIRST_DAY)
    t.do("Cy", "guess_place", place="forest")
    cases = [
        ({"spell": "frog"}, "spell_needs_target"),
        ({"spell": "none", "target": "Bo"}, "spell_takes_no_target"),
        ({"spell": "frog", "target": "Cy"}, "target_yourself"),
        ({"spell": "frog", "target": "Zed"}, "no_such_cat"),
    ]
    for fields, code in cases:
        with pytest.raises(IllegalAction) as refused:
            t.do("Cy", "guess_spell", **fields)
        assert refused.value.code == code, fields
    t.do("Cy", "guess_spell", spell="frog", target="Ann")  # nobody knows who is where
    assert t.view("Cy")["me"]["guess"] == {"place": "forest", "spell": "frog", "target": "Ann"}


def test_s3_3_a_witch_does_not_guess_and_nobody_guesses_outside_the_witches_turn():
    t = Table(FOUR, required=FISH)
    t.ready_all()
    t.morning()
    with pytest.raises(IllegalAction) as refused:
        t.do("Bo", "guess_place", place="forest")  # the place choice
    assert refused.value.code == "not_now"
    t.places(Bo="river", Cy="river", Di="meadow")
    t.plans()
    with pytest.raises(IllegalAction) as refused:
        t.do("Ann", "guess_place", place="forest")
    assert refused.value.code == "role_cannot"


def test_s3_3_a_guess_is_shown_back_to_its_guesser_alone_and_changes_nothing():
    plain, guessed = _in_the_witches_turn(), _in_the_witches_turn()
    guessed.do("Bo", "guess_place", place="river")
    guessed.do("Bo", "guess_spell", spell="frog", target="Di")
    for name in ("Ann", "Cy", "Di", None):  # the witch, other cats, the table screen
        assert "guess" not in str(guessed.view(name)).replace("guess_", ""), name
        assert guessed.view(name) == plain.view(name), name
    for t in (plain, guessed):
        t.do("Ann", "witch_place", place="forest")
        t.do("Ann", "witch_spell", spell="none")
        t.end_witches_turn()
    assert guessed.phase is Phase.EVENING
    note = {"kind": "guess", "day": 1, "place": "river", "spell": "frog", "target": "Di"}
    assert note in guessed.view("Bo")["me"]["notes"]
    assert "guess" not in str(guessed.view("Ann"))
    # The game goes on exactly as without it: the same hands, forms, news and table.
    assert guessed.view(None) == plain.view(None)
    for name in ("Ann", "Cy", "Di"):
        assert guessed.view(name) == plain.view(name)
    without_notes = {**guessed.view("Bo")["me"], "notes": plain.view("Bo")["me"]["notes"]}
    assert without_notes == plain.view("Bo")["me"]


def test_s12_guess_moves_are_in_the_vocabulary():
    assert parse_action({"type": "guess_place", "place": "cave"}).place.value == "cave"
    move = parse_action({"type": "guess_spell", "spell": "frog", "target": "Bo"})
    assert (move.spell.value, move.target) == ("frog", "Bo")
