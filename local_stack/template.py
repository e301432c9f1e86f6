"""What the local stack needs from template.yaml, read from it (never a second copy):
the table and queues to create, the WebSocket routes and their handler functions, the
SQS event source of the timer function, and the functions' environment variables.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

TEMPLATE = Path(__file__).resolve().parent.parent / "template.yaml"


class _CloudFormationLoader(yaml.SafeLoader):
    """YAML with CloudFormation's short tags (!Ref, !GetAtt, !Sub …) as their long forms."""


def _intrinsic(loader: yaml.Loader, tag_suffix: str, node: yaml.Node) -> dict[str, Any]:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    if tag_suffix == "Ref":
        return {"Ref": value}
    if tag_suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {f"Fn::{tag_suffix}": value}


_CloudFormationLoader.add_multi_constructor("!", _intrinsic)


@dataclass(frozen=True)
class Function:
    logical_id: str
    handler: str  # "functions.message.handler"
    timeout: float
    memory_mb: int


@dataclass(frozen=True)
class QueueSource:
    """An SQS event source mapping (SAM `Events: Type: SQS`)."""

    function: Function
    queue: str  # the queue's logical id
    batch_size: int
    report_batch_item_failures: bool


@dataclass
class Template:
    resources: dict[str, dict[str, Any]]
    globals_function: dict[str, Any]
    parameters: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path = TEMPLATE) -> "Template":
        raw = yaml.load(path.read_text(), Loader=_CloudFormationLoader)
        return cls(raw["Resources"], raw.get("Globals", {}).get("Function", {}),
                   raw.get("Parameters", {}))  # fmt: skip

    def of_type(self, kind: str) -> dict[str, dict[str, Any]]:
        return {
            logical_id: resource.get("Properties", {})
            for logical_id, resource in self.resources.items()
            if resource["Type"] == kind
        }

    def parameter_default(self, name: str) -> Any:
        return self.parameters[name].get("Default")

    # -- data ------------------------------------------------------------------------------
    def tables(self) -> dict[str, dict[str, Any]]:
        return self.of_type("AWS::DynamoDB::Table")

    def queues(self) -> dict[str, dict[str, Any]]:
        return self.of_type("AWS::SQS::Queue")

    # -- functions -------------------------------------------------------------------------
    def function(self, logical_id: str) -> Function:
        props = {**self.globals_function, **self.resources[logical_id]["Properties"]}
        return Function(logical_id, props["Handler"], float(props.get("Timeout", 3)),
                        int(props.get("MemorySize", 128)))  # fmt: skip

    def environment(self) -> dict[str, Any]:
        """The functions' shared variables (values still CloudFormation expressions)."""
        return dict(self.globals_function.get("Environment", {}).get("Variables", {}))

    # -- WebSocket API ---------------------------------------------------------------------
    def route_selection_expression(self) -> str:
        (api,) = [
            props
            for props in self.of_type("AWS::ApiGatewayV2::Api").values()
            if props.get("ProtocolType") == "WEBSOCKET"
        ]
        return api["RouteSelectionExpression"]

    def routes(self) -> dict[str, Function]:
        """Route key ("$connect", "$default", …) → the function its integration invokes."""
        found = {}
        for props in self.of_type("AWS::ApiGatewayV2::Route").values():
            integration_id = _sub_reference(props["Target"])
            integration = self.resources[integration_id]["Properties"]
            function_id = _sub_reference(integration["IntegrationUri"]).removesuffix(".Arn")
            found[props["RouteKey"]] = self.function(function_id)
        return found

    def queue_sources(self) -> list[QueueSource]:
        sources = []
        for logical_id, resource in self.resources.items():
            if resource["Type"] != "AWS::Serverless::Function":
                continue
            for event in resource["Properties"].get("Events", {}).values():
                if event["Type"] != "SQS":
                    continue
                props = event["Properties"]
                sources.append(QueueSource(
                    self.function(logical_id), props["Queue"]["Fn::GetAtt"][0],
                    int(props.get("BatchSize", 10)),
                    "ReportBatchItemFailures" in props.get("FunctionResponseTypes", []),
                ))  # fmt: skip
        return sources


def _sub_reference(value: dict[str, Any]) -> str:
    """The one ${Name} or ${Name.Attr} a `!Sub` string refers to (other than AWS::…)."""
    text = value["Fn::Sub"]
    names = [part.split("}", 1)[0] for part in text.split("${")[1:] if not part.startswith("AWS::")]
    (name,) = names
    return name
