"""The RoomStore and Connections ports over one DynamoDB table (conditional writes)."""

import contextlib
import json
import os
import time
from dataclasses import dataclass
from typing import Any

from ..domain.journal import NEW_GAME_MARK, loaded_journal, stored_journal
from ..domain.room import (
    Binding,
    Room,
    Submission,
    loaded_room_json,
    loaded_submission,
    stored_room,
    stored_submission,
)
from . import aws_client
from .ports import Arrival, Connections, Paced, RoomStore
from .ratelimit import (
    ADDRESS,
    ADDRESS_PACES,
    CONNECTION_LIFETIME_SECONDS,
    CONNECTION_PACES,
    COUNTER_TTL_SECONDS,
    LIMIT,
    QUIET,
    Dues,
    Pace,
    Standing,
    furthest_due,
    in_ms,
    judge,
)

#: One table, key (pk, sk): a room is (ROOM#<code>, ROOM); the pending moves of a step
#: are one item (ROOM#<code>, ROOM~<step counted down>) beside their room, each seat's in
#: attributes of its own (``m#<seat>``: the moves, ``n#<seat>``: its count of writes). The
#: step keys sort right after the room's, newest step first, so one Query of two items
#: reads the room and its current step's moves (``read``). A connection is
#: (CONN#<id>, CONN), with its paces' dues (ratelimit.py). Per source address: the
#: requests of one kind in one window are (IP#<address>, <kind>#<window start>), the busy
#: messages' due (IP#<address>, MSGS), its open connections (IP#<address>, OPEN).
KEY = "pk"
SORT = "sk"
ROOM_SORT = "ROOM"
#: Steps are written as ``STEP_COUNTDOWN - step`` in nine digits: newer steps sort first.
STEP_COUNTDOWN = 999_999_999
#: Pending moves outlive their step by at most this long (TTL), if never consumed.
SUBMISSION_TTL_SECONDS = 24 * 3600
MOVES_PREFIX = "m#"
#: On a step's item: the version of the latest room write loaded at that step. A move
#: made on an older room is refused (it would be merged into a room that changed).
WRITTEN_AT = "g"
#: On a step's item: the turns of each room write loaded at that step (journal.py), a
#: list of stored journals, oldest first.
JOURNAL = "j"
#: Connections expire with their room at the latest (API Gateway caps them at 2 h).
CONNECTION_TTL_SECONDS = 3 * 3600
MESSAGES_SORT = "MSGS"
OPEN_SORT = "OPEN"
#: On an address's OPEN item, ``o#<connection id>``: when that connection opened; ``n``
#: counts them.
PLACE_PREFIX = "o#"
#: Conditional writes one message may make for its paces when containers race for them.
PACE_ATTEMPTS = 3


def table_name() -> str:
    return os.environ["TABLE_NAME"]


class DynamoRoomStore(RoomStore):
    def __init__(self, table: str | None = None):
        self.table = table or table_name()
        self.reads = 0
        self.writes = 0
        self.conflicts = 0

    @property
    def _db(self):
        return aws_client.client("dynamodb")

    def _item(self, room: Room) -> dict[str, Any]:
        body = stored_room(room)  # size-checked (model.MAX_ROOM_BYTES); bench/backend.py
        return {
            **_room_key(room.code),
            "version": {"N": str(room.version)},
            "room": {"B": body},
            "expires_at": {"N": str(room.expires_at)},
        }

    def create(self, room: Room) -> bool:
        db = self._db
        self.writes += 1
        try:
            db.put_item(TableName=self.table, Item=self._item(room),
                        ConditionExpression=f"attribute_not_exists({KEY})")  # fmt: skip
        except db.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def load(self, code: str) -> Room | None:
        self.reads += 1
        found = self._db.get_item(
            TableName=self.table, Key=_room_key(code), ConsistentRead=True
        ).get("Item")
        return _room_of(found) if found else None

    def read(self, code: str) -> tuple[Room | None, list[Submission]]:
        """One Query (one round trip per load, not two): the room's item and the
        first item after it, the newest step's; its moves count only if that step is the
        room's (no move of the current step yet leaves an older step's item first)."""
        self.reads += 1
        items = self._db.query(
            TableName=self.table, ConsistentRead=True, Limit=2,
            KeyConditionExpression=f"{KEY} = :pk AND begins_with({SORT}, :room)",
            ExpressionAttributeValues={":pk": _room_key(code)[KEY], ":room": {"S": ROOM_SORT}},
        )["Items"]  # fmt: skip
        if not items or items[0][SORT]["S"] != ROOM_SORT:
            return None, []
        room = _room_of(items[0])
        step = room.stored_step
        if step is None or len(items) < 2 or items[1][SORT] != _step_key(code, step)[SORT]:
            return room, []
        return room, _moves_of(items[1])

    def save(self, room: Room, expected_version: int, consumed: list[Submission] = (),
             absent: list[tuple[int, str]] = (), step: int | None = None) -> bool:  # fmt: skip
        """A conditional put; in a game, one transaction that also updates the loaded step's
        item: it removes the consumed seats' moves if each is unchanged and no absent one
        was written meanwhile (so no move is lost, orphaned or applied twice), and records
        this write's version there (``put_submission``). A step's pending moves share one
        item (``_step_key``): the transaction writes two items, not one per seat (each
        item of a transaction is billed twice)."""
        db = self._db
        self.writes += 1
        put = {
            "TableName": self.table, "Item": self._item(room),
            "ConditionExpression": "version = :expected",
            "ExpressionAttributeValues": {":expected": {"N": str(expected_version)}},
        }  # fmt: skip
        steps = sorted({sub.step for sub in consumed} | {at for at, _ in absent}
                       | ({step} if step is not None else set()))  # fmt: skip
        try:
            if not steps:
                db.put_item(**put)
                return True
            guards = [self._step_guard(room, at, consumed, absent, at == step) for at in steps]
            db.transact_write_items(TransactItems=[{"Put": put}, *guards])
            return True
        except (db.exceptions.ConditionalCheckFailedException,
                db.exceptions.TransactionCanceledException):  # fmt: skip
            self.conflicts += 1
            return False

    def _step_guard(self, room: Room, step: int, consumed: list[Submission],
                    absent: list[tuple[int, str]], journaled: bool) -> dict[str, Any]:  # fmt: skip
        """The transaction's update of one step's item: remove the consumed seats' moves if
        each one's count is as read and no absent seat has one, and record the room's new
        version (a seat's move made on the room as it was is refused from now on: merged
        into that room, it would decide on moves that are no longer pending). Only the
        consumed seats' attributes go: a seat's move written after the load stays for the
        next load (deleting the whole item lost it). The item may not exist yet (nobody
        moved); it expires with the room at the latest, and an emptied one with its TTL."""
        names: dict[str, str] = {"#g": WRITTEN_AT}
        values: dict[str, Any] = {
            ":g": {"N": str(room.version)},
            ":expires_at": {"N": str(room.expires_at)},
        }
        terms = []
        removed = []
        for i, sub in enumerate(s for s in consumed if s.step == step):
            names[f"#c{i}"] = _count_name(sub.player)
            names[f"#m{i}"] = _moves_name(sub.player)
            values[f":c{i}"] = {"N": str(sub.n)}
            terms.append(f"#c{i} = :c{i}")
            removed += [f"#c{i}", f"#m{i}"]
        for i, seat in enumerate(seat for at, seat in absent if at == step):
            names[f"#a{i}"] = _count_name(seat)
            terms.append(f"attribute_not_exists(#a{i})")
        update = "SET #g = :g, expires_at = if_not_exists(expires_at, :expires_at)"
        if journaled and room.journal:
            # The write's turns go beside it, in the transaction: no write of their own,
            # and the step's item is billed on the larger of before and after, which the
            # seats' moves it removes already make about as large.
            names["#j"] = JOURNAL
            values[":j"] = {"L": [{"S": stored_journal(room.journal)}]}
            values[":none"] = {"L": []}
            update += ", #j = list_append(if_not_exists(#j, :none), :j)"
        if removed:
            update += " REMOVE " + ", ".join(removed)
        return {"Update": {
            "TableName": self.table, "Key": _step_key(room.code, step), "UpdateExpression": update,
            **({"ConditionExpression": " AND ".join(terms)} if terms else {}),
            "ExpressionAttributeNames": names, "ExpressionAttributeValues": values,
        }}  # fmt: skip

    def game_journal(self, code: str, last_step: int) -> list[dict[str, Any]]:
        """Every step item's journal from ``last_step`` back (newer steps sort first), read
        only for a replay (a finished game's download), page by page, up to the page that
        holds the last game's deal (a room's earlier games are not read)."""
        self.reads += 1
        texts: list[list[str]] = []
        query = {
            "TableName": self.table, "ConsistentRead": True,
            "KeyConditionExpression": f"{KEY} = :pk AND {SORT} BETWEEN :last AND :first",
            "ProjectionExpression": "#j", "ExpressionAttributeNames": {"#j": JOURNAL},
            "ExpressionAttributeValues": {
                ":pk": _room_key(code)[KEY], ":last": _step_key(code, last_step)[SORT],
                ":first": _step_key(code, 0)[SORT],
            },
        }  # fmt: skip
        while True:
            page = self._db.query(**query)
            found = [[v["S"] for v in item[JOURNAL]["L"]] for item in page["Items"]
                     if JOURNAL in item]  # fmt: skip
            texts += found
            # Newest steps first: once the last game's deal is read, older games are not.
            if "LastEvaluatedKey" not in page or any(NEW_GAME_MARK in t for s in found for t in s):
                break
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        return loaded_journal(text for step in reversed(texts) for text in step)

    def submissions(self, code: str, step: int) -> list[Submission]:
        self.reads += 1
        key = _step_key(code, step)
        items = self._db.query(
            TableName=self.table, ConsistentRead=True,
            KeyConditionExpression=f"{KEY} = :pk AND {SORT} = :sk",
            ExpressionAttributeValues={":pk": key[KEY], ":sk": key[SORT]},
        )["Items"]  # fmt: skip
        return _moves_of(items[0]) if items else []

    def put_submission(self, code: str, submission: Submission, expected_n: int,
                       room_version: int) -> list[Submission] | None:  # fmt: skip
        """One seat's moves into its own attributes of the step's item: other seats write
        other attributes of it, so twelve at once do not conflict. The item as written
        (ALL_NEW) holds every seat's moves: the mover decides from it whether the step is
        complete, without reading again."""
        db = self._db
        self.writes += 1
        condition = "attribute_not_exists(#n)" if expected_n == 0 else "#n = :expected"
        values = {
            ":n": {"N": str(submission.n)},
            ":moves": {"S": stored_submission(submission)},
            ":expires_at": {"N": str(int(submission.actions[-1]["t"]) + SUBMISSION_TTL_SECONDS)},
            ":room_version": {"N": str(room_version)},
            **({":expected": {"N": str(expected_n)}} if expected_n else {}),
        }
        try:
            item = db.update_item(
                TableName=self.table, Key=_step_key(code, submission.step),
                UpdateExpression="SET #n = :n, #moves = :moves, expires_at = :expires_at",
                ConditionExpression=f"{condition} AND (attribute_not_exists(#g) OR #g <= :room_version)",
                ExpressionAttributeNames={"#n": _count_name(submission.player),
                                          "#moves": _moves_name(submission.player),
                                          "#g": WRITTEN_AT},
                ExpressionAttributeValues=values, ReturnValues="ALL_NEW",
            )["Attributes"]  # fmt: skip
        except db.exceptions.ConditionalCheckFailedException:
            self.conflicts += 1
            return None
        return _moves_of(item)


def _room_key(code: str) -> dict[str, dict[str, str]]:
    return {KEY: {"S": f"ROOM#{code}"}, SORT: {"S": ROOM_SORT}}


def _step_key(code: str, step: int) -> dict[str, dict[str, str]]:
    return {KEY: {"S": f"ROOM#{code}"}, SORT: {"S": f"{ROOM_SORT}~{STEP_COUNTDOWN - step:09d}"}}


def _room_of(item: dict[str, Any]) -> Room:
    data = json.loads(loaded_room_json(item["room"]["B"]))
    data["version"] = int(item["version"]["N"])
    data["expires_at"] = int(item["expires_at"]["N"])
    return Room.model_validate(data)


def _moves_of(item: dict[str, Any]) -> list[Submission]:
    """Every seat's pending moves in a step's item, in seat order. The seat is in the
    attribute's name, its count of writes in its ``n#`` attribute, the step in the item's
    key (``stored_submission`` does not repeat them)."""
    step = STEP_COUNTDOWN - int(item[SORT]["S"].removeprefix(f"{ROOM_SORT}~"))
    return [
        loaded_submission(value["S"], seat, step, int(item[_count_name(seat)]["N"]))
        for name, value in sorted(item.items()) if name.startswith(MOVES_PREFIX)
        for seat in [name.removeprefix(MOVES_PREFIX)]
    ]  # fmt: skip


def _moves_name(seat: str) -> str:
    """The attribute of the step's item holding one seat's pending moves (JSON)."""
    return f"{MOVES_PREFIX}{seat}"


def _count_name(seat: str) -> str:
    """The attribute counting one seat's writes to the step's item (``Submission.n``)."""
    return f"n#{seat}"


def _connection_key(connection_id: str) -> dict[str, dict[str, str]]:
    return {KEY: {"S": f"CONN#{connection_id}"}, SORT: {"S": "CONN"}}


class DynamoConnections(Connections):
    def __init__(self, table: str | None = None, clock=None):
        self.table = table or table_name()
        self.clock = clock or time.time

    def bind(self, connection_id: str, binding: Binding) -> None:
        # An update, not a put: the item may already hold the dues of the connection's paces.
        expires = int(self.clock()) + CONNECTION_TTL_SECONDS
        aws_client.client("dynamodb").update_item(
            TableName=self.table, Key=_connection_key(connection_id),
            UpdateExpression="SET room = :room, seat = :seat, token_hash = :token_hash, "
                             "expires_at = :expires_at",
            ExpressionAttributeValues={
                ":room": {"S": binding.room}, ":seat": {"S": binding.seat},
                ":token_hash": {"S": binding.token_hash}, ":expires_at": {"N": str(expires)},
            },
        )  # fmt: skip

    def lookup(self, connection_id: str) -> Binding | None:
        item = (
            aws_client.client("dynamodb")
            .get_item(TableName=self.table, Key=_connection_key(connection_id))
            .get("Item")
        )
        return _binding(item)

    def arrive(self, connection_id: str, now: float, known: Dues | None = None) -> Arrival:
        """One conditional UpdateItem in place of lookup's GetItem: the message moves the
        connection's dues on (ratelimit.py) if its limit lets it through, and the item as
        written (ALL_NEW) holds the binding too. A refused message writes nothing."""
        allowed, dues, standings, item = self._paced(
            _connection_key(connection_id), CONNECTION_PACES, LIMIT, now, known,
            ("expires_at = if_not_exists(expires_at, :expires_at)",
             {":expires_at": {"N": str(int(now) + CONNECTION_TTL_SECONDS)}}),
        )  # fmt: skip
        busy = allowed and standings[QUIET] is Standing.OVER
        return Arrival(allowed, dues, _binding(item) if allowed else None, busy)

    def pace_address(self, address: str, now: float, known: Dues | None = None) -> Paced:
        allowed, dues, _, _ = self._paced(
            _address_key(address, MESSAGES_SORT), ADDRESS_PACES, ADDRESS, now, known,
            ("expires_at = :expires_at",
             {":expires_at": {"N": str(int(now) + COUNTER_TTL_SECONDS)}}),
        )  # fmt: skip
        return Paced(allowed, dues)

    def _paced(self, key: dict[str, Any], paces: dict[str, Pace], refusing: str, now: float,
               known: Dues | None, also: tuple[str, dict[str, Any]],
               ) -> tuple[bool, Dues, dict[str, Standing], dict[str, Any]]:  # fmt: skip
        """Judge a message against the paces stored on ``key`` with ONE conditional write
        in the usual case. The write is built for the standing each pace is guessed to be
        in (``known``, what this container last saw; else caught up, as a phone that sends
        little always is), and its condition holds only in that standing: two containers
        racing both move a due on (``due + interval`` is atomic), none can take a place
        that is not there. A wrong guess fails and returns the item as it is (ALL_OLD):
        the next try is built from it. Refused: the ``refusing`` pace is over."""
        db = aws_client.client("dynamodb")
        now_ms = in_ms(now)
        guess: Dues = dict(known or {})
        item: dict[str, Any] = {}
        for _ in range(PACE_ATTEMPTS):
            standings = judge(paces, guess, now_ms)
            if standings[refusing] is Standing.OVER:
                return False, guess, standings, item
            write = _pace_write(paces, standings, now_ms)
            update, values = also
            try:
                item = db.update_item(
                    TableName=self.table, Key=key, ReturnValues="ALL_NEW",
                    ReturnValuesOnConditionCheckFailure="ALL_OLD",
                    UpdateExpression=f"SET {write.sets}, {update}",
                    ConditionExpression=write.condition,
                    ExpressionAttributeNames=write.names,
                    ExpressionAttributeValues={**write.values, **values},
                )["Attributes"]  # fmt: skip
                return True, _dues_of(item, paces), standings, item
            except db.exceptions.ConditionalCheckFailedException as failed:
                item = failed.response.get("Item", {})
                guess = _dues_of(item, paces)
        # Containers racing for one stream this hard are judging a flood: refused.
        return False, guess, judge(paces, guess, now_ms), item

    def open_connection(self, address: str, connection_id: str, now: float, cap: int) -> bool:
        """ADD 1 to the address's count of open places and SET the connection's own place
        (its open time), on one item, if the count is under ``cap``: atomic, so racing
        connects never pass it. Full: places older than a connection can live are given
        up (one write), then the connect is tried once more."""
        db = aws_client.client("dynamodb")
        key = _address_key(address, OPEN_SORT)
        place = _place_name(connection_id)
        for attempt in range(2):
            try:
                db.update_item(
                    TableName=self.table, Key=key, ReturnValuesOnConditionCheckFailure="ALL_OLD",
                    UpdateExpression="SET #place = :now, expires_at = :expires_at ADD n :one",
                    ConditionExpression="attribute_not_exists(#place) AND "
                                        "(attribute_not_exists(n) OR n < :cap)",
                    ExpressionAttributeNames={"#place": place},
                    ExpressionAttributeValues={
                        ":now": {"N": str(int(now))}, ":one": {"N": "1"}, ":cap": {"N": str(cap)},
                        ":expires_at": {"N": str(int(now) + CONNECTION_LIFETIME_SECONDS
                                                 + COUNTER_TTL_SECONDS)},
                    },
                )  # fmt: skip
                return True
            except db.exceptions.ConditionalCheckFailedException as failed:
                item = failed.response.get("Item", {})
            if place in item:
                return True
            left = [name for name, value in item.items() if name.startswith(PLACE_PREFIX)
                    and int(value["N"]) < now - CONNECTION_LIFETIME_SECONDS]  # fmt: skip
            if attempt or not left:
                return False
            self._give_up(key, left)
        return False

    def _give_up(self, key: dict[str, Any], places: list[str]) -> None:
        """Remove places a lost $disconnect left, and take them off the count, if they are
        all still there (else another container did it)."""
        names = {f"#p{i}": place for i, place in enumerate(places)}
        db = aws_client.client("dynamodb")
        with contextlib.suppress(db.exceptions.ConditionalCheckFailedException):
            db.update_item(
                TableName=self.table, Key=key, ExpressionAttributeNames=names,
                UpdateExpression=f"REMOVE {', '.join(names)} ADD n :less",
                ConditionExpression=" AND ".join(f"attribute_exists({n})" for n in names),
                ExpressionAttributeValues={":less": {"N": str(-len(places))}},
            )  # fmt: skip

    def close_connection(self, address: str, connection_id: str) -> None:
        db = aws_client.client("dynamodb")
        # No place held (refused at $connect, or given up as left): nothing to give back.
        with contextlib.suppress(db.exceptions.ConditionalCheckFailedException):
            db.update_item(
                TableName=self.table, Key=_address_key(address, OPEN_SORT),
                UpdateExpression="REMOVE #place ADD n :less",
                ConditionExpression="attribute_exists(#place)",
                ExpressionAttributeNames={"#place": _place_name(connection_id)},
                ExpressionAttributeValues={":less": {"N": "-1"}},
            )  # fmt: skip

    def hit(self, address: str, kind: str, window_start: int, expires_at: int) -> int:
        item = aws_client.client("dynamodb").update_item(
            TableName=self.table, ReturnValues="UPDATED_NEW",
            Key=_address_key(address, f"{kind}#{window_start}"),
            UpdateExpression="SET expires_at = :expires_at ADD n :one",
            ExpressionAttributeValues={":one": {"N": "1"},
                                       ":expires_at": {"N": str(expires_at)}},
        )["Attributes"]  # fmt: skip
        return int(item["n"]["N"])

    def unbind(self, connection_id: str) -> None:
        aws_client.client("dynamodb").delete_item(
            TableName=self.table, Key=_connection_key(connection_id)
        )


@dataclass(frozen=True)
class _PaceWrite:
    sets: str
    condition: str
    names: dict[str, str]
    values: dict[str, Any]


def _pace_write(paces: dict[str, Pace], standings: dict[str, Standing], now_ms: int) -> _PaceWrite:
    """The SET and the condition that move each pace's due on from the standing it is
    guessed to be in (ratelimit.next_due), and hold only in that standing."""
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    sets, conditions = [], []
    for i, (name, pace) in enumerate(paces.items()):
        due, edge = f"#p{i}", {"N": str(now_ms + pace.tolerance_ms)}
        names[due] = name
        found = standings[name]
        furthest = {"N": str(furthest_due(pace, now_ms))}
        if found is Standing.CAUGHT_UP:
            conditions.append(f"(attribute_not_exists({due}) OR {due} <= :now)")
            values[":now"] = {"N": str(now_ms)}
        elif found is Standing.ANOTHER_CLOCK:
            conditions.append(f"{due} > :far{i}")
            values[f":far{i}"] = furthest
        elif found is Standing.AHEAD:
            conditions.append(f"({due} > :now AND {due} <= :edge{i})")
            sets.append(f"{due} = {due} + :step{i}")
            values |= {":now": {"N": str(now_ms)}, f":edge{i}": edge,
                       f":step{i}": {"N": str(pace.interval_ms)}}  # fmt: skip
        else:  # a pace that only tells (QUIET): over it, its due stays
            conditions.append(f"({due} > :edge{i} AND {due} <= :far{i})")
            values |= {f":edge{i}": edge, f":far{i}": furthest}
        if found in (Standing.CAUGHT_UP, Standing.ANOTHER_CLOCK):
            sets.append(f"{due} = :next{i}")
            values[f":next{i}"] = {"N": str(now_ms + pace.interval_ms)}
    return _PaceWrite(", ".join(sets), " AND ".join(conditions), names, values)


def _dues_of(item: dict[str, Any], paces: dict[str, Pace]) -> Dues:
    return {name: int(item[name]["N"]) for name in paces if name in item}


def _address_key(address: str, sort: str) -> dict[str, dict[str, str]]:
    return {KEY: {"S": f"IP#{address}"}, SORT: {"S": sort}}


def _place_name(connection_id: str) -> str:
    """The attribute of an address's OPEN item that holds one connection's place."""
    return f"{PLACE_PREFIX}{connection_id}"


def _binding(item: dict[str, Any] | None) -> Binding | None:
    """The binding a connection item holds; None if it holds only a message counter."""
    if not item or "room" not in item:
        return None
    # An item written before bindings carried the token proves nothing: it holds no seat.
    token_hash = item.get("token_hash", {}).get("S", "")
    return Binding(item["room"]["S"], item["seat"]["S"], token_hash)
