"""What cfn-lint does not check in template.yaml (ARCHITECTURE: template checks)."""

import json
import os
import re
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
    (tests/integration/test_iam_policy.py); here, that pushes (POST) and hang-ups (DELETE:
    a kicked phone) reach only this API's stage."""
    policy = template["Resources"]["GameServicePolicy"]["Properties"]["PolicyDocument"]
    (statement,) = [
        s for s in policy["Statement"] if s["Action"] == "execute-api:ManageConnections"
    ]
    resources = [resource["Fn::Sub"] for resource in statement["Resource"]]
    assert [r.split(":")[-1] for r in resources] == [
        "${WebSocketApi}/${Stage}/POST/@connections/*",
        "${WebSocketApi}/${Stage}/DELETE/@connections/*",
    ]


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
    domain = target / "functions" / "room_service" / "domain"  # the table, not its
    assert (domain / "name_tables.py").exists()  # generator (which needs PyICU, a dev package)
    assert not (domain / "make_name_tables.py").exists()
    check = "import functions.connect, functions.message, functions.disconnect, functions.timer"
    subprocess.run([sys.executable, "-c", check], cwd=target, check=True)


def _pins() -> dict[str, str]:
    lines = (ROOT / "functions" / "requirements.txt").read_text().splitlines()
    pins = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {name.lower().replace("-", "_"): version for name, version in pins}


def test_the_lambda_package_ships_exactly_the_pinned_wheels_with_312_bytecode(tmp_path):
    """`make package` from the lock, for arm64 / Python 3.12, nothing unpinned
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


def _dry_run(*args: str, **env: str | None) -> str:
    """`make -n` with ``env`` changed (None: unset)."""
    changed = {**os.environ, **env}
    environment = {name: value for name, value in changed.items() if value is not None}
    return subprocess.run(["make", "-n", "--no-print-directory", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True, env=environment).stdout  # fmt: skip


def test_make_deploy_builds_checks_deploys_publishes_and_plays_in_that_order():
    dry = _dry_run(
        "deploy", "STACK=witch-test", "REGION=eu-central-1", "ALARM_EMAIL=ops@example.com"
    )
    stack = "--stack witch-test --region eu-central-1"
    steps = ["sam build",
             f"-m deploy preflight {stack} --parameter-overrides 'AlarmEmail=ops@example.com'",
             "sam deploy --stack-name witch-test --region eu-central-1 --s3-prefix witch-test "
             "--parameter-overrides $overrides",
             f"-m deploy publish {stack}", f"-m deploy.smoke {stack}"]  # fmt: skip
    positions = [dry.index(step) for step in steps]
    assert positions == sorted(positions)
    # sam deploy gets the preflight's choices, and never runs when the preflight refused
    assert re.search(
        r'overrides="\$\([^)]*-m deploy preflight[^)]*\)" && \\\n[^\n]*sam deploy', dry
    )
    assert _dry_run("smoke", "STACK=witch-test", "REGION=eu-central-1").strip().endswith(
        f"-m deploy.smoke {stack}")  # fmt: skip
    destroy = _dry_run("destroy", "STACK=witch-test", "REGION=eu-central-1")
    assert f"-m deploy destroy {stack}" in destroy and "sam delete" not in destroy
    phony = (ROOT / "Makefile").read_text().split(".PHONY:", 1)[1].split("\n\n", 1)[0]
    assert {"deploy", "destroy", "smoke"} <= set(phony.replace("\\", " ").split())


def test_the_region_is_the_operators_unless_one_is_given(tmp_path):
    """REGION, else AWS_REGION, else AWS_DEFAULT_REGION, else the AWS profile's region."""
    config = tmp_path / "config"
    config.write_text("[profile player]\nregion = ap-southeast-1\n")
    profile = {"AWS_CONFIG_FILE": str(config), "AWS_PROFILE": "player", "AWS_REGION": None,
               "AWS_DEFAULT_REGION": None}  # fmt: skip
    assert "--region ap-southeast-1" in _dry_run("destroy", **profile)
    assert "--region us-east-2" in _dry_run("destroy", **{**profile, "AWS_REGION": "us-east-2"})
    assert "--region eu-north-1" in _dry_run("destroy", "REGION=eu-north-1", **profile)


def _default(template: dict, value):
    return template["Parameters"][value["Ref"]]["Default"] if isinstance(value, dict) else value


#: Messages a second one room sends API Gateway (bench/backend.py: 12-cat games, pings
#: included), and the concurrent rooms the stage must carry.
MESSAGES_PER_ROOM_SECOND = 0.29
ROOMS = 5_000


def test_the_stage_throttles_every_route_and_is_sized_for_5000_rooms(template):
    """A flood is bounded by API Gateway before any Lambda runs, but 5,000
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
    """A handshake flood is cut by its own route throttle, below the messages'
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


def test_route_changes_are_deployed_and_the_stage_logs_access_where_the_account_allows(template):
    """Access logs need the role API Gateway's account settings name: the stack never sets
    that account-wide setting (the preflight does, deploy/preflight.py), and without a role
    (ApiGatewayLogsRole=none, the default for a bare sam deploy) the stage has no logs."""
    assert not of_type(template, "AWS::ApiGatewayV2::Deployment")  # would never redeploy
    (stage,) = of_type(template, "AWS::ApiGatewayV2::Stage").values()
    assert stage["Properties"]["AutoDeploy"] is True
    assert set(stage["DependsOn"]) == set(of_type(template, "AWS::ApiGatewayV2::Route"))
    condition, logs, otherwise = stage["Properties"]["AccessLogSettings"]["Fn::If"]
    assert otherwise == {"Ref": "AWS::NoValue"}
    assert template["Conditions"][condition] == {"Fn::Equals": [{"Ref": "ApiGatewayLogsRole"},
                                                               "existing"]}  # fmt: skip
    assert template["Resources"]["ApiAccessLogs"]["Condition"] == condition
    assert logs["DestinationArn"]["Fn::Sub"].endswith("log-group:${ApiAccessLogs}")  # no ":*"
    assert json.loads(logs["Format"])["requestId"] == "$context.requestId"
    parameter = template["Parameters"]["ApiGatewayLogsRole"]
    assert parameter["AllowedValues"] == ["existing", "none"] and parameter["Default"] == "none"
    assert not of_type(template, "AWS::ApiGateway::Account")  # never replaces the account's role


def _transformed(template: dict, monkeypatch) -> dict:
    """The template as CloudFormation gets it after SAM's transform (samtranslator, as `sam
    deploy` runs it; offline: the code's S3 location is a placeholder)."""
    from samtranslator.translator.transform import transform

    class NoManagedPolicyNames:  # the template names its policies by ARN or !Ref only
        def load(self):
            raise AssertionError("a policy named by name needs IAM to resolve it")

    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")  # the transform asks boto3 for one
    sam = json.loads(json.dumps(template, default=str))
    sam["Globals"]["Function"]["CodeUri"] = "s3://bucket/package.zip"
    return transform(sam, {}, NoManagedPolicyNames())


def test_every_function_logs_with_a_retention_and_traces_nothing(template, monkeypatch):
    """No X-Ray: SAM attaches its write policy to a function's role for any Tracing value
    but Disabled, PassThrough included; without the property Lambda passes
    traces through and no role gets the policy."""
    groups = of_type(template, "AWS::Logs::LogGroup")
    named = {g["Properties"].get("LogGroupName", {}).get("Fn::Sub") for g in groups.values()}
    for function in of_type(template, "AWS::Serverless::Function"):
        assert "/aws/lambda/${" + function + "}" in named
    assert all("RetentionInDays" in g["Properties"] for g in groups.values())
    functions = of_type(template, "AWS::Serverless::Function").values()
    assert "Tracing" not in template["Globals"]["Function"]
    assert not [f for f in functions if "Tracing" in f["Properties"]]
    roles = of_type(_transformed(template, monkeypatch), "AWS::IAM::Role")
    assert {f"{name}Role" for name in of_type(template, "AWS::Serverless::Function")} <= set(roles)
    attached = json.dumps([role["Properties"].get("ManagedPolicyArns") for role in roles.values()])
    assert "AWSLambdaBasicExecutionRole" in attached and "xray" not in attached.lower()


def test_the_timer_function_reserves_only_what_the_account_allows(template, monkeypatch):
    """0 by default (a new account's Lambda quota can be 10, and 100 must stay
    unreserved; the preflight raises it where the account allows), and 1 refused before
    any resource is made: the SQS event source's MaximumConcurrency takes 2 to 1000."""
    timer = template["Resources"]["TimerFunction"]["Properties"]
    reserved = timer["ReservedConcurrentExecutions"]["Fn::If"]
    assert reserved[1] == {"Ref": "TimerConcurrency"}
    scaling = timer["Events"]["Timers"]["Properties"]["ScalingConfig"]["Fn::If"]
    assert scaling[0] == reserved[0] and scaling[1] == {"MaximumConcurrency": reserved[1]}
    assert template["Conditions"][reserved[0]] == {
        "Fn::Not": [{"Fn::Equals": [{"Ref": "TimerConcurrency"}, 0]}]}  # fmt: skip
    parameter = template["Parameters"]["TimerConcurrency"]
    assert (parameter["Default"], parameter["MinValue"], parameter["MaxValue"]) == (0, 0, 1000)
    (rule,) = template["Rules"].values()
    (assertion,) = rule["Assertions"]
    assert "RuleCondition" not in rule
    assert assertion["Assert"] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "TimerConcurrency"}, "1"]}]}
    assert _transformed(template, monkeypatch)["Rules"] == template["Rules"]  # SAM keeps it


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
                   "ReadThrottleEvents", "WriteThrottleEvents", "ConnectRefused",
                   "RateLimited", "AddressLimited"):  # fmt: skip
        assert f'"{metric}"' in watched, metric
    for name, alarm in alarms.items():
        assert alarm["Properties"]["AlarmActions"] == [{"Ref": "AlarmTopic"}], name


def _queries(alarm: dict) -> dict[str, dict]:
    return {query["Id"]: query for query in alarm["Properties"]["Metrics"]}


def _game_metrics(template: dict) -> dict[str, dict]:
    """Every metric the alarms read from the functions' own namespace, by metric name."""
    return {
        query["MetricStat"]["Metric"]["MetricName"]: query["MetricStat"]["Metric"]
        for alarm in of_type(template, "AWS::CloudWatch::Alarm").values()
        for query in alarm["Properties"].get("Metrics", [])
        if "MetricStat" in query
        and not str(query["MetricStat"]["Metric"]["Namespace"]).startswith("AWS/")
    }


def test_the_alarms_read_the_metrics_the_functions_count_in_their_stacks_namespace(template):
    """Powertools gives every game metric the one dimension service=<SERVICE>: two stacks
    of one account and region would count each other's refusals if their namespace were
    shared, so it carries the stack's name; and each metric an alarm reads is one the
    functions count (a misspelt name would alarm on nothing)."""
    from functions.room_service.entrypoints.lambda_app import SERVICE

    functions = of_type(template, "AWS::Serverless::Function")
    namespaces = {json.dumps(f["Properties"]["Environment"]["Variables"]["POWERTOOLS_METRICS_NAMESPACE"])
                  for f in functions.values()}  # fmt: skip
    assert len(namespaces) == 1
    (namespace,) = namespaces
    assert "${AWS::StackName}" in namespace
    assert "POWERTOOLS_METRICS_NAMESPACE" not in template["Globals"]["Function"]["Environment"][
        "Variables"]  # fmt: skip
    code = "".join(p.read_text() for p in (ROOT / "functions").rglob("*.py"))
    for name, metric in _game_metrics(template).items():
        assert json.dumps(metric["Namespace"]) == namespace, name
        assert metric["Dimensions"] == [{"Name": "service", "Value": SERVICE}], name
        assert f'"{name}"' in code, f"no function counts {name}"


def test_every_metric_an_alarm_combines_is_filled_with_zero(template):
    """Metric math drops a timestamp where a series it combines has no data point; a
    function not invoked, or a refusal not counted, has none in a quiet period, and an
    unfilled sum would then hide the other series' errors: each metric an expression reads
    is read as FILL(id, 0), never bare."""
    alarms = [r for r in template["Resources"].values() if r["Type"] == "AWS::CloudWatch::Alarm"
              and "Metrics" in r["Properties"]]  # fmt: skip
    assert alarms
    for alarm in alarms:
        queries = _queries(alarm)
        metrics = {id_ for id_, q in queries.items() if "MetricStat" in q}
        for query in queries.values():
            expression = query.get("Expression", "")
            bare = re.sub(r"FILL\(\w+, 0\)", "", expression)
            assert not metrics & set(re.findall(r"\w+", bare)), expression


def test_refused_connects_are_not_server_errors_and_limits_have_their_own_alarm(template):
    """API Gateway counts every 4XX/5XX answer of the $connect function as an
    IntegrationError, refusals included; the functions count those as ConnectRefused, taken
    out again (clamped at 0). Players refused by the game's limits alarm on their own."""
    errors = _queries(template["Resources"]["ApiServerErrorsAlarm"])
    returned = [q for q in errors.values() if q.get("ReturnData", True)]
    assert [q["Id"] for q in returned] == ["failures"]
    assert (
        errors["failures"]["Expression"] == "IF(unrefused > 0, unrefused, 0) + FILL(execution, 0)"
    )
    assert errors["unrefused"]["Expression"] == "FILL(integration, 0) - FILL(refused, 0)"
    metric = {id_: q["MetricStat"]["Metric"]["MetricName"] for id_, q in errors.items()
              if "MetricStat" in q}  # fmt: skip
    assert metric == {"integration": "IntegrationError", "execution": "ExecutionError",
                      "refused": "ConnectRefused"}  # fmt: skip

    limits = template["Resources"]["PlayersLimitedAlarm"]["Properties"]
    queries = _queries(template["Resources"]["PlayersLimitedAlarm"])
    limited = {id_ for id_, q in queries.items() if "MetricStat" in q}
    assert limited and all(id_.startswith("limited") for id_ in limited)
    added = [
        re.fullmatch(r"FILL\((\w+), 0\)", term)
        for term in queries["refusals"]["Expression"].split(" + ")
    ]
    assert all(added) and sorted(m.group(1) for m in added) == sorted(limited)  # each one, once
    # every limit the functions count a refusal of ("…Limited", functions/room_service/
    # service/admission.py), and nothing else
    code = "".join(path.read_text() for path in (ROOT / "functions").rglob("*.py"))
    assert {queries[id_]["MetricStat"]["Metric"]["MetricName"] for id_ in limited} == set(
        re.findall(r'"(\w+Limited)"', code))  # fmt: skip
    assert (limits["Threshold"], limits["ComparisonOperator"]) == (
        300,
        "GreaterThanOrEqualToThreshold",
    )
    assert limits["TreatMissingData"] == "notBreaching"
    for alarm in of_type(template, "AWS::CloudWatch::Alarm").values():
        assert len(alarm["Properties"].get("Metrics", [])) <= 10  # CloudWatch's limit per alarm


#: The response headers every page of the site carries; the local server reads
#: the same policy (local_stack/template.py).
FRONTEND_HEADERS = {
    "FrameOptions": {"FrameOption": "DENY", "Override": True},
    "ContentTypeOptions": {"Override": True},
    "StrictTransportSecurity": {"AccessControlMaxAgeSec": 63072000, "IncludeSubdomains": False,
                                "Preload": False, "Override": True},
    "ReferrerPolicy": {"ReferrerPolicy": "no-referrer", "Override": True},
}  # fmt: skip


def test_the_site_is_served_with_its_security_headers(template):
    (distribution,) = of_type(template, "AWS::CloudFront::Distribution").values()
    config = distribution["Properties"]["DistributionConfig"]
    behaviour = config["DefaultCacheBehavior"]
    assert behaviour["ResponseHeadersPolicyId"] == {"Ref": "FrontendHeadersPolicy"}
    policy = template["Resources"]["FrontendHeadersPolicy"]
    assert policy["Type"] == "AWS::CloudFront::ResponseHeadersPolicy"
    headers = policy["Properties"]["ResponseHeadersPolicyConfig"]
    assert headers["Name"] == {"Fn::Sub": "${AWS::StackName}-frontend-headers"}
    security = dict(headers["SecurityHeadersConfig"])
    csp = security.pop("ContentSecurityPolicy")
    assert security == FRONTEND_HEADERS
    assert csp["Override"] is True
    directives = dict(
        d.strip().split(" ", 1) for d in csp["ContentSecurityPolicy"]["Fn::Sub"].split(";")
    )
    assert directives["script-src"] == "'self'" and directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert directives["connect-src"] == (
        "'self' wss://${WebSocketApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"
    )
    # Asian edges for the client's Thai and Traditional Chinese (PriceClass_100 has none).
    assert config["PriceClass"] in ("PriceClass_200", "PriceClass_All")


def test_only_the_site_may_open_a_websocket_and_no_url_names_a_fixed_domain(template):
    """$connect refuses other origins (functions/connect.py): the site's own is the
    distribution's domain. URLs take ${AWS::URLSuffix} (amazonaws.com.cn in China); service
    principals keep their one name."""
    connect = template["Resources"]["ConnectFunction"]["Properties"]["Environment"]["Variables"]
    assert connect["ALLOWED_ORIGINS"] == {"Fn::Sub": "https://${FrontendDistribution.DomainName}"}
    text = json.dumps(template)  # its values, not its comments
    hosts = re.findall(r"[\w.${}:-]*amazonaws\.com[\w./${}-]*", text)
    assert hosts and all(
        re.fullmatch(r"(apigateway|cloudfront)\.amazonaws\.com", h) for h in hosts
    ), hosts
    assert "${AWS::URLSuffix}" in json.dumps(template["Outputs"]["WebSocketUrl"])
