"""Delivery: after a unit of work has written, schedule its timers and push its messages
and views. It returns the connections found gone (HTTP 410) and changes nothing itself:
the caller decides what a gone phone means for its seat."""

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..adapters.ports import Pusher, Timers
from . import replies
from .change import Commit, Seen
from .replies import view_for


class Delivery:
    def __init__(self, pusher: Pusher, timers: Timers) -> None:
        self.pusher = pusher
        self.timers = timers

    def deliver(self, commit: Commit) -> list[str]:
        """Everything ``commit`` asks to send; the connections found gone."""
        timers = commit.change.timers
        if not timers:
            return self._push_all(commit)
        # The timers go to SQS while the posts go out (issue 16: one round trip fewer
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
        gone = [c for c, message in change.direct for c in self.pusher.push([(c, message)])]
        pushed: set[str] = set()
        if change.push_views:
            pushed, gone_views = self._push_views(commit.room, commit.seq, commit.seen)
            gone += gone_views
        if change.pong:
            pong = change.pong
            # Nothing in the answer depends on anything but the seat's own view: neither
            # other seats' pending moves nor steps the seat does not see (issue 18). A view
            # sent answers the ping as well: no pong beside it (issue 16: one message).
            if pong.name not in pushed:
                view = replies.view_message(commit.seq, view_for(room, pong.name))
                answer = view if view["rev"] != pong.client_rev else (
                    replies.PONG if pong.answer else None)  # fmt: skip
                if answer is not None:
                    gone += self.pusher.push([(pong.connection_id, answer)])
        return gone + self._push_watchers(commit)

    def _push_watchers(self, commit: Commit) -> list[str]:
        """The room's public view to its table screens, only when it changed (a witch's
        secret move leaves it as it was: nothing is sent, so the table screen's traffic
        tells nothing either), or changed only in the game's ``progress_fields`` (as for
        the phones); a table screen that just began watching gets it anyway."""
        room, seen = commit.room, commit.seen
        if not room.watchers:
            return []
        view = replies.public_view(room)
        had = seen.public if seen else None
        if had is None or not replies.same_but_progress(had, view, room.rules.progress_fields):
            targets = list(room.watchers)
        elif commit.change.watcher in room.watchers:
            targets = [commit.change.watcher]
        else:
            return []
        message = replies.view_message(commit.seq, view)
        return self.pusher.push([(watcher, message) for watcher in targets])

    def send(self, connection_id: str, message: dict[str, Any]) -> list[str]:
        """One message to one phone; the connection if it was found gone."""
        return self.pusher.push([(connection_id, message)])

    def _push_views(self, room, seq: int, seen: Seen | None) -> tuple[set[str], list[str]]:
        """Each connected seat's new view, except to seats that already have it (a place, a
        witch's choice, a Seer's look change only the mover's own view) or whose view
        changed only in the game's ``progress_fields``, its waiting list (issue 16: a move
        that leaves the step as it is is acknowledged to its mover alone; the others'
        lists are brought up to date at the step's end, or when a phone asks: a ``ping``
        with its ``rev``): the seats pushed, and the connections found gone."""
        game_views = room.rules.views(room.state) if room.state else None
        had = seen.game_views(room, game_views) if seen else None
        seats = [
            s for s in room.seats
            if s.connection and not (had and s.name in had and replies.same_but_progress(
                had[s.name], game_views[s.name], room.rules.progress_fields))
        ]  # fmt: skip
        if not seats:
            return set(), []
        messages = [
            (seat.connection, replies.view_message(seq, view_for(room, seat.name, game_views)))
            for seat in seats
        ]
        return {seat.name for seat in seats}, self.pusher.push(messages)
