"""Leak audit on the wire (issue 6): every message every phone receives in many full
games, checked against the secrets of the moment it was sent.

For each pushed message to seat P, with the room as it was at that push:
- a view is exactly ``view_for(room, P)`` (the engine's view for P plus the room code and
  who is connected): no field the engine did not put there for P;
- on a sample of those states, the engine's view for P passes the non-interference audit
  (tests/support/leaks.py): it does not change when every secret P may not know is scrambled
  (other cats' roles, hands, choices, Seer results, unrevealed votes, cards, the RNG);
- the text of the message holds no other seat's token, no token hash, and not the game's
  RNG state; P's own token appears only in the ``joined`` message P asked for.

`LEAK_AUDIT_GAMES` scales the number of games per table size (default 2).
"""

import json
import os
import random

import pytest

from functions.room_service.adapters.memory import MemoryPusher
from functions.room_service.service import replies
from functions.room_service.service.replies import view_for
from tests.support.leaks import assert_no_leak
from tests.support.service_harness import Harness

GAMES = int(os.environ.get("LEAK_AUDIT_GAMES", "2"))
#: Every how many-th view gets the (slower) non-interference audit.
SCRAMBLE_EVERY = 7


class RecordingPusher(MemoryPusher):
    """Remembers, with each message, the room as it stood when it was pushed."""

    def __init__(self) -> None:
        super().__init__()
        self.harness: Harness | None = None
        self.log: list[tuple[str, dict, object]] = []

    def push(self, messages):
        h = self.harness
        room = h.service.current_room(h.code) if h and h.code else None
        for connection_id, message in messages:
            self.log.append((connection_id, message, room))
        return super().push(messages)


def _audit_game(count: int, seed: int, reveal: bool) -> int:
    pusher = RecordingPusher()
    h = Harness(pusher=pusher)
    pusher.harness = h
    names = [f"Cat{i}" for i in range(1, count + 1)]
    h.table(names)
    h.send(names[0], action="settings",
           settings={"discussion_limit": 60, "reveal_role_on_exile": reveal})  # fmt: skip
    h.send(names[0], action="start")
    h.play_with_bots(names, seed=seed)
    rng = random.Random(seed)
    hashes = [seat.token_hash for seat in h.room().seats]
    views = 0
    for connection_id, message, room in pusher.log:
        player = connection_id  # the harness's phones are named after their seats
        text = json.dumps(message)
        for other, token in h.tokens.items():
            if other != player or message["type"] != "joined":
                assert token not in text, (player, "token of", other, message["type"])
        assert not any(digest in text for digest in hashes), (player, "a token hash")
        if room is None or message["type"] != "view":
            continue
        if room.state is not None:
            assert str(room.state.rng) not in text, (player, "the RNG state")
        assert message["view"] == view_for(room, player), (player, "view differs")
        views += 1
        if room.state is not None and views % SCRAMBLE_EVERY == 0:
            assert_no_leak(room.state, player, rng)
    return views


@pytest.mark.parametrize("count", [4, 7, 12])
@pytest.mark.parametrize("reveal", [False, True], ids=["roles-hidden", "reveal-on-exile"])
def test_no_message_to_any_phone_carries_a_secret(count, reveal):
    views = sum(_audit_game(count, seed, reveal) for seed in range(GAMES))
    assert views > 50 * GAMES  # whole games were audited, view by view


def _with_roles(view_for_function):
    def leaky(room, name, game_views=None):
        view = view_for_function(room, name, game_views)
        if room.state is not None:
            view["debug"] = {cat.name: cat.role.value for cat in room.state.players}
        return view

    return leaky


def _joined_with_earlier_tokens(monkeypatch):
    handed_out: list[str] = []
    real = replies.joined_message

    def leaky(room, name, token):
        message = {**real(room, name, token), "earlier": list(handed_out)}
        handed_out.append(token)
        return message

    monkeypatch.setattr(replies, "joined_message", leaky)


@pytest.mark.parametrize(
    "plant",
    [
        # the service adds every role to each view
        lambda mp: mp.setattr(
            "functions.room_service.service.delivery.view_for", _with_roles(view_for)
        ),
        # the engine shows every role to everyone (the views then agree with view_for)
        lambda mp: mp.setattr(
            "engine.catch_the_witch.views._known_role", lambda s, cat, me, over: cat.role
        ),
        # a joining phone is also given the tokens handed out before
        _joined_with_earlier_tokens,
    ],
    ids=["service-extra-field", "engine-roles", "other-tokens"],
)
def test_the_wire_audit_catches_a_planted_leak(plant, monkeypatch):
    plant(monkeypatch)
    with pytest.raises(AssertionError):
        _audit_game(7, seed=1, reveal=False)
