"""No seat takeover: a connection acts only for the seat whose token it
proved (in its ``resume`` frame), and only while that token is the seat's.
Leaving, a kick or a new join under the same name ends every older binding, so a spare
socket bound with an old token can no longer take the seat of the new cat of that name,
and the old token opens nothing.

Through the room service (in-memory ports) and through the local stack (real WebSockets
over the DynamoDB connection store on moto)."""

import asyncio
import json

import aiohttp
import pytest

from engine.catch_the_witch.rules import waiting_for
from functions.room_service.domain.room import KICK_BAN_SECONDS
from tests.support.local_stack_process import LocalStackProcess
from tests.support.service_harness import Harness

NO_SEAT = "You no longer have a seat in this room."


def _mia_replaced_with_a_spare_socket(how: str) -> Harness:
    """Mia has a spare socket bound to her seat, then leaves (or is kicked); a new phone
    joins as "Mia". Connections: "Ann" (host), "Bo", "Cy", "mia-spare", "mia-2"."""
    h = Harness()
    h.table(["Ann", "Mia", "Bo", "Cy"])
    h.spare("mia-spare", "Mia")
    if how == "leave":
        h.send("Mia", action="leave")
    else:
        h.send("Ann", action="kick", target="Mia")
        h.clock.now += KICK_BAN_SECONDS  # a kicked name is kept out this long
    h.send("mia-2", action="join", room=h.code, name="Mia")
    h.tokens["Mia"] = h.pusher.last("mia-2", "joined")["token"]
    return h


@pytest.mark.parametrize("how", ["leave", "kick"])
def test_a_spare_socket_of_a_seat_let_go_cannot_take_the_new_seat_of_that_name(how):
    h = _mia_replaced_with_a_spare_socket(how)
    h.send("Ann", action="start")
    h.send("mia-spare", action="ping")
    assert [m["type"] for m in h.messages("mia-spare")] == ["error"]
    assert h.error("mia-spare")["message"] == NO_SEAT
    h.send("mia-spare", action="ready")  # not taken as the new Mia's move either
    assert "Mia" in waiting_for(h.room().state)
    assert all(m["type"] == "error" for m in h.messages("mia-spare")), "no role, no hand"
    assert h.room().seat("Mia").connection == "mia-2", "the new Mia keeps her seat"
    count = len(h.messages("mia-2"))
    h.send("mia-2", action="ping")  # no rev: the view answers it (no pong beside it)
    assert [m["type"] for m in h.messages("mia-2")[count:]] == ["view"]
    assert h.view("mia-2")["you"] == "Mia"
    h.send("mia-2", action="ready")
    assert h.error("mia-2") is None and "Mia" not in waiting_for(h.room().state)


@pytest.mark.parametrize("how", ["leave", "kick"])
def test_in_the_lobby_too_and_the_old_token_no_longer_opens_a_socket(how):
    h = _mia_replaced_with_a_spare_socket(how)
    before = h.store._rooms.copy()
    h.send("mia-spare", action="ping")
    assert h.error("mia-spare")["message"] == NO_SEAT
    assert h.store._rooms == before, "nothing changed"
    assert h.room().seat("Mia").connection == "mia-2"
    h.send("mia-spare", action="ping")  # the stale binding is gone: a phone without a seat
    assert h.messages("mia-spare")[-1] == {"type": "pong"} and h.pusher.last("mia-spare") is None
    h.resume("mia-spare-2", h.code, _old_token(h))
    assert h.error("mia-spare-2")["code"] == "seat_lost" and "mia-spare-2" in h.pusher.hung_up


def _old_token(h: Harness) -> str:
    joined = [m for m in h.messages("Mia") if m["type"] == "joined"]
    return joined[0]["token"]


def test_leaving_mid_game_ends_the_token_too():
    """The phone forgets its token when it leaves (frontend: forgetSeat); a spare socket
    must not bring the seat back from Away either."""
    h = Harness()
    h.table(["Ann", "Mia", "Bo", "Cy"])
    h.spare("mia-spare", "Mia")
    h.send("Ann", action="start")
    h.send("Mia", action="leave")
    assert h.room().state.cat("Mia").away
    before = h.store._rooms.copy()
    h.send("mia-spare", action="ping")
    assert h.error("mia-spare")["message"] == NO_SEAT
    assert h.store._rooms == before and h.room().seat("Mia").connection is None
    h.resume("mia-back", h.code, h.tokens["Mia"])
    assert h.error("mia-back")["code"] == "seat_lost" and "mia-back" in h.pusher.hung_up


def test_a_phone_that_reconnects_with_its_own_token_still_takes_its_seat_back():
    h = Harness()
    h.table(["Ann", "Mia", "Bo", "Cy"])
    h.send("Ann", action="start")
    h.resume("mia-new", h.code, h.tokens["Mia"])
    assert h.view("mia-new")["you"] == "Mia" and h.room().seat("Mia").connection == "mia-new"


# == the same attack through the local stack (DynamoDB connection store on moto) ==========
@pytest.fixture(scope="module")
def stack():
    """`make dev` on 127.0.0.1, no bots (conftest's stack seats bots in every room)."""
    process = LocalStackProcess()
    yield process
    process.interrupt()


class Phone:
    """A bare WebSocket phone: sends frames, keeps every message it gets."""

    def __init__(self, session: aiohttp.ClientSession, url: str):
        self.session, self.url = session, url
        self.received: list[dict] = []

    async def open(self) -> "Phone":
        self.socket = await self.session.ws_connect(self.url)
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for frame in self.socket:
            if frame.type == aiohttp.WSMsgType.TEXT:
                self.received.append(json.loads(frame.data))

    async def send(self, **message) -> None:
        await self.socket.send_str(json.dumps(message))

    async def ask(self, kind: str, timeout: float = 10, **message) -> dict:
        """Send ``message`` and wait for the next message of type ``kind`` (or an error)."""
        count = len(self.received)
        await self.send(**message)
        for _ in range(int(timeout / 0.02)):
            for reply in self.received[count:]:
                if reply.get("type") in (kind, "error") or "type" not in reply:
                    return reply
            await asyncio.sleep(0.02)
        raise AssertionError(f"no {kind} after {message}: {self.received[count:]}")


async def _takeover_over_websockets(url: str, how: str) -> dict:
    """Three spare sockets name Mia's seat with her token, one after another (each takes
    the seat from the one before); the last one leaves; a new phone joins as "Mia". Then
    every spare, and Mia's first phone, tries to act and to take the seat back."""
    async with aiohttp.ClientSession() as session:
        ann, mia, bo, cy, mia_2 = [Phone(session, url) for _ in range(5)]
        for phone in (ann, mia, bo, cy, mia_2):
            await phone.open()
        code = (await ann.ask("joined", action="create_room", name="Ann"))["room"]
        token = (await mia.ask("joined", action="join", room=code, name="Mia"))["token"]
        for phone, name in ((bo, "Bo"), (cy, "Cy")):
            await phone.ask("joined", action="join", room=code, name=name)
        spares = [await Phone(session, url).open() for _ in range(3)]
        for spare in spares:
            await spare.ask("view", action="resume", room=code, token=token)
        await spares[-1].send(action="leave")
        await asyncio.sleep(0.3)
        await mia_2.ask("joined", action="join", room=code, name="Mia")
        await ann.send(action="start")
        await mia_2.ask("view", action="ping")
        old = [mia, *spares]
        seen = [len(phone.received) for phone in old]
        answers = [await phone.ask("pong", action="ping") for phone in old]
        ready = [await phone.ask("view", timeout=2, action="ready") for phone in old]
        retaken = [
            await phone.ask("view", action="resume", room=code, token=token) for phone in old
        ]
        await asyncio.sleep(0.3)
        pong = await mia_2.ask("view", action="ping")  # no rev: the view is the answer
        views = [m["view"] for m in mia_2.received if m.get("type") == "view"]
        result = {
            "answers": answers, "ready": ready, "retaken": retaken, "pong": pong, "mia_view": views[-1],
            "old_got": [m for phone, n in zip(old, seen, strict=True) for m in phone.received[n:]
                        if m.get("type") not in ("error", "pong")],
        }  # fmt: skip
        for phone in (ann, bo, cy, mia_2, *old):
            if not phone.socket.closed:
                await phone.socket.close()
        return result


#: Leaving only: over real sockets the stack's clock cannot be moved past the ban a kick
#: now puts on the name; the in-memory tests above cover the kick that way.
@pytest.mark.parametrize("how", ["leave"])
def test_spare_sockets_cannot_take_the_seat_over_the_local_stack(stack, how):
    result = asyncio.run(_takeover_over_websockets(stack.websocket_url, how))
    # Each was let go when another took the seat, or by the leave: a phone without a seat.
    assert [a["type"] for a in result["answers"]] == ["pong"] * 4, result["answers"]
    assert all(r["type"] == "error" for r in result["ready"]), result["ready"]
    assert [r.get("code") for r in result["retaken"]] == ["seat_lost"] * 4, result["retaken"]
    assert result["old_got"] == [], "an old socket was sent the new Mia's view"
    assert result["pong"]["view"]["you"] == "Mia", "the new Mia keeps her seat"
    assert result["mia_view"]["you"] == "Mia" and result["mia_view"]["connected"]["Mia"]
    assert stack.stats()["gateway"]["lambda_errors"] == 0
