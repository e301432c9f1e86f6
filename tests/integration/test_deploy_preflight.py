"""`make deploy`'s preflight (deploy/preflight.py) on the answers AWS gives a new
account, a roomier one, and stacks in every state a failed deploy leaves.

AWS answers through botocore's Stubber: each client gets exactly the responses queued for
it, checks the request's parameters against the service model, and fails on any call
nothing was queued for, so "changes nothing" is checked call by call. The answers' shapes
follow the API references (GetAccountSettings' AccountLimit, API Gateway's GetAccount
without cloudwatchRoleArn when none is set, DescribeStacks' ValidationError "Stack with id
… does not exist")."""

import io
import json
from datetime import UTC, datetime

import boto3
import pytest
from botocore.stub import ANY, Stubber

import deploy.__main__ as cli
from deploy.preflight import (
    LOGS_ROLE_NAME,
    LOGS_ROLE_TRUST,
    ROLE_PROPAGATION_SECONDS,
    Refused,
    parse_overrides,
    preflight,
    template_parameters,
)

REGION = "eu-west-1"
STACK = "catch-the-witch"
STACK_ID = f"arn:aws:cloudformation:{REGION}:123456789012:stack/{STACK}/1e2d3c4b"
ACCOUNT_ROLE = "arn:aws:iam::123456789012:role/other-team-apigateway-logs"
NOW = datetime(2026, 12, 5, tzinfo=UTC)


#: One session for every test's clients: it reads each service's model once.
_SESSION = boto3.Session(region_name=REGION, aws_access_key_id="testing",
                         aws_secret_access_key="testing")  # fmt: skip


class StubbedAws:
    """A boto3 session whose clients answer from one Stubber each (new clients for each
    test: a Stubber holds its client's queued answers)."""

    def __init__(self) -> None:
        self._clients: dict[str, object] = {}
        self.stubbers: dict[str, Stubber] = {}

    def client(self, service: str):
        if service not in self._clients:
            self._clients[service] = _SESSION.client(service)
            self.stubbers[service] = Stubber(self._clients[service])
            self.stubbers[service].activate()
        return self._clients[service]

    def answers(self, service: str) -> Stubber:
        self.client(service)
        return self.stubbers[service]

    def all_answered(self) -> bool:
        for stubber in self.stubbers.values():
            stubber.assert_no_pending_responses()
        return True

    # -- the answers the tests share ------------------------------------------------------
    def no_stack(self, name: str = STACK) -> None:
        self.answers("cloudformation").add_client_error(
            "describe_stacks", service_error_code="ValidationError", http_status_code=400,
            service_message=f"Stack with id {name} does not exist",
            expected_params={"StackName": name})  # fmt: skip

    def stack(self, status: str, by: str = STACK) -> None:
        self.answers("cloudformation").add_response("describe_stacks", {"Stacks": [
            {"StackName": STACK, "StackId": STACK_ID, "CreationTime": NOW,
             "StackStatus": status}]}, {"StackName": by})  # fmt: skip

    def resources(self, *resources: tuple[str, str, str]) -> None:
        """(logical id, physical id, status) of each resource ListStackResources lists."""
        self.answers("cloudformation").add_response("list_stack_resources", {
            "StackResourceSummaries": [
                {"LogicalResourceId": logical, "PhysicalResourceId": physical,
                 "ResourceType": "AWS::CloudFormation::WaitConditionHandle",
                 "LastUpdatedTimestamp": NOW, "ResourceStatus": status,
                 "ResourceStatusReason": f"{logical}: {status}"}
                for logical, physical, status in resources]}, {"StackName": STACK_ID})  # fmt: skip

    def lambda_quota(self, unreserved: int) -> None:
        self.answers("lambda").add_response("get_account_settings", {"AccountLimit": {
            "ConcurrentExecutions": unreserved, "UnreservedConcurrentExecutions": unreserved}})  # fmt: skip

    def logs_role(self, arn: str | None) -> None:
        self.answers("apigateway").add_response(
            "get_account", {"cloudwatchRoleArn": arn} if arn else {}, {}
        )


@pytest.fixture
def aws() -> StubbedAws:
    return StubbedAws()


def _preflight(aws: StubbedAws, requested: dict[str, str] | None = None) -> tuple[dict, str, list]:
    out, slept = io.StringIO(), []
    overrides = preflight(aws, STACK, REGION, requested or {}, out=out, sleep=slept.append,
                          poll_seconds=0)  # fmt: skip
    return overrides, out.getvalue(), slept


def test_a_new_account_reserves_nothing_and_gets_a_logs_role_once_iam_has_it(aws):
    """Quota 10 (a new account): any reservation would leave fewer than 100 unreserved,
    which Lambda refuses. No CloudWatch role in API Gateway's settings: the preflight
    creates one and sets it, retrying while IAM propagates the new role."""
    aws.no_stack()
    aws.lambda_quota(10)
    aws.logs_role(None)
    role_arn = f"arn:aws:iam::123456789012:role/{LOGS_ROLE_NAME}"
    iam = aws.answers("iam")
    iam.add_response("create_role", {"Role": {
        "Path": "/", "RoleName": LOGS_ROLE_NAME, "RoleId": "AROAEXAMPLEROLEID0001",
        "Arn": role_arn, "CreateDate": NOW}},
        {"RoleName": LOGS_ROLE_NAME, "AssumeRolePolicyDocument": json.dumps(LOGS_ROLE_TRUST),
         "Description": ANY})  # fmt: skip
    (trust,) = LOGS_ROLE_TRUST["Statement"]  # API Gateway alone may take the role
    assert trust == {"Effect": "Allow", "Principal": {"Service": "apigateway.amazonaws.com"},
                     "Action": "sts:AssumeRole"}  # fmt: skip
    iam.add_response("attach_role_policy", {}, {"RoleName": LOGS_ROLE_NAME, "PolicyArn":
        "arn:aws:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs"})  # fmt: skip
    setting = {"patchOperations": [{"op": "replace", "path": "/cloudwatchRoleArn",
                                    "value": role_arn}]}  # fmt: skip
    aws.answers("apigateway").add_client_error(
        "update_account", service_error_code="BadRequestException", http_status_code=400,
        service_message="The role ARN does not have required permissions set to API Gateway",
        expected_params=setting)  # fmt: skip
    aws.answers("apigateway").add_response(
        "update_account", {"cloudwatchRoleArn": role_arn}, setting
    )

    overrides, said, slept = _preflight(aws, {"AlarmEmail": "ops@example.com"})

    assert overrides == {"AlarmEmail": "ops@example.com", "TimerConcurrency": "0",
                         "ApiGatewayLogsRole": "existing"}  # fmt: skip
    assert slept == [ROLE_PROPAGATION_SECONDS]  # one retry
    assert "TimerConcurrency=0: the account has 10 unreserved" in said
    assert f"creating {LOGS_ROLE_NAME}" in said and "account-wide" in said
    assert aws.all_answered()


def test_an_account_with_room_reserves_ten_and_keeps_the_role_it_names(aws):
    """Quota 1,000: 10 for timers leaves 990. The role API Gateway's settings already name
    (another team's, perhaps) is used as it is: nothing is created or set (no IAM call and
    no UpdateAccount was queued, so any would fail)."""
    aws.no_stack()
    aws.lambda_quota(1000)
    aws.logs_role(ACCOUNT_ROLE)

    overrides, said, _ = _preflight(aws)

    assert overrides == {"TimerConcurrency": "10", "ApiGatewayLogsRole": "existing"}
    assert ACCOUNT_ROLE in said and "stays as it is" in said
    assert aws.all_answered() and "iam" not in aws.stubbers


def test_the_stacks_own_timer_reservation_counts_as_available(aws):
    """Deploying again replaces the timer function's reservation: 100 unreserved + its 10
    is room for 10, where a new stack could reserve none."""
    aws.stack("UPDATE_COMPLETE")
    aws.lambda_quota(100)
    aws.resources(("TimerFunction", "catch-the-witch-TimerFunction-AbC", "UPDATE_COMPLETE"))
    aws.answers("lambda").add_response("get_function_concurrency",
                                       {"ReservedConcurrentExecutions": 10},
                                       {"FunctionName": "catch-the-witch-TimerFunction-AbC"})  # fmt: skip
    aws.logs_role(ACCOUNT_ROLE)

    overrides, _, _ = _preflight(aws)

    assert overrides["TimerConcurrency"] == "10"
    assert aws.all_answered()


@pytest.mark.parametrize(("asked", "unreserved", "why", "instead"), [
    ("1", 1000, "must be 0 or 2 to 1000", "TimerConcurrency=2"),
    ("1001", 2000, "must be 0 or 2 to 1000", "TimerConcurrency=1000"),
    ("5", 10, "would leave 5, which Lambda refuses", "TimerConcurrency=0"),
    ("50", 120, "would leave 70, which Lambda refuses", "TimerConcurrency=20"),
    ("ten", 1000, "not a whole number", "TimerConcurrency=10"),
])  # fmt: skip
def test_an_impossible_timer_concurrency_is_refused_before_anything_changes(
    aws, asked, unreserved, why, instead
):
    """The operator's own value is checked against the account and the event source's
    range; the refusal names the command to run, and nothing else was called."""
    aws.stack("ROLLBACK_COMPLETE")  # would be deleted, had the checks passed
    aws.lambda_quota(unreserved)
    with pytest.raises(Refused) as refused:
        _preflight(aws, {"TimerConcurrency": asked, "LogRetentionDays": "30"})
    assert why in str(refused.value)
    assert (f"Run instead: make deploy STACK={STACK} REGION={REGION} "
            f"PARAMS='{instead} LogRetentionDays=30'") in str(refused.value)  # fmt: skip
    assert aws.all_answered()  # no ListStackResources, DeleteStack, GetAccount…


def test_a_failed_first_stack_is_deleted_then_created_again(aws):
    """ROLLBACK_COMPLETE (a first creation that failed, e.g. on reserved concurrency)
    can't be updated: the preflight deletes it (its bucket already rolled back), waits
    until it is gone, and sam deploy creates the stack anew with the chosen parameters."""
    aws.stack("ROLLBACK_COMPLETE")
    aws.lambda_quota(10)
    aws.logs_role(ACCOUNT_ROLE)
    aws.resources(("FrontendBucket", "catch-the-witch-frontendbucket-x1", "DELETE_COMPLETE"),
                  ("TimerFunction", "catch-the-witch-TimerFunction-AbC", "DELETE_COMPLETE"))  # fmt: skip
    cloudformation = aws.answers("cloudformation")
    cloudformation.add_response("delete_stack", {}, {"StackName": STACK_ID})
    aws.stack("DELETE_IN_PROGRESS", by=STACK_ID)
    aws.stack("DELETE_COMPLETE", by=STACK_ID)

    overrides, said, _ = _preflight(aws)

    assert overrides == {"TimerConcurrency": "0", "ApiGatewayLogsRole": "existing"}
    assert "is ROLLBACK_COMPLETE: its first creation failed" in said
    assert said.index("Deleting stack") < said.index("is deleted")
    assert aws.all_answered() and "s3" not in aws.stubbers  # nothing left to empty


@pytest.mark.parametrize(("status", "command"), [
    ("UPDATE_IN_PROGRESS", "then run make deploy again"),
    ("UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", "then run make deploy again"),
    ("DELETE_IN_PROGRESS", "then run make deploy again"),
    ("UPDATE_ROLLBACK_FAILED", f".venv/bin/python -m deploy rollback --stack {STACK} --region {REGION}"),
    ("DELETE_FAILED", f"make destroy STACK={STACK} REGION={REGION}"),
])  # fmt: skip
def test_a_stack_cloudformation_cannot_update_stops_the_deploy_with_the_command_to_run(
    aws, status, command
):
    aws.stack(status)
    with pytest.raises(Refused) as refused:
        _preflight(aws)
    assert status in str(refused.value) and command in str(refused.value)
    assert aws.all_answered()


def test_a_stack_left_in_review_is_created_as_new(aws):
    """A change set made for a new stack and never executed (REVIEW_IN_PROGRESS) leaves a
    stack without resources, which sam deploy creates as if new: nothing to delete."""
    aws.stack("REVIEW_IN_PROGRESS")
    aws.lambda_quota(1000)
    aws.logs_role(ACCOUNT_ROLE)
    overrides, said, _ = _preflight(aws)
    assert overrides["TimerConcurrency"] == "10" and "was never created" in said
    assert aws.all_answered()


@pytest.mark.parametrize(("asked", "why"), [
    ("existing", "name no CloudWatch role"),
    ("create", "must be existing or none"),
])  # fmt: skip
def test_an_impossible_logs_role_choice_is_refused_with_the_command_to_run(aws, asked, why):
    aws.no_stack()
    aws.lambda_quota(1000)
    aws.logs_role(None)
    with pytest.raises(Refused) as refused:
        _preflight(aws, {"ApiGatewayLogsRole": asked, "LogLevel": "DEBUG"})
    assert why in str(refused.value)
    assert f"Run instead: make deploy STACK={STACK} REGION={REGION} PARAMS=LogLevel=DEBUG" in str(
        refused.value)  # fmt: skip
    assert aws.all_answered() and "iam" not in aws.stubbers


def test_no_access_logs_when_the_operator_says_none(aws):
    aws.no_stack()
    aws.lambda_quota(1000)
    aws.logs_role(None)
    overrides, said, _ = _preflight(aws, {"ApiGatewayLogsRole": "none"})
    assert overrides["ApiGatewayLogsRole"] == "none" and "no access logs" in said
    assert aws.all_answered() and "iam" not in aws.stubbers


def test_params_name_template_parameters_as_name_value_pairs():
    known = template_parameters()
    assert {"TimerConcurrency", "ApiGatewayLogsRole", "AlarmEmail"} <= known
    assert parse_overrides("AlarmEmail=a@b.example  TimerConcurrency=0", known) == {
        "AlarmEmail": "a@b.example", "TimerConcurrency": "0"}  # fmt: skip
    assert parse_overrides("", known) == {}
    with pytest.raises(Refused, match="TimerConcurency is not a parameter"):
        parse_overrides("TimerConcurency=0", known)
    with pytest.raises(Refused, match="not Name=Value"):
        parse_overrides("TimerConcurrency", known)


def test_the_command_prints_the_overrides_alone_on_stdout_and_refuses_with_exit_1(
    aws, monkeypatch, capsys
):
    """What the Makefile captures for sam deploy is the overrides line; the reasons and
    any refusal go to stderr, and a refusal exits 1 so sam deploy never runs."""
    monkeypatch.setattr(boto3, "Session", lambda region_name: aws)
    aws.no_stack()
    aws.lambda_quota(1000)
    aws.logs_role(ACCOUNT_ROLE)
    assert cli.main(["preflight", "--stack", STACK, "--region", REGION,
                     "--parameter-overrides", "LogLevel=DEBUG"]) == 0  # fmt: skip
    printed = capsys.readouterr()
    assert printed.out == "LogLevel=DEBUG TimerConcurrency=10 ApiGatewayLogsRole=existing\n"
    assert "preflight: TimerConcurrency=10" in printed.err

    aws.stack("UPDATE_IN_PROGRESS")
    assert cli.main(["preflight", "--stack", STACK, "--region", REGION]) == 1
    printed = capsys.readouterr()
    assert printed.out == "" and "UPDATE_IN_PROGRESS" in printed.err
    assert aws.all_answered()
