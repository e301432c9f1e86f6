"""One contract, two implementations: the SAME checks on the in-memory adapters (what the
service tests run on) and on the AWS adapters over moto (what Lambda runs on). A fake
that drifts from the real store makes the service tests prove nothing; here it fails."""

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from engine.games import game_of
from functions.room_service.adapters.dynamodb import DynamoConnections, DynamoRoomStore
from functions.room_service.adapters.memory import (
    MemoryConnections,
    MemoryRoomStore,
    MemoryTimers,
)
from functions.room_service.adapters.ports import Connections, RoomStore, Timers
from functions.room_service.adapters.ratelimit import (
    ADDRESS,
    ADDRESS_PACE,
    CONNECTION_LIFETIME_SECONDS,
    CONNECTION_PACE,
    QUIET_PACE,
)
from functions.room_service.adapters.sqs import SqsTimers
from functions.room_service.domain.room import (
    Binding,
    Room,
    Seat,
    Submission,
    hash_token,
    watcher_binding,
)
from functions.room_service.domain.timers import (
    AwayCheckTimer,
    DeadlineTimer,
    HostCheckTimer,
    SeatCheckTimer,
    parse_timer,
)
from tests.support.moto_cloud import moto_cloud

CODE = "ABCDEFGH"
STEP = 7


@dataclass
class Adapters:
    store: RoomStore
    connections: Connections
    timers: Timers
    #: The timer messages as the timer handler will receive them, in order.
    delivered: Any


@pytest.fixture(params=["memory", "dynamodb"])
def adapters(request) -> Iterator[Adapters]:
    if request.param == "memory":
        timers = MemoryTimers()
        yield Adapters(MemoryRoomStore(), MemoryConnections(), timers,
                       lambda: [message for message, _ in timers.scheduled])  # fmt: skip
        return
    with moto_cloud() as cloud:
        yield Adapters(DynamoRoomStore(), DynamoConnections(clock=lambda: cloud.clock.now),
                       SqsTimers(), lambda: [json.loads(m.body) for m in cloud.queued_timers()])  # fmt: skip


def a_room(version: int = 1, host: str = "Ann") -> Room:
    seats = [Seat(name=name, token_hash=hash_token(name)) for name in ("Ann", "Bo", "Cy")]
    return Room(code=CODE, host=host, seats=seats, version=version, expires_at=1_900_000_000)


def a_submission(player: str, n: int, moves: int = 1) -> Submission:
    actions = [{"t": 1_800_000_000.0 + i, "action": {"type": "ready"}} for i in range(moves)]
    return Submission(player=player, step=STEP, actions=actions, n=n)


# -- rooms ------------------------------------------------------------------------------------
def test_create_is_conditional_and_load_returns_the_room_as_created(adapters):
    store = adapters.store
    assert store.load(CODE) is None
    room = a_room()
    assert store.create(room)
    assert not store.create(a_room(host="Bo")), "a code already taken is never overwritten"
    loaded = store.load(CODE)
    assert loaded == room and loaded.host == "Ann"
    assert type(loaded.settings) is type(room.settings) and loaded.game == room.game


def test_save_writes_only_over_the_expected_version(adapters):
    store = adapters.store
    store.create(a_room())
    assert store.save(a_room(version=2, host="Bo"), expected_version=1)
    assert not store.save(a_room(version=3, host="Cy"), expected_version=1), "a lost race"
    assert store.load(CODE).version == 2 and store.load(CODE).host == "Bo"
    assert not store.save(a_room(version=6), expected_version=5), "a version never stored"
    assert store.load(CODE).host == "Bo"


def test_save_of_a_room_never_created_fails(adapters):
    assert not adapters.store.save(a_room(version=2), expected_version=1)
    assert adapters.store.load(CODE) is None


# -- submissions --------------------------------------------------------------------------------
def test_put_submission_is_conditional_on_n(adapters):
    store = adapters.store
    store.create(a_room())
    assert store.put_submission(CODE, a_submission("Bo", n=1), expected_n=0, room_version=1)
    assert not store.put_submission(CODE, a_submission("Bo", n=1), expected_n=0, room_version=1), (
        "a double tap"
    )
    assert store.put_submission(
        CODE, a_submission("Bo", n=2, moves=2), expected_n=1, room_version=1
    )
    assert not store.put_submission(CODE, a_submission("Bo", n=3), expected_n=1, room_version=1)
    (stored,) = store.submissions(CODE, STEP)
    assert stored == a_submission("Bo", n=2, moves=2)
    assert store.submissions(CODE, STEP + 1) == [], "a step reads its own submissions only"


def test_submissions_are_per_seat(adapters):
    store = adapters.store
    store.create(a_room())
    assert store.put_submission(CODE, a_submission("Bo", n=1), expected_n=0, room_version=1)
    assert store.put_submission(CODE, a_submission("Cy", n=1), expected_n=0, room_version=1)
    assert sorted(sub.player for sub in store.submissions(CODE, STEP)) == ["Bo", "Cy"]


def test_put_submission_returns_every_seats_moves_as_of_the_write(adapters):
    """The mover decides from what its write returns whether the step is complete."""
    store = adapters.store
    store.create(a_room())
    assert store.put_submission(CODE, a_submission("Cy", n=1), expected_n=0, room_version=1) == [
        a_submission("Cy", n=1)
    ]
    assert store.put_submission(
        CODE, a_submission("Bo", n=1, moves=2), expected_n=0, room_version=1
    ) == [
        a_submission("Bo", n=1, moves=2),
        a_submission("Cy", n=1),
    ]


def test_a_move_made_on_a_room_written_since_is_refused(adapters):
    """A write loaded at a step records its version on that step's item; a move made on
    the room as it was before is refused (merged into that room it would decide on moves
    the write consumed, or be left under a step the write ended)."""
    store = adapters.store
    store.create(a_room())
    store.put_submission(CODE, a_submission("Bo", n=1), expected_n=0, room_version=1)
    consumed = store.submissions(CODE, STEP)
    assert store.save(a_room(version=2), 1, consumed=consumed, absent=[(STEP, "Cy")], step=STEP)
    assert store.put_submission(CODE, a_submission("Cy", n=1), expected_n=0, room_version=1) is None
    assert store.submissions(CODE, STEP) == []
    assert store.put_submission(CODE, a_submission("Cy", n=1), expected_n=0, room_version=2) == [
        a_submission("Cy", n=1)
    ], "made on the room as written: taken"
    # A step nobody moved in records the write too (a timer's write, say).
    later = a_submission("Bo", n=1).model_copy(update={"step": STEP + 1})
    assert store.save(a_room(version=3), 2, step=STEP + 1)
    assert store.put_submission(CODE, later, expected_n=0, room_version=2) is None
    assert store.put_submission(CODE, later, expected_n=0, room_version=3) == [later]
    assert store.load(CODE).version == 3


def a_started_room() -> Room:
    """A room whose game is under way (a room's moves are kept under its stored step)."""
    room = a_room()
    game = game_of(room.game)  # a state made up here: no turn the room took (journal.py)
    state = game.new_game([seat.name for seat in room.seats] + ["Di"], room.settings, seed=1,
                          host="Ann")  # fmt: skip
    room.state, _ = game.start(state, 1_800_000_000.0)
    return room


def test_read_returns_the_room_with_its_current_steps_moves_only(adapters):
    """One read gives the room and the pending moves of the step it stores; a step it has
    left keeps its item (until TTL) but no read returns those moves."""
    store = adapters.store
    room = a_started_room()
    assert store.read(CODE) == (None, [])
    store.create(room)
    step = room.stored_step
    assert store.read(CODE) == (room, []), "no move made yet"
    older = Submission(
        player="Bo", step=step - 1, actions=[{"t": 1.0, "action": {"type": "x"}}], n=1
    )
    assert store.put_submission(CODE, older, expected_n=0, room_version=1)
    assert store.read(CODE) == (room, []), "an older step's moves are not the room's"
    mine = Submission(player="Cy", step=step, actions=[{"t": 2.0, "action": {"type": "x"}}], n=1)
    assert store.put_submission(CODE, mine, expected_n=0, room_version=1)
    assert store.read(CODE) == (room, [mine])
    lobby_room = a_room()
    lobby_room.code = "LOBBYONE"
    store.create(lobby_room)
    assert store.read("LOBBYONE") == (lobby_room, []), "before a game: no step, no moves"


# -- a write that consumes submissions: all or nothing -------------------------------------------
def two_pending_moves(store: RoomStore) -> list[Submission]:
    """A room with Bo's and Cy's moves pending in STEP: the submissions, as a load reads them."""
    store.create(a_room())
    store.put_submission(CODE, a_submission("Bo", n=1), expected_n=0, room_version=1)
    store.put_submission(CODE, a_submission("Cy", n=1), expected_n=0, room_version=1)
    return store.submissions(CODE, STEP)


def test_save_deletes_the_consumed_submissions_with_the_room(adapters):
    store = adapters.store
    consumed = two_pending_moves(store)
    assert store.save(a_room(version=2), 1, consumed=consumed)
    assert store.submissions(CODE, STEP) == [] and store.load(CODE).version == 2


def test_save_keeps_a_seats_move_it_did_not_consume(adapters):
    """A write that leaves the step as it is (a reconnected phone taking its seat, a
    setting) consumes the moves it merged; a seat's first move, written after that load,
    is not one of them and must survive the write (the next load merges it)."""
    store = adapters.store
    store.create(a_room())
    store.put_submission(CODE, a_submission("Bo", n=1), expected_n=0, room_version=1)
    consumed = store.submissions(CODE, STEP)
    store.put_submission(
        CODE, a_submission("Cy", n=1), expected_n=0, room_version=1
    )  # after the load
    assert store.save(a_room(version=2), 1, consumed=consumed)
    assert store.submissions(CODE, STEP) == [a_submission("Cy", n=1)]


def test_save_fails_whole_if_a_consumed_submission_changed(adapters):
    store = adapters.store
    consumed = two_pending_moves(store)
    store.put_submission(
        CODE, a_submission("Cy", n=2, moves=2), expected_n=1, room_version=1
    )  # meanwhile
    assert not store.save(a_room(version=2, host="Bo"), 1, consumed=consumed)
    assert store.load(CODE).version == 1 and store.load(CODE).host == "Ann"
    assert {sub.player: sub.n for sub in store.submissions(CODE, STEP)} == {"Bo": 1, "Cy": 2}


def test_save_fails_whole_if_an_absent_submission_exists(adapters):
    store = adapters.store
    store.create(a_room())
    store.put_submission(CODE, a_submission("Bo", n=1), expected_n=0, room_version=1)
    assert not store.save(a_room(version=2, host="Bo"), 1, absent=[(STEP, "Bo")])
    assert store.load(CODE).version == 1 and store.load(CODE).host == "Ann"
    assert store.save(a_room(version=2, host="Bo"), 1, absent=[(STEP, "Cy"), (STEP + 1, "Bo")])
    assert store.load(CODE).host == "Bo"
    assert [sub.player for sub in store.submissions(CODE, STEP)] == ["Bo"], "only checked"


# -- connections ----------------------------------------------------------------------------------
def test_a_table_screen_s_binding_and_watchers_are_kept_as_bound(adapters):
    """A watcher's binding names no seat and no token (empty strings, which
    DynamoDB keeps for attributes that are not keys); the room keeps its watchers."""
    connections = adapters.connections
    connections.bind("tv", watcher_binding(CODE))
    found = connections.lookup("tv")
    assert found == watcher_binding(CODE) and found.watching
    assert connections.arrive("tv", 1_800_000_000.0).binding.watching
    room = a_room()
    room.watchers = ["tv"]
    assert adapters.store.create(room)
    assert adapters.store.load(CODE).watchers == ["tv"]


def test_bind_lookup_unbind(adapters):
    connections = adapters.connections
    binding = Binding(CODE, "Bo", hash_token("Bo"))
    assert connections.lookup("c1") is None
    connections.bind("c1", binding)
    assert connections.lookup("c1") == binding
    connections.bind("c1", Binding(CODE, "Cy", hash_token("Cy")))
    assert connections.lookup("c1").seat == "Cy", "a new binding replaces the old"
    connections.unbind("c1")
    assert connections.lookup("c1") is None
    connections.unbind("c1")  # twice: nothing to do, no error


def test_arrive_returns_the_binding_and_paces_the_connection(adapters):
    connections = adapters.connections
    now = 1_800_000_000.25
    first = connections.arrive("new", now)
    assert (first.binding, first.allowed, first.busy) == (None, True, False), "may create or join"
    binding = Binding(CODE, "Bo", hash_token("Bo"))
    connections.bind("c1", binding)
    results = [connections.arrive("c1", now) for _ in range(CONNECTION_PACE.burst)]
    assert [(r.binding, r.allowed) for r in results] == [(binding, True)] * CONNECTION_PACE.burst
    assert [r.busy for r in results] == [False] * QUIET_PACE.burst + [True] * (
        CONNECTION_PACE.burst - QUIET_PACE.burst
    ), "past its quiet share a connection is busy"
    over = connections.arrive("c1", now)
    assert not over.allowed and over.dues == results[-1].dues, "refused: nothing moved"
    assert connections.arrive("c1", now + 0.25).allowed, "one interval later, one more"
    assert not connections.arrive("c1", now + 0.25).allowed
    assert connections.arrive("c2", now).allowed, "each connection its own pace"
    connections.unbind("c1")
    assert connections.arrive("c1", now + 0.25).allowed, "unbound: its dues went with it"


def test_arrive_answers_the_same_however_stale_the_containers_memory(adapters):
    """``known`` is what a container last saw of the stored dues, however long ago (a lower
    bound: dues only move on). DynamoDB builds its conditional write from it and, when it
    guessed wrong, tries again from the item its failure returns: no answer changes."""
    connections = adapters.connections
    now = 1_800_000_000.0
    answers = {}
    for lag in (None, 0, 1, 7):  # nothing known; the last answer; one before; seven before
        phone, seen = f"phone-{lag}", []
        for t in range(60):
            known = seen[-1 - lag] if lag is not None and len(seen) > lag else None
            arrival = connections.arrive(phone, now + t / 12, known)
            seen.append(arrival.dues)
            answers.setdefault(lag, []).append((arrival.allowed, arrival.busy, arrival.dues))
    assert all(answer == answers[None] for answer in answers.values())
    assert [allowed for allowed, _, _ in answers[None]].count(False) > 0


def test_a_due_set_by_a_clock_ahead_of_this_one_is_started_again(adapters):
    """Dues written by a clock an hour ahead (another local stack's faster game clock over
    the same store, a skewed host) would shut the stream out for that hour: no frame judged
    by this clock could have set them, so they are taken as caught up."""
    connections = adapters.connections
    now = 1_800_000_000.0
    ahead = [connections.arrive("c1", now + 3600) for _ in range(CONNECTION_PACE.burst)]
    assert all(a.allowed for a in ahead)
    here = [connections.arrive("c1", now) for _ in range(CONNECTION_PACE.burst + 1)]
    assert [a.allowed for a in here] == [True] * CONNECTION_PACE.burst + [False]
    assert connections.pace_address("1.2.3.4", now + 3600).allowed
    assert connections.pace_address("1.2.3.4", now).allowed


def test_pace_address_holds_the_address_to_its_pace(adapters):
    connections = adapters.connections
    now = 1_800_000_000.0
    got = [connections.pace_address("1.2.3.4", now).allowed for _ in range(ADDRESS_PACE.burst + 1)]
    assert got == [True] * ADDRESS_PACE.burst + [False]
    assert connections.pace_address("5.6.7.8", now).allowed, "each address its own pace"
    later = now + ADDRESS_PACE.interval_ms / 1000
    assert connections.pace_address("1.2.3.4", later, {ADDRESS: 0}).allowed
    assert not connections.pace_address("1.2.3.4", later).allowed


def test_open_connection_holds_places_up_to_the_cap_and_gives_them_back(adapters):
    connections = adapters.connections
    now = 1_800_000_000.0
    assert all(connections.open_connection("1.2.3.4", f"c{i}", now, 3) for i in range(3))
    assert connections.open_connection("1.2.3.4", "c1", now, 3), "a place it holds already"
    assert not connections.open_connection("1.2.3.4", "c3", now, 3)
    assert connections.open_connection("5.6.7.8", "c3", now, 3), "each address its own"
    connections.close_connection("1.2.3.4", "c0")
    connections.close_connection("1.2.3.4", "c0")  # twice: nothing to give back
    connections.close_connection("1.2.3.4", "never")
    assert connections.open_connection("1.2.3.4", "c3", now, 3)
    assert not connections.open_connection("1.2.3.4", "c4", now, 3), "closed once, freed one"
    later = now + CONNECTION_LIFETIME_SECONDS + 1
    assert connections.open_connection("1.2.3.4", "c4", later, 3), "places older than a life"
    assert connections.open_connection("1.2.3.4", "c5", later, 3)


def test_hit_counts_per_address_kind_and_window(adapters):
    hit = adapters.connections.hit
    assert [hit("1.2.3.4", "JOINS", 3600, 9000) for _ in range(3)] == [1, 2, 3]
    assert hit("1.2.3.4", "ROOMS", 3600, 9000) == 1
    assert hit("1.2.3.4", "JOINS", 7200, 9000) == 1
    assert hit("5.6.7.8", "JOINS", 3600, 9000) == 1


# -- timers ---------------------------------------------------------------------------------------
def test_a_scheduled_timer_reaches_the_handler_as_the_same_typed_message(adapters):
    sent = [
        DeadlineTimer(room=CODE, step=STEP, deadline=1_800_000_060.5),
        HostCheckTimer(room=CODE),
        SeatCheckTimer(room=CODE, seat="Bo"),
        AwayCheckTimer(room=CODE, seat="Bo"),
    ]
    for timer in sent:
        adapters.timers.schedule(timer, 30.5)
    assert [parse_timer(message) for message in adapters.delivered()] == sent
