"""What the local stack needs from template.yaml, read from it (never a second copy):
the table and queues to create, the WebSocket routes and their handler functions, the
SQS event source of the timer function, and the functions' environment variables.
"""

import re
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


#: Pseudo parameters, as CloudFormation gives them (the account and region are moto's).
PSEUDO_PARAMETERS = {"AWS::Partition": "aws", "AWS::URLSuffix": "amazonaws.com"}


@dataclass(frozen=True)
class Stack:
    """A deployed template's physical names, for resolving its expressions offline:
    ``physical`` maps a logical id to what `!Ref` gives (a table's name, a queue's URL, an
    API's id); ARNs for `!GetAtt X.Arn` follow from it and the resource's type."""

    template: Template
    region: str
    account: str
    name: str
    physical: dict[str, str]

    def resolve(self, value: Any) -> Any:
        """`!Ref`, `!GetAtt`, `!Sub` and `!Join` resolved, recursively; anything else raises."""
        if isinstance(value, list):
            return [self.resolve(item) for item in value]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((key, argument),) = value.items()
            if key == "Ref":
                return self._ref(argument)
            if key == "Fn::GetAtt":
                return self._get_att(*argument)
            if key == "Fn::Sub":
                return self._sub(argument)
            if key == "Fn::Join":
                separator, items = argument
                return separator.join(self.resolve(items))
            if key.startswith("Fn::") or key == "Condition":
                raise ValueError(f"template.yaml: cannot resolve {key} offline: {value!r}")
        return {key: self.resolve(item) for key, item in value.items()}

    def _pseudo(self) -> dict[str, str]:
        return {**PSEUDO_PARAMETERS, "AWS::Region": self.region, "AWS::AccountId": self.account,
                "AWS::StackName": self.name}  # fmt: skip

    def _ref(self, name: str) -> str:
        if name in self._pseudo():
            return self._pseudo()[name]
        if name in self.template.parameters:
            return str(self.template.parameter_default(name))
        return self.physical[name]

    def _get_att(self, name: str, attribute: str) -> str:
        kind = self.template.resources[name]["Type"]
        physical = self.physical[name]
        arn = f"arn:aws:{{}}:{self.region}:{self.account}:{{}}"
        if (kind, attribute) == ("AWS::DynamoDB::Table", "Arn"):
            return arn.format("dynamodb", f"table/{physical}")
        if (kind, attribute) == ("AWS::SQS::Queue", "Arn"):
            return arn.format("sqs", physical.rstrip("/").rsplit("/", 1)[1])
        if (kind, attribute) == ("AWS::SQS::Queue", "QueueName"):
            return physical.rstrip("/").rsplit("/", 1)[1]
        raise ValueError(f"template.yaml: cannot resolve {name}.{attribute} offline")

    def _sub(self, argument: str | list) -> str:
        text, variables = (argument, {}) if isinstance(argument, str) else argument
        variables = {key: self.resolve(item) for key, item in variables.items()}

        def replace(match: re.Match) -> str:
            name = match.group(1)
            if name in variables:
                return str(variables[name])
            if "." in name and not name.startswith("AWS::"):
                return self._get_att(*name.split(".", 1))
            return self._ref(name)

        return re.sub(r"\$\{([^}!]+)\}", replace, text)
