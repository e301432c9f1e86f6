"""Rooms: probing codes, ghost rooms, the host's name left behind, kicks that
were not bans, lobby squatting. Through the room service (in-memory ports, an injected
clock: no sleeps). Each test failed on the code before the fix (b034b1a); the numbers are
in docs/security.md, section "Rooms"."""

import json
import math
import re
from pathlib import Path

import pytest

from events.generate import websocket_event
from functions import message
from functions.room_service.adapters.memory import MemoryRoomStore
from functions.room_service.domain.lobby import CannotJoin, KeptOut
from functions.room_service.domain.room import (
    CODE_ALPHABET,
    CODE_LENGTH,
    KICK_BAN_SECONDS,
    LOBBY_SEAT_GRACE_SECONDS,
    MAX_BANS,
    new_code,
    normalise_code,
)
from tests.support.moto_cloud import CONTEXT, moto_cloud
from tests.support.service_harness import Harness

VENUE = "198.51.100.7"  # the table's Wi-Fi: the host and friends share it
CANNOT_JOIN = "cannot_join"
KEPT_OUT = "kept_out"


class CountingStore(MemoryRoomStore):
    """Counts the reads a join makes (a refusal that reads more tells rooms apart)."""

    def __init__(self):
        super().__init__()
        self.reads: list[str] = []

    def load(self, code):
        self.reads.append("load")
        return super().load(code)

    def submissions(self, code, step):
        self.reads.append("submissions")
        return super().submissions(code, step)

    def read(self, code):  # a unit of work's load: the room and its step's moves at once
        self.reads.append("read")
        return super().read(code)


def send(h: Harness, connection: str, ip: str | None = None, **message) -> dict | None:
    """A frame from ``connection`` (from address ``ip``); the error it got, if any."""
    before = len(h.messages(connection))
    h.clock.now += 0.2  # under the per-connection rate limit
    h.service.message(connection, json.dumps(message), source_ip=ip)
    errors = [m for m in h.messages(connection)[before:] if m["type"] == "error"]
    return errors[-1] if errors else None


def join(h: Harness, connection: str, name: str, ip: str | None = VENUE,
         code: str | None = None) -> dict | None:  # fmt: skip
    return send(h, connection, ip, action="join", room=code or h.code, name=name)


def lobby(names: list[str], ip: str | None = VENUE, store=None) -> Harness:
    """The first name creates the room, the others join, all from ``ip``."""
    h = Harness(store=store)
    assert send(h, names[0], ip, action="create_room", name=names[0]) is None
    h.code = h.pusher.last(names[0], "joined")["room"]
    for name in names[1:]:
        assert join(h, name, name, ip) is None
    return h


def seated(h: Harness) -> list[str]:
    return [seat.name for seat in h.service.current_room(h.code).seats]


# == codes ===================================================================================
def test_codes_are_eight_letters_and_typed_codes_are_forgiving():
    codes = {new_code() for _ in range(200)}
    assert all(len(c) == CODE_LENGTH == 8 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert len(CODE_ALPHABET) ** CODE_LENGTH == 78_310_985_281
    for typed in ("abcd efgh", " ABCD-EFGH ", "abcdefgh", "ABCD\u00a0EFGH"):
        assert normalise_code(typed) == "ABCDEFGH"
    h = lobby(["Ann"])
    spaced = f"{h.code[:4].lower()} {h.code[4:].lower()}"
    h.resume("ann-2", spaced, h.pusher.last("Ann", "joined")["token"])


# == one answer ==============================================================================
def _rooms_of_every_kind() -> tuple[Harness, dict[str, str]]:
    """One store holding a game under way, a full lobby and a closed one."""
    store = CountingStore()
    codes = {}
    h = lobby(["Ann", "Bo", "Cy", "Di"], store=store)
    send(h, "Ann", action="start")
    codes["started"] = h.code
    h = lobby([f"Cat{i}" for i in range(12)], store=store)
    codes["full"] = h.code
    h = lobby(["Gus", "Hal"], store=store)
    send(h, "Gus", action="leave")
    send(h, "Hal", action="leave")
    codes["closed"] = h.code
    codes["none"] = "QQQQQQQQ"
    assert len(set(codes.values())) == 4
    return h, codes


def test_a_probe_gets_one_answer_for_no_room_closed_started_and_full():
    h, codes = _rooms_of_every_kind()
    answers, reads = {}, {}
    for kind in ("none", "closed", "started", "full"):
        h.store.reads.clear()
        answers[kind] = join(h, f"probe-{kind}", "Zed", code=codes[kind])
        reads[kind] = list(h.store.reads)
    assert answers["none"]["code"] == CANNOT_JOIN
    assert all(answer == answers["none"] for answer in answers.values()), answers
    # The same work for each too: one read of the room item (a started game's pending
    # moves are not read for a refusal), so the time taken tells nothing either.
    assert all(r == ["load"] for r in reads.values()), reads


def test_name_taken_is_told_only_in_an_open_lobby_with_a_free_seat():
    h, codes = _rooms_of_every_kind()
    assert join(h, "p1", "Cat3", code=codes["full"])["code"] == CANNOT_JOIN
    assert join(h, "p2", "Ann", code=codes["started"])["code"] == CANNOT_JOIN
    h2 = lobby(["Ann", "Bo"])
    assert join(h2, "p3", "ANN")["code"] == "name_taken"


# == ghost rooms =============================================================================
@pytest.mark.parametrize("how", ["leave", "gone"])
def test_an_emptied_room_is_closed_for_good_and_ttl_takes_it(how):
    h = lobby(["Ann", "Bo"])
    if how == "leave":
        send(h, "Bo", action="leave")
        send(h, "Ann", action="leave")
    else:
        h.service.disconnect("Bo")
        h.service.disconnect("Ann")
        h.deliver_due_timers()  # the harness dates each timer when it first sees it
        h.clock.now += LOBBY_SEAT_GRACE_SECONDS + 1
        h.deliver_due_timers()
    room = h.store.load(h.code)
    assert room.seats == [] and room.expires_at <= h.clock.now
    error = join(h, "late", "Cy")
    assert error["code"] == CANNOT_JOIN
    assert h.store.load(h.code).seats == [], "nobody got in"
    # A code that once had a room answers exactly as one that never had
    assert error == join(h, "late-2", "Cy", code="QQQQQQQQ")


# == host passed on ==========================================================================
def test_the_host_passes_on_when_leaving_with_nobody_connected():
    h = lobby(["Ann", "Bo", "Cy", "Di"])
    for name in ("Bo", "Cy", "Di"):
        h.service.disconnect(name)  # phones asleep
    send(h, "Ann", action="leave")
    room = h.store.load(h.code)
    assert room.host == "Bo", "the next seat, though offline"
    assert join(h, "mallory", "Ann", ip="203.0.113.66") is None  # the name is free now
    assert h.store.load(h.code).host == "Bo"
    assert send(h, "mallory", action="kick", target="Cy")["message"].startswith("Only the host")
    refused = send(h, "mallory", action="settings", settings={"discussion_limit": None})
    assert refused is not None and refused["message"].startswith("Only the host")
    assert "Cy" in seated(h)


def test_the_host_passes_on_in_seat_order_after_the_host_seat():
    h = lobby(["Ann", "Bo", "Cy", "Di"])
    send(h, "Ann", action="reorder", order=["Bo", "Ann", "Cy", "Di"])
    h.service.disconnect("Cy")
    send(h, "Ann", action="leave")
    assert h.store.load(h.code).host == "Di", "the next connected seat after the host's"


def test_the_host_leaving_mid_game_with_nobody_connected_passes_host_on():
    h = lobby(["Ann", "Bo", "Cy", "Di"])
    send(h, "Ann", action="start")
    for name in ("Bo", "Cy", "Di"):
        h.service.disconnect(name)
    send(h, "Ann", action="leave")
    room = h.store.load(h.code)
    assert room.host == "Bo" and room.state.host == "Bo"
    # Bo's phone comes back and has host powers (§10: an untimed game can never hang)
    h.resume("bo-2", h.code, _token(h, "Bo"))
    assert send(h, "bo-2", action="ping") is None
    assert h.view("bo-2")["you"] == "Bo"


def _token(h: Harness, name: str) -> str:
    return h.pusher.last(name, "joined")["token"]


# == kicks keep the kicked out ================================================================
def test_a_kicked_cat_is_kept_out_by_name_for_the_ban_time_then_may_return():
    h = lobby(["Ann", "Bo", "Cy", "Eve"])
    send(h, "Ann", action="kick", target="Eve")
    kicked = h.pusher.last("Eve", "error")
    assert kicked["code"] == "kicked" and "10 minutes" in kicked["message"]
    for connection, name in (("eve-2", "Eve"), ("eve-3", "EVE"), ("eve-4", "\u0395ve")):
        error = join(h, connection, name)  # the same name, its case, a Greek look-alike
        assert error["code"] == KEPT_OUT, (name, error)
        assert "10 minutes" in error["message"]
    assert seated(h) == ["Ann", "Bo", "Cy"]
    h.clock.now += KICK_BAN_SECONDS
    assert join(h, "eve-5", "Eve") is None
    assert seated(h) == ["Ann", "Bo", "Cy", "Eve"]


def test_a_kicked_phone_is_told_why_then_its_socket_is_closed():
    """The kicked phone's socket was left open (billed by the minute until it
    idled out); it is closed (DeleteConnection) after the kick's message, and no one
    else's is."""
    h = lobby(["Ann", "Bo", "Cy", "Eve"])
    send(h, "Ann", action="kick", target="Eve")
    assert h.pusher.last("Eve", "error")["code"] == "kicked"
    assert h.pusher.hung_up == ["Eve"]
    send(h, "Ann", action="kick", target="Eve")  # no longer seated: refused, nothing closed
    assert h.pusher.hung_up == ["Eve"]


def test_a_kicked_cat_is_kept_out_by_address_under_another_name():
    h = lobby(["Ann", "Bo", "Cy"])
    assert join(h, "troll", "Troll", ip="203.0.113.9") is None
    send(h, "Ann", action="kick", target="Troll")
    assert join(h, "troll-2", "Nice Cat", ip="203.0.113.9")["code"] == KEPT_OUT
    assert join(h, "friend", "Fay", ip="192.0.2.44") is None, "other addresses are not kept out"
    assert join(h, "friend-2", "Gil") is None, "nor the table's own"
    h.clock.now += KICK_BAN_SECONDS
    assert join(h, "troll-3", "Nice Cat", ip="203.0.113.9") is None


def test_a_kick_never_bans_the_hosts_own_address():
    """Friends at one table share the venue's address: a kick bans the name only."""
    h = lobby(["Ann", "Bo", "Cy", "Rude"])
    send(h, "Ann", action="kick", target="Rude")
    assert h.store.load(h.code).bans[0].address is None
    assert join(h, "rude-2", "Rude")["code"] == KEPT_OUT
    assert join(h, "latecomer", "Di") is None, "the table can still grow"


def test_the_ban_list_is_bounded_and_expired_bans_are_dropped():
    h = lobby(["Ann"])
    for i in range(MAX_BANS + 5):
        assert join(h, f"c{i}", f"Cat{i}", ip=f"203.0.113.{i}") is None
        send(h, "Ann", action="kick", target=f"Cat{i}")
    bans = h.store.load(h.code).bans
    assert len(bans) == MAX_BANS and bans[-1].name == f"Cat{MAX_BANS + 4}"
    h.clock.now += KICK_BAN_SECONDS
    assert join(h, "x", "Xan", ip="192.0.2.1") is None
    send(h, "Ann", action="kick", target="Xan")
    assert [b.name for b in h.store.load(h.code).bans] == ["Xan"]


def test_the_squatting_loop_no_longer_keeps_a_friend_out():
    """Finding: four loops rejoining after each kick kept a friend out 5 times in 6. A
    full lobby: 8 friends at the venue and 4 squatters from one address elsewhere; each
    round the host kicks a squatter, every loop not seated rejoins at once under a new
    name, then a friend tries the code."""
    friends = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gil", "Hal"]
    h = lobby(friends)
    squatter_ip = "203.0.113.50"
    squatters = {}
    for loop in range(4):
        assert join(h, f"loop{loop}-0", f"Sq{loop}x0", ip=squatter_ip) is None
        squatters[loop] = f"Sq{loop}x0"
    kept_out = 0
    for round_ in range(1, 5):
        target = next(n for n in squatters.values() if n in seated(h))
        send(h, "Ann", action="kick", target=target)
        for loop in range(4):
            if squatters[loop] not in seated(h):
                name = f"Sq{loop}x{round_}"
                if join(h, f"loop{loop}-{round_}", name, ip=squatter_ip) is None:
                    squatters[loop] = name
        kept_out += join(h, f"friend{round_}", f"Friend{round_}") is not None
    assert kept_out == 0, f"a friend was kept out {kept_out} times in 4"
    assert not any(name.startswith("Sq") for name in seated(h))
    assert len(seated(h)) == 12


# == seats of gone phones =====================================================================
def test_a_gone_phone_frees_its_lobby_seat_after_the_wait():
    h = lobby(["Ann", "Bo", "Cy"])
    bo_token = _token(h, "Bo")
    h.service.disconnect("Bo")
    checks = [m for m, _ in h.timers.scheduled if m["kind"] == "seat_check"]
    assert checks == [{"kind": "seat_check", "room": h.code, "seat": "Bo"}]
    h.deliver_due_timers()  # the harness dates each timer when it first sees it
    h.clock.now += LOBBY_SEAT_GRACE_SECONDS - 1
    h.deliver_due_timers()
    assert "Bo" in seated(h), "not yet"
    h.clock.now += 2
    h.deliver_due_timers()
    assert seated(h) == ["Ann", "Cy"]
    assert [s["name"] for s in h.view("Ann")["seats"]] == ["Ann", "Cy"], "the lobby is told"
    h.resume("bo-2", h.code, bo_token)  # a freed seat's token opens nothing
    assert h.error("bo-2")["code"] == "seat_lost" and "bo-2" in h.pusher.hung_up
    assert join(h, "bo-3", "Bo") is None, "Bo joins again like anyone"


def test_a_phone_back_in_time_keeps_its_seat():
    h = lobby(["Ann", "Bo", "Cy"])
    h.service.disconnect("Bo")
    h.deliver_due_timers()
    h.clock.now += LOBBY_SEAT_GRACE_SECONDS - 10
    h.resume("bo-2", h.code, _token(h, "Bo"))
    assert send(h, "bo-2", action="ping") is None
    h.clock.now += 60
    h.deliver_due_timers()
    assert seated(h) == ["Ann", "Bo", "Cy"]


def test_a_gone_hosts_seat_is_freed_and_host_passes_on():
    h = lobby(["Ann", "Bo", "Cy"])
    h.service.disconnect("Ann")
    h.deliver_due_timers()
    h.clock.now += LOBBY_SEAT_GRACE_SECONDS + 1
    h.deliver_due_timers()
    room = h.store.load(h.code)
    assert [s.name for s in room.seats] == ["Bo", "Cy"] and room.host == "Bo"


def test_a_join_frees_gone_seats_even_if_their_timer_was_lost():
    h = lobby([f"Cat{i}" for i in range(12)])
    h.service.disconnect("Cat5")
    h.timers.scheduled.clear()  # lost
    assert join(h, "fay", "Fay")["code"] == CANNOT_JOIN, "full while Cat5 may come back"
    h.clock.now += LOBBY_SEAT_GRACE_SECONDS
    assert join(h, "fay-2", "Fay") is None
    assert "Cat5" not in seated(h) and "Fay" in seated(h)


def test_in_a_game_seats_stay_however_long_a_phone_is_gone():
    h = lobby(["Ann", "Bo", "Cy", "Di"])
    send(h, "Ann", action="start")
    h.service.disconnect("Bo")
    assert not [m for m, _ in h.timers.scheduled if m["kind"] == "seat_check"]
    h.service.timer({"kind": "seat_check", "room": h.code, "seat": "Bo"})  # a stray one
    h.clock.now += 10 * LOBBY_SEAT_GRACE_SECONDS
    h.service.timer({"kind": "seat_check", "room": h.code, "seat": "Bo"})
    assert seated(h) == ["Ann", "Bo", "Cy", "Di"]


# == through the Lambda handlers (DynamoDB and SQS on moto) =================================
def test_through_the_handlers_a_kick_bans_a_gone_seat_is_freed_and_refusals_are_one():
    """The source address comes from the request context, the seat check through SQS."""
    with moto_cloud() as cloud:

        def frame(connection: str, ip: str, **body) -> dict | None:
            assert cloud.connect(connection) == {"statusCode": 200}
            event = websocket_event("$default", "MESSAGE", connection, body, source_ip=ip)
            assert message.handler(event, CONTEXT) == {"statusCode": 200}
            return cloud.last(connection, "error")

        frame("ann", VENUE, action="create_room", name="Ann")
        code = cloud.last("ann", "joined")["room"]
        assert len(code) == CODE_LENGTH
        assert frame("bo", VENUE, action="join", room=code, name="Bo") is None
        assert frame("troll", "192.0.2.9", action="join", room=code, name="Troll") is None
        frame("ann", VENUE, action="kick", target="Troll")
        assert cloud.last("troll", "error")["code"] == "kicked"
        kept = frame("troll-2", "192.0.2.9", action="join", room=code, name="Nice")
        assert kept["code"] == KEPT_OUT
        nothing = frame("probe", "192.0.2.10", action="join", room="QQQQQQQQ", name="Zed")
        assert nothing["code"] == CANNOT_JOIN
        cloud.disconnect("bo")
        (check,) = [m for m in cloud.queued_timers() if json.loads(m.body)["kind"] == "seat_check"]
        cloud.clock.now += LOBBY_SEAT_GRACE_SECONDS + 1
        cloud.deliver_timer(check)
        assert [seat["name"] for seat in cloud.last("ann")["view"]["seats"]] == ["Ann"]
        frame("ann", VENUE, action="leave")
        assert frame("late", VENUE, action="join", room=code, name="Cy") == nothing


# == the phone says it in the player's language ==============================================
FRONTEND = Path(__file__).resolve().parents[2] / "frontend"


@pytest.mark.parametrize("language", ["en", "zh-Hant", "uk", "th"])
def test_the_phone_shows_each_join_refusal_and_the_ban_time_in_each_language(language):
    app = (FRONTEND / "js" / "app.js").read_text()
    assert "t(`error_${code}`, params)" in app  # every refusal is worded as error_<code>
    strings = json.loads((FRONTEND / "i18n" / f"{language}.json").read_text())
    assert strings[f"error_{CannotJoin.code}"].strip()
    minutes = str(KICK_BAN_SECONDS // 60)
    kicked = strings["error_kicked"].replace("{minutes}", minutes)  # the kick sends its minutes
    assert minutes in strings[f"error_{KeptOut.code}"] and minutes in kicked, "the ban time"
    assert minutes in KeptOut().message


def test_the_join_field_takes_a_whole_code_typed_in_two_groups():
    app = (FRONTEND / "js" / "app.js").read_text()
    field = re.search(r'id: "code",[^}]*maxlength: (\d+)', app)
    assert field and int(field.group(1)) >= CODE_LENGTH + 3  # "ABCD - EFGH"
    assert 'code.value.replace(/[\\s-]/g, "")' in app


# == the numbers in docs/security.md ==========================================================
def test_the_numbers_in_the_security_doc():
    """Assumed 1,000 open lobbies at once; the per-address cap on join attempts."""
    from functions.room_service.adapters.ratelimit import JOIN_ATTEMPTS_PER_IP_PER_HOUR

    codes = len(CODE_ALPHABET) ** CODE_LENGTH
    lobbies, per_day = 1_000, JOIN_ATTEMPTS_PER_IP_PER_HOUR * 24
    assert per_day == 4_800
    day = 1 - (1 - lobbies / codes) ** per_day
    year = 1 - (1 - day) ** 365
    assert round(day * 1e5, 2) == 6.13  # 0.0061 % a day
    assert round(year * 100, 1) == 2.2  # 2.2 % a year
    assert math.isclose(10_000 * per_day * lobbies / codes, 0.613, rel_tol=1e-2)
