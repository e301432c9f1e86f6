"""What IAM would say of the AWS calls the handlers make, offline.

moto never checks permissions (and its optional IAM mode checks a made-up
``dynamodb:TransactWriteItems`` action), so the tests record every call the real boto3
clients make (botocore's ``before-parameter-build`` hook), turn each into the IAM
actions and resource ARNs AWS checks for it, and evaluate those against the statements
of the policies the template attaches to the function that made the call.

The mapping follows AWS's documentation:
- DynamoDB, "Actions, resources, and condition keys for Amazon DynamoDB" and "Using IAM
  with DynamoDB transactions": a transaction is authorized item by item, as
  ``PutItem``, ``UpdateItem``, ``DeleteItem`` and ``ConditionCheckItem`` (a ``Get`` of
  ``TransactGetItems`` as ``GetItem``), each on its table's ARN; ``Query``/``Scan`` on
  an index are checked on the index's ARN.
- API Gateway, "Use IAM authorization for the @connections commands":
  ``execute-api:ManageConnections`` on
  ``arn:aws:execute-api:{region}:{account}:{api-id}/{stage}/{POST|GET|DELETE}/@connections/{id}``.
- SQS: ``sqs:<Operation>`` on the queue's ARN (``SendMessageBatch`` is ``SendMessage``).

An operation without a mapping here fails the test: add it from the documentation.
"""

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock
from urllib.parse import urlparse

from functions.room_service.adapters import aws_client
from local_stack.template import Template


@dataclass(frozen=True)
class Call:
    """One API call as a client made it."""

    function: str  # the template's logical id of the function that made it
    service: str  # botocore's service name: "dynamodb", "sqs", "apigatewaymanagementapi"
    operation: str  # "TransactWriteItems"
    params: dict[str, Any]
    endpoint: str
    region: str


@dataclass(frozen=True)
class Need:
    """One authorization AWS makes for a call."""

    action: str
    resource: str


class NoMapping(Exception):
    pass


_DYNAMODB_TRANSACTION_ACTIONS = {
    "Put": "dynamodb:PutItem",
    "Update": "dynamodb:UpdateItem",
    "Delete": "dynamodb:DeleteItem",
    "ConditionCheck": "dynamodb:ConditionCheckItem",
    "Get": "dynamodb:GetItem",
}
_DYNAMODB_SINGLE_TABLE = {"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan",
                          "DescribeTable"}  # fmt: skip
_CONNECTION_METHODS = {"PostToConnection": "POST", "GetConnection": "GET",
                       "DeleteConnection": "DELETE"}  # fmt: skip
_SQS_ACTIONS = {"SendMessage": "sqs:SendMessage", "SendMessageBatch": "sqs:SendMessage",
                "ReceiveMessage": "sqs:ReceiveMessage", "DeleteMessage": "sqs:DeleteMessage",
                "GetQueueAttributes": "sqs:GetQueueAttributes"}  # fmt: skip


def needs(call: Call, account: str) -> list[Need]:
    """The IAM actions and resources AWS authorizes for one call."""
    if call.service == "dynamodb":
        return _dynamodb_needs(call, account)
    if call.service == "sqs" and call.operation in _SQS_ACTIONS:
        region, queue_account, name = _queue_from_url(call.params["QueueUrl"], call.region)
        return [Need(_SQS_ACTIONS[call.operation], f"arn:aws:sqs:{region}:{queue_account}:{name}")]
    if call.service == "apigatewaymanagementapi" and call.operation in _CONNECTION_METHODS:
        api_id, stage = _api_from_endpoint(call.endpoint)
        method = _CONNECTION_METHODS[call.operation]
        resource = (f"arn:aws:execute-api:{call.region}:{account}:{api_id}/{stage}/{method}"
                    f"/@connections/{call.params['ConnectionId']}")  # fmt: skip
        return [Need("execute-api:ManageConnections", resource)]
    raise NoMapping(f"{call.service}.{call.operation}: map it to IAM in tests/support/iam.py")


def _dynamodb_needs(call: Call, account: str) -> list[Need]:
    def table(name: str, index: str | None = None) -> str:
        arn = f"arn:aws:dynamodb:{call.region}:{account}:table/{name}"
        return f"{arn}/index/{index}" if index else arn

    params, operation = call.params, call.operation
    if operation in _DYNAMODB_SINGLE_TABLE:
        return [Need(f"dynamodb:{operation}", table(params["TableName"], params.get("IndexName")))]
    if operation in ("TransactWriteItems", "TransactGetItems"):
        found = []
        for entry in params["TransactItems"]:
            ((kind, item),) = entry.items()
            found.append(Need(_DYNAMODB_TRANSACTION_ACTIONS[kind], table(item["TableName"])))
        return found
    if operation in ("BatchGetItem", "BatchWriteItem"):
        return [Need(f"dynamodb:{operation}", table(name)) for name in params["RequestItems"]]
    raise NoMapping(f"dynamodb.{operation}: map it to IAM in tests/support/iam.py")


def _queue_from_url(url: str, region: str) -> tuple[str, str, str]:
    """https://sqs.<region>.amazonaws.com/<account>/<name> (moto's URLs have this shape too)."""
    parsed = urlparse(url)
    account, name = parsed.path.strip("/").split("/")
    host_region = parsed.hostname.split(".")[1] if parsed.hostname.startswith("sqs.") else region
    return host_region, account, name


def _api_from_endpoint(endpoint: str) -> tuple[str, str]:
    """https://<api-id>.execute-api.<region>.amazonaws.com/<stage>"""
    parsed = urlparse(endpoint)
    if ".execute-api." not in (parsed.hostname or ""):
        raise NoMapping(f"not an API Gateway endpoint: {endpoint}")
    return parsed.hostname.split(".")[0], parsed.path.strip("/")


# -- policies -------------------------------------------------------------------------------
def function_statements(template: Template, resolve: Callable[[Any], Any],
                        function: str) -> list[dict[str, Any]]:  # fmt: skip
    """Every statement of the policies the template attaches to a function, resolved.

    Handles what this template uses: `!Ref` to an ``AWS::IAM::ManagedPolicy`` of the
    template, and inline policy documents; anything else (a SAM policy template, an AWS
    managed policy's ARN) raises, so it cannot pass unchecked."""
    statements = []
    for policy in template.resources[function]["Properties"].get("Policies", []):
        if isinstance(policy, dict) and set(policy) == {"Ref"}:
            resource = template.resources[policy["Ref"]]
            if resource["Type"] != "AWS::IAM::ManagedPolicy":
                raise ValueError(f"{function}: {policy['Ref']} is not a managed policy")
            document = resource["Properties"]["PolicyDocument"]
        elif isinstance(policy, dict) and "Statement" in policy:
            document = policy
        else:
            raise ValueError(f"{function}: cannot check policy {policy!r} offline")
        statements.extend(resolve(document)["Statement"])
    return statements


def _listed(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _matches(pattern: str, value: str, *, ignore_case: bool = False) -> bool:
    """IAM's wildcards: ``*`` any run of characters (``/`` included), ``?`` one."""
    regex = re.escape(pattern).replace(r"\*", ".*").replace(r"\?", ".")
    return re.fullmatch(regex, value, re.IGNORECASE if ignore_case else 0) is not None


def _statement_applies(statement: dict[str, Any], need: Need) -> bool:
    unsupported = {"NotAction", "NotResource", "Condition", "NotPrincipal"} & set(statement)
    if unsupported:
        raise ValueError(f"cannot evaluate {sorted(unsupported)} offline: {statement!r}")
    return any(
        _matches(action, need.action, ignore_case=True) for action in _listed(statement["Action"])
    ) and any(_matches(resource, need.resource) for resource in _listed(statement["Resource"]))


def allowed(statements: list[dict[str, Any]], need: Need) -> bool:
    """An explicit Deny wins; otherwise some Allow must apply (IAM's default is deny)."""
    applying = [s for s in statements if _statement_applies(s, need)]
    return bool(applying) and all(s["Effect"] == "Allow" for s in applying)


# -- recording ------------------------------------------------------------------------------
class CallRecorder:
    """Records every call of the handlers' boto3 clients, with the function making it.

    The clients are the real ones (functions/room_service/adapters/aws_client.py's ``client``); a hook on
    each client's own event system sees the operation and its parameters before they are
    serialized. The function is the template's: each handler module named by a
    ``Handler`` is wrapped to say which function is running."""

    def __init__(self, template: Template) -> None:
        self.template = template
        self.calls: list[Call] = []
        self.running: str | None = None
        self._hooked: set[int] = set()

    @contextmanager
    def recording(self) -> Iterator["CallRecorder"]:
        real_client = aws_client.client
        patches = [mock.patch.object(aws_client, "client", self._client_of(real_client))]
        for logical_id, props in self.template.of_type("AWS::Serverless::Function").items():
            module_name, attribute = props["Handler"].rsplit(".", 1)
            module = __import__(module_name, fromlist=[attribute])
            handler = getattr(module, attribute)
            patches.append(mock.patch.object(module, attribute, self._run_as(logical_id, handler)))
        for patch in patches:
            patch.start()
        try:
            yield self
        finally:
            for patch in reversed(patches):
                patch.stop()

    def _run_as(self, logical_id: str, handler: Callable) -> Callable:
        def run(event, context):
            # Handlers run one at a time here; their push threads report this function.
            self.running = logical_id
            try:
                return handler(event, context)
            finally:
                self.running = None

        return run

    def _client_of(self, real_client: Callable) -> Callable:
        def client(service: str, endpoint_url: str | None = None):
            made = real_client(service, endpoint_url)
            if id(made) not in self._hooked:
                self._hooked.add(id(made))
                made.meta.events.register("before-parameter-build", self._hook(made))
            return made

        return client

    def _hook(self, client) -> Callable:
        def record(params, model, **_):
            if self.running is None:
                return  # the test's own set-up and read-back, not a handler's call
            self.calls.append(Call(self.running, client.meta.service_model.service_name,
                                   model.name, dict(params), client.meta.endpoint_url,
                                   client.meta.region_name))  # fmt: skip

        return record
