"""RULES §10 room and host, §12 action vocabulary and parsing."""

import json

import pytest

from engine.catch_the_witch import (
    IllegalAction,
    InvalidAction,
    Phase,
    Reason,
    Role,
    apply,
    new_game,
    parse_action,
    rematch,
    set_host,
    view,
)
from engine.catch_the_witch.actions import ACTION_TYPES
from engine.catch_the_witch.domain import Ingredient, Place
from tests.engine.scenarios.generate import witches_exiled


@pytest.mark.parametrize("count", [3, 13])
def test_s10_a_room_seats_four_to_twelve_cats(count):
    with pytest.raises(IllegalAction, match="4 to 12"):
        new_game([f"c{i}" for i in range(count)])


def test_s10_names_are_unique_and_sensible():
    with pytest.raises(IllegalAction, match="same name"):
        new_game(["a", "a", "b", "c"])
    with pytest.raises(IllegalAction, match="1 to 40"):
        new_game(["a", " ", "b", "c"])


def test_s10_host_powers_pass_and_rematch_keeps_seats_with_new_roles():
    t = witches_exiled()
    state = set_host(t.state, "Cy")
    assert state.host == "Cy" and t.state.host == "Ann"
    again = rematch(state, seed=99)
    assert again.names() == t.state.names() and again.phase is Phase.ROLE_CHECK
    assert again.host == "Cy" and again.day == 0 and again.outcome is None
    assert any(rematch(state, seed=s).players != t.state.players for s in range(5))
    with pytest.raises(IllegalAction, match="after the result"):
        rematch(again, seed=1)
    with pytest.raises(IllegalAction, match="no cat named"):
        set_host(state, "Zed")


def test_s10_nothing_is_accepted_after_the_game_is_over():
    t = witches_exiled()
    with pytest.raises(IllegalAction, match="over"):
        apply(t.state, {"type": "ok", "player": "Bo"}, 0)


def test_s12_names_match_the_vocabulary():
    assert [p.value for p in Place] == ["forest", "meadow", "river", "cave", "tower"]
    assert [i.value for i in Ingredient] == ["mushroom", "moonflower", "fish", "crystal",
                                             "candle", "rotten"]  # fmt: skip
    assert {r.value for r in Role} == {"witch", "crow", "jester", "seer", "herbalist", "knight",
                                       "pickpocket", "villager"}  # fmt: skip
    assert {r.value for r in Reason} == {
        "seals_complete", "witches_exiled", "witches_all_frogs", "knights_vote_success",
        "witches_take_over", "knights_vote_fail", "jester_exiled"}  # fmt: skip
    assert len(ACTION_TYPES) == 19  # §12's 17, and §3.3's guess_place and guess_spell


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ({"player": "a"}, "needs a 'type'"),
        ({"type": "dance"}, "Unknown action type 'dance'"),
        ({"type": "choose_place", "player": "a"}, "needs the field 'place'"),
        ({"type": "choose_place", "player": "a", "place": "moon"}, "'place' must be one of"),
        ({"type": "approve", "player": "a", "yes": "maybe"}, "Field 'yes'"),
        ({"type": "ready", "player": "a", "extra": 1}, "does not take the field 'extra'"),
        ({"type": "propose", "player": "a", "members": "abc"}, "Field 'members'"),
        ({"type": "vote", "player": "a"}, "needs the field 'target'"),
    ],
)
def test_s12_malformed_actions_get_a_readable_error(raw, message):
    with pytest.raises(InvalidAction, match=message):
        parse_action(raw)


def test_s12_actions_parse_from_json_text_and_unknown_players_are_refused():
    action = parse_action(json.dumps({"type": "vote", "player": "a", "target": None}))
    assert action.type == "vote" and action.target is None
    state = new_game(["a", "b", "c", "d"])
    with pytest.raises(IllegalAction, match="no cat named 'z'"):
        apply(state, {"type": "ready", "player": "z"}, 0)
    with pytest.raises(IllegalAction, match="name the acting cat"):
        apply(state, {"type": "ready"}, 0)


def test_s12_the_state_round_trips_through_json_and_views_are_json():
    t = witches_exiled()
    from engine.catch_the_witch import GameState

    assert GameState.model_validate_json(t.state.model_dump_json()) == t.state
    for name in [*t.state.names(), None]:
        json.dumps(view(t.state, name))
