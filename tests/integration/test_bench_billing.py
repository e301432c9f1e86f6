"""bench/billing.py prices what the handlers do as AWS bills it (docs/performance.md, "How
each service bills"): each test is one billing rule from AWS's pages."""

import os
from unittest import mock

import boto3
import pytest
from moto import mock_aws

from bench import billing
from bench.billing import (
    access_log_line_bytes,
    apigw_messages,
    dynamodb_units,
    heartbeat_minutes,
    heartbeat_when_idle,
    idle_heartbeats,
    item_size,
)
from bench.recording import Recorder

KB = 1024


def blob(size: int) -> dict:
    """An item of exactly ``size`` bytes: a binary attribute named "b" (1 byte of name)."""
    return {"b": {"B": b"x" * (size - 1)}}


def test_item_size_counts_names_and_values_as_dynamodb_does():
    assert item_size({"name": {"S": "Cat1"}}) == 8  # UTF-8 name + UTF-8 value
    assert item_size({"n": {"N": "1234500"}}) == 1 + 3 + 1  # 12345: 3 bytes per 2 digits, +1
    assert item_size({"ok": {"BOOL": True}, "z": {"NULL": True}}) == 3 + 2
    assert item_size({"b": {"B": b"\x00\x01\x02"}}) == 4  # raw bytes, not base64
    # a map or list: 3 bytes, plus each element and one byte per element
    assert item_size({"m": {"M": {"a": {"S": "xy"}}}}) == 1 + 3 + (1 + 1 + 2)
    assert item_size({"l": {"L": [{"S": "xy"}, {"N": "7"}]}}) == 1 + 3 + (1 + 2) + (1 + 2)


def test_a_read_is_rounded_up_to_4_kb_and_half_when_eventually_consistent():
    item = blob(3500)
    assert dynamodb_units("get_item", {"ConsistentRead": True}, {"Item": item}, False, [], []) == (
        1.0,
        0.0,
    )
    big = {"Item": blob(10 * KB)}
    assert dynamodb_units("get_item", {"ConsistentRead": True}, big, False, [], [])[0] == 3.0
    assert dynamodb_units("get_item", {}, big, False, [], [])[0] == 1.5


def test_reading_no_item_still_costs_a_unit():
    assert dynamodb_units("get_item", {"ConsistentRead": True}, {}, False, [], [])[0] == 1.0
    assert dynamodb_units("get_item", {}, {}, False, [], [])[0] == 0.5


def test_a_query_sums_its_items_before_rounding():
    three = {"Items": [blob(1500), blob(1500), blob(1500)]}  # 4,500 bytes: 2 units, not 3
    assert dynamodb_units("query", {"ConsistentRead": True}, three, False, [], [])[0] == 2.0
    assert dynamodb_units("query", {"ConsistentRead": True}, {"Items": []}, False, [], [])[0] == 1


def test_a_write_bills_the_larger_of_the_item_before_and_after_in_1_kb_units():
    assert dynamodb_units("put_item", {}, {}, False, [0], [900]) == (0.0, 1)
    assert dynamodb_units("put_item", {}, {}, False, [2500], [900]) == (0.0, 3)  # replaced
    assert dynamodb_units("update_item", {}, {}, False, [300], [1100]) == (0.0, 2)
    assert dynamodb_units("delete_item", {}, {}, False, [2100], [0]) == (0.0, 3)  # the deleted


def test_a_failed_conditional_write_bills_the_item_as_it_is_at_least_one_unit():
    assert dynamodb_units("put_item", {}, None, True, [2100], []) == (0.0, 3)
    assert dynamodb_units("put_item", {}, None, True, [0], []) == (0.0, 1)


def test_a_transaction_bills_each_item_twice_condition_checks_included():
    params = {
        "TransactItems": [
            {"Put": {"TableName": "t", "Item": {}}},
            {"Delete": {"TableName": "t", "Key": {}}},
            {"ConditionCheck": {"TableName": "t", "Key": {}}},
        ]
    }
    before, after = [2000, 300, 0], [2300, 0, 0]
    assert dynamodb_units("transact_write_items", params, {}, False, before, after) == (
        0.0,
        2 * 3 + 2 * 1 + 2 * 1,
    )


def test_api_gateway_meters_websocket_messages_in_32_kb_increments():
    assert apigw_messages(10) == 1
    assert apigw_messages(32 * KB) == 1
    assert apigw_messages(33 * KB) == 2


def test_the_heartbeat_and_the_access_log_line_are_read_from_their_sources():
    assert heartbeat_minutes() == 4  # frontend/js/connection.js: HEARTBEAT_MS = 4 * 60 * 1000
    line = access_log_line_bytes('{"status":"$context.status","ip":"$context.identity.sourceIp"}')
    assert line == len('{"status":"200","ip":"203.0.113.17"}') + 1


def test_a_batch_get_rounds_each_item_and_a_transactional_get_costs_twice():
    params = {"RequestItems": {"t": {"ConsistentRead": True, "Keys": []}}}
    found = {"Responses": {"t": [blob(1500), blob(6500)]}}  # 4 KB + 8 KB, not 8 KB
    assert dynamodb_units("batch_get_item", params, found, False, [], []) == (3.0, 0.0)
    found = {"Responses": [{"Item": blob(1500)}, {"Item": blob(5000)}]}
    assert dynamodb_units("transact_get_items", {}, found, False, [], []) == (6.0, 0.0)


def test_a_call_whose_billing_is_unknown_is_refused_not_counted_free():
    with pytest.raises(ValueError, match="scan"):
        dynamodb_units("scan", {}, {}, False, [], [])


def test_a_projected_or_filtered_query_is_billed_on_the_whole_items_it_reads():
    """DynamoDB bills every item a Query reads, whole, whatever its projection or filter
    returns: the recorder reads them again without either."""
    with mock.patch.dict(os.environ, {"AWS_DEFAULT_REGION": "eu-west-1",
                                      "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x"}), \
            mock_aws():  # fmt: skip
        db = boto3.client("dynamodb")
        db.create_table(TableName="t", BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "sk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}])  # fmt: skip
        for n in range(3):
            db.put_item(TableName="t", Item={"pk": {"S": "R"}, "sk": {"S": f"S{n}"},
                                             "body": {"B": b"x" * 3000}})  # fmt: skip
        recorder = Recorder(lambda service, endpoint=None: boto3.client(service))
        found = recorder.client("dynamodb").query(
            TableName="t", ConsistentRead=True, KeyConditionExpression="pk = :pk",
            ProjectionExpression="sk", FilterExpression="sk = :one",
            ExpressionAttributeValues={":pk": {"S": "R"}, ":one": {"S": "S1"}},
        )  # fmt: skip
        assert len(found["Items"]) == 1 and "body" not in found["Items"][0]
        (call,) = recorder.outside
        assert call.read_units == 3.0  # three items of 3 KB read: 9 KB, 3 units


def test_a_phone_that_pings_when_idle_pings_once_per_silent_interval():
    # silent 0–500 s (2 pings), frames at 500 and 600, silent 600–1000 s (1 ping)
    assert idle_heartbeats([500.0, 600.0], 0.0, 1000.0, 240.0) == 3
    assert idle_heartbeats([], 0.0, 239.0, 240.0) == 0


def test_the_heartbeat_policy_is_read_from_the_client(tmp_path, monkeypatch):
    client = tmp_path / "connection.js"
    monkeypatch.setattr(billing, "CLIENT_CONNECTION", client)
    client.write_text("setInterval(() => this.ping(), HEARTBEAT_MS);")
    assert not heartbeat_when_idle()
    client.write_text("if (Date.now() - this.lastSent >= HEARTBEAT_MS) this.ping();")
    assert heartbeat_when_idle()


def test_a_phone_is_priced_for_what_its_page_loads_before_it_runs():
    """CloudFront bills each request: a phone opening the game fetches the page, its
    config, the English strings and every script and style the page reaches by static
    imports (both games', the QR code's), and nothing loaded on demand or by other pages
    (the replay modules, the viewer, the rules)."""
    from bench.backend import phone_files, phone_load

    names = {key.split("/", 2)[-1] if key.startswith("v/") else key for key in phone_files()}
    for needed in ("index.html", "config.json", "i18n/en.json", "js/app.js", "css/style.css",
                   "js/games/catch_the_witch/end.js", "js/games/burn_the_witch/house.js",
                   "vendor/qrcode.mjs"):  # fmt: skip
        assert needed in names, needed
    for never in ("js/replay.js", "js/replay_viewer.js", "replay.html", "rules.html",
                  "i18n/th.json"):  # fmt: skip
        assert never not in names, never
    assert phone_load()[0] == len(names)
