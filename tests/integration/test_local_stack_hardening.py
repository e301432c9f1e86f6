"""The local stack (`make dev`) hardened:

- The management API and the /local/ control endpoints answer only this computer
  (a loopback source), 403 to anyone on the LAN, while phones on the LAN still get the
  WebSocket and the client files.
- A Lambda worker that dies takes only its own invocation down, as a Lambda container
  would: that frame gets "Internal server error" (a `$connect`: HTTP 500 for that socket
  only), a fresh worker replaces it and the game goes on. A poller task that stops is
  reported and restarted.

Network traffic goes only to this machine's own addresses (127.0.0.1 and, when it has
one, its own LAN address), a bounded number of requests.
"""

import asyncio
import contextlib
import itertools
import json
import os
import signal
import sys
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import boto3
import pytest
from aiohttp import web

from local_stack.bot_client import BOT_NAMES, BotClient
from local_stack.gateway import Gateway, is_loopback
from local_stack.lambdas import LocalLambdas
from local_stack.poller import QueuePoller
from local_stack.stack import LocalStack, Options, _reaches_loopback, bot_addresses
from local_stack.template import Function
from tests.integration.test_local_gateway import ROUTES, RecordingLambdas
from tests.support.local_stack_process import BOT_TIME_SCALE, LocalStackProcess, describe, until

LAN_SOURCES = ["192.168.1.20", "10.0.0.7", "172.16.5.9", "fd00::5", "fe80::1%eth0",
               "::ffff:192.168.1.20", "8.8.8.8", ""]  # fmt: skip
LOCAL_SOURCES = ["127.0.0.1", "127.0.1.1", "::1", "::ffff:127.0.0.1"]
_no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # this machine only


def test_only_loopback_sources_count_as_this_computer():
    assert all(is_loopback(source) for source in LOCAL_SOURCES)
    assert not any(is_loopback(source) for source in LAN_SOURCES)
    assert not is_loopback(None) and not is_loopback("localhost")


# -- 9. the management API and /local/ answer only 127.0.0.1 ---------------------------------
@web.middleware
async def _pretend_remote(request: web.Request, handler):
    """Test only: the request seems to come from X-Test-Remote (as a LAN phone's would)."""
    if "X-Test-Remote" in request.headers:
        request = request.clone(remote=request.headers["X-Test-Remote"])
    return await handler(request)


async def _local_endpoint(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


def test_the_management_api_and_local_endpoints_refuse_lan_sources_but_phones_get_through():
    async def main():
        lambdas = RecordingLambdas()
        gateway = Gateway(ROUTES, "$request.body.action", lambdas, stage="prod",
                          frontend=Path("/nonexistent"))  # fmt: skip
        app = gateway.app()
        app.middlewares.insert(0, _pretend_remote)  # outermost: the check sees the fake
        app.router.add_get("/local/stats", _local_endpoint)  # as LocalStack adds them
        app.router.add_post("/local/timers/{state:pause|resume}", _local_endpoint)
        app.router.add_post("/local/faults/throttle", _local_endpoint)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        try:
            async with aiohttp.ClientSession() as session:
                # A phone on the LAN opens its WebSocket and gets the client.
                phone = await session.ws_connect(f"{base.replace('http', 'ws')}/prod",
                                                 headers={"X-Test-Remote": "192.168.1.20"})  # fmt: skip
                await until(lambda: any(c.open for c in gateway.connections.values()))
                (connection,) = gateway.connections.values()
                async with session.get(f"{base}/config.json",
                                       headers={"X-Test-Remote": "192.168.1.20"}) as config:  # fmt: skip
                    config_status = config.status
                manage = f"{base}/prod/@connections/{connection.id}"
                requests = [("POST", manage), ("GET", manage), ("DELETE", manage),
                            ("POST", f"{base}/prod/%40connections/{connection.id}"),
                            ("GET", f"{base}/local/stats"), ("POST", f"{base}/local/timers/pause"),
                            ("POST", f"{base}/local/faults/throttle?frames=5"),
                            ("GET", f"{base}/local/nothing-here"), ("GET", f"{base}/local")]  # fmt: skip
                refused = {}
                for source in LAN_SOURCES:
                    headers = {"X-Test-Remote": source, "X-Forwarded-For": "127.0.0.1",
                               "Forwarded": "for=127.0.0.1", "Host": "127.0.0.1"}  # fmt: skip
                    for method, url in requests:
                        async with session.request(method, url, data=b'{"type": "evil"}',
                                                   headers=headers) as response:  # fmt: skip
                            refused[(source, method, url)] = response.status
                phone_alive = not phone.closed
                # From this computer (the handlers' boto3 calls) it all still works.
                allowed = {}
                for source in LOCAL_SOURCES:
                    async with session.post(manage, data=json.dumps({"from": source}),
                                            headers={"X-Test-Remote": source}) as response:  # fmt: skip
                        allowed[source] = response.status
                received = [json.loads((await phone.receive(timeout=5)).data)
                            for _ in LOCAL_SOURCES]  # fmt: skip
                async with session.get(f"{base}/local/stats") as response:
                    stats_status = response.status
                await phone.close()
                return (config_status, refused, phone_alive, allowed, received, stats_status,
                        gateway.stats.forbidden, connection.source_ip)  # fmt: skip
        finally:
            await gateway.close_all()
            await runner.cleanup()

    (config_status, refused, phone_alive, allowed, received, stats_status, forbidden,
     phone_ip) = asyncio.run(main())  # fmt: skip
    assert phone_ip == "192.168.1.20" and config_status == 200  # the LAN phone plays
    assert {status for status in refused.values()} == {403}, {
        key: status for key, status in refused.items() if status != 403
    }
    assert forbidden == len(refused)
    assert phone_alive, "a LAN DELETE must not close the phone's socket"
    assert allowed == dict.fromkeys(LOCAL_SOURCES, 200)
    # The phone got the four loopback posts and nothing the LAN sent.
    assert received == [{"from": source} for source in LOCAL_SOURCES]
    assert stats_status == 200


def _status(method: str, url: str) -> int:
    request = urllib.request.Request(url, method=method, data=b"{}" if method == "POST" else None)
    try:
        with _no_proxy.open(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


#: Another address of the loopback range: a stack told to listen there (as it would on a
#: LAN address) does not listen on 127.0.0.1 by itself. Tests never listen beyond
#: loopback; the refusal of LAN sources is the faked-source test above.
OTHER_ADDRESS = "127.0.0.2"


def test_the_stack_adds_a_loopback_listener_unless_its_host_covers_127_0_0_1():
    # asyncio binds "::" with IPV6_V6ONLY: it does not take 127.0.0.1's connections.
    assert all(_reaches_loopback(host) for host in (None, "", "0.0.0.0", "127.0.0.1"))
    assert not any(_reaches_loopback(host) for host in ("::", "127.0.0.2", "192.168.1.5"))


def test_the_stacks_bots_each_connect_from_an_address_of_their_own_where_it_binds():
    """Not the person's 127.0.0.1: bots playing on in rooms she left must not spend her
    address's pace. Where the server is no 127.x address, a 127.x source cannot reach it."""
    if sys.platform == "linux":  # every 127.x address binds; macOS configures 127.0.0.1 alone
        first = list(itertools.islice(bot_addresses("127.0.0.1"), 300))
        assert first[:3] == ["127.1.0.1", "127.1.0.2", "127.1.0.3"] and len(set(first)) == 300
        assert all(is_loopback(address) for address in first)
    assert next(bot_addresses("192.168.1.5")) is None and next(bot_addresses("::1")) is None


def test_a_stack_on_another_address_adds_the_loopback_listener_the_handlers_post_to():
    """`--host <address>`: phones play there, and the handlers' management calls (always
    to 127.0.0.1) reach them through the listener the stack adds on 127.0.0.1.

    The origin check on the same stack: a handshake from a page of another origin is refused
    (403) by the real $connect handler, lookalikes too; the stack's own origins (the
    address phones use, this computer's loopback names) and a handshake with no Origin
    get their socket (101). The client's page carries the site's headers, its CSP naming
    this address's WebSocket origin."""
    stack = LocalStackProcess("--host", OTHER_ADDRESS)  # the last --host wins
    port = int(stack.http_url.rsplit(":", 1)[1])
    own = f"http://{OTHER_ADDRESS}:{port}"
    origins = {own: 101, f"http://127.0.0.1:{port}": 101, f"http://localhost:{port}": 101,
               None: 101, "https://evil.example": 403, f"http://{OTHER_ADDRESS}:{port + 1}": 403,
               f"https://{OTHER_ADDRESS}:{port}": 403, f"http://{OTHER_ADDRESS}.evil.example:{port}": 403,
               f"http://evil.{OTHER_ADDRESS}:{port}": 403, "null": 403}  # fmt: skip

    async def handshake(session, origin: str | None) -> int:
        try:
            socket = await session.ws_connect(f"ws://{OTHER_ADDRESS}:{port}/prod", origin=origin)
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status
        await socket.close()
        return 101

    async def scenario():
        phone = BotClient(f"ws://{OTHER_ADDRESS}:{port}/prod", "Mia")
        await phone.connect()
        room = await phone.create_room({})  # answered by a post to 127.0.0.1
        client = {path: _status("GET", f"http://{OTHER_ADDRESS}:{port}{path}")
                  for path in ("/", "/config.json")}  # fmt: skip
        loopback_stats = _status("GET", f"http://127.0.0.1:{port}/local/stats")
        async with aiohttp.ClientSession() as session:
            handshakes = {origin: await handshake(session, origin) for origin in origins}
            async with session.get(f"{own}/") as page:
                csp = page.headers.get("Content-Security-Policy", "")
        await phone.close()
        return room, client, loopback_stats, handshakes, csp

    try:
        room, client, loopback_stats, handshakes, csp = asyncio.run(scenario())
    finally:
        stack.interrupt()
    assert room
    assert client == {"/": 200, "/config.json": 200}
    assert loopback_stats == 200
    assert handshakes == origins
    assert f"connect-src 'self' ws://{OTHER_ADDRESS}:{port};" in csp


# -- 11. a crashed worker fails only its invocation, and is replaced -------------------------
ECHO = Function("EchoFunction", "tests.support.crash_handlers.handler", 10, 128)
ECHO_ROUTES = {"$connect": ECHO, "$default": ECHO}


def run_with_real_workers(test, workers: int = 2):
    """Runs `test(gateway, lambdas, ws_url, session)` against a gateway whose routes run
    tests/support/crash_handlers.py in real worker processes."""

    async def main():
        lambdas = LocalLambdas(workers)
        gateway = Gateway(ECHO_ROUTES, "$request.body.action", lambdas, stage="prod",
                          frontend=Path("/nonexistent"))  # fmt: skip
        runner = web.AppRunner(gateway.app())
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        try:
            await asyncio.wait_for(lambdas.warm([ECHO]), 60)
            async with aiohttp.ClientSession() as session:
                url = f"ws://127.0.0.1:{runner.addresses[0][1]}/prod"
                return await test(gateway, lambdas, url, session)
        finally:
            await gateway.close_all(wait=2)
            await runner.cleanup()
            await asyncio.to_thread(lambdas.close)

    return asyncio.run(main())


async def _reply(socket, timeout: float = 15) -> dict:
    return json.loads((await socket.receive(timeout=timeout)).data)


def test_a_worker_that_dies_mid_invocation_fails_that_frame_alone_and_is_replaced(capfd):
    async def test(gateway, lambdas, url, session):
        slow = await session.ws_connect(url)
        doomed = await session.ws_connect(url)
        before = {w["pid"] for w in lambdas.stats()["workers"]}
        await slow.send_str('{"action": "slow"}')  # holds one worker for 1.5 s
        await asyncio.sleep(0.3)
        await doomed.send_str('{"action": "crash"}')  # kills the other one mid-invocation
        crashed = await _reply(doomed)
        slow_answer = await _reply(slow)  # the other worker's invocation is untouched
        after_crash = []
        for n in range(6):  # more frames than workers: the fresh one serves some
            await doomed.send_str(json.dumps({"action": "echo", "n": n}))
            after_crash.append(await _reply(doomed))
        await until(lambda: all(w["alive"] for w in lambdas.stats()["workers"]), 10)
        stats = lambdas.stats()
        await slow.close()
        await doomed.close()
        return crashed, slow_answer, after_crash, before, stats, gateway.stats.lambda_errors

    crashed, slow_answer, after_crash, before, stats, lambda_errors = run_with_real_workers(test)
    assert crashed["message"] == "Internal server error"
    assert crashed.keys() == {"message", "connectionId", "requestId"}
    assert slow_answer["type"] == "echo" and "slow" in slow_answer["body"]
    assert [json.loads(reply["body"])["n"] for reply in after_crash] == list(range(6))
    assert stats["crashes"] == 1 and stats["replaced"] == 1 and lambda_errors == 1
    now = {w["pid"] for w in stats["workers"]}
    assert len(now) == 2 and len(now - before) == 1, "one fresh worker, the other kept"
    assert {reply["pid"] for reply in after_crash} <= now
    err = capfd.readouterr().err
    assert "died during the invocation" in err and "exited with code 70" in err


def test_a_connect_whose_worker_died_gets_500_for_that_socket_only():
    async def test(gateway, lambdas, url, session):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(url + "?crash=1")
        sockets = [await session.ws_connect(url) for _ in range(3)]  # the next ones open
        replies = []
        for n, socket in enumerate(sockets):
            await socket.send_str(json.dumps({"action": "echo", "n": n}))
            replies.append(await _reply(socket))
        for socket in sockets:
            await socket.close()
        return refused.value.status, replies, lambdas.stats()

    status, replies, stats = run_with_real_workers(test)
    assert status == 500
    assert [json.loads(reply["body"])["n"] for reply in replies] == [0, 1, 2]
    assert stats["crashes"] == 1


def test_an_idle_worker_killed_is_replaced_without_failing_anything():
    async def test(gateway, lambdas, url, session):
        socket = await session.ws_connect(url)
        victims = [w["pid"] for w in lambdas.stats()["workers"]]
        for pid in victims:
            os.kill(pid, signal.SIGKILL)  # our own workers, idle
        await asyncio.sleep(0.3)
        replies = []
        for n in range(3):
            await socket.send_str(json.dumps({"action": "echo", "n": n}))
            replies.append(await _reply(socket, 30))  # cold starts
        await socket.close()
        return victims, replies, lambdas.stats()

    victims, replies, stats = run_with_real_workers(test)
    assert [reply.get("type") for reply in replies] == ["echo"] * 3
    assert stats["crashes"] == 0
    assert not {w["pid"] for w in stats["workers"]} & set(victims)


# -- 11, end to end: a worker killed mid-game ------------------------------------------------
async def _table(url: str, count: int = 6) -> list[BotClient]:
    bots = [BotClient(url, name, seed=i, think=(0.02, 0.1))
            for i, name in enumerate(BOT_NAMES[:count])]  # fmt: skip
    for bot in bots:
        await bot.connect()
    code = await bots[0].create_room({"discussion_limit": 30})
    for bot in bots[1:]:
        await bot.join(code)
    await bots[0].send({"action": "start"})
    return bots


def _signal(pids, sig) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def test_a_worker_killed_mid_game_fails_one_frame_and_the_game_goes_on():
    stack = LocalStackProcess("--workers", "2", time_scale=BOT_TIME_SCALE)
    stopped: list[int] = []

    async def scenario() -> None:
        bots = await _table(stack.websocket_url)
        players = [asyncio.create_task(bot.live()) for bot in bots]
        await until(lambda: (bots[0].game() or {}).get("phase") in ("evening", "discussion"),
                    90, "the first evening", bots)  # fmt: skip
        # Quiet the table (no move, no timer in flight), then freeze both workers so the
        # next frame is certainly mid-invocation when its worker is killed.
        for bot in bots:
            bot.hold()
        stack.post("/local/timers/pause")
        await asyncio.sleep(2)
        workers = [w["pid"] for w in stack.stats()["lambda"]["workers"]]
        stopped.extend(workers)
        _signal(workers, signal.SIGSTOP)
        await bots[0].send(bots[0].ping())

        def busy():
            return [w["pid"] for w in stack.stats()["lambda"]["workers"]
                    if w["busy"] == "MessageFunction"]  # fmt: skip

        await until(lambda: busy(), 10, "the ping to reach a worker", bots)
        victim = busy()[0]
        os.kill(victim, signal.SIGKILL)
        _signal([pid for pid in workers if pid != victim], signal.SIGCONT)
        stopped.clear()

        def internal_errors():
            return [m for bot in bots for m in bot.received
                    if m.get("message") == "Internal server error"]  # fmt: skip

        await until(lambda: internal_errors(), 15, "the crashed frame's answer", bots)
        (answer,) = internal_errors()
        assert answer.keys() == {"message", "connectionId", "requestId"}
        # The pool starts the new worker once the dead one's invocation has failed.
        await until(lambda: stack.stats()["lambda"]["replaced"] == 1, 15, "a new worker", bots)
        stats = stack.stats()
        assert stats["lambda"]["crashes"] == 1 and stats["lambda"]["replaced"] == 1
        assert victim not in {w["pid"] for w in stats["lambda"]["workers"]}

        # The next frames are answered: every phone's ping gets its pong (or its view,
        # which stands for the pong when the phone's was not the current one: one message, not two).
        def answers(bot):
            return sum(m.get("type") in ("pong", "view") for m in bot.received)

        pongs = {bot.name: answers(bot) for bot in bots}
        for bot in bots:
            await bot.send(bot.ping())
        await until(lambda: all(answers(bot) > pongs[bot.name] for bot in bots), 30,
                    "the pongs", bots)  # fmt: skip
        stack.post("/local/timers/resume")
        for bot in bots:
            await bot.resume()
        await until(lambda: all((b.game() or {}).get("outcome") for b in bots), 400,
                    "the result", bots)  # fmt: skip
        assert stack.stats()["lambda"]["crashes"] == 1, describe(bots)
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for bot in bots:
            await bot.close()

    try:
        asyncio.run(scenario())
    finally:
        _signal(stopped, signal.SIGCONT)
        stack.interrupt()
    assert "died during the invocation" in stack.output()
    assert "was killed by SIGKILL" in stack.output()


# -- 11. a poller that stops is reported and restarted ---------------------------------------
def _poller_task(poller: QueuePoller) -> asyncio.Task | None:
    return next((task for task in asyncio.all_tasks() if not task.done()
                 and getattr(task.get_coro(), "cr_frame", None) is not None
                 and task.get_coro().cr_frame.f_locals.get("self") is poller), None)  # fmt: skip


def test_a_stopped_or_crashed_poller_is_reported_and_restarted(capfd):
    saved = dict(os.environ)  # the stack sets the handlers' environment in this process

    async def main():
        stack = LocalStack(Options(host="127.0.0.1", port=0, workers=1,
                                   frontend=Path("/nonexistent")))  # fmt: skip
        await stack.start()
        try:
            (poller,) = stack.pollers
            first = _poller_task(poller)
            first.cancel()  # the task stops
            await until(lambda: (_poller_task(poller) or first) is not first, 10,
                        "the poller to be restarted after a cancel")  # fmt: skip
            second = _poller_task(poller)
            failures = iter([RuntimeError("SQS unreachable")])

            def receive_once_broken(original=poller._receive):
                failure = next(failures, None)
                if failure:
                    raise failure
                return original()

            poller._receive = receive_once_broken  # the task crashes
            await until(lambda: (_poller_task(poller) or second) is not second, 10,
                        "the poller to be restarted after an exception")  # fmt: skip
            # It delivers again: a timer for no room reaches the timer Lambda.
            sqs = boto3.client("sqs", endpoint_url=stack.sqs_url, region_name="eu-west-1")
            await asyncio.to_thread(sqs.send_message, QueueUrl=poller.queue_url,
                                    MessageBody=json.dumps({"room": "ZZZZ", "kind": "nothing"}))  # fmt: skip
            await until(lambda: poller.delivered + poller.failed > 0, 30, "a delivery")
            url = f"http://127.0.0.1:{stack.port}/local/stats"
            async with aiohttp.ClientSession() as session, session.get(url) as response:
                return await response.json()
        finally:
            await stack.stop()

    try:
        stats = asyncio.run(main())
    finally:
        os.environ.clear()
        os.environ.update(saved)
    (poller,) = stats["timers"]["pollers"]
    assert poller["running"] and poller["restarts"] == 2
    assert "SQS unreachable" in poller["last_error"]
    err = capfd.readouterr().err
    assert "the TimerQueue poller stopped (it was cancelled)" in err
    assert "RuntimeError: SQS unreachable" in err
