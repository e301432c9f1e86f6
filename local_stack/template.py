"""What the local stack needs from template.yaml, read from it (never a second copy):
the table and queues to create, the WebSocket routes and their handler functions, the
SQS event source of the timer function, the functions' environment variables, and the
browser security headers the site's CloudFront distribution adds to every response.
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

    # -- the static site -------------------------------------------------------------------
    def frontend_headers(self) -> "FrontendHeaders | None":
        """The headers the distribution's default cache behaviour adds to every response
        (its ``ResponseHeadersPolicyId``'s policy), or None if it names no policy."""
        for distribution in self.of_type("AWS::CloudFront::Distribution").values():
            behaviour = distribution["DistributionConfig"]["DefaultCacheBehavior"]
            policy_id = _logical_id(behaviour.get("ResponseHeadersPolicyId"))
            if policy_id is None:
                continue
            policy = self.resources[policy_id]
            if policy["Type"] != "AWS::CloudFront::ResponseHeadersPolicy":
                raise ValueError(f"template.yaml: ResponseHeadersPolicyId names {policy_id}, "
                                 f"a {policy['Type']}")  # fmt: skip
            return FrontendHeaders.of_policy(policy_id, policy["Properties"])
        return None

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


def _logical_id(value: Any) -> str | None:
    """The resource a `!Ref X` or `!GetAtt X.Id` names (None for anything else)."""
    if isinstance(value, dict) and "Ref" in value:
        return value["Ref"]
    if isinstance(value, dict) and "Fn::GetAtt" in value and value["Fn::GetAtt"][1] == "Id":
        return value["Fn::GetAtt"][0]
    return None


#: In a policy's Content-Security-Policy, the source naming the WebSocket API
#: (``wss://${WebSocketApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}``): another server
#: puts its own WebSocket origin there.
_WEBSOCKET_API_SOURCE = re.compile(r"[^\s;]*\$\{WebSocketApi\}[^\s;]*")
_WEBSOCKET_ORIGIN = "{websocket origin}"  # where that source was (not a valid source)


@dataclass(frozen=True)
class FrontendHeaders:
    """A CloudFront response headers policy's headers (AWS::CloudFront::ResponseHeadersPolicy:
    SecurityHeadersConfig and CustomHeadersConfig) as the HTTP headers CloudFront sends,
    for a server that is not CloudFront. The Content-Security-Policy names the deployed
    WebSocket API; ``for_websocket`` puts another WebSocket origin in its place."""

    policy: str  # the policy's logical id
    headers: dict[str, str]  # the CSP with _WEBSOCKET_ORIGIN where the API's origin was

    @classmethod
    def of_policy(cls, logical_id: str, properties: dict[str, Any]) -> "FrontendHeaders":
        config = properties["ResponseHeadersPolicyConfig"]
        security = config.get("SecurityHeadersConfig", {})
        unknown = sorted(set(security) - _SECURITY_HEADERS.keys())
        if unknown:
            raise ValueError(f"template.yaml: {logical_id}: the local stack knows no {unknown}")
        headers = {}
        for name, setting in security.items():
            header, value_of = _SECURITY_HEADERS[name]
            headers[header] = value_of(setting)
        for custom in config.get("CustomHeadersConfig", {}).get("Items", []):
            headers[custom["Header"]] = custom["Value"]
        for name, value in headers.items():
            if not isinstance(value, str) or "${" in value:
                raise ValueError(f"template.yaml: {logical_id}: the local stack cannot resolve "
                                 f"{name}: {value!r}")  # fmt: skip
        return cls(logical_id, headers)

    def for_websocket(self, origin: str | None) -> dict[str, str]:
        """The headers, the CSP's WebSocket API source replaced by ``origin`` (None: left
        out, so the page may connect only to the CSP's other sources)."""
        return {name: value.replace(_WEBSOCKET_ORIGIN, origin) if origin
                else re.sub(rf"\s*{re.escape(_WEBSOCKET_ORIGIN)}", "", value)
                for name, value in self.headers.items()}  # fmt: skip


def _content_security_policy(setting: dict[str, Any]) -> str:
    value = setting["ContentSecurityPolicy"]
    if isinstance(value, dict) and set(value) == {"Fn::Sub"} and isinstance(value["Fn::Sub"], str):
        value = _WEBSOCKET_API_SOURCE.sub(_WEBSOCKET_ORIGIN, value["Fn::Sub"])
    return value


def _strict_transport_security(setting: dict[str, Any]) -> str:
    return "; ".join([f"max-age={int(setting['AccessControlMaxAgeSec'])}"]
                     + ["includeSubDomains"] * bool(setting.get("IncludeSubdomains"))
                     + ["preload"] * bool(setting.get("Preload")))  # fmt: skip


def _xss_protection(setting: dict[str, Any]) -> str:
    if not setting["Protection"]:
        return "0"
    return "; ".join(["1"] + ["mode=block"] * bool(setting.get("ModeBlock"))
                     + [f"report={setting['ReportUri']}"] * bool(setting.get("ReportUri")))  # fmt: skip


#: SecurityHeadersConfig's settings → (the HTTP header, its value), as the CloudFront
#: documentation describes each (ResponseHeadersPolicySecurityHeadersConfig).
_SECURITY_HEADERS = {
    "ContentSecurityPolicy": ("Content-Security-Policy", _content_security_policy),
    "ContentTypeOptions": ("X-Content-Type-Options", lambda setting: "nosniff"),
    "FrameOptions": ("X-Frame-Options", lambda setting: setting["FrameOption"]),
    "ReferrerPolicy": ("Referrer-Policy", lambda setting: setting["ReferrerPolicy"]),
    "StrictTransportSecurity": ("Strict-Transport-Security", _strict_transport_security),
    "XSSProtection": ("X-XSS-Protection", _xss_protection),
}


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
