"""The local gateway behaves like API Gateway's WebSocket API where it matters, and the
local stack reads its resources from template.yaml. Handlers are replaced by a recorder
here (tests/integration/test_local_stack.py runs the real ones)."""

import asyncio
import json
import time
from pathlib import Path

import aiohttp
import boto3
import pytest
import yarl
from aiohttp import web
from moto import mock_aws

from local_stack.cloud import provision
from local_stack.gateway import Gateway, new_connection_id
from local_stack.lambdas import Invocation
from local_stack.stack import LocalStack, Options, lan_address
from local_stack.template import Function, Template
from tests.support.local_stack_process import until
from tests.support.service_harness import Harness

CONNECT = Function("ConnectFunction", "functions.connect.handler", 10, 512)
DISCONNECT = Function("DisconnectFunction", "functions.disconnect.handler", 10, 512)
MESSAGE = Function("MessageFunction", "functions.message.handler", 10, 512)
ROUTES = {"$connect": CONNECT, "$disconnect": DISCONNECT, "$default": MESSAGE}


class RecordingLambdas:
    """Answers like the real handlers would: 403 for a bad token, a crash on demand."""

    def __init__(self):
        self.events: list[dict] = []

    async def invoke(self, function: Function, event: dict) -> Invocation:
        self.events.append(event)
        if (event.get("queryStringParameters") or {}).get("token") == "wrong":
            return Invocation({"statusCode": 403}, None, 0.001)
        if "crash" in (event.get("body") or ""):
            return Invocation(None, "Traceback: boom", 0.001)
        return Invocation({"statusCode": 200}, None, 0.001)

    def routes(self) -> list[str]:
        return [event["requestContext"]["routeKey"] for event in self.events]


async def _serve(gateway: Gateway):
    runner = web.AppRunner(gateway.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, runner.addresses[0][1]


def run_gateway(test, lambdas=None, **options):
    """Runs `test(gateway, lambdas, port, session)` against a live local gateway."""

    async def main():
        nonlocal lambdas
        lambdas = lambdas or RecordingLambdas()
        options.setdefault("frontend", Path("/nonexistent"))
        gateway = Gateway(ROUTES, "$request.body.action", lambdas, stage="prod", **options)
        runner, port = await _serve(gateway)
        try:
            async with aiohttp.ClientSession() as session:
                return await test(gateway, lambdas, port, session)
        finally:
            await gateway.close_all()
            await runner.cleanup()

    return asyncio.run(main())


def test_connect_message_and_disconnect_become_api_gateway_events():
    async def test(gateway, lambdas, port, session):
        socket = await session.ws_connect(f"ws://127.0.0.1:{port}/prod?room=ABCD&token=t0k")
        await socket.send_str(json.dumps({"action": "vote", "target": None}))
        await socket.send_str("not json")
        await until(lambda: lambdas.routes().count("$default") == 2)
        await socket.close()
        await until(lambda: "$disconnect" in lambdas.routes())
        return lambdas.events

    connect, vote, garbage, disconnect = run_gateway(test)
    context = connect["requestContext"]
    assert context["eventType"] == "CONNECT" and context["routeKey"] == "$connect"
    assert context["stage"] == "prod" and context["domainName"].startswith("127.0.0.1:")
    assert connect["queryStringParameters"] == {"room": "ABCD", "token": "t0k"}
    assert vote["requestContext"]["routeKey"] == "$default"  # no "vote" route: $default
    assert vote["body"] == '{"action": "vote", "target": null}'
    assert garbage["body"] == "not json" and garbage["requestContext"]["eventType"] == "MESSAGE"
    ids = {
        event["requestContext"]["connectionId"] for event in (connect, vote, garbage, disconnect)
    }
    assert len(ids) == 1 and len(ids.pop()) == 16
    assert disconnect["requestContext"]["disconnectStatusCode"] == 1000


def test_a_refused_connect_fails_the_handshake_with_its_status():
    async def test(gateway, lambdas, port, session):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"ws://127.0.0.1:{port}/prod?room=ABCD&token=wrong")
        return refused.value.status, lambdas.routes(), gateway.connections

    status, routes, connections = run_gateway(test)
    assert status == 403
    assert routes == ["$connect"]  # no $disconnect for a connection that never opened
    assert connections == {}


def test_stopping_closes_every_socket_and_refuses_a_phone_reconnecting_at_once():
    """Ctrl-C with a phone open: the phone reconnects the moment its socket closes (as
    connection.js does), and a socket opened then would hold close_all to the end of its
    wait (10 s per stop, once for every test's stack). It is refused instead."""

    async def test(gateway, lambdas, port, session):
        socket = await session.ws_connect(f"ws://127.0.0.1:{port}/prod")
        closing = asyncio.create_task(gateway.close_all(wait=30))
        await socket.receive(timeout=5)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"ws://127.0.0.1:{port}/prod")
        await asyncio.wait_for(closing, 5)
        return socket.close_code, refused.value.status, gateway.connections, lambdas.routes()

    code, status, connections, routes = run_gateway(test)
    assert code == 1001
    assert status == 503
    assert connections == {}
    assert routes == ["$connect", "$disconnect"]  # the refused phone ran no $connect


def test_a_frame_over_32_kb_closes_the_socket_with_1009():
    async def test(gateway, lambdas, port, session):
        socket = await session.ws_connect(f"ws://127.0.0.1:{port}/prod")
        await socket.send_str("x" * (32 * 1024 + 1))
        await socket.receive(timeout=5)
        return socket.close_code, lambdas.routes()

    code, routes = run_gateway(test)
    assert code == 1009
    assert "$default" not in routes


def test_an_idle_socket_is_closed_with_1001_and_frames_from_the_client_keep_it_open():
    async def test(gateway, lambdas, port, session):
        socket = await session.ws_connect(f"ws://127.0.0.1:{port}/prod")
        for _ in range(4):  # 1.2 s of pings every 0.3 s, each well under the 1.5 s limit
            await asyncio.sleep(0.3)
            await socket.send_str('{"action": "ping"}')
        alive_after_pings = not socket.closed
        started = time.monotonic()
        await socket.receive(timeout=5)
        return alive_after_pings, socket.close_code, time.monotonic() - started

    # 1.5 s, not 0.6: on a loaded CI machine a 0.3 s sleep once outlasted a 0.6 s limit.
    alive, code, silent = run_gateway(test, idle_timeout=1.5)
    assert alive
    assert code == 1001
    assert 1.0 < silent < 4


def test_a_failed_handler_tells_the_phone_like_api_gateway():
    async def test(gateway, lambdas, port, session):
        socket = await session.ws_connect(f"ws://127.0.0.1:{port}/prod")
        await socket.send_str('{"action": "crash"}')
        return json.loads((await socket.receive(timeout=5)).data)

    reply = run_gateway(test)
    assert reply["message"] == "Internal server error"
    assert {"connectionId", "requestId"} <= reply.keys()


class ServiceLambdas(RecordingLambdas):
    """The message route answered by the room service's own reading of the frame (in
    memory, tests/support/service_harness.py): its replies are sent back on the socket, as
    the real handler posts them through the management API."""

    def __init__(self):
        super().__init__()
        self.harness = Harness()
        self.gateway: Gateway | None = None

    async def invoke(self, function: Function, event: dict) -> Invocation:
        self.events.append(event)
        context = event["requestContext"]
        if context["routeKey"] == "$default":
            connection = context["connectionId"]
            before = len(self.harness.messages(connection))
            self.harness.service.message(connection, event["body"])
            for reply in self.harness.messages(connection)[before:]:
                await self.gateway._send(self.gateway.connections[connection], reply)
        return Invocation({"statusCode": 200}, None, 0.001)


def test_a_frame_nested_too_deep_to_parse_is_answered_once_like_any_unreadable_frame():
    """A frame of about 1,900 nested brackets (under 4 KB) made the route
    selection's JSON parser raise RecursionError, and the frame went unanswered. Like any
    frame that cannot be read ("not json"), it now goes to $default, whose handler answers
    it with one error (the service refuses it as nested too deeply)."""
    deep = '{"action": "ok", "x": ' + "[" * 1900 + "]" * 1900 + "}"
    lambdas = ServiceLambdas()

    async def test(gateway, lambdas, port, session):
        lambdas.gateway = gateway
        socket = await session.ws_connect(f"ws://127.0.0.1:{port}/prod")
        answers = []
        for body in (deep, "not json"):
            await socket.send_str(body)
            answers.append(json.loads((await socket.receive(timeout=5)).data))
        with pytest.raises(asyncio.TimeoutError):  # one answer each, nothing more
            await socket.receive(timeout=0.3)
        return answers, lambdas.routes(), [e.get("body") for e in lambdas.events]

    answers, routes, bodies = run_gateway(test, lambdas)
    assert len(deep) < 4096
    assert routes == ["$connect", "$default", "$default"]
    assert bodies[1:] == [deep, "not json"]
    assert [(a["type"], a["code"]) for a in answers] == [("error", "bad_message"),
                                                           ("error", "not_json")]  # fmt: skip


def test_the_throttle_fault_answers_the_next_frames_like_api_gateway_and_spares_pings():
    async def test(gateway, lambdas, port, session):
        socket = await session.ws_connect(f"ws://127.0.0.1:{port}/prod")
        gateway.throttle(2)
        replies = []
        for body in ('{"action": "ping"}', '{"action": "ready"}', '{"action": "vote"}'):
            await socket.send_str(body)
            if body != '{"action": "ping"}':
                replies.append(json.loads((await socket.receive(timeout=5)).data))
        await socket.send_str('{"action": "ready"}')  # the fault is used up
        await until(lambda: lambdas.routes().count("$default") == 2)
        bodies = [
            e["body"] for e in lambdas.events if e["requestContext"]["routeKey"] == "$default"
        ]
        return replies, bodies, gateway.stats.throttled

    replies, bodies, throttled = run_gateway(test)
    assert [reply["message"] for reply in replies] == ["Too Many Requests"] * 2
    assert all(reply.keys() == {"message", "connectionId", "requestId"} for reply in replies)
    assert bodies == ['{"action": "ping"}', '{"action": "ready"}']  # the throttled two dropped
    assert throttled == 2


def test_the_management_api_reaches_sockets_through_boto3_and_answers_410_when_gone():
    async def test(gateway, lambdas, port, session):
        socket = await session.ws_connect(f"ws://127.0.0.1:{port}/prod")
        await until(lambda: any(c.open for c in gateway.connections.values()))
        (connection_id,) = gateway.connections
        api = boto3.client("apigatewaymanagementapi", endpoint_url=f"http://127.0.0.1:{port}/prod",
                           region_name="eu-west-1", aws_access_key_id="local",
                           aws_secret_access_key="local")  # fmt: skip
        await asyncio.to_thread(api.post_to_connection, ConnectionId=connection_id,
                                Data=b'{"type": "pong", "seq": 1}')  # fmt: skip
        delivered = json.loads((await socket.receive(timeout=5)).data)
        info = await asyncio.to_thread(api.get_connection, ConnectionId=connection_id)
        with pytest.raises(api.exceptions.PayloadTooLargeException):
            await asyncio.to_thread(api.post_to_connection, ConnectionId=connection_id,
                                    Data=b"x" * (128 * 1024 + 1))  # fmt: skip
        await asyncio.to_thread(api.delete_connection, ConnectionId=connection_id)
        await socket.receive(timeout=5)
        closed_by_delete = socket.closed
        await until(lambda: not gateway.connections)
        with pytest.raises(api.exceptions.GoneException):
            await asyncio.to_thread(api.post_to_connection, ConnectionId=connection_id, Data=b"{}")
        with pytest.raises(api.exceptions.GoneException):
            await asyncio.to_thread(api.post_to_connection, ConnectionId=new_connection_id(),
                                    Data=b"{}")  # fmt: skip
        return delivered, info, closed_by_delete

    delivered, info, closed_by_delete = run_gateway(test)
    assert delivered == {"type": "pong", "seq": 1}
    assert info["Identity"]["SourceIp"] == "127.0.0.1"
    assert closed_by_delete


# -- template.yaml is the only description of the resources ----------------------------------
def test_routes_handlers_and_the_timer_source_come_from_the_template():
    template = Template.load()
    routes = template.routes()
    assert {key: f.handler for key, f in routes.items()} == {
        "$connect": "functions.connect.handler",
        "$disconnect": "functions.disconnect.handler",
        "$default": "functions.message.handler",
    }
    assert template.route_selection_expression() == "$request.body.action"
    (source,) = template.queue_sources()
    assert (source.function.handler, source.queue) == ("functions.timer.handler", "TimerQueue")
    assert source.batch_size == 10 and source.report_batch_item_failures


def test_the_table_and_queues_are_created_from_the_template_and_the_environment_resolves(
    monkeypatch,
):
    for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(key, "local")
    template = Template.load()
    with mock_aws():
        provisioned = provision(template, None, None)
        db = boto3.client("dynamodb", region_name="eu-west-1")
        table = db.describe_table(TableName=provisioned.tables["RoomsTable"])["Table"]
        ttl = db.describe_time_to_live(TableName=provisioned.tables["RoomsTable"])
        sqs = boto3.client("sqs", region_name="eu-west-1")
        attributes = sqs.get_queue_attributes(QueueUrl=provisioned.queue_urls["TimerQueue"],
                                              AttributeNames=["All"])["Attributes"]  # fmt: skip
        again = provision(template, None, None)  # a second start reuses what exists
    assert [k["AttributeName"] for k in table["KeySchema"]] == ["pk", "sk"]
    assert ttl["TimeToLiveDescription"]["AttributeName"] == "expires_at"
    assert attributes["VisibilityTimeout"] == "60"
    redrive = json.loads(attributes["RedrivePolicy"])
    assert redrive["deadLetterTargetArn"] == provisioned.queue_arns["TimerDeadLetterQueue"]
    assert redrive["maxReceiveCount"] == 5
    assert again == provisioned

    stack = LocalStack(Options(port=8080), template)
    stack.provisioned, stack.port = provisioned, 8080
    env = stack.environment("http://127.0.0.1:5000", "http://127.0.0.1:5000")
    assert set(template.environment()) <= env.keys()
    assert env["TABLE_NAME"] == provisioned.tables["RoomsTable"]
    assert env["TIMER_QUEUE_URL"] == provisioned.queue_urls["TimerQueue"]
    assert env["WEBSOCKET_ENDPOINT"] == "http://127.0.0.1:8080/prod"
    # Only pages served here may open a WebSocket: this computer by its
    # loopback names, and the LAN address the banner prints, if any.
    origins = env["ALLOWED_ORIGINS"].split()
    assert origins[:3] == ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"]
    assert origins[3:] == ([f"http://{lan_address()}:8080"] if lan_address() else [])


# -- the browser security headers of the site --------------------------------------------------
#: The response headers policy the deployed site sends (template.yaml's
#: FrontendHeadersPolicy), attached to a distribution as template.yaml attaches it.
HEADERS_POLICY = """
Resources:
  FrontendHeadersPolicy:
    Type: AWS::CloudFront::ResponseHeadersPolicy
    Properties:
      ResponseHeadersPolicyConfig:
        Name: !Sub "${AWS::StackName}-frontend-headers"
        SecurityHeadersConfig:
          ContentSecurityPolicy:
            Override: true
            ContentSecurityPolicy: !Sub "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' wss://${WebSocketApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
          FrameOptions: {FrameOption: DENY, Override: true}
          ContentTypeOptions: {Override: true}
          StrictTransportSecurity: {AccessControlMaxAgeSec: 63072000, IncludeSubdomains: false, Preload: false, Override: true}
          ReferrerPolicy: {ReferrerPolicy: no-referrer, Override: true}
  FrontendDistribution:
    Type: AWS::CloudFront::Distribution
    Properties:
      DistributionConfig:
        DefaultCacheBehavior:
          TargetOriginId: frontend
          ResponseHeadersPolicyId: !Ref FrontendHeadersPolicy
"""
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' {websocket}; object-src 'none'; base-uri 'self'; "
       "form-action 'self'; frame-ancestors 'none'")  # fmt: skip
FRONTEND = Path(__file__).resolve().parents[2] / "frontend"


def _template(tmp_path: Path, text: str) -> Template:
    (tmp_path / "template.yaml").write_text(text)
    return Template.load(tmp_path / "template.yaml")


def test_the_headers_policy_reads_as_the_headers_cloudfront_sends(tmp_path):
    headers = _template(tmp_path, HEADERS_POLICY).frontend_headers()
    assert headers.policy == "FrontendHeadersPolicy"
    assert headers.for_websocket("ws://192.168.1.20:8080") == {
        "Content-Security-Policy": CSP.format(websocket="ws://192.168.1.20:8080"),
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Strict-Transport-Security": "max-age=63072000",
        "Referrer-Policy": "no-referrer",
    }
    no_origin = headers.for_websocket(None)["Content-Security-Policy"]
    assert "connect-src 'self'; object-src" in no_origin and "{" not in no_origin


def test_a_policy_the_local_stack_cannot_reproduce_is_refused_in_words(tmp_path):
    unknown = HEADERS_POLICY.replace("ReferrerPolicy: {", "XPoweredBy: {")
    with pytest.raises(ValueError, match=r"knows no \['XPoweredBy'\]"):
        _template(tmp_path, unknown).frontend_headers()
    elsewhere = HEADERS_POLICY.replace("img-src 'self' data:", "img-src ${ImagesBucket}")
    with pytest.raises(ValueError, match="cannot resolve Content-Security-Policy"):
        _template(tmp_path, elsewhere).frontend_headers()
    detached = HEADERS_POLICY.replace("ResponseHeadersPolicyId: !Ref FrontendHeadersPolicy", "")
    assert _template(tmp_path, detached).frontend_headers() is None


def test_template_yaml_gives_the_site_the_issues_headers():
    """The deployed distribution's policy (template.yaml), as the local stack reads it: the
    CSP allows only the site's own scripts, styles and WebSocket origin, framing is refused."""
    headers = Template.load().frontend_headers()
    assert headers is not None, "template.yaml: the distribution names no headers policy"
    served = headers.for_websocket("ws://127.0.0.1:8080")
    directives = dict(d.strip().split(" ", 1) for d in served["Content-Security-Policy"].split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self' ws://127.0.0.1:8080"
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert served["X-Frame-Options"] == "DENY" and served["X-Content-Type-Options"] == "nosniff"
    assert served["Strict-Transport-Security"].startswith("max-age=")
    assert served["Referrer-Policy"] == "no-referrer"


def test_every_response_of_the_site_carries_the_headers_with_this_gateways_websocket(tmp_path):
    """Pages, files, /config.json and a 404 alike, as CloudFront adds the policy to every
    response; HSTS left out (plain http); the WebSocket origin is the host the phone used.
    The WebSocket API, its management API and /local/ are not the site: none there."""
    frontend_headers = _template(tmp_path, HEADERS_POLICY).frontend_headers()
    site = ["/", "/table", "/rules.html", "/replay.html", "/js/app.js", "/css/style.css",
            "/config.json", "/no-such-file.js"]  # fmt: skip

    async def test(gateway, lambdas, port, session):
        seen = {}
        for path in site:
            async with session.get(f"http://127.0.0.1:{port}{path}") as response:
                seen[path] = (response.status, dict(response.headers))
        lan = {"Host": f"192.168.1.20:{port}"}
        async with session.get(f"http://127.0.0.1:{port}/", headers=lan) as response:
            from_lan = response.headers["Content-Security-Policy"]
        forged = {"Host": "x.example; script-src *"}
        async with session.get(f"http://127.0.0.1:{port}/", headers=forged) as response:
            from_forged_host = response.headers["Content-Security-Policy"]
        not_site = {}
        for path in ("/prod", f"/prod/@connections/{new_connection_id()}", "/local/stats"):
            async with session.get(f"http://127.0.0.1:{port}{path}") as response:
                not_site[path] = response.headers.get("Content-Security-Policy")
                if path == "/prod":  # a plain GET of the API: no handshake, no $connect
                    plain_get = (response.status, lambdas.routes(), dict(gateway.connections))
        return port, seen, from_lan, from_forged_host, not_site, plain_get

    port, seen, from_lan, from_forged_host, not_site, plain_get = run_gateway(
        test, frontend=FRONTEND, frontend_headers=frontend_headers
    )
    assert plain_get == (400, [], {})
    for path, (status, headers) in seen.items():
        assert status == (404 if path == "/no-such-file.js" else 200), path
        csp = CSP.format(websocket=f"ws://127.0.0.1:{port}")
        assert headers["Content-Security-Policy"] == csp, path
        assert headers["X-Frame-Options"] == "DENY" and headers["Referrer-Policy"] == "no-referrer"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert "Strict-Transport-Security" not in headers, path
    assert f"connect-src 'self' ws://192.168.1.20:{port};" in from_lan
    assert "connect-src 'self'; object-src" in from_forged_host and "*" not in from_forged_host
    assert not_site == dict.fromkeys(not_site)  # no CSP on any of them


def test_the_sites_text_goes_compressed_and_nothing_outside_frontend_is_served():
    """A light first view on a slow network: the phone's pages, scripts, styles and strings are sent
    gzip-compressed when the phone accepts it (as CloudFront's ``Compress`` sends them
    deployed), whole when it does not; a path that leads out of frontend/ finds nothing."""
    asked = ["/", "/js/app.js", "/css/style.css", "/i18n/en.json", "/vendor/qrcode.mjs"]
    outside = ["/js/../../pyproject.toml", "/%2e%2e/pyproject.toml", "/js/..%2f..%2fpyproject.toml"]

    async def test(gateway, lambdas, port, session):
        found, whole, escaped = {}, {}, {}
        async with aiohttp.ClientSession(auto_decompress=False) as as_sent:  # the wire's bytes
            for path in asked:
                url = f"http://127.0.0.1:{port}{path}"
                async with as_sent.get(url, headers={"Accept-Encoding": "gzip"}) as response:
                    found[path] = (response.headers.get("Content-Encoding"),
                                   len(await response.read()))  # fmt: skip
                async with as_sent.get(url, headers={"Accept-Encoding": "identity"}) as response:
                    whole[path] = (response.headers.get("Content-Encoding"), await response.read())
        for path in outside:
            url = yarl.URL(f"http://127.0.0.1:{port}{path}", encoded=True)
            async with session.get(url) as response:
                escaped[path] = response.status
        return found, whole, escaped

    found, whole, escaped = run_gateway(test, frontend=FRONTEND)
    for path in asked:
        file = FRONTEND / (path.lstrip("/") or "index.html")
        assert whole[path] == (None, file.read_bytes()), path
        assert found[path][0] == "gzip", path
    total = sum(size for _, size in found.values())
    assert total < sum(len(body) for _, body in whole.values()) / 2, found
    assert escaped == dict.fromkeys(outside, 404)
