"""bench/billing.py prices what the handlers do as AWS bills it (docs/performance.md, "How
each service bills"): each test is one billing rule from AWS's pages."""

from bench.billing import (
    access_log_line_bytes,
    apigw_messages,
    dynamodb_units,
    heartbeat_minutes,
    item_size,
)

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
