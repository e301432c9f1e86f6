"""Every AWS call the handlers make is allowed by template.yaml's IAM policies,
and the policies allow nothing the calls do not need (tests/support/iam.py says how).

Whole games and the room's other paths (lobby kicks and leaves, reconnects, the host's
grace period, a rematch) run through the real handlers over moto; every call the boto3
clients make is recorded with the function that made it, and checked against that
function's statements, resolved with the stack's physical names."""

import copy
import json
from collections import Counter

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.sqs.models import sqs_backends

from functions.room_service.entrypoints import lambda_app
from local_stack.template import Stack, Template
from tests.support import iam
from tests.support.moto_cloud import REGION, TABLE, moto_cloud

API_ID = "abc123"  # tests/support/moto_cloud.py's WEBSOCKET_ENDPOINT
TEMPLATE = Template.load()
POLICY = "GameServicePolicy"


def _stack(template: Template, queue_url: str) -> Stack:
    physical = {"RoomsTable": TABLE, "TimerQueue": queue_url, "WebSocketApi": API_ID}
    return Stack(template, REGION, DEFAULT_ACCOUNT_ID, "catch-the-witch", physical)


def _fire_every_due_timer(cloud) -> None:
    """Deadlines and host grace periods alike (Cloud.fire_next_timer takes deadlines only)."""
    queue = sqs_backends[DEFAULT_ACCOUNT_ID][REGION].queues["timers"]
    while queue._messages:
        message = queue._messages.pop(0)
        body = json.loads(message.body)
        cloud.clock.now = max(cloud.clock.now, body.get("deadline", cloud.clock.now) + 31)
        cloud.deliver_timer(message)


def _play_every_path(cloud) -> None:
    # the lobby: join, kick, leave, settings
    for phone in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
        cloud.connect(phone)
    cloud.send("Ann", action="create_room", name="Ann", settings={})
    code = cloud.last("Ann", "joined")["room"]
    tokens = {"Ann": cloud.last("Ann", "joined")["token"]}
    for phone in ("Bo", "Cy", "Di", "Ed", "Flo"):
        cloud.send(phone, action="join", room=code, name=phone)
        tokens[phone] = cloud.last(phone, "joined")["token"]
    cloud.send("Ann", action="kick", target="Flo")
    cloud.send("Ed", action="leave")
    cloud.send("Ann", action="settings", settings={"discussion_limit": 30})
    cloud.send("Ann", action="start")
    # a phone reconnects with its token; the host's phone goes, the grace period passes
    cloud.disconnect("Bo")
    assert cloud.reconnect("Bo-again", code, tokens["Bo"]) == {"statusCode": 200}
    # a seat moves to a new phone by its one-time link
    cloud.send("Cy", action="seat_link")
    cloud.connect("Cy-new")
    cloud.send("Cy-new", action="take_seat", room=code, key=cloud.last("Cy", "seat_link")["key"])
    assert cloud.last("Cy-new", "joined")["name"] == "Cy"
    cloud.disconnect("Ann")
    _fire_every_due_timer(cloud)  # Ann's host check, and her away check
    assert lambda_app.timer_service().current_room(code).state.cat("Ann").away
    # a whole game, then a rematch: five cats make the calls twelve do (it took 49 s at 12)
    names, _, _ = cloud.table(5, {"discussion_limit": 30})
    cloud.play(names, seed=11)
    cloud.send(names[0], action="rematch")


@pytest.fixture(scope="module")
def recorded() -> tuple[list[iam.Call], Stack, dict[str, str]]:
    import os

    recorder = iam.CallRecorder(TEMPLATE)
    with moto_cloud() as cloud, recorder.recording():
        _play_every_path(cloud)
        env = {name: os.environ[name] for name in TEMPLATE.environment() if name in os.environ}
        stack = _stack(TEMPLATE, os.environ["TIMER_QUEUE_URL"])
    return recorder.calls, stack, env


def _denied(calls: list[iam.Call], stack: Stack) -> list[tuple[str, iam.Need]]:
    statements = {
        function: iam.function_statements(stack.template, stack.resolve, function)
        for function in {call.function for call in calls}
    }
    return [
        (call.function, need)
        for call in calls
        for need in iam.needs(call, stack.account)
        if not iam.allowed(statements[call.function], need)
    ]


def test_the_handlers_run_with_the_environment_the_template_gives_them(recorded):
    _, stack, env = recorded
    for name, value in TEMPLATE.environment().items():
        if name in env:
            assert stack.resolve(value) == env[name], name


def test_every_function_of_the_template_made_calls_and_every_call_is_allowed(recorded):
    calls, stack, _ = recorded
    functions = set(TEMPLATE.of_type("AWS::Serverless::Function"))
    assert {call.function for call in calls} == functions
    assert _denied(calls, stack) == []


def test_a_transaction_that_ends_a_step_was_recorded_item_by_item(recorded):
    """The kind of call the landed policy refused on AWS: moto let it through."""
    calls, stack, _ = recorded
    kinds = Counter(
        need.action
        for call in calls
        if call.operation == "TransactWriteItems"
        for need in iam.needs(call, stack.account)
    )
    # The room's put, and on the step's item an Update removing the merged seats' moves
    # and closing the ended step: never a Delete of the whole item, which would take a
    # seat's move written after the load with it, and no ConditionCheck (an ended step's
    # item is always updated).
    assert kinds["dynamodb:PutItem"] and kinds["dynamodb:UpdateItem"]
    assert not kinds["dynamodb:DeleteItem"] and not kinds["dynamodb:ConditionCheckItem"]


def test_the_policy_grants_exactly_the_actions_the_calls_need(recorded):
    calls, stack, _ = recorded
    needed = {need.action for call in calls for need in iam.needs(call, stack.account)}
    granted = {
        action
        for function in TEMPLATE.of_type("AWS::Serverless::Function")
        for statement in iam.function_statements(TEMPLATE, stack.resolve, function)
        for action in iam._listed(statement["Action"])
    }
    assert granted == needed


def _granted_actions(template: Template) -> list[str]:
    statements = template.resources[POLICY]["Properties"]["PolicyDocument"]["Statement"]
    return sorted({action for s in statements for action in iam._listed(s["Action"])})


@pytest.mark.parametrize("removed", _granted_actions(TEMPLATE))
def test_removing_any_granted_action_denies_a_recorded_call(recorded, removed):
    calls, stack, _ = recorded
    template = copy.deepcopy(TEMPLATE)
    statements = template.resources[POLICY]["Properties"]["PolicyDocument"]["Statement"]
    for statement in statements:
        statement["Action"] = [a for a in iam._listed(statement["Action"]) if a != removed]
    template.resources[POLICY]["Properties"]["PolicyDocument"]["Statement"] = [
        s for s in statements if s["Action"]
    ]
    narrowed = Stack(template, stack.region, stack.account, stack.name, stack.physical)
    denied = _denied(calls, narrowed)
    assert denied and {need.action for _, need in denied} == {removed}


def test_posting_to_another_stage_or_api_is_denied(recorded):
    calls, stack, _ = recorded
    (post, *_) = [c for c in calls if c.operation == "PostToConnection"]
    statements = iam.function_statements(TEMPLATE, stack.resolve, post.function)
    (need,) = iam.needs(post, stack.account)
    assert iam.allowed(statements, need)
    for other in (need.resource.replace("/prod/", "/dev/"), need.resource.replace(API_ID, "zzz9")):
        assert not iam.allowed(statements, iam.Need(need.action, other))


def test_an_unmapped_operation_fails_instead_of_passing():
    call = iam.Call("MessageFunction", "dynamodb", "ExecuteStatement", {}, "", REGION)
    with pytest.raises(iam.NoMapping):
        iam.needs(call, DEFAULT_ACCOUNT_ID)


def test_transaction_items_are_authorized_one_by_one():
    table = {"TableName": "t"}
    call = iam.Call("MessageFunction", "dynamodb", "TransactWriteItems", {"TransactItems": [
        {"Put": table}, {"Delete": table}, {"ConditionCheck": table}, {"Update": table}]},
        "", REGION)  # fmt: skip
    arn = f"arn:aws:dynamodb:{REGION}:{DEFAULT_ACCOUNT_ID}:table/t"
    assert iam.needs(call, DEFAULT_ACCOUNT_ID) == [
        iam.Need("dynamodb:PutItem", arn), iam.Need("dynamodb:DeleteItem", arn),
        iam.Need("dynamodb:ConditionCheckItem", arn), iam.Need("dynamodb:UpdateItem", arn),
    ]  # fmt: skip
