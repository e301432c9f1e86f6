"""Between games the room is a lobby again,
and a phone offline for a minute during a game is marked Away (room option ``auto_away``).

Everything goes through the wire protocol (docs/protocol.md) with in-memory ports and a
fake clock (tests/support/service_harness.py)."""

import copy

from functions.room_service.domain.room import (
    AUTO_AWAY_SECONDS,
    LOBBY_SEAT_GRACE_SECONDS,
    stored_room,
)
from tests.support.service_harness import Harness

NAMES = ["Ann", "Bo", "Cy", "Di"]


def _started(names=NAMES, **options) -> Harness:
    h = Harness()
    h.table(names)
    if options:
        h.send(names[0], action="room_options", **options)
        assert h.error(names[0]) is None
    h.send(names[0], action="start")
    assert h.view(names[0])["phase"] == "role_check"
    return h


def _finished(names=NAMES, seed: int = 4) -> tuple[Harness, dict]:
    h = _started(names)
    return h, h.play_with_bots(names, seed=seed)


def _snapshot(h: Harness) -> tuple:
    return copy.deepcopy((h.store._rooms, h.store._subs))


def _timers(h: Harness, kind: str) -> list[dict]:
    return [message for message, _ in h.timers.scheduled if message["kind"] == kind]


def _away(view: dict) -> dict[str, bool]:
    return {player["name"]: player["away"] for player in view["players"]}


def _joined(h: Harness, connection: str, name: str) -> bool:
    h.send(connection, action="join", room=h.code, name=name)
    joined = h.pusher.last(connection, "joined")
    if joined:
        h.tokens[name] = joined["token"]
    return joined is not None


# == deliverable 5: back to the lobby ===========================================================
def test_a_finished_game_returns_the_room_to_the_lobby_with_its_result():
    h, result = _finished()
    assert result["phase"] == "game_over" and result["outcome"]["winner"] and result["reveal"]
    assert {p["name"] for p in result["players"]} == set(NAMES)
    room = h.room()
    assert room.state is None and not room.started and room.last_result == result
    for name in NAMES:
        view = h.view(name)
        assert view["phase"] == "lobby" and view["you"] == name and view["host"] == "Ann"
        assert view["last_result"] == result and view["auto_away"] is True
    # The result is the public table view: no seat's token, no private part.
    assert result["me"] is None and all(h.tokens[n] not in str(result) for n in NAMES)


def test_the_kept_result_stays_small():
    """DynamoDB's item limit is 400 KB: a 12-cat room with its last result stores in a few KB."""
    names = [f"Cat{i}" for i in range(1, 13)]
    h, _ = _finished(names, seed=12)
    assert len(stored_room(h.room())) < 4_000


def test_a_latecomer_joins_after_the_end_and_sees_no_old_result():
    h = _started()
    assert not _joined(h, "eve", "Eve"), "no joining a game under way"
    assert h.error("eve")["code"] == "cannot_join"
    h.play_with_bots(NAMES, seed=4)
    assert _joined(h, "eve-2", "Eve")
    lobby = h.view("eve-2")
    assert [s["name"] for s in lobby["seats"]] == [*NAMES, "Eve"]
    assert lobby["last_result"] is None, "Eve did not play that game"
    assert h.view("Bo")["last_result"] is not None, "Bo still sees the result he played"


def test_the_host_changes_settings_reorders_kicks_then_plays_again():
    h, _ = _finished()
    assert _joined(h, "Eve", "Eve")
    h.send("Ann", action="settings", settings={"discussion_limit": 90})
    h.send("Ann", action="reorder", order=["Eve", "Di", "Cy", "Bo", "Ann"])
    h.send("Ann", action="kick", target="Cy")
    assert h.error("Ann") is None and h.error("Cy")["code"] == "kicked"
    lobby = h.view("Ann")
    assert lobby["settings"]["discussion_limit"] == 90
    assert [s["name"] for s in lobby["seats"]] == ["Eve", "Di", "Bo", "Ann"]
    last_step = max(m["view"]["step"] for m in h.messages("Ann")
                    if m["type"] == "view" and m["view"]["phase"] != "lobby")  # fmt: skip

    h.send("Ann", action="start")  # "Play again"
    game = h.room().state
    assert [cat.name for cat in game.players] == ["Eve", "Di", "Bo", "Ann"]
    assert game.settings.discussion_limit == 90 and game.host == "Ann"
    assert h.room().last_result is None
    for name in ["Eve", "Di", "Bo", "Ann"]:
        view = h.view(name)
        assert view["phase"] == "role_check" and view["step"] > last_step
    assert h.view("Eve")["me"]["role"], "the latecomer plays"


def test_rematch_starts_the_next_game_from_the_lobby_with_the_seats_as_they_are():
    h = _started()
    h.send("Ann", action="rematch")
    assert "only in the lobby" in h.error("Ann")["message"], "not while a game is under way"
    h.play_with_bots(NAMES, seed=4)
    h.send("Bo", action="rematch")
    assert "Only the host" in h.error("Bo")["message"]
    assert _joined(h, "eve", "Eve")
    h.send("Ann", action="rematch")
    assert [cat.name for cat in h.room().state.players] == [*NAMES, "Eve"]
    assert all(h.view(n)["phase"] == "role_check" for n in ["Ann", "eve"])


def test_a_stale_deadline_of_the_finished_game_changes_nothing():
    h = _started()
    deadlines: list[dict] = []
    schedule = h.timers.schedule

    def recorded(timer, delay):
        if timer.kind == "deadline":
            deadlines.append(timer.model_dump(mode="json"))
        schedule(timer, delay)

    h.timers.schedule = recorded
    h.play_with_bots(NAMES, seed=4)
    h.timers.schedule = schedule  # the finished game's timers only (firing one records none)
    assert len(deadlines) > 5
    before, sent = _snapshot(h), {n: len(h.messages(n)) for n in NAMES}
    for late in (0, 3600):  # at once (the last step's own timer too), and much later
        h.clock.now += late
        for timer in deadlines:
            h.service.timer(timer)
    assert _snapshot(h) == before
    assert {n: len(h.messages(n)) for n in NAMES} == sent
    # Nor in the next game, whose steps come after the finished game's.
    h.send("Ann", action="start")
    for name in NAMES:
        h.send(name, action="ready")
    before = _snapshot(h)
    h.clock.now += 3600  # every old deadline long passed, and the new step's too
    for timer in deadlines:
        h.service.timer(timer)
    assert _snapshot(h) == before


def test_a_move_of_the_finished_game_is_stale_in_the_lobby():
    h, _ = _finished()
    last = [m["view"] for m in h.messages("Bo") if m["type"] == "view"
            and m["view"]["phase"] != "lobby"][-1]  # fmt: skip
    h.send("Bo", action="ok", step=last["step"])
    assert h.error("Bo")["code"] == "stale_move"


def test_seats_of_cats_who_left_are_freed_and_offline_seats_get_their_lobby_grace():
    h = _started(["Ann", "Bo", "Cy", "Di", "Eve"])
    h.send("Eve", action="leave")  # played as Away to the end, then her seat goes
    h.service.disconnect("Di")  # asleep at the end: may still come back to the lobby
    h.play_with_bots(["Ann", "Bo", "Cy"], seed=5)
    room = h.room()
    assert [s.name for s in room.seats] == ["Ann", "Bo", "Cy", "Di"]
    assert h.clock.now - 0.5 <= room.seat("Di").disconnected_at <= h.clock.now, "from the end"
    assert _timers(h, "seat_check")[-1] == {"kind": "seat_check", "room": h.code, "seat": "Di"}

    # Di's phone wakes within the grace: it lands in the lobby, with the result.
    h.clock.now += LOBBY_SEAT_GRACE_SECONDS - 5
    h.resume("di-2", h.code, h.tokens["Di"])
    h.send("di-2", action="ping")
    assert h.view("di-2")["phase"] == "lobby" and h.view("di-2")["last_result"]
    h.clock.now += 10
    h.deliver_due_timers()
    assert [s.name for s in h.room().seats] == ["Ann", "Bo", "Cy", "Di"]


def test_an_offline_seat_not_back_in_its_grace_is_freed():
    h = _started()
    h.service.disconnect("Di")
    h.play_with_bots(["Ann", "Bo", "Cy"], seed=4)
    h.clock.now += LOBBY_SEAT_GRACE_SECONDS + 1
    for message in _timers(h, "seat_check"):
        h.service.timer(message)
    assert [s.name for s in h.room().seats] == ["Ann", "Bo", "Cy"]
    h.resume("di-2", h.code, h.tokens["Di"])  # a freed seat's token opens nothing
    assert h.error("di-2")["code"] == "seat_lost" and "di-2" in h.pusher.hung_up


# == room options ================================================================================
def test_the_host_sets_auto_away_in_the_lobby_only():
    h = Harness()
    h.table(NAMES)
    assert h.view("Bo")["auto_away"] is True, "on by default"
    h.send("Ann", action="room_options", auto_away=False)
    assert h.error("Ann") is None and h.view("Bo")["auto_away"] is False
    h.send("Bo", action="room_options", auto_away=True)
    assert "Only the host" in h.error("Bo")["message"]
    before = _snapshot(h)
    for wrong in ({"auto_away": "yes"}, {}, {"auto_away": True, "other": 1}):
        h.send("Ann", action="room_options", **wrong)
        assert h.error("Ann")["code"] in ("field_invalid", "field_missing", "field_extra"), wrong
    assert _snapshot(h) == before
    h.send("Ann", action="start")
    h.send("Ann", action="room_options", auto_away=True)
    assert "only in the lobby" in h.error("Ann")["message"]
    assert h.room().auto_away is False


# == deliverable 4: auto-Away ====================================================================
def _check_at(h: Harness, seconds: float, seat: str = "Bo") -> None:
    """The seat's away_check delivered ``seconds`` after the phone went (at 0)."""
    h.clock.now = h.gone_at + seconds
    h.service.timer({"kind": "away_check", "room": h.code, "seat": seat})


def _gone(h: Harness, name: str = "Bo") -> None:
    h.service.disconnect(name)
    h.gone_at = h.clock.now


def test_a_phone_offline_for_a_minute_is_marked_away_and_everyone_is_told():
    h = _started()
    _gone(h)
    (check,) = [(m, d) for m, d in h.timers.scheduled if m["kind"] == "away_check"]
    assert check == ({"kind": "away_check", "room": h.code, "seat": "Bo"}, AUTO_AWAY_SECONDS + 0.5)
    before = _snapshot(h)
    _check_at(h, AUTO_AWAY_SECONDS - 1)  # early (SQS never is, but a copy may be): not yet
    assert _snapshot(h) == before
    _check_at(h, AUTO_AWAY_SECONDS + 0.5)
    assert h.room().state.cat("Bo").away
    for name in ["Ann", "Cy", "Di"]:
        assert _away(h.view(name))["Bo"] is True, name
    before = _snapshot(h)
    _check_at(h, AUTO_AWAY_SECONDS + 5)  # a duplicate: Away already
    assert _snapshot(h) == before
    assert h.metrics.counts["AutoAway"] == 1


def test_away_ends_when_the_phone_acts_again():
    h = _started()
    _gone(h)
    _check_at(h, AUTO_AWAY_SECONDS + 1)
    assert h.room().state.cat("Bo").away
    h.resume("bo-2", h.code, h.tokens["Bo"])
    h.send("bo-2", action="ping")
    assert h.room().state.cat("Bo").away, "reconnecting is not acting"
    h.send("bo-2", action="ready")
    assert h.error("bo-2") is None
    assert not h.room().state.cat("Bo").away
    assert _away(h.view("Ann"))["Bo"] is False


def test_a_phone_back_in_time_is_not_marked_away():
    h = _started()
    _gone(h)
    h.clock.now += 30
    h.resume("bo-2", h.code, h.tokens["Bo"])
    h.send("bo-2", action="ping")
    before = _snapshot(h)
    _check_at(h, AUTO_AWAY_SECONDS + 1)
    assert _snapshot(h) == before and not h.room().state.cat("Bo").away
    # Gone again at 40 s: the first check is too early for it; its own check counts.
    h.clock.now = h.gone_at + 40
    h.service.disconnect("bo-2")
    _check_at(h, AUTO_AWAY_SECONDS + 1)
    assert not h.room().state.cat("Bo").away
    _check_at(h, 40 + AUTO_AWAY_SECONDS + 1)
    assert h.room().state.cat("Bo").away


def test_with_auto_away_off_an_offline_phone_stays_as_it_is():
    h = _started(auto_away=False)
    _gone(h)
    assert not _timers(h, "away_check")
    before = _snapshot(h)
    _check_at(h, 10 * AUTO_AWAY_SECONDS)  # a stray one
    assert _snapshot(h) == before and not h.room().state.cat("Bo").away


def test_an_away_check_after_the_game_ended_changes_nothing():
    h = _started()
    _gone(h, "Di")
    h.play_with_bots(["Ann", "Bo", "Cy"], seed=4)
    before = _snapshot(h)
    _check_at(h, AUTO_AWAY_SECONDS + 1, "Di")
    assert _snapshot(h) == before


def test_a_seat_offline_when_the_game_starts_is_checked_from_when_it_went():
    h = Harness()
    h.table(NAMES)
    h.service.disconnect("Di")
    h.clock.now += 20
    h.send("Ann", action="start")
    ((check, delay),) = [(m, d) for m, d in h.timers.scheduled if m["kind"] == "away_check"]
    assert check["seat"] == "Di" and delay == AUTO_AWAY_SECONDS - 20 + 0.5


# == deliverable 4: the host sees who is offline ===================================================
def test_every_phone_is_told_when_a_phone_goes_offline_or_comes_back_in_a_game():
    h = _started()
    h.service.disconnect("Bo")
    for name in ["Ann", "Cy", "Di"]:
        assert h.view(name)["connected"]["Bo"] is False, name
    h.resume("bo-2", h.code, h.tokens["Bo"])
    h.send("bo-2", action="ping")
    for name in ["Ann", "Cy", "Di", "bo-2"]:
        assert h.view(name)["connected"]["Bo"] is True, name


def test_a_phone_found_gone_by_a_push_is_shown_offline_and_checked_for_away():
    """``$disconnect`` is best effort: a 410 on a push tells the same to everyone."""
    h = _started()
    for name in ["Bo", "Cy", "Di"]:
        h.send(name, action="ready")
    h.pusher.gone.add("Bo")
    h.send("Ann", action="ready")  # the last Ready ends the step: every phone is pushed
    assert h.room().seat("Bo").connection is None
    for name in ["Ann", "Cy", "Di"]:
        assert h.view(name)["connected"]["Bo"] is False, name
    assert _timers(h, "away_check") == [{"kind": "away_check", "room": h.code, "seat": "Bo"}]
