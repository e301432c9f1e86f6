"""How AWS bills what the handlers do: DynamoDB request units from item sizes, API Gateway
WebSocket messages, the list prices. Each rule cites its AWS page in docs/performance.md
("How each service bills"); nothing here knows the game.
"""

import math
import re
from pathlib import Path
from typing import Any

#: AWS list prices, us-east-1 / eu-west-1 on-demand, checked November 2026 (USD).
PRICE = {
    "lambda_gb_second_arm": 0.0000133334,
    "lambda_request": 0.20 / 1e6,
    "apigw_message_32kb": 1.00 / 1e6,
    "apigw_connection_minute": 0.25 / 1e6,
    "dynamodb_write_unit": 0.625 / 1e6,
    "dynamodb_read_unit": 0.125 / 1e6,
    "sqs_request": 0.40 / 1e6,
    "data_out_gb": 0.09,
    "log_ingestion_gb": 0.50,
    "xray_trace_recorded": 5.00 / 1e6,
    "xray_trace_retrieved": 0.50 / 1e6,
    "alarm_metric_month": 0.10,
    "cloudfront_https_request": 0.01 / 10_000,
    "cloudfront_data_out_gb": 0.085,
}

READ_UNIT_BYTES = 4096
WRITE_UNIT_BYTES = 1024
#: API Gateway meters WebSocket messages in 32 KB increments (a 33 KB message is two).
APIGW_MESSAGE_BYTES = 32 * 1024
#: SQS bills each 64 KB chunk of a request's payload as one request.
SQS_CHUNK_BYTES = 64 * 1024


# -- DynamoDB item sizes ------------------------------------------------------------------
def item_size(item: dict[str, dict[str, Any]] | None) -> int:
    """An item's size as DynamoDB counts it: each attribute's UTF-8 name plus its value."""
    return sum(len(name.encode()) + value_size(value) for name, value in (item or {}).items())


def value_size(value: dict[str, Any]) -> int:
    """One attribute value: strings by UTF-8 bytes, binary by raw bytes, numbers one byte per
    two significant digits plus one, booleans and null one byte; a list or map 3 bytes plus
    its elements, each element one byte more (names of a map's elements count too)."""
    ((kind, data),) = value.items()
    if kind == "S":
        return len(data.encode())
    if kind == "N":
        return number_size(data)
    if kind == "B":
        return len(data)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "SS":
        return sum(len(s.encode()) for s in data)
    if kind == "NS":
        return sum(number_size(n) for n in data)
    if kind == "BS":
        return sum(len(b) for b in data)
    if kind == "L":
        return 3 + sum(1 + value_size(v) for v in data)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + value_size(v) for k, v in data.items())
    raise ValueError(f"unknown DynamoDB type {kind}")


def number_size(text: str) -> int:
    digits = re.sub(r"[^0-9]", "", text.lower().split("e")[0]).strip("0") or "0"
    return math.ceil(len(digits) / 2) + 1


# -- DynamoDB request units ---------------------------------------------------------------
def read_units(size: int, consistent: bool) -> float:
    """A read: its size rounded up to 4 KB (at least one unit, even for no item), half for an
    eventually consistent read."""
    return max(1, math.ceil(size / READ_UNIT_BYTES)) * (1.0 if consistent else 0.5)


def write_units(size: int) -> int:
    """A write: the item's size rounded up to 1 KB, at least one unit."""
    return max(1, math.ceil(size / WRITE_UNIT_BYTES))


def dynamodb_units(op: str, params: dict, result: dict | None, failed: bool,
                   before: list[int], after: list[int]) -> tuple[float, float]:  # fmt: skip
    """(read units, write units) of one call. ``before``/``after``: the sizes of the items
    a write touches as they were before and after it (for a transaction, in its order).

    - GetItem: the item's size; Query: the sizes of all items it returns, summed, then
      rounded (4 KB units; half for eventually consistent reads).
    - PutItem, UpdateItem: the larger of the item before and after; DeleteItem: the item
      deleted; a write whose condition failed: the item as it is (at least 1).
    - TransactWriteItems: twice the units of each item (prepare and commit), a
      ConditionCheck billed on the item it checks. A cancelled transaction is counted
      as its prepare: once each item as it is (an assumption: docs/performance.md).
    - TTL deletes cost nothing (they never pass through here)."""
    consistent = bool(params.get("ConsistentRead"))
    if op == "get_item":
        return read_units(item_size((result or {}).get("Item")), consistent), 0.0
    if op == "query":
        total = sum(item_size(i) for i in (result or {}).get("Items", []))
        return read_units(total, consistent), 0.0
    if op in ("put_item", "update_item", "delete_item"):
        if failed:
            return 0.0, write_units(before[0])
        return 0.0, write_units(max(before[0], after[0]))
    if op == "transact_write_items":
        if failed:
            return 0.0, sum(write_units(size) for size in before)
        return 0.0, sum(2 * write_units(max(b, a)) for b, a in zip(before, after, strict=True))
    return 0.0, 0.0


def transaction_keys(params: dict) -> list[dict]:
    """The key of each item of a TransactWriteItems call, in order."""
    keys = []
    for entry in params["TransactItems"]:
        ((kind, action),) = entry.items()
        keys.append(action["Key"] if kind != "Put" else None)
    return keys


# -- API Gateway ------------------------------------------------------------------------
def apigw_messages(size_bytes: int) -> int:
    return max(1, math.ceil(size_bytes / APIGW_MESSAGE_BYTES))


# -- the client's heartbeat and the stage's access log line, read from their sources -------
ROOT = Path(__file__).resolve().parent.parent


def heartbeat_minutes() -> float:
    """The phone's heartbeat interval (frontend/js/connection.js's HEARTBEAT_MS)."""
    source = (ROOT / "frontend/js/connection.js").read_text()
    match = re.search(r"const HEARTBEAT_MS = ([0-9 *]+);", source)
    if match is None:
        raise ValueError("frontend/js/connection.js: no HEARTBEAT_MS")
    return math.prod(int(factor) for factor in match.group(1).split("*")) / 60_000


#: Typical values of the access log's $context variables (their usual lengths).
ACCESS_LOG_SAMPLE = {
    "requestId": "Jx9GxGH9DoEFk0A=", "requestTimeEpoch": "1800000000000",
    "eventType": "MESSAGE", "routeKey": "$default", "connectionId": "Jx9GxcqLDoECFOg=",
    "status": "200", "error.message": "-", "integration.error": "-",
    "integrationLatency": "45", "identity.sourceIp": "203.0.113.17",
}  # fmt: skip


def access_log_line_bytes(access_log_format: str) -> int:
    """One access log line: the stage's format with typical values filled in."""
    line = re.sub(r"\$context\.([A-Za-z.]+)",
                  lambda m: ACCESS_LOG_SAMPLE.get(m.group(1), "x" * 8), access_log_format)  # fmt: skip
    return len(line.replace("\n", "").encode()) + 1
