"""RoomService over in-memory ports: lobby, full games, errors, reconnects, timers, 410."""

import json
import threading

import pytest

from engine.catch_the_witch.game import CatchTheWitch
from engine.catch_the_witch.rules import waiting_for
from functions.room_service.adapters.memory import MemoryRoomStore
from functions.room_service.domain.lobby import CannotJoin
from functions.room_service.domain.room import CODE_ALPHABET, CODE_LENGTH
from functions.room_service.service.replies import same_but_progress, view_for
from tests.support.service_harness import Harness, before_the_move_of, result_of

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay"]
#: The fields of a Catch the Witch view a move may change without a push (fewer frames).
WAITING = CatchTheWitch.progress_fields


def started(names=NAMES) -> Harness:
    h = Harness()
    h.table(names)
    h.send(names[0], action="start")
    assert h.view(names[0])["phase"] == "role_check"
    return h


def test_create_join_and_the_lobby_view():
    h = Harness()
    h.table(["Ann", "Bo", "Cy"])
    lobby = h.view("Bo")
    assert lobby["phase"] == "lobby" and lobby["room"] == h.code and lobby["you"] == "Bo"
    assert [s["name"] for s in lobby["seats"]] == ["Ann", "Bo", "Cy"]
    assert lobby["start_problem"] == {
        "code": "player_count",
        "params": {"min": 4, "max": 12, "n": 3},
    }, "a code and params the phone words, never English"
    assert lobby["default_roles"] is None
    h.send("Di", action="join", room=h.code, name="Di")
    assert h.view("Ann")["default_roles"] == ["witch", "herbalist", "pickpocket", "villager"]
    assert len(h.code) == CODE_LENGTH and set(h.code) <= set(CODE_ALPHABET)
    assert len(h.tokens["Ann"]) >= 32  # 192 bits


@pytest.mark.parametrize("count", [4, 12])
def test_a_whole_game_through_the_service_with_bots(count):
    names = [f"Cat{i}" for i in range(1, count + 1)]
    h = started(names)
    final = h.play_with_bots(names, seed=count)
    assert final["phase"] == "game_over" and final["outcome"]["reason"]
    assert h.metrics.counts["GamesFinished"] == 1
    room = h.room()
    assert room.state is None and room.last_result == final  # back in the lobby
    for name in names:  # each phone's last view is its lobby view, with the game's result
        sent = h.view(name)
        assert sent["phase"] == "lobby" and sent["you"] == name and sent["last_result"] == final
    for name in names:  # nobody ever received another seat's token
        text = json.dumps(h.messages(name))
        assert all(h.tokens[other] not in text for other in names if other != name)


def test_every_message_a_phone_gets_is_its_own_view():
    names = [f"Cat{i}" for i in range(1, 9)]
    h = started(names)
    h.play_with_bots(names, seed=3)
    for name in names:
        for message in h.messages(name):
            if message["type"] == "view":
                assert message["view"]["you"] == name
                me = message["view"].get("me")
                assert me is None or me["name"] == name


def test_host_only_actions_wrong_step_other_seats_and_bad_input_get_errors_and_change_nothing():
    h = started(["Ann", "Bo", "Cy", "Di"])
    cases = [
        ("Bo", {"action": "rematch"}, "Only the host"),
        ("Bo", {"action": "vote", "target": None}, "Voting is not possible now"),
        ("Bo", {"action": "ready", "player": "Cy"}, "only act for yourself"),
        ("Bo", {"action": "timeout"}, "Timers are the server's job"),
        ("Bo", {"action": "fly"}, "Unknown action 'fly'"),
        ("Bo", {"action": "settings", "settings": {}}, "Only the host"),
        ("Ann", {"action": "kick", "target": "Bo"}, "only in the lobby"),
    ]
    for who, message, expected in cases:
        before = h.room()
        h.send(who, **message)
        assert expected in h.error(who)["message"], (message, h.error(who))
        assert h.room() == before
    bad = {"{not json": "not_json", "[]": "bad_message", '{"action": "vote", "target": 5}':
           "field_missing", "x" * 5000: "message_too_large", "": "bad_message"}  # fmt: skip
    for raw, code in bad.items():
        before = h.room()
        h.service.message("Bo", raw)
        assert h.error("Bo")["code"] == code, raw[:40]
        assert h.room() == before


def test_a_stranger_connection_can_only_create_or_join():
    h = Harness()
    h.send("nobody", action="vote", target=None, step=1)
    assert h.error("nobody")["message"] == "Create or join a room first."
    h.table(["Ann", "Bo", "Cy", "Di"])
    h.send("late", action="join", room="ZZZZZZZZ", name="Eve")
    assert h.error("late")["message"] == CannotJoin().message
    h.send("late", action="join", room=h.code, name="Bo")
    assert "name is taken" in h.error("late")["message"]
    h.send("Ann", action="start")
    h.send("late", action="join", room=h.code, name="Eve")
    # The same answer as for no such room: a prober learns nothing.
    assert h.error("late")["message"] == CannotJoin().message


def test_lobby_host_powers_reorder_kick_settings():
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di", "Eve"])
    h.send("Ann", action="reorder", order=["Cy", "Ann", "Bo", "Di", "Eve"])
    assert h.view("Bo")["seats"][0]["name"] == "Cy"
    h.send("Ann", action="reorder", order=["Cy", "Ann"])
    assert "every seated cat" in h.error("Ann")["message"]
    h.send("Ann", action="kick", target="Eve")
    assert h.error("Eve")["code"] == "kicked"
    assert h.connections.lookup("Eve") is None
    h.send("Ann", action="settings", settings={"discussion_limit": None, "roles": ["witch"] * 4})
    assert h.view("Bo")["start_problem"] == {"code": "roles_too_many_witches", "params": {}}
    h.send("Ann", action="start")
    assert "fewer witches" in h.error("Ann")["message"]


def test_reconnect_with_the_token_returns_the_same_seat_and_view_in_every_step():
    names = ["Ann", "Bo", "Cy", "Di"]
    h = started(names)
    seen_phases = set()
    for step in range(400):
        view = h.view("Bo")
        if result_of(view):
            break
        seen_phases.add(view["phase"])
        h.resume(f"bo-{step}", h.code.lower(), h.tokens["Bo"])
        h.send(f"bo-{step}", action="ping")
        fresh = h.view(f"bo-{step}")
        assert fresh["you"] == "Bo"
        assert fresh == view_for(h.room(), "Bo")
        h.resume("Bo", h.code, h.tokens["Bo"])
        h.send("Bo", action="ping")  # a reconnected phone pings first (docs/protocol.md)
        if result_of(h.view("Bo")):
            break  # a deadline past due, settled as the room was read, ended the game
        _one_move(h, names)
    assert {"role_check", "place_choice", "evening", "proposal", "vote"} <= seen_phases


def _one_move(h: Harness, names: list[str]) -> None:
    from engine.catch_the_witch import bots
    from engine.rng import Rng

    for name in names:
        action = bots.decide(h.view(name), Rng(len(h.messages(name))))
        if action is not None:
            kind = action.pop("type")
            h.send(name, action=kind, **action)
            h.clock.now += 0.5
            return
    h.advance_to_next_timer()


def test_a_wrong_token_or_room_is_refused_over_the_opened_socket_then_hung_up():
    """A seat is checked in the phone's first frame (``resume``), not at
    ``$connect``, whose refusal a browser cannot read (it looked like a bad network, and a
    bad network like a lost seat). A token that no seat of the room holds, or a room that
    is not there, gets one answer, ``seat_lost`` (the phone may forget its seat), and the
    socket is closed; a malformed one is refused as any bad frame (and changes nothing)."""
    h = started(["Ann", "Bo", "Cy", "Di"])
    before = h.room().model_dump()
    for phone, code, token in (("x1", h.code, "not-a-token"), ("x2", "QQQQQQQQ", h.tokens["Bo"])):
        h.resume(phone, code, token)
        assert h.error(phone)["code"] == "seat_lost", h.messages(phone)
        assert phone in h.pusher.hung_up and h.connections.lookup(phone) is None
    h.resume("x3", h.code, None)
    assert h.error("x3")["code"] == "field_invalid" and "x3" not in h.pusher.hung_up
    assert h.room().model_dump() == before
    h.service.connect("fresh")  # every phone connects alike: none is refused for its seat
    h.resume("bo-2", h.code, h.tokens["Bo"])  # the right token takes the seat at once
    assert h.view("bo-2")["you"] == "Bo" and h.room().seat("Bo").connection == "bo-2"


def test_duplicate_early_late_and_lost_timers():
    h = started(["Ann", "Bo", "Cy", "Di"])
    for name in ["Ann", "Bo", "Cy", "Di"]:
        h.send(name, action="ready")
    h.advance_to_next_timer()  # the morning (§3.2)
    room = h.room()
    assert room.state.phase.value == "place_choice" and room.state.deadline
    ((message, delay),) = [t for t in h.timers.scheduled if t[0]["kind"] == "deadline"]
    assert message["step"] == room.state.step and delay >= 60
    h.service.timer(dict(message))  # early: nothing happens, the timer is sent again
    assert h.room().version == room.version
    assert h.timers.scheduled[-1][0] == message
    h.clock.now = room.state.deadline + 1
    h.service.timer(dict(message))
    after = h.room()
    assert after.state.step > room.state.step
    h.service.timer(dict(message))  # duplicate: stale step, nothing applied twice
    assert h.room().version == after.version
    # A lost timer: the witches' 15 s pass with nobody delivering it; a ping resolves it.
    h.clock.now = after.state.deadline + 5
    h.send("Bo", action="ping")
    assert h.room().state.phase.value == "evening"
    assert h.metrics.counts["DeadlinesByBackstop"] == 1


def test_a_410_drops_that_connection_and_the_request_still_succeeds():
    h = started(["Ann", "Bo", "Cy", "Di"])
    for name in ["Bo", "Cy", "Di"]:
        h.send(name, action="ready")
    h.pusher.gone.add("Cy")
    h.send("Ann", action="ready")  # the last Ready ends the step: every phone is pushed
    assert h.error("Ann") is None
    assert h.connections.lookup("Cy") is None
    assert h.room().seat("Cy").connection is None
    assert h.metrics.counts["PushesFailed"] == 1


def test_host_powers_pass_after_thirty_seconds_disconnected():
    h = started(["Ann", "Bo", "Cy", "Di"])
    h.service.disconnect("Ann")
    ((check, delay),) = [t for t in h.timers.scheduled if t[0]["kind"] == "host_check"]
    assert delay >= 30
    h.clock.now += 10
    h.service.timer(check)
    assert h.room().host == "Ann"
    h.clock.now += 25
    h.service.timer(check)
    room = h.room()
    assert room.host == "Bo" and room.state.host == "Bo"
    h.send("Bo", action="mark_away", target="Ann")
    assert h.room().state.cat("Ann").away


def test_the_host_hands_over_host_in_the_lobby_and_mid_game():
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di"])
    h.send("Bo", action="hand_over", target="Cy")
    assert h.error("Bo")["message"] == "Only the host can hand over host."
    h.send("Ann", action="hand_over", target="Ann")
    assert h.error("Ann")["message"] == "You are already the host."
    h.send("Ann", action="hand_over", target="Zed")
    assert "no cat named 'Zed'" in h.error("Ann")["message"]
    h.service.disconnect("Di")
    h.send("Ann", action="hand_over", target="Di")
    assert h.error("Ann")["message"] == "Di is offline; hand over to a connected cat."
    assert h.room().host == "Ann"
    h.send("Ann", action="hand_over", target="Bo")
    assert h.view("Cy")["host"] == "Bo"
    h.send("Ann", action="start")
    assert h.error("Ann")["message"] == "Only the host can start the game."

    h.resume("Di", h.code, h.tokens["Di"])
    h.send("Di", action="ping")
    h.send("Bo", action="start")
    h.send("Bo", action="hand_over", target="Di")
    room = h.room()
    assert room.host == "Di" and room.state.host == "Di" and h.view("Ann")["host"] == "Di"
    h.send("Di", action="mark_away", target="Ann")
    assert h.room().state.cat("Ann").away


def test_leaving_mid_game_marks_the_cat_away():
    h = started(["Ann", "Bo", "Cy", "Di"])
    h.send("Cy", action="leave")
    room = h.room()
    assert room.state.cat("Cy").away and h.connections.lookup("Cy") is None


def test_twelve_simultaneous_votes_are_never_lost_or_doubled():
    """Threads against the in-memory store: every yes/no vote lands exactly once."""
    names = [f"Cat{i}" for i in range(1, 13)]
    totals = []
    for round_ in range(20):
        h = started(names)
        while h.view(names[0])["phase"] != "approval":
            _one_move(h, names)
        voters = waiting_for(h.room().state)
        store: MemoryRoomStore = h.store
        writes_before = store.writes
        barrier = threading.Barrier(len(voters))

        def vote(name: str, h=h, barrier=barrier) -> None:
            barrier.wait()
            h.send(name, action="approve", yes=True)

        threads = [threading.Thread(target=vote, args=(n,)) for n in voters]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        proposal = h.room().state.today.proposals[-1]
        assert sorted(proposal.yes) == sorted(voters), round_
        totals.append((store.writes - writes_before) / len(voters))
    print(f"write attempts per vote (memory store, 12 threads): {sum(totals) / len(totals):.2f}")


def test_ping_resends_the_view_only_when_the_phone_shows_another():
    h = started(["Ann", "Bo", "Cy", "Di"])
    h.send("Bo", action="ready")  # Bo is done: its view lists whom the step waits for
    shown = h.pusher.last("Bo")
    h.send("Ann", action="ready")  # a pending submission: only Bo's waiting list changed
    assert h.pusher.last("Bo") == shown, "a move that leaves the step is told its mover only"
    h.send("Bo", action="ping", rev=shown["rev"])  # Bo asks: the list is brought up to date
    latest = h.pusher.last("Bo")
    assert "Ann" in shown["view"]["waiting"] and "Ann" not in latest["view"]["waiting"]
    h.send("Bo", action="ping", rev=latest["rev"])
    assert h.messages("Bo")[-1] == {"type": "pong"}  # up to date: the view is not sent again
    count = len(h.messages("Bo"))
    h.send("Bo", action="ping", rev="0" * 16)  # an older view (or none): sent again
    assert [m["type"] for m in h.messages("Bo")[count:]] == ["view"], "the view is the pong"
    assert h.pusher.last("Bo")["view"] == latest["view"]
    assert h.pusher.last("Bo")["seq"] >= latest["seq"]


def test_a_reconnecting_phone_takes_its_seat_with_its_first_frame_not_during_connect():
    """API Gateway answers 410 to posts while $connect runs: if $connect bound the seat, a
    push caused by another cat's move could free it again (found by the local stack). So
    $connect knows no seat at all; the phone's first frame, ``resume``, takes it."""
    names = ["Ann", "Bo", "Cy", "Di"]
    h = started(names)
    h.service.connect("bo-new")
    assert h.room().seat("Bo").connection == "Bo", "$connect changes no seat"
    h.send("Ann", action="ready")  # a push to every seated phone
    assert h.messages("bo-new") == []
    h.service.message(
        "bo-new", json.dumps({"action": "resume", "room": h.code, "token": h.tokens["Bo"]})
    )
    assert h.room().seat("Bo").connection == "bo-new"
    assert h.view("bo-new")["you"] == "Bo"
    h.send("Bo", action="ready")  # the older connection was let go
    assert h.error("Bo")["message"] == "Create or join a room first."
    h.send("bo-new", action="ready")
    assert h.error("bo-new") is None
    assert "Bo" not in waiting_for(h.service.current_room(h.code).state)


def test_a_phone_back_after_its_socket_closed_gets_one_frame_for_its_resume():
    """One frame, not two: the write that seats a reconnected phone pushes every seat its view
    (who is connected changed), this phone's included; that view answers its ``resume``,
    which is not answered a second time (the same view again, or a pong beside it)."""
    h = started(["Ann", "Bo", "Cy", "Di"])
    h.send("Ann", action="ready")
    old_rev = h.pusher.last("Bo")["rev"]
    h.service.disconnect("Bo")
    h.send("Cy", action="ready")  # the table moves on while Bo is away
    h.service.connect("bo-new")
    resume = {"action": "resume", "room": h.code, "token": h.tokens["Bo"], "rev": old_rev}
    h.service.message("bo-new", json.dumps(resume))
    assert [m["type"] for m in h.messages("bo-new")] == ["view"]
    assert h.view("bo-new")["you"] == "Bo"
    assert h.view("bo-new")["connected"]["Bo"] is True
    assert h.view("Ann")["connected"]["Bo"] is True, "the others are told it is back"
    h.send("bo-new", action="ping", rev=h.pusher.last("bo-new")["rev"])
    assert h.messages("bo-new")[-1] == {"type": "pong"}, "later pings are answered as ever"


def _at_a_proposal_by_someone_else(names: list[str]) -> Harness:
    """A room at a Chief's proposal, the Chief not being Ann (the host); a game that
    ends first (the deal is random) is replaced by a new one."""
    for _ in range(20):
        h = started(names)
        for _ in range(400):
            view = h.view("Ann")
            if result_of(view):
                break
            if view["phase"] == "proposal" and view["chief"] != "Ann":
                return h
            _one_move(h, names)
    raise AssertionError("no proposal by another cat in 20 games")


def test_a_move_submitted_while_another_seat_ends_the_step_is_never_lost():
    """The Chief's proposal ends the step; the host's Away mark (a move that leaves the step
    as it is) lands between the Chief's load and write. The write must fail and be redone
    with the mark merged, or the mark would sit forever under a step no load reads again."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    h = _at_a_proposal_by_someone_else(names)
    chief = h.view("Ann")["chief"]
    target = next(n for n in names if n not in (chief, "Ann"))
    original_save, injected = h.store.save, []

    def save_with_a_move_landing_first(*args, **kwargs):
        if not injected:
            injected.append(True)
            h.send("Ann", action="mark_away", target=target)
            assert h.error("Ann") is None
        return original_save(*args, **kwargs)

    h.store.save = save_with_a_move_landing_first
    members = h.view(chief)["today"]["required"]  # only its length matters
    size = len(members) if members else 2
    humans = [p["name"] for p in h.view("Ann")["players"] if p["form"] == "human"]
    proposal = ([chief] + [n for n in humans if n != chief])[: max(size, 2)]
    h.send(chief, action="propose", members=proposal)
    h.store.save = original_save
    game = h.service.current_room(h.code).state
    assert injected and game.cat(target).away, "the Away mark was lost"
    assert game.phase.value != "proposal"


def test_a_move_written_just_after_another_seat_ended_the_step_is_refused_not_left_behind():
    """The other order: the host loads the proposal step, the Chief's proposal ends it (and
    records its version on the step's item), and only then is the host's Away mark written under the old
    step. The write is refused; loaded again, the mark was made on a step that is over: it
    is refused (stale_move), never left behind and never played on the new step (moves
    belong to a step)."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    h = _at_a_proposal_by_someone_else(names)
    chief = h.view("Ann")["chief"]
    target = next(n for n in names if n not in (chief, "Ann"))
    size = max(len(h.view(chief)["today"]["required"]), 2)  # one cat per needed card
    humans = [p["name"] for p in h.view("Ann")["players"] if p["form"] == "human"]
    proposal = ([chief] + [n for n in humans if n != chief])[:size]  # frogs cannot go

    def the_step_ends(_):
        h.send(chief, action="propose", members=proposal)
        assert h.error(chief) is None, h.error(chief)

    proposed = before_the_move_of(h, "Ann", the_step_ends)
    h.send("Ann", action="mark_away", target=target)
    room = h.service.current_room(h.code)
    assert proposed and not room.state.cat(target).away, "taken on a step it was not made on"
    assert h.error("Ann")["code"] == "stale_move"
    assert all(step == room.state.step for _, step, _ in h.store._subs), "a move left behind"


def test_the_last_move_completes_its_step_though_a_write_took_the_others_moves_meanwhile():
    """The mover decides from what its own write returns. Di reads the room with
    two moves pending (Ann's, Bo's); before Di's move is written, Cy moves and a reconnected
    phone takes Bo's seat, a room write that merges the three moves into the room: the
    step's item no longer holds them. Merged into the room Di read, Di's move would look
    like the only one and the step would wait forever; the write is refused instead (the
    room was written since Di read it), and made again on the room as written, it ends the
    step."""
    names = ["Ann", "Bo", "Cy", "Di"]
    h = started(names)
    step = h.room().state.step
    for name in ("Ann", "Bo"):
        h.send(name, action="ready")

    def others_write(submission):
        h.send("Cy", action="ready")
        h.resume("bo-new", h.code, h.tokens["Bo"])
        h.send("bo-new", action="ping")  # takes Bo's seat: a room write
        assert h.room().seat("Bo").connection == "bo-new"
        assert h.store.submissions(h.code, submission.step) == [], "the write took them"

    meanwhile = before_the_move_of(h, "Di", others_write)
    h.send("Di", action="ready")
    assert meanwhile and h.error("Di") is None
    stored = h.store.load(h.code)  # as written: a load would merge the pending moves
    assert stored.state.step > step, "the step waits for a move that was made"
    assert h.pusher.last("Ann")["view"]["step"] > step, "every phone is told the new step"


def test_a_flooding_connection_is_rate_limited_alone_with_a_clear_error():
    h = started(["Ann", "Bo", "Cy", "Di"])
    before = h.room().model_dump()
    for _ in range(100):
        h.send("Cy", action="vote", target=None)  # wrong step: refused anyway
    refusals = [m for m in h.messages("Cy") if m["type"] == "error"]
    limited = [m for m in refusals if m["code"] == "rate_limited"]
    # 26 at once (Cy's join, at the same instant, took one), then refused: the first refusal
    # is told, the next ones in the same second are not (no post for each frame of a flood)
    assert len(refusals) - len(limited) == 25 and len(limited) == 1
    assert limited[0]["message"].startswith("Too many messages: at most 26 at once, then 4 a")
    assert h.room().model_dump() == before
    assert h.metrics.counts["RateLimited"] == 75
    h.send("Ann", action="ready")  # the others are not slowed
    assert h.error("Ann") is None and "Ann" not in waiting_for(h.room().state)
    h.clock.now += 1.0  # 4 more a second
    h.send("Cy", action="ready")
    assert h.messages("Cy")[-1]["type"] == "view"


def test_only_phones_whose_view_changed_are_sent_one():
    names = ["Ann", "Bo", "Cy", "Di", "Eve"]
    h = started(names)
    for name in names:
        h.send(name, action="ready")
    h.advance_to_next_timer()  # the morning (§3.2)
    assert h.view("Ann")["phase"] == "place_choice"
    mover = next(n for n in names if h.view(n)["your_turn"] and h.view(n)["me"]["role"] != "knight")
    counts = {n: len(h.messages(n)) for n in names}
    h.send(mover, action="choose_place", place="forest")  # a secret choice: only mine changes
    assert {n: len(h.messages(n)) - counts[n] for n in names} == {
        n: 1 if n == mover else 0 for n in names
    }


def test_every_phone_always_holds_its_current_view_though_unchanged_views_are_not_resent():
    names = [f"Cat{i}" for i in range(1, 9)]
    h = started(names)
    original = h.send

    def send_and_check(connection, **message):
        original(connection, **message)
        room = h.room()
        for name in names:  # the names waited for are brought up to date on request
            assert same_but_progress(h.view(name), view_for(room, name), WAITING), (message, name)

    h.send = send_and_check
    h.play_with_bots(names, seed=11)
    views = sum(1 for n in names for m in h.messages(n) if m["type"] == "view")
    moves = h.metrics.counts["Actions"]
    assert views < moves * len(names) * 0.95  # some pushes were saved


def test_s10_host_powers_pass_to_a_connected_human_never_a_bot_and_come_back():
    """RULES §10 as amended (docs/protocol.md "Host powers when the host is away"): a bot
    host never starts, so the room would wait for ever; and the cat who made the room is its
    host again once back."""
    h = Harness()
    h.table(["Ann"])
    for name, bot in (("Bo", True), ("Cy", True), ("Di", False), ("Eve", False)):
        h.send(name, action="join", room=h.code, name=name, bot=bot)
        h.tokens[name] = h.pusher.last(name, "joined")["token"]
    assert [seat.bot for seat in h.room().seats] == [False, True, True, False, False]
    h.service.disconnect("Di")  # offline: skipped as before
    h.service.disconnect("Ann")
    ((check, delay),) = [t for t in h.timers.scheduled if t[0]["kind"] == "host_check"
                         and t[0].get("seat", "Ann") == "Ann"]  # fmt: skip
    h.clock.now += delay
    h.service.timer(check)
    assert h.room().host == "Eve"  # not the bots Bo and Cy, not Di offline
    assert h.view("Bo")["host"] == "Eve"

    h.resume("Ann", h.code, h.tokens["Ann"])
    h.send("Ann", action="ping")  # her phone's first message takes her seat back
    room = h.room()
    assert room.host == "Ann" and room.host_away is None and h.view("Eve")["host"] == "Ann"

    # With no human connected but the host, nobody takes over from a host who leaves.
    h.service.disconnect("Eve")
    h.service.disconnect("Ann")
    checks = [t for t in h.timers.scheduled if t[0]["kind"] == "host_check"]
    h.clock.now += 60
    for check, _ in checks:
        h.service.timer(check)
    assert h.room().host == "Ann"
