"""One field names the action: a client's ``type`` can't rename
it, and no client message ever reaches the engine as a ``timeout``."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catch_the_witch.actions import ACTION_TYPES
from engine.errors import InvalidAction
from functions.room_service.service.commands import (
    GAME_ACTIONS,
    ROOM_ACTIONS,
    GameMove,
    parse_client_message,
)
from tests.support.service_harness import Harness


@pytest.mark.parametrize("action", GAME_ACTIONS)
@pytest.mark.parametrize("smuggled", ["timeout", "ready", None, 1])
def test_a_type_field_next_to_a_game_action_is_refused(action, smuggled):
    with pytest.raises(InvalidAction, match="names its action in 'action' only"):
        parse_client_message(json.dumps({"action": action, "type": smuggled}))


def test_a_ready_carrying_type_timeout_does_not_become_a_timeout():
    with pytest.raises(InvalidAction) as caught:
        parse_client_message('{"action": "ready", "type": "timeout"}')
    assert caught.value.code == "field_extra" and caught.value.params == {"field": "type"}
    assert "'type'" in caught.value.message


@pytest.mark.parametrize("action", ROOM_ACTIONS)
def test_a_type_field_next_to_a_room_action_is_refused(action):
    with pytest.raises(InvalidAction, match="names its action in 'action' only"):
        parse_client_message(json.dumps({"action": action, "type": "timeout"}))


def test_a_timeout_action_from_a_client_is_refused():
    with pytest.raises(InvalidAction, match="Timers are the server's job"):
        parse_client_message('{"action": "timeout", "step": 1}')


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    action=st.sampled_from((*GAME_ACTIONS, "timeout")),
    extra=st.dictionaries(
        st.sampled_from(["type", "kind", "action_type", "player", "target", "place", "Type"]),
        st.sampled_from([*ACTION_TYPES, None, "", "x"]),
        max_size=3,
    ),
)
def test_no_client_message_parses_to_a_timeout_or_to_another_action(action, extra):
    try:
        parsed = parse_client_message(json.dumps({**extra, "action": action}))
    except InvalidAction:
        return
    assert isinstance(parsed, GameMove)
    assert parsed.move.type == action != "timeout"


def test_a_seated_phone_cannot_send_a_timeout_through_the_service():
    h = Harness()
    names = ["Ann", "Bo", "Cy", "Di"]
    h.table(names)
    h.send("Ann", action="start")
    before = h.room()
    h.clock.now += 10_000  # long past any deadline: a timeout that landed would move the game
    h.send("Bo", action="ready", type="timeout")
    error = h.error("Bo")
    assert error is not None and error["code"] == "field_extra"
    assert "'type'" in error["message"]
    assert h.room() == before
