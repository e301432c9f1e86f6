"""`make deploy`'s first step against AWS: read what the account allows, choose the
template parameters that work there, and make the stack deployable (docs/deploy.md,
"What the preflight does").

Everything is read and decided before anything changes: a refusal (an operator's value
the account can't take, a stack CloudFormation is busy with) changes nothing and names
the command to run instead. Then, and only then: a stack whose first creation failed is
deleted, and API Gateway's CloudWatch role is created and set if the region has none.

The chosen parameters go to `sam deploy --parameter-overrides` (the Makefile passes what
this prints on stdout); the reasons go to stderr, one line each."""

import json
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml
from botocore.exceptions import ClientError

from deploy.stack import (
    DELETE_POLL_SECONDS,
    FAILED_CREATION,
    NEVER_CREATED,
    TIMER_FUNCTION,
    Stack,
    delete_stack,
    find_stack,
    live_resources,
)

TEMPLATE = Path(__file__).resolve().parent.parent / "template.yaml"

#: What the timer function reserves when the account can spare it (template.yaml:
#: TimerConcurrency; 10 timers at once serve ~6,000 rooms, docs/deploy.md).
PREFERRED_TIMER_CONCURRENCY = 10
#: Lambda refuses a reservation that leaves fewer unreserved executions than this ("You
#: can reserve up to the Unreserved account concurrency value that is shown, minus 100",
#: Lambda developer guide, "Configuring reserved concurrency").
LAMBDA_UNRESERVED_MINIMUM = 100
#: The SQS event source's MaximumConcurrency (= TimerConcurrency when it reserves any):
#: "Minimum value of 2. Maximum value of 1000" (Lambda API reference, ScalingConfig).
SQS_MAXIMUM_CONCURRENCY = range(2, 1001)

#: The role API Gateway writes access logs through, created when the region's API Gateway
#: settings name none. IAM is global: a second region reuses it.
LOGS_ROLE_NAME = "api-gateway-cloudwatch-logs"
LOGS_ROLE_POLICY = "iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs"
LOGS_ROLE_TRUST = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"Service": "apigateway.amazonaws.com"},
                   "Action": "sts:AssumeRole"}],
}  # fmt: skip
#: A role just created is refused by UpdateAccount ("The role ARN does not have required
#: permissions set to API Gateway") until IAM has propagated it. The Serverless Framework's
#: custom resource for the same setting retries 10 times, 10 s apart (serverless/serverless,
#: custom-resources/resources/api-gateway-cloud-watch-role/handler.js); so does this.
ROLE_PROPAGATION_ATTEMPTS = 10
ROLE_PROPAGATION_SECONDS = 10


class Refused(Exception):
    """The deploy can't go ahead as asked; the message says why and what to run instead."""


@dataclass(frozen=True)
class Plan:
    overrides: dict[str, str]  # every parameter `sam deploy` gets
    reasons: list[str]  # one line per choice, for the operator
    failed_stack: Stack | None  # to delete first
    create_logs_role: bool


def template_parameters(path: Path = TEMPLATE) -> set[str]:
    """The template's parameter names (CloudFormation's short tags read as plain values)."""
    loader = type("_Loader", (yaml.SafeLoader,), {})
    loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    return set(yaml.load(path.read_text(), Loader=loader)["Parameters"])


def parse_overrides(text: str, known: set[str]) -> dict[str, str]:
    """The operator's ``Name=Value`` pairs (PARAMS and ALARM_EMAIL), checked by name."""
    overrides = {}
    for pair in text.split():
        name, equals, value = pair.partition("=")
        if not equals or not name:
            raise Refused(
                f'{pair!r} in PARAMS is not Name=Value (e.g. PARAMS="LogRetentionDays=30").'
            )
        if name not in known:
            raise Refused(f"{name} is not a parameter of template.yaml (it has "
                          f"{', '.join(sorted(known))}).")  # fmt: skip
        overrides[name] = value
    return overrides


def format_overrides(overrides: dict[str, str]) -> str:
    """For `sam deploy --parameter-overrides` and PARAMS (values never hold spaces:
    parse_overrides split on them)."""
    return " ".join(f"{name}={value}" for name, value in overrides.items())


def deploy_command(stack: str, region: str, overrides: dict[str, str]) -> str:
    params = format_overrides(overrides)
    return (f"make deploy STACK={stack} REGION={region}"
            + (f" PARAMS={shlex.quote(params)}" if params else ""))  # fmt: skip


# -- the stack -------------------------------------------------------------------------------
def check_stack(stack: Stack | None, region: str) -> None:
    """Refuses a stack `sam deploy` can't update, naming the command that gets it back."""
    if stack is None or stack.status in FAILED_CREATION or stack.status == NEVER_CREATED:
        return
    where = f"--stack {stack.name} --region {region}"
    if stack.busy:
        raise Refused(f"Stack {stack.name} is {stack.status}: CloudFormation is still working on "
                      "it (another deploy or a delete) and refuses any other change until it "
                      "ends. Wait for it (the CloudFormation console shows its progress), then "
                      "run make deploy again.")  # fmt: skip
    # (UPDATE_FAILED, left by a deploy with rollback turned off, can be updated again.)
    if stack.status == "UPDATE_ROLLBACK_FAILED":
        raise Refused(f"Stack {stack.name} is {stack.status}: an update failed and so did its "
                      "rollback, so CloudFormation refuses new updates. Finish the rollback with "
                      f".venv/bin/python -m deploy rollback {where}, then run make deploy "
                      "again.")  # fmt: skip
    if stack.status == "DELETE_FAILED":
        raise Refused(f"Stack {stack.name} is DELETE_FAILED: a delete stopped halfway, and "
                      "CloudFormation can only finish it. Run make destroy "
                      f"STACK={stack.name} REGION={region}, then make deploy again.")  # fmt: skip
    if stack.status.endswith("_FAILED"):
        raise Refused(f"Stack {stack.name} is {stack.status}: look at its events in the "
                      "CloudFormation console; make destroy "
                      f"STACK={stack.name} REGION={region} deletes it.")  # fmt: skip


# -- Lambda concurrency ----------------------------------------------------------------------
def unreserved_concurrency(lambda_client) -> int:
    return lambda_client.get_account_settings()["AccountLimit"]["UnreservedConcurrentExecutions"]


def timer_reservation(cloudformation, lambda_client, stack: Stack | None) -> int:
    """What the stack's timer function reserves now: deploying again frees it first, so it
    counts as available."""
    if stack is None:
        return 0
    function = live_resources(cloudformation, stack.id).get(TIMER_FUNCTION)
    if function is None:
        return 0
    reserved = lambda_client.get_function_concurrency(FunctionName=function)
    return reserved.get("ReservedConcurrentExecutions", 0)


def choose_timer_concurrency(available: int, requested: str | None) -> tuple[int, str]:
    """TimerConcurrency for an account with ``available`` unreserved executions (the
    timer's own reservation included): 10 where 100 stay unreserved after it, else 0; an
    operator's value is checked against the same rule and the event source's range."""
    spare = available - LAMBDA_UNRESERVED_MINIMUM  # the most any function may reserve
    account = (f"the account has {available} unreserved Lambda executions and Lambda keeps "
               f"{LAMBDA_UNRESERVED_MINIMUM} of them unreserved")  # fmt: skip
    if requested is None:
        if spare >= PREFERRED_TIMER_CONCURRENCY:
            return PREFERRED_TIMER_CONCURRENCY, (
                f"TimerConcurrency={PREFERRED_TIMER_CONCURRENCY}: {account}, so timers reserve "
                f"{PREFERRED_TIMER_CONCURRENCY} (deadlines always find capacity).")  # fmt: skip
        return 0, (f"TimerConcurrency=0: {account}, so timers reserve none and share the pool "
                   "(a Service Quotas increase of Lambda concurrency lets them reserve 10).")  # fmt: skip
    try:
        value = int(requested)
    except ValueError:
        raise Refused(f"TimerConcurrency={requested}: not a whole number.") from None
    if value == 0:
        return 0, "TimerConcurrency=0 (asked): timers reserve none and share the pool."
    if value not in SQS_MAXIMUM_CONCURRENCY:
        raise Refused(f"TimerConcurrency={value}: must be 0 or 2 to 1000, since it is also the "
                      "SQS event source's MaximumConcurrency, which takes 2 to 1000.")  # fmt: skip
    if value > spare:
        raise Refused(f"TimerConcurrency={value}: {account}; reserving {value} would leave "
                      f"{available - value}, which Lambda refuses.")  # fmt: skip
    return value, f"TimerConcurrency={value} (asked): {available - value} stay unreserved."


def closest_timer_concurrency(available: int, requested: str) -> int:
    """What to suggest instead of a refused TimerConcurrency: the allowed value nearest
    the one asked (0 when the account can't spare 2), or the preflight's own choice for a
    value that isn't a number."""
    most = min(available - LAMBDA_UNRESERVED_MINIMUM, SQS_MAXIMUM_CONCURRENCY[-1])
    if most < SQS_MAXIMUM_CONCURRENCY[0]:
        return 0
    try:
        asked = int(requested)
    except ValueError:
        return choose_timer_concurrency(available, None)[0]
    return min(max(asked, SQS_MAXIMUM_CONCURRENCY[0]), most)


# -- API Gateway's CloudWatch role -----------------------------------------------------------
def named_logs_role(apigateway) -> str | None:
    """The CloudWatch role this region's API Gateway settings name (GetAccount)."""
    return apigateway.get_account().get("cloudwatchRoleArn") or None


def choose_logs_role(
    named: str | None, requested: str | None, region: str
) -> tuple[str, bool, str]:
    """ApiGatewayLogsRole, whether the preflight must create and set a role, and why. A role
    the account names is never replaced: other APIs of the region may log through it."""
    if requested == "none":
        return "none", False, ("ApiGatewayLogsRole=none (asked): the stage writes no access "
                               "logs.")  # fmt: skip
    if requested not in (None, "existing"):
        raise Refused(f"ApiGatewayLogsRole={requested}: must be existing or none. Leave it out "
                      "and the preflight keeps the role API Gateway's settings name, or "
                      "creates one if they name none.")  # fmt: skip
    if named:
        return "existing", False, (f"ApiGatewayLogsRole=existing: API Gateway's settings in "
                                   f"{region} name {named}; the stage logs through it, and it "
                                   "stays as it is.")  # fmt: skip
    if requested == "existing":
        raise Refused(f"ApiGatewayLogsRole=existing: API Gateway's settings in {region} name no "
                      "CloudWatch role. Leave it out (the preflight creates and sets one) or "
                      "pass ApiGatewayLogsRole=none (no access logs).")  # fmt: skip
    return "existing", True, (f"ApiGatewayLogsRole=existing: API Gateway's settings in {region} "
                              f"name no CloudWatch role; creating {LOGS_ROLE_NAME} and setting "
                              "it (account-wide: every API of the region logs through it, and "
                              "it stays after make destroy).")  # fmt: skip


def create_logs_role(iam, apigateway, out=sys.stderr,
                     sleep: Callable[[float], None] = time.sleep) -> str:  # fmt: skip
    """Creates (or reuses) the role, gives it API Gateway's logging policy, and names it in
    the region's API Gateway settings, retrying while IAM propagates the new role."""
    try:
        role = iam.create_role(
            RoleName=LOGS_ROLE_NAME,
            AssumeRolePolicyDocument=json.dumps(LOGS_ROLE_TRUST),
            Description="API Gateway's CloudWatch Logs role (set by make deploy, docs/deploy.md)",
        )["Role"]
    except ClientError as error:
        if error.response["Error"]["Code"] != "EntityAlreadyExists":
            raise
        role = iam.get_role(RoleName=LOGS_ROLE_NAME)["Role"]
    partition = role["Arn"].split(":")[1]
    iam.attach_role_policy(RoleName=LOGS_ROLE_NAME, PolicyArn=f"arn:{partition}:{LOGS_ROLE_POLICY}")
    attempts_left = ROLE_PROPAGATION_ATTEMPTS
    while True:
        try:
            apigateway.update_account(patchOperations=[
                {"op": "replace", "path": "/cloudwatchRoleArn", "value": role["Arn"]}])  # fmt: skip
            return role["Arn"]
        except ClientError as error:
            attempts_left -= 1
            if error.response["Error"]["Code"] != "BadRequestException" or not attempts_left:
                raise
            print(f"  IAM has not propagated {LOGS_ROLE_NAME} yet "
                  f"({error.response['Error']['Message']}); again in "
                  f"{ROLE_PROPAGATION_SECONDS} s.", file=out, flush=True)  # fmt: skip
            sleep(ROLE_PROPAGATION_SECONDS)


# -- the whole preflight ---------------------------------------------------------------------
def plan(session, stack_name: str, region: str, requested: dict[str, str]) -> Plan:
    """Reads the stack and the account, decides; changes nothing."""
    cloudformation = session.client("cloudformation")
    stack = find_stack(cloudformation, stack_name)
    check_stack(stack, region)
    failed = stack if stack is not None and stack.status in FAILED_CREATION else None
    never_created = stack is not None and stack.status == NEVER_CREATED
    deployed = None if failed or never_created else stack  # holds a timer function
    reasons = []
    if failed:
        reasons.append(f"Stack {stack_name} is {failed.status}: its first creation failed (sam "
                       "deploy showed why), and CloudFormation can only delete it. Deleting it, "
                       "then creating it again.")  # fmt: skip
    elif never_created:
        reasons.append(f"Stack {stack_name} was never created (an earlier change set was not "
                       "executed): sam deploy creates it.")  # fmt: skip
    lambda_client = session.client("lambda")
    available = unreserved_concurrency(lambda_client) + timer_reservation(
        cloudformation, lambda_client, deployed
    )
    try:
        timer, why_timer = choose_timer_concurrency(available, requested.get("TimerConcurrency"))
    except Refused as refused:
        closest = closest_timer_concurrency(available, requested["TimerConcurrency"])
        instead = {**requested, "TimerConcurrency": str(closest)}
        raise Refused(
            f"{refused} Run instead: {deploy_command(stack_name, region, instead)}"
        ) from None
    try:
        logs_role, create_role, why_role = choose_logs_role(
            named_logs_role(session.client("apigateway")), requested.get("ApiGatewayLogsRole"),
            region)  # fmt: skip
    except Refused as refused:
        instead = {name: value for name, value in requested.items() if name != "ApiGatewayLogsRole"}
        raise Refused(
            f"{refused} Run instead: {deploy_command(stack_name, region, instead)}"
        ) from None
    overrides = {**requested, "TimerConcurrency": str(timer), "ApiGatewayLogsRole": logs_role}
    return Plan(overrides, [*reasons, why_timer, why_role], failed, create_role)


def preflight(session, stack_name: str, region: str, requested: dict[str, str],
              out=sys.stderr, sleep: Callable[[float], None] = time.sleep,
              poll_seconds: float = DELETE_POLL_SECONDS) -> dict[str, str]:  # fmt: skip
    """Plans, tells the operator, then makes the stack deployable; returns the overrides."""
    chosen = plan(session, stack_name, region, requested)
    for reason in chosen.reasons:
        print(f"preflight: {reason}", file=out, flush=True)
    if chosen.failed_stack is not None:
        delete_stack(session, chosen.failed_stack, out, poll_seconds)
    if chosen.create_logs_role:
        arn = create_logs_role(session.client("iam"), session.client("apigateway"), out, sleep)
        print(f"preflight: API Gateway's settings in {region} now name {arn}.", file=out)
    return chosen.overrides
