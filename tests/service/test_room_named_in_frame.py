"""A seated phone names its room in every frame, so the service reads the room
while it counts the message on the connection's item (one round trip for both, not two
one after the other). The name is only a hint: the connection's binding says which seat
speaks, a frame naming another room acts in the binding's room, and a frame naming no
room (a phone of before) works as before."""

import json
import threading

import pytest

from engine.catch_the_witch.rules import waiting_for
from functions.room_service.adapters.memory import MemoryConnections
from tests.support.service_harness import Harness


class ConnectionsWaitingForTheRead(MemoryConnections):
    """Counts a message only once the room has been read: if the service read the room
    after the count (one call after the other), the count would wait for ever."""

    def __init__(self) -> None:
        super().__init__()
        self.room_read = threading.Event()
        self.waits = 0

    def arrive(self, connection_id, now, known=None):
        self.waits += 1
        assert self.room_read.wait(timeout=5), "the room was not read alongside the count"
        return super().arrive(connection_id, now, known)


def _table_with(connections) -> Harness:
    h = Harness(connections=connections)
    h.table(["Ann", "Bo", "Cy", "Di"])
    return h


def test_the_named_room_is_read_while_the_message_is_counted():
    connections = MemoryConnections()
    h = _table_with(connections)
    waiting = ConnectionsWaitingForTheRead()
    waiting.__dict__.update(connections.__dict__)  # the bindings and counters of the table
    reads = h.store.read

    def read(code):
        try:
            return reads(code)
        finally:
            waiting.room_read.set()

    h.store.read = read
    h.service.admission.connections = waiting
    h.send("Ann", action="start")
    h.send("Bo", action="ready")  # names its room: read and count run at once
    assert waiting.waits == 2 and h.error("Bo") is None
    assert "Bo" not in waiting_for(h.room().state)


def test_a_frame_naming_no_room_acts_as_before():
    h = _table_with(MemoryConnections())
    h.service.message("Ann", json.dumps({"action": "start"}))
    h.service.message("Bo", json.dumps({"action": "ready", "step": h.view("Bo")["step"]}))
    assert h.error("Bo") is None and "Bo" not in waiting_for(h.room().state)


def test_a_frame_naming_another_room_acts_in_the_phones_own_room():
    h = _table_with(MemoryConnections())
    h.send("Ann", action="start")
    h.send("Zed", action="create_room", name="Zed")
    other = h.pusher.last("Zed", "joined")["room"]
    before = h.service.current_room(other).model_dump()
    h.service.message("Bo", json.dumps({"action": "ready", "step": h.view("Bo")["step"],
                                        "room": other}))  # fmt: skip
    assert h.error("Bo") is None and "Bo" not in waiting_for(h.room().state)
    assert h.service.current_room(other).model_dump() == before
    assert h.messages("Zed")[-1]["type"] == "view", "nothing reached the other room's phone"


def test_a_frame_naming_a_room_that_is_not_there_acts_in_the_phones_own_room():
    h = _table_with(MemoryConnections())
    h.send("Ann", action="start")
    h.send("Bo", action="ready", room="QQQQQQQQ")
    assert h.error("Bo") is None and "Bo" not in waiting_for(h.room().state)


@pytest.mark.parametrize("room", ["", "ABC", "ABCDEFGHJ", 12345678])
def test_a_room_that_cannot_be_a_code_is_refused_and_changes_nothing(room):
    h = _table_with(MemoryConnections())
    h.send("Ann", action="start")
    h.send("Bo", action="ready", room=room)
    assert h.error("Bo")["code"] in ("field_invalid", "field_too_short", "field_too_long")
    assert "Bo" in waiting_for(h.room().state)


def test_a_phone_with_no_seat_naming_a_room_is_told_to_join_first():
    h = _table_with(MemoryConnections())
    h.service.message("stranger", json.dumps({"action": "start", "room": h.code}))
    assert h.error("stranger")["code"] == "no_room"
    h.service.message("stranger", json.dumps({"action": "ping", "room": h.code}))
    assert h.messages("stranger")[-1]["type"] == "pong"


def test_a_named_room_whose_read_fails_is_only_a_lost_hint():
    """Whatever reading the named room meets (a fault, an item this code cannot read), the
    frame is played in the binding's room, and the count's answer is still awaited."""
    h = _table_with(MemoryConnections())
    h.send("Ann", action="start")
    h.send("Zed", action="create_room", name="Zed")
    other = h.pusher.last("Zed", "joined")["room"]
    reads = h.store.read

    def read(code):
        if code == other:
            raise RuntimeError("an item this code cannot read")
        return reads(code)

    h.store.read = read
    h.send("Bo", action="ready", room=other)
    assert h.error("Bo") is None and "Bo" not in waiting_for(h.room().state)
    assert h.metrics.counts.get("RoomHintReadsFailed") == 1


def test_a_name_no_room_code_could_have_is_not_read():
    h = _table_with(MemoryConnections())
    h.send("Ann", action="start")
    codes = []
    reads = h.store.read
    h.store.read = lambda code: codes.append(code) or reads(code)
    h.send("Bo", action="ready", room="----")  # four characters, no letter of a code
    h.send("Cy", action="ready", room="IIIIIIII")  # I is not in the codes' alphabet
    assert codes == [h.code, h.code], "only the binding's room was read"
    assert "Bo" not in waiting_for(h.room().state) and "Cy" not in waiting_for(h.room().state)
