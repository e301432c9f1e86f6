"""No crash on stale connections: every message a leftover connection can
send, in the lobby and in a game, gets an ``error`` (never an exception, which the
gateway turns into "Internal server error") and changes nothing.

Found: a spare socket of a seat removed in the lobby crashed ``leave`` (``ValueError``:
the seat was gone) and, once a game had started without that seat, ``ping``
(``KeyError`` in ``view_for``).

The connections driven through every message type (ROOM_ACTIONS and GAME_ACTIONS, one
sample frame each from ``events/``):

- bound, but their seat was let go (they speak for nobody): a spare socket of a cat
  who was kicked, of one who left the lobby, of one whose name a new cat took, and of
  one who left mid-game;
- no longer bound: the old socket of a phone that reconnected, a kicked phone's socket,
  the socket that sent ``leave``.
"""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from functions.room_service.domain.lobby import CannotJoin
from functions.room_service.domain.room import Binding, hash_token
from functions.room_service.domain.seat_moves import SeatLinkUsed
from functions.room_service.domain.table_screens import TableKeyWrong
from functions.room_service.service.commands import GAME_ACTIONS, ROOM_ACTIONS, ROOMLESS_ACTIONS
from tests.support.error_codes import server_codes
from tests.support.service_harness import Harness

EVENTS = Path(__file__).resolve().parents[2] / "events"
ACTIONS = ROOM_ACTIONS + GAME_ACTIONS
FRAMES = {name: json.loads(json.loads((EVENTS / f"message_{name}.json").read_text())["body"])
          for name in ACTIONS}  # fmt: skip
NO_SEAT = "You no longer have a seat in this room."
NO_ROOM_YET = "Create or join a room first."
IN_A_ROOM = "This connection is already in a room."
#: Spare sockets bound to a seat that was then let go: still bound, speak for nobody.
SPARES = ["kit-spare", "lea-spare", "mia-spare"]
#: Sockets the service let go (their binding is gone): phones without a seat.
UNBOUND = ["Bo", "Kit", "Lea"]
SEATED = ["Ann", "bo-new", "Di", "mia-2"]


def _room_with_stale_connections(in_game: bool) -> Harness:
    """Ann hosts; Bo reconnected ("Bo" is his old socket); Kit was kicked and Lea left,
    each with a spare socket; Mia left with a spare socket and a new cat joined as Mia.
    In a game, Cy also leaves mid-game, leaving a spare socket ("cy-spare")."""
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di", "Kit", "Lea", "Mia"])
    for name in ("Kit", "Lea", "Mia", "Cy"):
        h.spare(f"{name.lower()}-spare", name)
    h.resume("bo-new", h.code, h.tokens["Bo"])
    h.send("Ann", action="kick", target="Kit")
    h.send("Lea", action="leave")
    h.send("Mia", action="leave")
    h.send("mia-2", action="join", room=h.code, name="Mia")
    if in_game:
        h.send("Ann", action="start")
        h.send("Cy", action="leave")
    assert not any(h.error(c) for c in SEATED), "the setting up went wrong"
    return h


def _stale(in_game: bool) -> list[str]:
    return [*SPARES, *["cy-spare"] * in_game, *UNBOUND, *["Cy"] * in_game]


def _snapshot(h: Harness) -> tuple:
    return copy.deepcopy((h.store._rooms, h.store._subs, h.timers.scheduled))


def _expected(connection: str, frame: dict, bound: bool) -> str | None:
    """The error message ``connection`` must get for ``frame`` (None: see the caller)."""
    action = frame["action"]
    if bound:
        return IN_A_ROOM if action in ROOMLESS_ACTIONS else NO_SEAT
    if action == "ping":
        return None  # a phone without a seat: pong, seq null (as a new phone's first ping)
    if action == "join":
        return CannotJoin().message  # the sample's room, ABCD: no such room
    if action == "watch":
        return TableKeyWrong().message  # a table screen of ABCD: no such room
    if action == "resume":
        return NO_SEAT  # the sample's room, ABCD, holds no seat with its token
    if action == "take_seat":
        return SeatLinkUsed().message  # the sample's room, ABCD: no seat's link opens

    return NO_ROOM_YET


def _judge(h: Harness, connection: str, frame: dict, exact: bool = True) -> None:
    """Send ``frame`` from ``connection`` with the binding it had; check the one answer
    (``exact``: the very error expected; else any error) and that nothing else changed
    (a stale binding is dropped once it is found stale, nothing more)."""
    binding = ROOMS_BINDINGS[id(h)].get(connection)
    if binding is not None:
        h.connections.bound[connection] = binding
    others = {c: b for c, b in h.connections.bound.items() if c != connection}
    before = _snapshot(h)
    counts = {c: len(h.messages(c)) for c in h.pusher.sent}
    h.clock.now += 0.2  # under the rate limit: each frame is judged on its content
    h.service.message(connection, json.dumps(frame))  # an exception here is the crash
    replies = h.messages(connection)[counts.get(connection, 0) :]
    expected = _expected(connection, frame, binding is not None)
    if frame["action"] == "cover":
        assert replies == [], (connection, frame, replies)  # it asks nothing: no answer
    elif expected is None:
        assert replies == [{"type": "pong"}], (connection, frame, replies)
    elif exact:
        code = {NO_SEAT: "seat_lost", NO_ROOM_YET: "no_room", IN_A_ROOM: "already_in_room",
                CannotJoin().message: CannotJoin.code,
                TableKeyWrong().message: TableKeyWrong.code,
                SeatLinkUsed().message: SeatLinkUsed.code}[expected]  # fmt: skip
        error = {"type": "error", "code": code, "params": {}, "action": frame["action"],
                 "message": expected}  # fmt: skip
        assert replies == [error], (connection, frame, replies)
    else:
        assert [reply["type"] for reply in replies] == ["error"], (connection, frame, replies)
        assert replies[0]["code"] in server_codes() and replies[0]["message"]
    assert _snapshot(h) == before, (connection, frame)
    assert {c: b for c, b in h.connections.bound.items() if c != connection} == others
    if (
        frame["action"] != "cover"
        and binding is not None
        and h.connections.lookup(connection) is not None
    ):
        assert replies[0]["message"] != NO_SEAT, "a binding found stale is let go"
    assert all(len(h.messages(c)) == n for c, n in counts.items() if c != connection)


#: Each harness's bindings just after it was set up (restored before every frame).
ROOMS_BINDINGS: dict[int, dict] = {}


def _setup(in_game: bool) -> Harness:
    h = _room_with_stale_connections(in_game)
    ROOMS_BINDINGS[id(h)] = dict(h.connections.bound)
    assert all(c in h.connections.bound for c in SPARES)
    assert not any(c in h.connections.bound for c in UNBOUND)
    return h


@pytest.mark.parametrize("in_game", [False, True], ids=["lobby", "game"])
def test_every_message_from_every_stale_connection_gets_an_error_and_changes_nothing(in_game):
    h = _setup(in_game)
    assert set(FRAMES) == set(ACTIONS)
    for connection in _stale(in_game):
        for action in ACTIONS:
            if action == "create_room" and connection in [*UNBOUND, "Cy"]:
                continue  # a socket without a seat may start a new room, as a new phone
            _judge(h, connection, FRAMES[action])
    # their sockets closing ($disconnect) changes nothing either
    for connection in _stale(in_game):
        if connection in ROOMS_BINDINGS[id(h)]:
            h.connections.bound[connection] = ROOMS_BINDINGS[id(h)][connection]
        before = _snapshot(h)
        h.service.disconnect(connection)
        assert _snapshot(h) == before and h.connections.lookup(connection) is None
    # and the room goes on as before for the seated cats
    for connection in SEATED:
        h.send(connection, action="ready" if in_game else "ping")
        assert h.error(connection) is None
    assert h.room().seat("Mia").connection == "mia-2"


HARNESSES = {in_game: _setup(in_game) for in_game in (False, True)}
SEAT_NAMES = ["Ann", "Bo", "Cy", "Di", "Kit", "Lea", "Mia", "Zed"]
fields = st.fixed_dictionaries({}, optional={
    "target": st.sampled_from(SEAT_NAMES), "player": st.sampled_from(SEAT_NAMES),
    "rev": st.text(max_size=16) | st.none(), "step": st.integers(-1, 10**6),
})  # fmt: skip


def _with(frame: dict, extra: dict) -> dict:
    """``frame`` with the drawn fields it has replaced, and a game move naming any seat as
    its ``player`` (other fields would only make it malformed: tests/service/test_fuzz.py)."""
    known = set(frame) | ({"player"} if frame["action"] in GAME_ACTIONS else set())
    return {**frame, **{key: value for key, value in extra.items() if key in known}}


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(
    in_game=st.booleans(),
    connection=st.sampled_from([*SPARES, "cy-spare"]),
    action=st.sampled_from(ACTIONS),
    extra=fields,
)
def test_stale_spare_sockets_naming_any_seat_get_an_error(in_game, connection, action, extra):
    if connection == "cy-spare" and not in_game:
        connection = "mia-spare"
    _judge(HARNESSES[in_game], connection, _with(FRAMES[action], extra), exact=False)


def test_a_socket_bound_to_a_room_that_is_gone_gets_an_error():
    """DynamoDB's TTL removed the room (an emptied or finished one) before the socket."""
    h = _setup(in_game=False)
    h.connections.bound["ghost"] = Binding("QQQQ", "Ann", hash_token(h.tokens["Ann"]))
    for action in ("ping", "leave", "ready"):
        h.clock.now += 0.2
        h.service.message("ghost", json.dumps(FRAMES[action]))
        assert h.error("ghost")["message"] == "There is no room with that code."
