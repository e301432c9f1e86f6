"""What cfn-lint does not check in template.yaml (ARCHITECTURE: template checks)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cfnlint.decode import decode_str

ROOT = Path(__file__).resolve().parent.parent
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
    functions = of_type(template, "AWS::Serverless::Function")
    assert len(functions) == 4
    globals_ = template["Globals"]["Function"]
    assert globals_["Runtime"] in CURRENT_PYTHONS
    assert globals_["CodeUri"].rstrip("/") not in ("", ".", "./")
    for name, function in functions.items():
        props = function["Properties"]
        assert props.get("Runtime", globals_["Runtime"]) in CURRENT_PYTHONS, name
        assert props.get("CodeUri", globals_["CodeUri"]).rstrip("/") not in ("", ".", "./"), name
        module = props["Handler"].rsplit(".", 1)[0]
        assert (ROOT / (module.replace(".", "/") + ".py")).exists(), props["Handler"]


def test_manage_connections_is_allowed_on_this_api_only(template):
    """Which actions the policy grants is proven against the handlers' recorded calls
    (tests/test_iam_policy.py); here, that pushes reach only this API's stage."""
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
    assert not list(target.rglob("test_*.py")) and not list(target.rglob("__pycache__"))
    check = "import functions.connect, functions.message, functions.disconnect, functions.timer"
    subprocess.run([sys.executable, "-c", check], cwd=target, check=True)


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
