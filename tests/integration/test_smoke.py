"""`make smoke` (python -m deploy.smoke) proves a deployment by playing it.

Against the local stack as the deployment (its game clock BOT_TIME_SCALE times the
wall's): it passes there and leaves no room open; it fails, with a line naming where, when
a game cannot finish (the timers stopped) and when a handshake is refused (a stale token,
another site's Origin). Against a site alone or nothing: it fails when the published page
lacks the security headers and when no game can be played (a wrong WebSocket URL).
Without any server: the CSP reading, the header rules, the page, config.json and the
stack's outputs."""

import asyncio
import contextlib
import io
import json
import re
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import botocore.session
import pytest
from botocore.stub import Stubber
from multidict import CIMultiDict

from deploy.frontend import uploads
from deploy.smoke import (
    PLAYERS,
    Fetched,
    allows_connection,
    check_config,
    check_headers,
    check_page,
    main,
    origin_of,
    parse_csp,
    target_of_stack,
)
from engine.games import GAMES
from local_stack.bot_client import BotClient
from tests.support.local_stack_process import BOT_TIME_SCALE, ROOT, LocalStackProcess

API_URL = "wss://abc123.execute-api.eu-west-1.amazonaws.com/prod"
SITE_URL = "https://d111111abcdef8.cloudfront.net/"
#: The headers the deployed site must send (CloudFront's response headers policy).
DEPLOYED_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; "
    f"connect-src 'self' {origin_of(API_URL)}; frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
}


@pytest.fixture(scope="module")
def stack():
    # Two Lambda workers keep up with two tables of bots, and start in half the CPU of four.
    process = LocalStackProcess("--workers", "2", time_scale=BOT_TIME_SCALE)
    yield process
    if process.process.poll() is None:
        process.interrupt()


def smoke_process(*args: str) -> tuple[int, str]:
    """`python -m deploy.smoke ARGS`, as `make smoke` runs it: its exit code and output."""
    done = subprocess.run([sys.executable, "-m", "deploy.smoke", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def smoke(*args: str) -> tuple[int, str]:
    """The same in this process (a second less each than a new interpreter)."""
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def line(output: str, check: str) -> str:
    """The line of one check (``ok`` or ``FAIL``)."""
    (found,) = re.findall(rf"^(?:ok  |FAIL)  {re.escape(check)}: .*$", output, re.M)
    return found


# -- against the local stack ---------------------------------------------------------------
def test_the_smoke_plays_both_games_with_the_sites_origin_and_leaves_no_room_open(stack):
    code, output = smoke_process("--websocket-url", stack.websocket_url,
                                 "--site-url", stack.http_url, "--page-wait", "0")  # fmt: skip
    assert code == 0, output
    rooms = []
    for game in GAMES:
        played = line(output, game)
        found = re.match(rf"ok    {game}: room ([A-Z]{{8}}), {PLAYERS} players \(.+\), "
                         rf"(\d+) steps, winner \w+, \d+ s$", played)  # fmt: skip
        assert found, played
        assert int(found.group(2)) > 3, played
        rooms.append(found.group(1))
    for check in ("page", "config.json", "headers"):
        assert line(output, check).startswith("ok"), output
    assert "SMOKE PASSED: 5 checks" in output
    assert "expire by DynamoDB's TTL" in output
    assert stack.stats()["gateway"]["lambda_errors"] == 0
    # Every phone left: each room is closed for good, a code that opens nothing.
    for room in rooms:
        assert asyncio.run(_join_refusal(stack, room)) == "cannot_join"


async def _join_refusal(stack: LocalStackProcess, room: str) -> str:
    phone = BotClient(stack.websocket_url, "Late", origin=origin_of(stack.http_url))
    try:
        await phone.connect()
        end = time.monotonic() + 10  # the host's leave may still be on its way
        while True:
            phone.errors.clear()
            with pytest.raises(RuntimeError):
                await phone.join(room)
            if phone.errors[-1]["code"] == "cannot_join" or time.monotonic() > end:
                return phone.errors[-1]["code"]
            await asyncio.sleep(0.5)
    finally:
        await phone.close()


def test_a_game_that_cannot_finish_fails_at_its_limit_naming_its_step(stack):
    """The timers stopped (as if the SQS event source were down): each game waits at its
    first timed step (Catch the Witch's morning, Burn the Witch's witching hour). 8 s: on a
    loaded machine (CI's four workers) two tables' role checks once took more than 4 s to
    get through the stack's two Lambda workers, and the game was named stuck before them."""
    stack.post("/local/timers/pause")
    try:
        code, output = smoke("--websocket-url", stack.websocket_url, "--site-url",
                             stack.http_url, "--only", "games", "--game-limit", "8")  # fmt: skip
    finally:
        stack.post("/local/timers/resume")
    assert code == 1, output
    for game, phase in (("catch_the_witch", "morning"), ("burn_the_witch", "witching_hour")):
        stuck = line(output, game)
        assert re.match(rf"FAIL  {game}: room [A-Z]{{8}}: stuck after 8 s on step \d+, "
                        rf"phase {phase}[,;]", stuck), stuck  # fmt: skip
        assert all(f"{name} online, sent " in stuck for name in ("Mochi", "Luna")), stuck
    assert "SMOKE FAILED: 2 of 2 checks failed" in output


def test_a_socket_refused_at_connect_fails_naming_the_status(stack):
    """A handshake answered with an HTTP status: another site's Origin (the origin check's
    403): the phones send --origin. (No seat is refused at $connect any more: the first
    frame names it.)"""
    for refused in (["--websocket-url", stack.websocket_url, "--origin", "https://evil.example"],):
        code, output = smoke(*refused, "--site-url", stack.http_url, "--only", "games")
        assert code == 1, output
        for game in GAMES:
            assert line(output, game).startswith(
                f"FAIL  {game}: connecting Mochi: the WebSocket handshake was refused with "
                f"HTTP 403"), output  # fmt: skip


# -- against a site alone, or nothing ------------------------------------------------------
def test_the_smoke_fails_when_the_page_lacks_the_security_headers():
    """The published client (deploy/frontend.py, as S3 holds it) served with no security
    headers, as CloudFront serves it without a response headers policy."""
    with _site_without_headers(API_URL) as site:
        code, output = smoke("--websocket-url", API_URL, "--site-url", site,
                             "--only", "page", "--page-wait", "0")  # fmt: skip
    assert code == 1, output
    assert line(output, "page").startswith("ok") and line(output, "config.json").startswith("ok")
    headers = line(output, "headers")
    for missing in ("no Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options",
                    "Referrer-Policy"):  # fmt: skip
        assert missing in headers, headers
    assert "Strict-Transport-Security" not in headers, "not asked of an http site"
    assert "SMOKE FAILED: 1 of 3 checks failed (headers)" in output


def test_the_smoke_fails_when_no_game_can_be_played_on_a_wrong_websocket_url():
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        nowhere = f"127.0.0.1:{probe.getsockname()[1]}"
    code, output = smoke("--websocket-url", f"ws://{nowhere}/prod", "--site-url",
                         f"http://{nowhere}/", "--only", "games")  # fmt: skip
    assert code == 1, output
    for game in GAMES:
        assert line(output, game).startswith(f"FAIL  {game}: connecting Mochi: Cannot connect"), (
            output)  # fmt: skip
    assert "SMOKE FAILED: 2 of 2 checks failed" in output


@contextlib.contextmanager
def _site_without_headers(websocket_url: str):
    """The objects `make deploy` uploads, served on a port of its own: the site's URL."""
    objects = {upload.key: upload for upload in uploads(websocket_url)}

    class Site(BaseHTTPRequestHandler):
        def do_GET(self):
            found = objects.get(self.path.lstrip("/") or "index.html")
            if found is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", found.content_type)
            self.send_header("Content-Length", str(len(found.body)))
            self.end_headers()
            self.wfile.write(found.body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


# -- without a stack ---------------------------------------------------------------------
def test_every_game_is_smoked_at_a_table_it_seats_with_its_shortest_timed_settings():
    assert all(game.min_players <= PLAYERS <= game.max_players for game in GAMES.values())
    for key, game in GAMES.items():
        settings = game.parse_settings(game.shortest_settings())  # the lobby takes them
        for name, field in type(settings).model_fields.items():
            minimum = next((rule.ge for rule in field.metadata if hasattr(rule, "ge")), None)
            if minimum is not None:
                assert getattr(settings, name) == minimum, (key, name)


def _page(url: str = SITE_URL, **headers: str) -> Fetched:
    return Fetched(url, 200, CIMultiDict(headers), "")


def test_the_deployed_sites_headers_pass_and_each_missing_or_weak_one_fails():
    assert check_headers(_page(**DEPLOYED_HEADERS), API_URL).ok
    weakened = {
        "Strict-Transport-Security": None,
        "X-Frame-Options": "SAMEORIGIN",
        "X-Content-Type-Options": None,
        "Referrer-Policy": "unsafe-url",
        "Content-Security-Policy": DEPLOYED_HEADERS["Content-Security-Policy"].replace(
            "frame-ancestors 'none'", "frame-ancestors 'self'"),
    }  # fmt: skip
    for name, value in weakened.items():
        headers = {key: item for key, item in DEPLOYED_HEADERS.items() if key != name}
        if value is not None:
            headers[name] = value
        check = check_headers(_page(**headers), API_URL)
        assert not check.ok and name in check.detail, (name, check.detail)
    # Browsers ignore HSTS over http: an http site is not asked for it.
    local = {key: value for key, value in DEPLOYED_HEADERS.items()
             if key != "Strict-Transport-Security"}  # fmt: skip
    assert check_headers(_page("http://127.0.0.1:8000/", **local), API_URL).ok


@pytest.mark.parametrize(("sources", "url", "page", "allowed"), [
    ("'self'", "ws://127.0.0.1:8000/prod", "http://127.0.0.1:8000/", True),
    ("'self'", "wss://example.com/prod", "https://example.com/", True),
    ("'self'", "ws://127.0.0.1:8001/prod", "http://127.0.0.1:8000/", False),
    ("'self'", API_URL, SITE_URL, False),
    (f"'self' {origin_of(API_URL)}", API_URL, SITE_URL, True),
    ("wss://*.execute-api.eu-west-1.amazonaws.com", API_URL, SITE_URL, True),
    ("wss://*.execute-api.us-east-1.amazonaws.com", API_URL, SITE_URL, False),
    # CSP3's scheme-part match: a source without a scheme takes the page's, and https
    # covers no wss (nor https: below); the socket's origin must be named with wss://.
    ("abc123.execute-api.eu-west-1.amazonaws.com", API_URL, SITE_URL, False),
    ("ws://abc123.execute-api.eu-west-1.amazonaws.com", API_URL, SITE_URL, True),  # upgrade
    ("wss://abc123.execute-api.eu-west-1.amazonaws.com:8443", API_URL, SITE_URL, False),
    ("wss://abc123.execute-api.eu-west-1.amazonaws.com/prod", API_URL, SITE_URL, True),
    ("wss://abc123.execute-api.eu-west-1.amazonaws.com/dev", API_URL, SITE_URL, False),
    ("wss:", API_URL, SITE_URL, True),
    ("https:", API_URL, SITE_URL, False),
    ("*", API_URL, SITE_URL, False),  # CSP3: * covers http(s) and the page's own scheme
    ("'none'", API_URL, SITE_URL, False),
])  # fmt: skip
def test_connect_src_is_read_as_browsers_read_it(sources, url, page, allowed):
    assert allows_connection(parse_csp(f"connect-src {sources}"), url, page) is allowed


def test_default_src_stands_in_for_a_missing_connect_src():
    assert allows_connection(parse_csp("default-src 'self'; img-src *"),
                             "ws://127.0.0.1:8000/prod", "http://127.0.0.1:8000/")  # fmt: skip
    assert not allows_connection(parse_csp("default-src 'self'"), API_URL, SITE_URL)
    check = check_headers(_page(**{**DEPLOYED_HEADERS, "Content-Security-Policy":
                                   "default-src 'self' wss:; frame-ancestors 'none'"}), API_URL)  # fmt: skip
    assert not check.ok and "no connect-src" in check.detail


def test_the_published_page_is_recognised_and_another_is_not():
    (index,) = (upload for upload in uploads(API_URL) if upload.key == "index.html")
    served = CIMultiDict({"Content-Type": index.content_type})
    assert check_page(Fetched(SITE_URL, 200, served, index.body.decode())).ok
    other = check_page(Fetched(SITE_URL, 200, served, "<title>Welcome to nginx!</title>"))
    assert not other.ok and "title 'Welcome to nginx!'" in other.detail
    assert "no js/app.js script" in other.detail
    as_text = check_page(Fetched(SITE_URL, 200, CIMultiDict({"Content-Type": "text/plain"}),
                                 index.body.decode()))  # fmt: skip
    assert not as_text.ok and "Content-Type 'text/plain'" in as_text.detail


def test_config_json_must_name_the_websocket_played():
    def config(body: str) -> Fetched:
        return Fetched(SITE_URL + "config.json", 200, CIMultiDict(), body)

    named = check_config(config(json.dumps({"websocket_url": API_URL})), API_URL)
    assert named.ok and named.detail == f"names {API_URL}"
    local = check_config(config(json.dumps({"websocket_url": API_URL, "time_scale": 10})), API_URL)
    assert local.ok and local.detail.endswith("(game clock 10x)")
    other = check_config(config(json.dumps({"websocket_url": API_URL})), API_URL + "2")
    assert not other.ok and other.detail == f"names {API_URL}, not {API_URL}2"
    assert "unreadable" in check_config(config("<html>"), API_URL).detail


def _described(stack: str, outputs: dict[str, str]) -> dict:
    """DescribeStacks' answer for a stack with these outputs (none: a failed creation)."""
    found = {"StackName": stack, "CreationTime": "2026-01-01T00:00:00Z",
             "StackStatus": "CREATE_COMPLETE" if outputs else "ROLLBACK_COMPLETE"}  # fmt: skip
    if outputs:
        found["Outputs"] = [{"OutputKey": key, "OutputValue": value}
                            for key, value in outputs.items()]  # fmt: skip
    return {"Stacks": [found]}


def test_the_target_is_read_from_the_stacks_outputs():
    cloudformation = botocore.session.get_session().create_client(
        "cloudformation", region_name="eu-west-1", aws_access_key_id="x",
        aws_secret_access_key="x")  # fmt: skip
    with Stubber(cloudformation) as aws:
        outputs = {"WebSocketUrl": API_URL, "FrontendUrl": SITE_URL.rstrip("/"),
                   "FrontendBucketName": "witch-frontend"}  # fmt: skip
        aws.add_response("describe_stacks", _described("witch", outputs), {"StackName": "witch"})
        target = target_of_stack(cloudformation, "witch")
        assert (target.websocket_url, target.site_url, target.origin) == (
            API_URL, SITE_URL, "https://d111111abcdef8.cloudfront.net")  # fmt: skip
        # As CloudFormation answers for a stack that is not there:
        aws.add_client_error("describe_stacks", "ValidationError",
                             "Stack with id gone does not exist", 400, {"StackName": "gone"})  # fmt: skip
        with pytest.raises(ValueError, match=r"cannot read the stack 'gone'.*does not exist"):
            target_of_stack(cloudformation, "gone")
        aws.add_response("describe_stacks", _described("bare", {}), {"StackName": "bare"})
        with pytest.raises(ValueError, match="has no output WebSocketUrl or FrontendUrl"):
            target_of_stack(cloudformation, "bare")


@pytest.mark.parametrize(("argv", "refusal"), [
    (["--stack", "witch"], "give --stack and --region"),
    (["--websocket-url", API_URL], "give --stack and --region"),
    (["--stack", "witch", "--region", "eu-west-1", "--site-url", SITE_URL], "give --stack"),
    (["--websocket-url", API_URL, "--site-url", SITE_URL, "--game-limit", "0"], "--game-limit"),
])  # fmt: skip
def test_a_target_half_given_is_refused_before_anything_runs(argv, refusal, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert refusal in capsys.readouterr().err


def test_urls_that_are_not_a_sites_and_a_websockets_are_refused(capsys):
    assert main(["--websocket-url", SITE_URL, "--site-url", API_URL]) == 2
    assert "the WebSocket URL 'https://d111111abcdef8.cloudfront.net/' is not a ws or wss URL" in (
        capsys.readouterr().out)  # fmt: skip
