"""Table screens and the key that opens them.

A table screen (``watch``) takes no seat; it needs the room's **table key**: 128 random bits
made with the room, shown only in the host's lobby view, carried by the host's table link
in its fragment (``/table?room=CODE#key=KEY``, never sent to a server in a request line).
A ``watch`` without the key, or with another, is refused and lets nobody go, so the room
code, which every seat and every table screen shows, no longer lets a stranger watch or
push the real TV out.

The key stays for the room's life: across "Play again", the return to the lobby and a
change of game, and across a host hand-over (by hand, or §10's automatic one after the host's
phone has been gone 30 s), so the TV keeps working whatever happens at the table (its
every new socket watches again with the key). The host, in the lobby, may make a new key
(``new_table_key``): every screen watching is let go and the old link opens nothing.
That is the remedy when the link went where it should not (a former host, a photo of the
QR): a kick does not change the key, since a kicked cat saw it only if it was host once.
"""

import hmac
import secrets

from engine.errors import IllegalAction

from .room import MAX_WATCHERS, Room

#: [design] Random bytes of a table key: 128 bits, 22 URL-safe characters.
TABLE_KEY_BYTES = 16


def new_table_key() -> str:
    return secrets.token_urlsafe(TABLE_KEY_BYTES)


def opens(room: Room, key: str | None) -> bool:
    """Whether ``key`` is the room's table key, compared in constant time. A room with no
    key (stored before keys were made) is opened by none."""
    if not key or not room.table_key:
        return False
    return hmac.compare_digest(key.encode(), room.table_key.encode())


class TableKeyMissing(IllegalAction):
    """A ``watch`` with no key: a link typed by hand or from before keys (decided before
    the room is read, so it tells nothing of the room)."""

    code = "table_key_missing"

    def __init__(self) -> None:
        super().__init__(
            "This table screen link has no key. Open the table screen with the link or QR "
            "code in the host's lobby."
        )


class TableKeyWrong(IllegalAction):
    """The one answer to a ``watch`` whose key opens no table: no such room, a closed one,
    or another key (the host made a new one). A probe of codes learns nothing from it."""

    code = "table_key_wrong"

    def __init__(self) -> None:
        super().__init__(
            "This table screen link opens no table: the room has closed, or the host made a "
            "new link. Open the table screen again from the host's lobby."
        )


class TableLetGo(IllegalAction):
    """Sent to a table screen that stops watching: a newer screen with the key took its
    place (at most MAX_WATCHERS), or the host made a new key."""

    code = "table_let_go"

    def __init__(self) -> None:
        super().__init__(
            "This table screen was let go: another one opened with the table link took its "
            f"place (at most {MAX_WATCHERS} a room), or the host made a new table link."
        )


def admit(room: Room, connection_id: str, key: str | None) -> list[str]:
    """A ``watch`` with ``key``: the connection watches ``room``; the screens it lets go
    are returned. A full room lets its oldest screen go (one whose ``$disconnect`` was lost,
    or the host's TV moved to a new device): only a screen with the key can do that."""
    if room.closed or not opens(room, key):
        raise TableKeyWrong()
    if connection_id in room.watchers:
        return []
    let_go = room.watchers[: max(0, len(room.watchers) - MAX_WATCHERS + 1)]
    room.watchers = [*room.watchers[len(let_go) :], connection_id]
    return let_go


def change_key(room: Room) -> list[str]:
    """The host's new table key: the old one opens nothing now, and every screen watching
    is let go (returned): the host opens the table screen again with the new link."""
    let_go, room.watchers = room.watchers, []
    room.table_key = new_table_key()
    return let_go
