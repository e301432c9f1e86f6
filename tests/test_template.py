"""What cfn-lint does not check in template.yaml (ARCHITECTURE: template checks)."""

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
    policy = template["Resources"]["GameServicePolicy"]["Properties"]["PolicyDocument"]
    (statement,) = [
        s for s in policy["Statement"] if s["Action"] == "execute-api:ManageConnections"
    ]
    assert "${WebSocketApi}/${Stage}/POST/@connections/*" in statement["Resource"]["Fn::Sub"]
    actions = {
        a
        for s in policy["Statement"]
        for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
    }
    assert actions == {"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:Query",
                       "sqs:SendMessage", "execute-api:ManageConnections"}  # fmt: skip


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


def test_the_stage_throttles_every_route(template):
    """Issue 6: a flood is bounded by API Gateway before any Lambda runs; the service's
    per-connection limit (functions/room_service/ratelimit.py) refuses the rest."""
    (stage,) = of_type(template, "AWS::ApiGatewayV2::Stage").values()
    limits = stage["Properties"]["DefaultRouteSettings"]
    assert 0 < limits["ThrottlingRateLimit"] <= limits["ThrottlingBurstLimit"] <= 5000
