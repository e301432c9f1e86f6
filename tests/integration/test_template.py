"""What cfn-lint does not check in template.yaml (ARCHITECTURE: template checks)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cfnlint.decode import decode_str

ROOT = Path(__file__).resolve().parents[2]
CURRENT_PYTHONS = {"python3.12", "python3.13"}


@pytest.fixture(scope="module")
def template() -> dict:
    data, errors = decode_str((ROOT / "template.yaml").read_text())
    assert not errors
    return data


def of_type(template: dict, kind: str) -> dict[str, dict]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == kind}


def test_the_api_is_a_websocket_api_routing_on_action(template):
    (api,) = of_type(template, "AWS::ApiGatewayV2::Api").values()
    assert api["Properties"]["ProtocolType"] == "WEBSOCKET"
    assert api["Properties"]["RouteSelectionExpression"] == "$request.body.action"


def test_every_route_reaches_a_lambda_that_api_gateway_may_invoke(template):
    integrations = of_type(template, "AWS::ApiGatewayV2::Integration")
    permissions = of_type(template, "AWS::Lambda::Permission").values()
    allowed = {p["Properties"]["FunctionName"]["Ref"] for p in permissions
               if p["Properties"]["Principal"] == "apigateway.amazonaws.com"}  # fmt: skip
    routes = of_type(template, "AWS::ApiGatewayV2::Route")
    assert {r["Properties"]["RouteKey"] for r in routes.values()} == {
        "$connect",
        "$disconnect",
        "$default",
    }
    for route in routes.values():
        target = route["Properties"]["Target"]["Fn::Sub"]
        integration = integrations[target.removeprefix("integrations/${").rstrip("}")]
        assert integration["Properties"]["IntegrationType"] == "AWS_PROXY"
        uri = integration["Properties"]["IntegrationUri"]["Fn::Sub"]
        function = uri.split("functions/${")[1].split(".Arn}")[0]
        assert function in allowed, f"{function} has no invoke permission"


def test_functions_run_a_current_python_and_never_ship_the_repo_root(template):
    """CodeUri is the repository, but `sam build` ships only what the Makefile's
    build-<Function> target makes (BuildMethod: makefile), never the folder itself."""
    functions = of_type(template, "AWS::Serverless::Function")
    assert len(functions) == 4
    globals_ = template["Globals"]["Function"]
    assert globals_["Runtime"] in CURRENT_PYTHONS
    makefile = (ROOT / "Makefile").read_text()
    for name, function in functions.items():
        props = function["Properties"]
        assert props.get("Runtime", globals_["Runtime"]) in CURRENT_PYTHONS, name
        assert function["Metadata"]["BuildMethod"] == "makefile", name
        assert f"build-{name}" in makefile, name
        module = props["Handler"].rsplit(".", 1)[0]
        assert (ROOT / (module.replace(".", "/") + ".py")).exists(), props["Handler"]


def test_manage_connections_is_allowed_on_this_api_only(template):
    """Which actions the policy grants is proven against the handlers' recorded calls
    (tests/integration/test_iam_policy.py); here, that pushes reach only this API's stage."""
    policy = template["Resources"]["GameServicePolicy"]["Properties"]["PolicyDocument"]
    (statement,) = [
        s for s in policy["Statement"] if s["Action"] == "execute-api:ManageConnections"
    ]
    assert "${WebSocketApi}/${Stage}/POST/@connections/*" in statement["Resource"]["Fn::Sub"]


def test_timers_come_from_sqs_with_partial_batches_and_a_dead_letter_queue(template):
    event = template["Resources"]["TimerFunction"]["Properties"]["Events"]["Timers"]
    assert event["Type"] == "SQS"
    assert event["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    redrive = template["Resources"]["TimerQueue"]["Properties"]["RedrivePolicy"]
    assert redrive["deadLetterTargetArn"] == {"Fn::GetAtt": ["TimerDeadLetterQueue", "Arn"]}


def test_rooms_expire_by_ttl_and_the_table_is_on_demand(template):
    table = template["Resources"]["RoomsTable"]["Properties"]
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}


def test_the_package_holds_the_code_and_no_tests_or_frontend(tmp_path):
    target = tmp_path / "lambda"
    subprocess.run(["make", "-s", "package-code", f"PACKAGE_DIR={target}"], cwd=ROOT, check=True)
    names = {p.name for p in target.iterdir()}
    assert names == {"functions", "engine"}
    assert (target / "functions" / "message.py").exists()
    assert not (target / "functions" / "requirements.txt").exists()
    assert not list(target.rglob("test_*.py")) and not list(target.rglob("__pycache__"))
    domain = target / "functions" / "room_service" / "domain"  # issue 32: the table, not its
    assert (domain / "name_tables.py").exists()  # generator (which needs PyICU, a dev package)
    assert not (domain / "make_name_tables.py").exists()
    check = "import functions.connect, functions.message, functions.disconnect, functions.timer"
    subprocess.run([sys.executable, "-c", check], cwd=target, check=True)


def _pins() -> dict[str, str]:
    lines = (ROOT / "functions" / "requirements.txt").read_text().splitlines()
    pins = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {name.lower().replace("-", "_"): version for name, version in pins}


def test_the_lambda_package_ships_exactly_the_pinned_wheels_with_312_bytecode(tmp_path):
    """Issue 11: `make package` from the lock, for arm64 / Python 3.12, nothing unpinned
    (a missing pin would show up as an extra distribution), bytecode for 3.12 only."""
    target = tmp_path / "lambda"
    subprocess.run(["make", "-s", "package", f"PACKAGE_DIR={target}"], cwd=ROOT, check=True)
    shipped = dict(
        p.name.removesuffix(".dist-info").lower().rsplit("-", 1) for p in target.glob("*.dist-info")
    )
    assert shipped == _pins()
    (core,) = target.glob("pydantic_core/_pydantic_core.*.so")
    assert "cpython-312-aarch64" in core.name
    compiled = {p.name.split(".")[-2] for p in target.rglob("*.pyc")}
    assert compiled == {"cpython-312"}
    assert (target / "functions" / "__pycache__" / "message.cpython-312.pyc").exists()
    assert (target / "pydantic" / "__pycache__" / "main.cpython-312.pyc").exists()
    # checked by hash, so Lambda's re-timestamped read-only files don't make them stale
    flags = (target / "functions" / "__pycache__" / "message.cpython-312.pyc").read_bytes()[4:8]
    assert int.from_bytes(flags, "little") & 0b01 == 0b01


def test_sam_build_builds_every_function_from_the_makefile(tmp_path):
    build = tmp_path / "sam"
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0"}
    sam = Path(sys.executable).parent / "sam"
    subprocess.run([str(sam), "build", "--build-dir", str(build)], cwd=ROOT, check=True, env=env,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    for function in ("ConnectFunction", "DisconnectFunction", "MessageFunction", "TimerFunction"):
        shipped = {p.name for p in (build / function).iterdir()}
        assert {"functions", "engine", "pydantic", "aws_lambda_powertools"} <= shipped
        assert not {"tests", "frontend", ".venv", "events", "template.yaml"} & shipped


def test_make_deploy_builds_deploys_and_publishes_in_that_order():
    dry = subprocess.run(["make", "-n", "deploy", "STACK=witch-test", "REGION=eu-central-1",
                          "ALARM_EMAIL=ops@example.com"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    steps = ["sam build", "sam deploy --stack-name witch-test --region eu-central-1 "
             "--parameter-overrides AlarmEmail=ops@example.com",
             "-m deploy publish --stack witch-test --region eu-central-1"]  # fmt: skip
    positions = [dry.index(step) for step in steps]
    assert positions == sorted(positions)
    destroy = subprocess.run(["make", "-n", "destroy", "STACK=witch-test"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout  # fmt: skip
    assert destroy.index("-m deploy empty-bucket --stack witch-test") < destroy.index(
        "sam delete --stack-name witch-test"
    )


def _default(template: dict, value):
    return template["Parameters"][value["Ref"]]["Default"] if isinstance(value, dict) else value


#: Messages a second one room sends API Gateway (bench/backend.py: 12-cat games, pings
#: included), and the concurrent rooms the stage must carry (issue 11).
MESSAGES_PER_ROOM_SECOND = 0.29
ROOMS = 5_000


def test_the_stage_throttles_every_route_and_is_sized_for_5000_rooms(template):
    """A flood is bounded by API Gateway before any Lambda runs (issue 6), but 5,000
    rooms pass; the account's quota (10,000/s, burst 5,000) caps any stage."""
    (stage,) = of_type(template, "AWS::ApiGatewayV2::Stage").values()
    limits = stage["Properties"]["DefaultRouteSettings"]
    rate = _default(template, limits["ThrottlingRateLimit"])
    burst = _default(template, limits["ThrottlingBurstLimit"])
    assert ROOMS * MESSAGES_PER_ROOM_SECOND <= rate <= 10_000
    assert rate <= burst <= 5_000
    assert template["Parameters"]["ThrottlingBurstLimit"]["MaxValue"] <= 5_000


#: Phones a room has at most; every phone of 5,000 rooms reconnecting within this long
#: must pass the $connect throttle.
PHONES_PER_ROOM = 12
RECONNECT_ALL_SECONDS = 300


def test_connect_is_throttled_tighter_than_messages_but_lets_every_phone_reconnect(template):
    """Issue 18: a handshake flood is cut by its own route throttle, below the messages'
    budget, yet every phone of 5,000 rooms can reconnect within five minutes."""
    (stage,) = of_type(template, "AWS::ApiGatewayV2::Stage").values()
    default = stage["Properties"]["DefaultRouteSettings"]
    connect = stage["Properties"]["RouteSettings"]["$connect"]
    routes = {
        r["Properties"]["RouteKey"] for r in of_type(template, "AWS::ApiGatewayV2::Route").values()
    }
    assert set(stage["Properties"]["RouteSettings"]) <= routes
    rate, burst = (
        _default(template, connect[k]) for k in ("ThrottlingRateLimit", "ThrottlingBurstLimit")
    )
    assert (
        ROOMS * PHONES_PER_ROOM / RECONNECT_ALL_SECONDS
        <= rate
        < _default(template, default["ThrottlingRateLimit"])
    )
    assert rate <= burst < _default(template, default["ThrottlingBurstLimit"])
    assert template["Parameters"]["ConnectThrottlingBurstLimit"]["MaxValue"] <= 5_000


def test_route_changes_are_deployed_and_the_stage_logs_access(template):
    assert not of_type(template, "AWS::ApiGatewayV2::Deployment")  # would never redeploy
    (stage,) = of_type(template, "AWS::ApiGatewayV2::Stage").values()
    assert stage["Properties"]["AutoDeploy"] is True
    assert set(stage["DependsOn"]) == set(of_type(template, "AWS::ApiGatewayV2::Route"))
    logs = stage["Properties"]["AccessLogSettings"]
    assert logs["DestinationArn"]["Fn::Sub"].endswith("log-group:${ApiAccessLogs}")  # no ":*"
    assert json.loads(logs["Format"])["requestId"] == "$context.requestId"


def test_every_function_logs_with_a_retention_and_traces_nothing(template):
    groups = of_type(template, "AWS::Logs::LogGroup")
    named = {g["Properties"].get("LogGroupName", {}).get("Fn::Sub") for g in groups.values()}
    for function in of_type(template, "AWS::Serverless::Function"):
        assert "/aws/lambda/${" + function + "}" in named
    assert all("RetentionInDays" in g["Properties"] for g in groups.values())
    assert template["Globals"]["Function"]["Tracing"] == "PassThrough"


def test_the_timer_function_has_reserved_concurrency_and_no_more_pollers(template):
    timer = template["Resources"]["TimerFunction"]["Properties"]
    reserved = timer["ReservedConcurrentExecutions"]["Fn::If"]
    assert reserved[1] == {"Ref": "TimerConcurrency"}
    scaling = timer["Events"]["Timers"]["Properties"]["ScalingConfig"]["Fn::If"]
    assert scaling[0] == reserved[0] and scaling[1] == {"MaximumConcurrency": reserved[1]}
    assert template["Parameters"]["TimerConcurrency"]["Default"] >= 2


def test_data_is_encrypted_with_aws_owned_keys(template):
    table = template["Resources"]["RoomsTable"]["Properties"]
    assert table["SSESpecification"] == {"SSEEnabled": False}  # AWS owned key, not KMS
    for queue in of_type(template, "AWS::SQS::Queue").values():
        assert queue["Properties"]["SqsManagedSseEnabled"] is True


def test_every_alarm_notifies_the_alarm_topic(template):
    alarms = of_type(template, "AWS::CloudWatch::Alarm")
    watched = json.dumps(alarms)
    for metric in ("ApproximateNumberOfMessagesVisible", "Errors", "Throttles",
                   "IntegrationError", "ExecutionError", "ClientError",
                   "ReadThrottleEvents", "WriteThrottleEvents"):  # fmt: skip
        assert f'"{metric}"' in watched, metric
    for name, alarm in alarms.items():
        assert alarm["Properties"]["AlarmActions"] == [{"Ref": "AlarmTopic"}], name
