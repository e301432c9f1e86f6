"""DynamoDB and SQS for the local stack: moto in server mode (embedded, in a thread) or
endpoints the user gives, with the table and queues created from template.yaml.
"""

import json
import threading
from dataclasses import dataclass
from typing import Any

import boto3
from werkzeug.serving import make_server

from .template import Template

REGION = "eu-west-1"
#: Local physical names: `<prefix>-<LogicalId>` (CloudFormation would add a suffix).
NAME_PREFIX = "catch-the-witch-local"


class EmbeddedAws:
    """moto's server (DynamoDB + SQS) on 127.0.0.1 in a daemon thread.

    moto's DynamoDB backend is not thread-safe (a conditional write racing another can
    both succeed), so its requests run one at a time, like DynamoDB's own per-item
    serialization; SQS requests stay concurrent so a long poll blocks nothing else.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0):
        from moto.moto_server.werkzeug_app import (
            DomainDispatcherApplication,
            MotoRequestHandler,
            create_backend_app,
        )

        class QuietHandler(MotoRequestHandler):
            def log_request(self, *args, **kwargs) -> None:  # one line per request is noise
                pass

        app = _serialize_dynamodb(DomainDispatcherApplication(create_backend_app))
        self._server = make_server(host, port, app, threaded=True,
                                   request_handler=QuietHandler)  # fmt: skip
        # Checking for shutdown every 0.05 s rather than serve_forever's 0.5: Ctrl-C waits for it.
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name="moto", daemon=True)  # fmt: skip

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "EmbeddedAws":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=5)


def _serialize_dynamodb(app):
    lock = threading.Lock()

    def locked_app(environ, start_response):
        if environ.get("HTTP_X_AMZ_TARGET", "").startswith("DynamoDB"):
            with lock:
                return list(app(environ, start_response))
        return app(environ, start_response)

    return locked_app


@dataclass(frozen=True)
class Provisioned:
    """Physical ids of the template's data resources, by logical id."""

    tables: dict[str, str]
    queue_urls: dict[str, str]
    queue_arns: dict[str, str]

    def ref(self, logical_id: str) -> str:
        """What `!Ref` gives in CloudFormation: a table's name, a queue's URL."""
        return {**self.tables, **self.queue_urls}[logical_id]


def provision(template: Template, dynamodb_url: str, sqs_url: str) -> Provisioned:
    """Create (or reuse, if they already exist) the template's tables and queues."""
    db = boto3.client("dynamodb", endpoint_url=dynamodb_url, region_name=REGION)
    sqs = boto3.client("sqs", endpoint_url=sqs_url, region_name=REGION)
    tables = {
        logical_id: _create_table(db, f"{NAME_PREFIX}-{logical_id}", props)
        for logical_id, props in template.tables().items()
    }
    urls: dict[str, str] = {}
    arns: dict[str, str] = {}
    pending = dict(template.queues())
    while pending:  # a queue is created after the dead-letter queue it names
        ready = [q for q, props in pending.items() if _queue_dependency(props) not in pending]
        if not ready:
            raise ValueError(f"template.yaml: queues refer to each other: {sorted(pending)}")
        for logical_id in ready:
            props = pending.pop(logical_id)
            attributes = _queue_attributes(props, arns)
            url = sqs.create_queue(QueueName=f"{NAME_PREFIX}-{logical_id}",
                                   Attributes=attributes)["QueueUrl"]  # fmt: skip
            urls[logical_id] = url
            arns[logical_id] = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
                "Attributes"
            ]["QueueArn"]
    return Provisioned(tables, urls, arns)


def _create_table(db, name: str, props: dict[str, Any]) -> str:
    arguments = {
        "TableName": name,
        "KeySchema": props["KeySchema"],
        "AttributeDefinitions": props["AttributeDefinitions"],
        "BillingMode": props.get("BillingMode", "PROVISIONED"),
    }
    if arguments["BillingMode"] == "PROVISIONED":
        arguments["ProvisionedThroughput"] = props["ProvisionedThroughput"]
    try:
        db.create_table(**arguments)
    except db.exceptions.ResourceInUseException:
        return name  # a user-given DynamoDB (e.g. DynamoDB Local) kept it from last time
    ttl = props.get("TimeToLiveSpecification")
    if ttl:
        db.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
    return name


def _queue_dependency(props: dict[str, Any]) -> str | None:
    target = props.get("RedrivePolicy", {}).get("deadLetterTargetArn")
    return target["Fn::GetAtt"][0] if isinstance(target, dict) else None


def _queue_attributes(props: dict[str, Any], arns: dict[str, str]) -> dict[str, str]:
    attributes = {
        key: str(props[key]).lower() if isinstance(props[key], bool) else str(props[key])
        for key in ("VisibilityTimeout", "MessageRetentionPeriod", "DelaySeconds",
                    "ReceiveMessageWaitTimeSeconds", "SqsManagedSseEnabled")
        if key in props
    }  # fmt: skip
    redrive = props.get("RedrivePolicy")
    if redrive:
        dead_letter = _queue_dependency(props)
        attributes["RedrivePolicy"] = json.dumps({
            "deadLetterTargetArn": arns[dead_letter] if dead_letter else redrive["deadLetterTargetArn"],
            "maxReceiveCount": int(redrive["maxReceiveCount"]),
        })  # fmt: skip
    return attributes
