"""Hostile input: at least 1,000 malformed or hostile frames from one seated
phone mid-game. Each must get an error reply (to that phone only), change nothing in the
store, and never crash the handler (any exception but the service's own refusal fails).

Kinds: bad JSON and non-object JSON, frames over the 4 KB cap, deep nesting, wrong field
types, actions naming another seat, actions of the wrong step, stale actions replayed
from earlier in the game (this phone's and others'), unknown actions, timers from a phone,
moves carrying a `type` that would rename them.
`FUZZ_EXAMPLES` sets the count (default 1,200).
"""

import copy
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.catch_the_witch.actions import ACTION_TYPES
from functions.room_service.service.commands import GAME_ACTIONS, ROOM_ACTIONS
from tests.support.error_codes import server_codes
from tests.support.service_harness import Harness

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1200"))
NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus"]
#: Messages any seated phone may send at any time: not hostile, so not generated.
ALWAYS_ALLOWED = {"ping", "leave"}


def _at_a_ritual() -> tuple[Harness, str, list[dict]]:
    """A game at its ritual, and a seat with nothing it may do now: not a ritual member,
    not the host, no Seer or Pickpocket window. Also every move sent so far."""
    for seed in range(50):
        h = Harness()
        h.table(NAMES)
        h.send("Ann", action="start")
        sent: list[dict] = []
        h.play_with_bots(NAMES, seed, until=lambda view: view["phase"] == "ritual", moves=sent)
        room = h.room()
        if room.state is None or room.state.phase.value != "ritual":
            continue
        members = set(room.state.days[-1].ritual_members)
        for cat in room.state.players:
            idle = cat.name not in members and cat.name != room.host
            if idle and cat.role.value in ("villager", "herbalist", "knight", "witch", "crow"):
                h.clock.now += 10  # a fresh rate-limit bucket: the test is about content
                return h, cat.name, sent
    raise AssertionError("no ritual with an idle seat in 50 games")


HARNESS, FUZZER, SENT = _at_a_ritual()

#: Every code the server can send (tests/support/error_codes.py).
CODES = server_codes()
JUDGED: list[str] = []  # every frame the fuzz test sent
OTHERS = [n for n in NAMES if n != FUZZER]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)  # fmt: skip
action_names = st.sampled_from(sorted(set(ROOM_ACTIONS + GAME_ACTIONS) - ALWAYS_ALLOWED))
field_names = st.sampled_from(["target", "place", "spell", "card", "members", "yes", "name",
                               "room", "settings", "order", "seq", "restore", "player"])  # fmt: skip


def _dump(value) -> str:
    return json.dumps(value)


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


bad_json = st.text(max_size=60).filter(lambda t: not _parses(t)) | st.sampled_from(
    ['{"action": "vote"', "{action: vote}", "[1, 2", "\x00\x01", "{'action': 'ok'}", "nul"]
)
non_objects = json_values.filter(lambda v: not isinstance(v, dict)).map(_dump)
huge = st.integers(4097, 40_000).map(lambda n: _dump({"action": "vote", "target": "x" * n}))
deep = st.integers(50, 3000).map(lambda n: '{"action": "ok", "x": ' + "[" * n + "]" * n + "}")
wrong_types = st.builds(lambda a, f, v: _dump({"action": a, f: v}), action_names, field_names,
                        json_values)  # fmt: skip
as_another_seat = st.builds(
    lambda m, other: _dump({**m, "player": other}),
    st.sampled_from(SENT) if SENT else st.just({"action": "ok"}),
    st.sampled_from(OTHERS),
)
stale_replays = st.sampled_from(SENT).map(_dump)
unknown = st.text(min_size=1, max_size=30).filter(
    lambda a: a not in ROOM_ACTIONS + GAME_ACTIONS
).map(lambda a: _dump({"action": a}))  # fmt: skip
no_action = json_values.filter(lambda v: isinstance(v, dict) and "action" not in v).map(_dump)
timers = st.just(_dump({"action": "timeout"}))
renamed = st.builds(lambda m, kind: _dump({**m, "type": kind}),
                    st.sampled_from(SENT) if SENT else st.just({"action": "ok"}),
                    st.sampled_from(ACTION_TYPES))  # fmt: skip
hostile = st.one_of(bad_json, non_objects, huge, deep, wrong_types, as_another_seat,
                    stale_replays, unknown, no_action, timers, renamed)  # fmt: skip


def _snapshot(h: Harness):
    store = h.store
    # the bindings, not the rate counters: a hostile frame is counted on purpose
    return copy.deepcopy((store._rooms, store._subs, h.connections.bound))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
@given(frame=hostile)
def test_every_hostile_frame_gets_an_error_and_changes_nothing(frame):
    h = HARNESS
    h.clock.now += 0.2  # under the rate limit: each frame is judged on its content
    before = _snapshot(h)
    counts = {name: len(h.messages(name)) for name in NAMES}
    h.service.message(FUZZER, frame)  # an exception here is a handler crash
    JUDGED.append(frame)
    replies = h.messages(FUZZER)[counts[FUZZER] :]
    assert [m["type"] for m in replies] == ["error"], (frame[:200], replies)
    assert replies[0]["message"] and replies[0]["code"] in CODES
    assert _snapshot(h) == before, frame[:200]
    assert all(len(h.messages(n)) == counts[n] for n in OTHERS), "another phone was disturbed"


def test_the_fuzzed_game_still_plays_to_its_end():
    """After every hostile frame, the game goes on normally for everyone."""
    if JUDGED:  # the fuzz test ran first (it does in file order)
        assert len(set(JUDGED)) >= min(EXAMPLES, 1000) * 0.9, len(set(JUDGED))
    final = HARNESS.play_with_bots(NAMES, seed=9)
    assert final["phase"] == "game_over"


@pytest.mark.parametrize("frame", ['{"action": "ok", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_a_frame_far_over_the_cap_is_refused_before_parsing(frame):
    h = HARNESS
    h.clock.now += 1
    count = len(h.messages(FUZZER))
    h.service.message(FUZZER, frame)
    (reply,) = h.messages(FUZZER)[count:]
    assert "too large" in reply["message"]
