"""Every refusal reaches the phone as ``{"type": "error", "code", "params", "action",
"message"}`` (docs/protocol.md): a code the phone has words for, the values its sentence
needs, and the type of the message refused, so the phone shows it next to that control."""

import json

from tests.support.error_codes import server_codes
from tests.support.service_harness import Harness

CODES = server_codes()
NAMES = ["Ann", "Bo", "Cy", "Di", "Eve"]


def _refusal(h: Harness, connection: str, raw: str | dict) -> dict:
    before = len(h.messages(connection))
    h.clock.now += 1  # under the rate limit: each frame is judged on its content
    if isinstance(raw, dict):
        h.send(connection, **raw)
    else:
        h.service.message(connection, raw)
    replies = h.messages(connection)[before:]
    assert [reply["type"] for reply in replies] == ["error"], (raw, replies)
    return replies[0]


def _check(frame: dict, code: str, action: str | None, params: dict | None = None) -> None:
    assert set(frame) == {"type", "code", "params", "action", "message"}, frame
    assert frame["code"] == code and frame["code"] in CODES, frame
    assert frame["action"] == action, frame
    assert set(frame["params"]) <= CODES[code] and frame["message"], frame
    if params is not None:
        assert frame["params"] == params, frame


def test_bad_messages_before_a_room_get_codes_params_and_their_action():
    h = Harness()
    cases = [
        ("{not json", "not_json", None, {}),
        ("[]", "bad_message", None, {}),
        ('{"name": "Ann"}', "field_missing", None, {"field": "action"}),
        ('{"action": "dance"}', "unknown_action", None, {}),
        ('{"action": "create_room"}', "field_missing", "create_room", {"field": "name"}),
        ('{"action": "create_room", "name": "Ann", "x": 1}', "field_extra", "create_room",
         {"field": "x"}),
        ('{"action": "create_room", "name": "   "}', "name_blank", "create_room", {}),
        ('{"action": "create_room", "name": "' + "A" * 30 + '"}', "name_too_long",
         "create_room", {"max": 20, "n": 30}),
        ('{"action": "join", "room": "QQQQ", "name": "Zed"}', "cannot_join", "join", {}),
        ('{"action": "start"}', "no_room", "start", {}),
    ]  # fmt: skip
    for raw, code, action, params in cases:
        _check(_refusal(h, "stranger", raw), code, action, params)


def test_refusals_in_the_lobby_and_in_a_game_get_codes_params_and_their_action():
    h = Harness()
    h.table(NAMES)
    _check(_refusal(h, "Bo", {"action": "start"}), "host_only", "start", {})
    _check(_refusal(h, "Ann", {"action": "kick", "target": "Zed"}), "no_such_cat", "kick",
           {"name": "Zed"})  # fmt: skip
    _check(_refusal(h, "Ann", {"action": "kick", "target": "Ann"}), "kick_yourself", "kick")
    _check(_refusal(h, "Ann", {"action": "ready", "step": 1}), "not_started", "ready")
    _check(
        _refusal(h, "Ann", {"action": "settings", "settings": {"discussion_limit": 5}}),
        "field_invalid", "settings", {"field": "discussion_limit"},
    )  # fmt: skip
    h.send("Ann", action="start")
    step = h.view("Bo")["step"]
    _check(_refusal(h, "Bo", {"action": "ready", "step": step - 1}), "stale_move", "ready", {})
    _check(_refusal(h, "Bo", '{"action": "ready"}'), "field_missing", "ready", {"field": "step"})
    _check(_refusal(h, "Bo", {"action": "vote", "target": None}), "not_now", "vote", {})
    _check(_refusal(h, "Bo", {"action": "mark_away", "target": "Cy"}), "host_marks_away",
           "mark_away", {})  # fmt: skip
    _check(_refusal(h, "Ann", {"action": "mark_away", "target": "Zed"}), "no_such_cat",
           "mark_away", {"name": "Zed"})  # fmt: skip
    _check(_refusal(h, "Ann", {"action": "kick", "target": "Bo"}), "lobby_only", "kick", {})
    _check(_refusal(h, "Ann", {"action": "rematch"}), "lobby_only", "rematch", {})
    _check(_refusal(h, "Bo", {"action": "ok"}), "nothing_to_confirm", "ok", {})
    _check(_refusal(h, "Bo", {"action": "ready", "player": "Cy"}), "act_for_yourself", "ready")


def test_the_kicked_phone_hears_a_code_with_the_ban_in_minutes():
    h = Harness()
    h.table(NAMES)
    h.send("Ann", action="kick", target="Bo")
    kicked = h.error("Bo")
    _check(kicked, "kicked", None, {"minutes": 10})


def test_a_frame_the_rate_limit_refuses_has_a_code_too():
    h = Harness()
    h.table(NAMES)
    frames = [h.service.message("Bo", json.dumps({"action": "ping"})) for _ in range(40)]
    assert len(frames) == 40
    limited = h.error("Bo")
    _check(limited, "rate_limited", None, {})  # refused before the frame is read
