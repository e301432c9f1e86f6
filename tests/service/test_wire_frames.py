"""The wire tells nothing a role decides. Whole games of both games at 8
seats, with the roles dealt differently, played through the service: at every push all
seats' frames have one length, a function of the public view alone (frames.py pads them
to a class above any seat's view), so an acknowledgement to its mover alone is as long as a
push to everyone would be and a secret move never changes it, and who is
sent a frame never depends on who holds which role: a move that leaves its step as it is
reaches the mover alone or every seat, the same for every move of that step whoever made
it; a move or a timer that moves the game on reaches every seat."""

import json
from collections import defaultdict
from dataclasses import dataclass, field

import pytest

from functions.room_service.adapters.memory import MemoryPusher
from functions.room_service.adapters.wire import frame_bytes
from functions.room_service.service import frames, game_handlers
from functions.room_service.service.replies import public_view, view_for
from tests.support.service_harness import Harness

SEATS = [f"Cat{i}" for i in range(1, 9)]
#: Deals (the game's key) and bot seeds: each deals the 8 seats' roles otherwise.
DEALS = [(101, 1), (202, 2), (303, 3)]
GAMES = {
    "catch_the_witch": {"discussion_limit": 60, "reveal_role_on_exile": False},
    "burn_the_witch": {"timers": True, "timer_seconds": 30},
}


@dataclass
class Event:
    """One message from a phone, or one timer: what it was sent on, and the frames of it."""

    mover: str | None
    phase: str
    moved_on: bool
    frames: list[tuple[str, int]] = field(default_factory=list)
    #: After it: the size the public view alone gives (frames.room_size), and the longest
    #: frame any seat's view would make unpadded.
    public_size: int = 0
    largest_view: int = 0
    #: After it: the seats the public view shows in human form (Catch the Witch's frogs and
    #: exiled cats are public; a game without forms: every seat).
    in_human_form: frozenset[str] = frozenset()


class EventRecorder:
    """Brackets every message and timer the service handles during a game, with the room's
    step before and after, and the frames posted meanwhile."""

    def __init__(self, h: Harness) -> None:
        self.h, self.events = h, []
        message, timer = h.service.message, h.service.timer

        def on_message(connection_id, body, *args, **kwargs):
            action = json.loads(body).get("action")
            mover = connection_id if action not in ("ping", "watch") else None
            return self._record(mover, lambda: message(connection_id, body, *args, **kwargs))

        h.service.message = on_message
        h.service.timer = lambda msg: self._record(None, lambda: timer(msg))

    def _record(self, mover, handle):
        h, pusher = self.h, self.h.pusher
        room = h.room() if h.code else None
        if room is None or room.state is None:
            return handle()
        game, state = room.rules, room.state
        before = len(pusher.pushes)
        handle()
        after = h.room()
        moved_on = after.state is None or game.step(after.state) != game.step(state)
        phase = str(getattr(state.phase, "value", state.phase))
        sent = [f for push in pusher.pushes[before:] for f in push]
        public = {"type": "view", "seq": 10**15, "rev": "0" * 16, "view": public_view(after)}
        views = after.rules.views(after.state) if after.state is not None else None
        largest = max(len(frame_bytes(_unpadded_view(after, s.name, views))) for s in after.seats)
        humans = frozenset(p["name"] for p in public["view"].get("players") or []
                           if p.get("form", "human") == "human")  # fmt: skip
        self.events.append(
            Event(mover, phase, moved_on, sent, frames.room_size(public), largest, humans)
        )


def _unpadded_view(room, name: str, views: dict | None) -> dict:
    return {"type": "view", "seq": 10**15, "rev": "0" * 16, "view": view_for(room, name, views)}


def _played(game: str, deal: int, bots: int, seats: list[str] = SEATS) -> list[Event]:
    h = Harness(pusher=MemoryPusher())
    h.table(seats, game=game, settings=GAMES[game])
    recorder = EventRecorder(h)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(game_handlers, "new_game_key", lambda: deal)
        h.send(seats[0], action="start")
    h.play_with_bots(seats, seed=bots)
    return recorder.events


@pytest.fixture(scope="module")
def played() -> dict[str, list[Event]]:
    return {
        game: [event for deal, bots in DEALS for event in _played(game, deal, bots)]
        for game in GAMES
    }


def _check_lengths(events: list[Event]) -> int:
    pushes = 0
    for event in events:
        if not event.frames:
            continue
        lengths = {length for _, length in event.frames}
        assert len(lengths) == 1, (event.phase, event.mover, event.frames)
        (length,) = lengths
        assert length in frames.FRAME_CLASSES, length
        # The size the public view gives, which no seat's view outgrew: a secret move, even
        # one acknowledged to its mover alone, cannot change a frame's length.
        assert length == event.public_size, (event.phase, event.mover, length)
        assert length >= event.largest_view, (event.phase, length, event.largest_view)
        pushes += 1
    return pushes


@pytest.mark.parametrize("game", GAMES)
def test_every_frame_of_a_push_has_one_length_and_an_acknowledgement_the_same(played, game):
    assert _check_lengths(played[game]) > 100


#: Names as long as a name may be (20 characters), each Thai character 6 bytes escaped: the
#: largest private parts of a view (frames.PRIVATE_SHARE and PRIVATE_BYTES were measured so).
LONG_NAMES = [f"สมชายใจดีมีความสุข{i:02}" for i in range(1, 13)]


def test_frames_stay_one_length_with_the_longest_names_at_the_largest_table():
    assert _check_lengths(_played("catch_the_witch", 404, 4, LONG_NAMES)) > 50


@pytest.mark.parametrize("game", GAMES)
def test_who_is_sent_a_frame_never_depends_on_who_holds_which_role(played, game):
    kinds = defaultdict(set)
    for event in played[game]:
        sent = {connection for connection, _ in event.frames}
        if not sent:
            continue
        kind = "all" if sent == set(SEATS) else "mover" if sent == {event.mover} else sent
        if event.moved_on or event.mover is None:
            assert kind == "all", (event.phase, event.mover, sorted(sent))
        elif event.phase == "witches":
            # Every phone in human form (public): a frog's or an exiled cat's view never
            # changes there (CatchTheWitch.sees_every_move), and every phone shows who is one.
            assert sent == event.in_human_form | {event.mover}, (event.mover, sorted(sent))
            kinds[event.phase].add("in human form")
        else:
            kinds[event.phase].add(kind if isinstance(kind, str) else "some")
    # A move that leaves its step as it is: the same seats for every move of the step.
    assert all(len(k) == 1 and k <= {"all", "mover", "in human form"} for k in kinds.values()), (
        dict(kinds)
    )
    if game == "catch_the_witch":  # the steps a secret move reaches other cats on
        assert kinds["witches"] == {"in human form"}
        assert any(  # with a frog or an exiled cat among them, left out
            e.phase == "witches" and not e.moved_on and e.in_human_form < set(SEATS)
            for e in played[game]
        )
        assert kinds["approval"] == kinds["vote"] == {"all"}
        assert kinds["place_choice"] == kinds["discussion"] == {"mover"}
    else:  # votes and fingers show on every phone; the coven's tap (deal 202) on its own
        assert kinds["vote"] == kinds["trial"] == {"all"}
        assert kinds["witching_hour"] == {"mover"}
