"""Issue 15: the table screen. A connection with no seat sends ``watch``: it is sent the
room's public view at once and again only when that view changes; it cannot act, is not a
player, is capped per room, and stops watching when it disconnects or a push finds it gone."""

import json

from engine.rng import Rng
from functions.room_service.domain.room import MAX_WATCHERS
from functions.room_service.service.replies import public_view, same_but_progress
from tests.support.service_harness import Harness, result_of

NAMES = ["Ann", "Bob", "Cy", "Di"]
TV = "tv"


def _watched_room(game: str | None = None) -> Harness:
    h = Harness()
    h.table(NAMES, game=game)
    _watch(h, TV)
    return h


def _watch(h: Harness, connection: str, code: str | None = None) -> None:
    h.service.message(connection, json.dumps({"action": "watch", "room": code or h.code}))


def test_a_table_screen_gets_the_lobby_s_public_part_and_takes_no_seat():
    h = _watched_room()
    [message] = h.messages(TV)
    view = message["view"]
    assert view == {
        "phase": "lobby", "watching": True, "game": "catch_the_witch", "room": h.code,
        "host": "Ann", "last_result": None,
        "seats": [{"name": name, "seat": i, "connected": True} for i, name in enumerate(NAMES, 1)],
    }  # fmt: skip
    assert [seat.name for seat in h.room().seats] == NAMES
    assert h.room().watchers == [TV]
    assert h.view("Ann")["seats"] == view["seats"]  # the seats' lobby is unchanged


def test_a_table_screen_follows_a_game_with_the_table_view_only():
    h = _watched_room()
    h.send("Ann", action="start")
    view = h.view(TV)
    room = h.room()
    expected = dict(room.rules.table_view(room.state))
    assert view["me"] is None and view["you"] is None
    assert all("role" not in p for p in view["players"])
    assert view["step"] == room.room_step(expected["step"])
    assert {
        k: v for k, v in view.items() if k not in ("watching", "room", "step", "connected")
    } == {k: v for k, v in expected.items() if k != "step"}
    result = h.play_with_bots(NAMES)
    final = h.view(TV)
    assert final["phase"] == "lobby" and final["last_result"] == result


def test_a_table_screen_cannot_act_and_its_refusal_is_coded():
    h = _watched_room()
    for action in ("start", "leave", "ready"):
        frame = {"action": action, "room": h.code}
        if action == "ready":
            frame["step"] = 1
        h.service.message(TV, json.dumps(frame))
        error = h.error(TV)
        assert (error["code"], error["action"]) == ("watch_only", action)
    assert h.room().state is None and h.room().watchers == [TV]
    _watch(h, TV)
    assert h.error(TV)["code"] == "already_in_room"


def test_a_table_screen_s_ping_is_answered_like_a_seat_s():
    h = _watched_room()
    rev = h.messages(TV)[-1]["rev"]
    h.service.message(TV, json.dumps({"action": "ping", "rev": rev, "room": h.code}))
    assert h.messages(TV)[-1] == {"type": "pong"}
    h.service.message(TV, json.dumps({"action": "ping"}))
    assert h.messages(TV)[-1]["rev"] == rev  # no rev: the view again


def test_watchers_are_capped_per_room_and_a_new_screen_lets_the_oldest_go():
    """A screen whose $disconnect was lost, or one that squats a place, never keeps a real
    TV out: the newest screen takes the oldest one's place; the one let go is told at its
    next ping and may watch again."""
    h = _watched_room()
    for i in range(1, MAX_WATCHERS):
        _watch(h, f"tv{i}")
        assert h.error(f"tv{i}") is None
    _watch(h, "the_real_tv")
    assert h.error("the_real_tv") is None and h.messages("the_real_tv")[-1]["type"] == "view"
    assert h.room().watchers == [f"tv{i}" for i in range(1, MAX_WATCHERS)] + ["the_real_tv"]
    h.service.message(TV, json.dumps({"action": "ping", "room": h.code}))
    assert h.error(TV)["code"] == "no_such_room"
    _watch(h, TV)  # it watches again, and the oldest now goes
    assert h.error(TV)["code"] == "no_such_room" and h.messages(TV)[-1]["type"] == "view"
    assert TV in h.room().watchers and "tv1" not in h.room().watchers
    assert len(h.room().watchers) == MAX_WATCHERS


def test_watching_a_room_that_is_not_there_is_refused():
    h = Harness()
    _watch(h, TV, "ABCDEFGH")
    assert h.error(TV)["code"] == "no_such_room"


def test_a_table_screen_that_disconnects_or_is_found_gone_stops_watching():
    h = _watched_room()
    h.service.disconnect(TV)
    assert h.room().watchers == []
    assert h.connections.lookup(TV) is None
    _watch(h, "tv2")
    h.pusher.gone.add("tv2")
    h.send("Ann", action="start")  # the push to it finds it gone (410)
    assert h.room().watchers == []
    assert h.connections.lookup("tv2") is None
    assert h.room().seats[0].connection == "Ann"  # the seats are untouched


def test_the_table_screen_is_pushed_only_when_the_public_view_changes():
    """Every move of a whole game: the table screen gets one view if the public view
    changed (beyond who is still awaited) and nothing if not, so a witch's secret spell in
    the witches' 15 s sends the table screen nothing at all."""
    h = _watched_room()
    h.send("Ann", action="start")
    rng, rules = Rng(3), h.room().rules
    quiet_spells = 0
    for _ in range(5000):
        if result_of(h.view("Ann")):
            break
        for name in NAMES:
            action = rules.bot_move(h.view(name), rng)
            if action is None:
                continue
            before, sent = public_view(h.room()), len(h.messages(TV))
            kind = action.pop("type")
            h.send(name, action=kind, **action)
            changed = not same_but_progress(before, public_view(h.room()), rules.progress_fields)
            assert len(h.messages(TV)) - sent == int(changed), (kind, changed)
            quiet_spells += kind == "witch_spell" and not changed
            h.clock.now += 0.5
            break
        else:
            assert h.advance_to_next_timer()
    assert result_of(h.view("Ann"))
    assert quiet_spells > 0


def test_burn_the_witch_is_watched_through_its_table_view():
    h = Harness()
    names = [f"Cat{i}" for i in range(1, 6)]
    h.table(names, game="burn_the_witch", settings={"timers": False})
    _watch(h, TV)
    h.send(names[0], action="start")
    view = h.view(TV)
    room = h.room()
    assert view["watching"] and view["room"] == h.code
    assert view["players"] == room.rules.table_view(room.state)["players"]
    h.play_with_bots(names)
    assert h.view(TV)["phase"] == "lobby" and h.view(TV)["last_result"]
