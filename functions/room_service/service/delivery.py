"""Delivery: after a unit of work has written, schedule its timers and push its messages
and views. It returns the connections found gone (HTTP 410) and changes nothing itself:
the caller decides what a gone phone means for its seat.

What goes on the wire tells an onlooker nothing a role decides: every frame of
a room is padded to one size (frames.py), and a push reaches every connected seat or the
mover alone, never a set of seats that a secret move picked (``_push_views``)."""

from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from typing import Any

from ..adapters.ports import Pusher, Timers
from ..domain.room import Room
from . import frames, replies
from .change import Commit, Seen
from .replies import view_for

#: A ``seq`` as long as the unit of work's stamps (microseconds): frames are sized with it
#: where no commit gives one (an error refusing a move).
_STAMP_SIZED_SEQ = 10**15


class Delivery:
    def __init__(self, pusher: Pusher, timers: Timers) -> None:
        self.pusher = pusher
        self.timers = timers

    def deliver(self, commit: Commit) -> list[str]:
        """Everything ``commit`` asks to send; the connections found gone."""
        timers = commit.change.timers
        if not timers:
            return self._push_all(commit)
        # The timers go to SQS while the posts go out (one round trip fewer
        # before the phones hear of a step's end); both wait only for the write.
        with ThreadPoolExecutor(1) as scheduling:
            scheduled = scheduling.submit(self._schedule, timers)
            gone = self._push_all(commit)
        scheduled.result()  # a failure to schedule still fails the request
        return gone

    def _schedule(self, timers) -> None:
        for timer, delay in timers:
            self.timers.schedule(timer, delay)

    def _push_all(self, commit: Commit) -> list[str]:
        room, change = commit.room, commit.change
        sent = _RoomFrames(room, commit.seq)
        gone = [c for c, message in change.direct for c in self._post([(c, sent.pad(message))])]
        pushed: set[str] = set()
        if change.push_views:
            pushed, gone_views = self._push_views(sent, commit.seen, change.mover)
            gone += gone_views
        commit.pushed.update((name, sent.view(name)["rev"]) for name in pushed)
        if change.pong:
            pong = change.pong
            # Nothing in the answer depends on anything but the seat's own view: neither
            # other seats' pending moves nor steps the seat does not see. A view sent
            # answers the ping as well: no pong beside it (one message, not two).
            if pong.name not in pushed:
                view = sent.view(pong.name)
                answer = view if view["rev"] != pong.client_rev else (
                    replies.PONG if pong.answer else None)  # fmt: skip
                if answer is not None:
                    gone += self._post([(pong.connection_id, sent.pad(answer))])
        return gone + self._push_watchers(commit, sent)

    def _push_watchers(self, commit: Commit, sent: "_RoomFrames") -> list[str]:
        """The room's public view to its table screens, only when it changed (a witch's
        secret move leaves it as it was: nothing is sent, so the table screen's traffic
        tells nothing either), or changed only in the game's ``progress_fields``, as for
        the phones; a table screen that just began watching gets it anyway."""
        room, seen = commit.room, commit.seen
        if not room.watchers:
            return []
        view = sent.public()
        had = seen.public if seen else None
        if had is None or not replies.same_but_progress(had, view["view"],
                                                        room.rules.progress_fields):  # fmt: skip
            targets = list(room.watchers)
        elif commit.change.watcher in room.watchers:
            targets = [commit.change.watcher]
        else:
            return []
        message = sent.pad(view)
        return self._post([(watcher, message) for watcher in targets])

    def send(self, connection_id: str, message: dict[str, Any], room: Room | None = None,
             ) -> list[str]:  # fmt: skip
        """One message to one phone (padded to the frames of ``room``, the room it was
        refused in, if any); the connection if it was found gone."""
        size = _RoomFrames(room, _STAMP_SIZED_SEQ).size if room is not None else 0
        return self._post([(connection_id, frames.padded(message, size))])

    def _post(self, messages: list[tuple[str, dict[str, Any]]]) -> list[str]:
        return self.pusher.push(messages) if messages else []

    def _push_views(self, sent: "_RoomFrames", seen: Seen | None, mover: str | None,
                    ) -> tuple[set[str], list[str]]:  # fmt: skip
        """The seats' new views: none if no seat's view changed but in the game's
        ``progress_fields`` (its waiting list, left out of pushes to save frames: brought up
        to date at the step's end or when a phone pings with its ``rev``). After a move that
        leaves its step as it is and shows the table nothing new, the mover's alone (its
        acknowledgement) or, on the steps the game names (``Game.pushes_every_move``), every
        connected seat's the game says sees them (``Game.sees_every_move``: by public facts),
        whatever the move changed: who is sent a frame depends on the step and on what the
        table sees, never on who moved or what they hold. Anything else (a step's
        end, a timer, a seat come or gone, a move the table sees, such as an Away mark):
        every connected seat's. The seats pushed, and the connections found gone."""
        room = sent.room
        game, game_views = room.rules, sent.game_views
        had = seen.game_views(room, game_views) if seen else None
        changed = [
            s.name for s in room.seats
            if not (had and s.name in had and replies.same_but_progress(
                had[s.name], game_views[s.name], game.progress_fields))
        ]  # fmt: skip
        if not changed:
            return set(), []
        within_step = (
            had is not None
            and mover is not None
            and game.step(seen.state) == game.step(room.state)
            and replies.same_but_progress(game.table_view(seen.state),
                                          game.table_view(room.state), game.progress_fields)
        )  # fmt: skip
        every = within_step and game.pushes_every_move(room.state)
        seats = [
            s for s in room.seats
            if s.connection and (not within_step or s.name == mover
                                 or (every and game.sees_every_move(room.state, s.name)))
        ]  # fmt: skip
        messages = [(seat.connection, sent.pad(sent.view(seat.name))) for seat in seats]
        return {seat.name for seat in seats}, self._post(messages)


class _RoomFrames:
    """The frames of one delivery to a room: every seat's view message and the public one,
    each built once and only if something is sent, and the size each frame is padded to
    (frames.py: from the public view, or the longest seat's view should it be longer)."""

    def __init__(self, room: Room, seq: int) -> None:
        self.room, self.seq = room, seq

    @cached_property
    def game_views(self) -> dict[str, dict] | None:
        room = self.room
        return room.rules.views(room.state) if room.state is not None else None

    @cached_property
    def _views(self) -> dict[str, dict[str, Any]]:
        return {
            seat.name: replies.view_message(self.seq, view_for(self.room, seat.name,
                                                               self.game_views))
            for seat in self.room.seats
        }  # fmt: skip

    @cached_property
    def _public(self) -> dict[str, Any]:
        return replies.view_message(self.seq, replies.public_view(self.room))

    @cached_property
    def size(self) -> int:
        return frames.room_size(self._public, self._views.values())

    def view(self, name: str) -> dict[str, Any]:
        return self._views[name]

    def public(self) -> dict[str, Any]:
        return self._public

    def pad(self, message: dict[str, Any]) -> dict[str, Any]:
        return frames.padded(message, self.size)
