"""A seat moves to a new phone (docs/protocol.md "A seat on a new phone"): by the seat's own
one-time link, or by one the host makes for a phone gone at least 30 s, which every
screen is told of. A link opens its seat once, within 10 minutes; the phone the seat
moved from is told and closed; nothing of the moved seat reaches any other phone.

Through the room service with in-memory ports and a fake clock, in both games."""

import json

import pytest

from functions.room_service.domain.seat_moves import SEAT_LINK_OFFLINE_SECONDS, SEAT_LINK_SECONDS
from tests.support.service_harness import Harness

FIVE = ["Ann", "Bo", "Cy", "Di", "Eve"]
GAMES = ["catch_the_witch", "burn_the_witch"]


def _started(game: str) -> Harness:
    h = Harness()
    h.table(FIVE, game=game)
    h.watch("tv")
    h.send("Ann", action="start")
    assert h.error("Ann") is None
    return h


def _link_key(h: Harness, connection: str, **asked) -> str:
    h.send(connection, action="seat_link", **asked)
    answer = h.pusher.last(connection, "seat_link")
    assert answer is not None, h.error(connection)
    return answer["key"]


def _take(h: Harness, connection: str, key: str) -> None:
    h.service.connect(connection)
    h.service.message(connection, json.dumps({"action": "take_seat", "room": h.code, "key": key}))


def _seat_of(view: dict) -> str:
    """The seat a view is for, in either game (Burn the Witch's names it in ``me``)."""
    return view.get("you") or view["me"]["name"]


def _without_room_news(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("seat_news", "connected")}


@pytest.mark.parametrize("game", GAMES)
def test_s10_a_phone_moves_its_own_seat_to_a_new_phone_once(game):
    h = _started(game)
    bo_view = h.view("Bo")
    key = _link_key(h, "Bo")
    _take(h, "bo-new", key)

    joined = h.pusher.last("bo-new", "joined")
    assert joined["name"] == "Bo" and joined["room"] == h.code
    assert joined["token"] != h.tokens["Bo"]
    # The new phone shows the seat's own view (its secrets), the old phone is told and closed.
    assert _without_room_news(h.view("bo-new")) == _without_room_news(bo_view)
    assert h.error("Bo")["code"] == "seat_moved"
    assert "Bo" in h.pusher.hung_up
    assert h.room().seat("Bo").connection == "bo-new"
    # Every phone and the table screen is told which seat moved.
    for connection in [*FIVE[:1], *FIVE[2:], "bo-new", "tv"]:
        assert [(n["name"], n["what"]) for n in h.view(connection)["seat_news"]] == [
            ("Bo", "moved")
        ]

    # The link opens nothing a second time, and the old token no longer opens the seat.
    _take(h, "bo-third", key)
    assert h.error("bo-third")["code"] == "seat_link_used"
    assert h.pusher.last("bo-third", "joined") is None
    h.resume("bo-old-token", h.code, h.tokens["Bo"])
    assert h.error("bo-old-token")["code"] == "seat_lost"
    assert h.room().seat("Bo").connection == "bo-new"


def test_s10_a_link_works_for_ten_minutes_and_a_newer_one_replaces_it():
    h = _started("catch_the_witch")
    older = _link_key(h, "Cy")
    newer = _link_key(h, "Cy")
    _take(h, "cy-older", older)
    assert h.error("cy-older")["code"] == "seat_link_used"
    h.clock.now += SEAT_LINK_SECONDS + 1
    _take(h, "cy-late", newer)
    assert h.error("cy-late")["code"] == "seat_link_used"
    assert h.room().seat("Cy").connection == "Cy"  # nothing changed hands
    assert h.view("Ann")["seat_news"] == []


def test_s10_the_host_opens_a_gone_seat_only_after_30_s_and_every_screen_is_told():
    h = _started("catch_the_witch")
    h.service.disconnect("Di")
    h.clock.now += SEAT_LINK_OFFLINE_SECONDS - 1
    h.send("Ann", action="seat_link", seat="Di")
    assert h.error("Ann")["code"] == "seat_link_still_here"
    h.send("Bo", action="seat_link", seat="Eve")  # only the host, and only a gone phone
    assert h.error("Bo")["code"] == "host_only"
    h.send("Ann", action="seat_link", seat="Eve")
    assert h.error("Ann")["code"] == "seat_link_still_here"
    h.clock.now += 1
    key = _link_key(h, "Ann", seat="Di")
    for connection in ["Ann", "Bo", "Cy", "Eve", "tv"]:
        assert [(n["name"], n["what"]) for n in h.view(connection)["seat_news"]] == [("Di", "link")]
    _take(h, "substitute", key)
    assert _seat_of(h.view("substitute")) == "Di"
    news = [(n["name"], n["what"]) for n in h.view("tv")["seat_news"]]
    assert news == [("Di", "link"), ("Di", "moved")]


def test_s10_a_seat_left_mid_game_can_go_to_a_substitute():
    h = _started("burn_the_witch")
    h.send("Eve", action="leave")
    h.clock.now += SEAT_LINK_OFFLINE_SECONDS
    _take(h, "sub", _link_key(h, "Ann", seat="Eve"))
    assert h.pusher.last("sub", "joined")["name"] == "Eve"
    assert _seat_of(h.view("sub")) == "Eve"


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_over_shows_no_other_phone_the_key_the_token_or_the_moved_seats_view(game):
    h = _started(game)
    sent_before = {c: len(h.messages(c)) for c in [*FIVE, "tv"]}
    others_before = {c: _without_room_news(h.view(c)) for c in [*FIVE[:1], *FIVE[2:], "tv"]}
    key = _link_key(h, "Bo")
    _take(h, "bo-new", key)
    token = h.pusher.last("bo-new", "joined")["token"]
    bo_secret = json.dumps(h.view("bo-new"), sort_keys=True)
    for connection in [*FIVE, "tv"]:
        after = h.messages(connection)[sent_before[connection] :]
        text = json.dumps(after)
        assert token not in text, connection
        if connection != "Bo":
            assert key not in text, connection
            assert all(json.dumps(m.get("view"), sort_keys=True) != bo_secret for m in after)
    # Every other screen's view is as it was, but for the news and who is online.
    for connection, before in others_before.items():
        assert _without_room_news(h.view(connection)) == before, connection
    # The old phone was told why, and nothing after it.
    assert h.messages("Bo")[-1]["type"] == "error"


def test_a_link_opens_no_other_room_and_a_guess_gets_the_one_answer():
    h = _started("catch_the_witch")
    key = _link_key(h, "Bo")
    other = Harness()
    other.table(["Zed", "Yu", "Xi", "Wu"])
    other.service.connect("prober")
    frame = {"action": "take_seat", "room": other.code, "key": key}
    other.service.message("prober", json.dumps(frame))
    assert other.error("prober")["code"] == "seat_link_used"
    _take(h, "guess", "A" * 32)
    assert h.error("guess")["code"] == "seat_link_used"
    h.service.connect("no-room")
    h.service.message("no-room", json.dumps({**frame, "room": "ABCDEFGH"}))
    assert h.error("no-room")["code"] == "seat_link_used"
