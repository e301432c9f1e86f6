"""Commands: what a phone (docs/protocol.md) or a timer asks of the service, typed.

Client → server: ``{"action": NAME, ...}``. NAME is a room action (below) or a
RULES §12 game action (``vote``, ``play_card`` …, never ``timeout``). The acting
cat is the connection's seat; a ``player`` field naming anyone else is refused. ``action``
is the only field that names the action: a client ``type`` is refused, never passed on.
Names a phone asks for are cleaned or refused by names.clean_name (codes ``name_*``).

Timer messages (what the service asks to be told later) are in domain/timers.py, where
the adapters that carry them may import them. Server → client messages are in replies.py.
"""

import json
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)

from engine.errors import InvalidAction, readable_error
from engine.game import NAME_MAX, Game
from engine.games import DEFAULT_GAME, GAMES, reserve_move_names

from ..domain.names import clean_name
from .replies import REV_LENGTH

#: Largest message a client may send (API Gateway allows 128 KB; nothing here needs 4).
MAX_MESSAGE_BYTES = 4096

#: A seated cat's name, as the room has it (kick, hand over, reorder).
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX)]
#: A name a phone asks for (create, join): cleaned or refused by names.clean_name, whose
#: NameRefused (not a ValueError) passes through pydantic with its own error code.
NewName = Annotated[str, AfterValidator(clean_name)]
RoomCode = Annotated[str, StringConstraints(strip_whitespace=True, min_length=4, max_length=8)]
#: A table key as the host's table link carries it (URL-safe base64: secrets.token_urlsafe).
TableKey = Annotated[str, StringConstraints(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")]
#: The ``rev`` of a view, as the phone got it (replies.py).
Rev = Annotated[str, StringConstraints(max_length=REV_LENGTH)]
#: A seat token as `joined` gave it (URL-safe base64: room.new_token).
SeatToken = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _SeatMessage(_Message):
    """A message from a seated phone. ``room``: the room the phone shows, named so its read
    can run alongside the connection's (one round trip, not two). Only a hint: the seat is
    the one the connection is bound to, and a room that is not the binding's is read again."""

    room: RoomCode | None = None


def _known_game(key: str) -> str:
    if key not in GAMES:
        raise ValueError(f"there is no game {key[:40]!r}")
    return key


#: A registered game's key (engine/games.py); any other is refused as ``field_invalid``.
GameKey = Annotated[str, AfterValidator(_known_game)]


class CreateRoom(_Message):
    action: Literal["create_room"]
    name: NewName
    #: The game the room plays (engine/games.py).
    game: GameKey = DEFAULT_GAME
    #: The game's settings, read by that game (``parse_settings``); absent: its defaults.
    settings: Any = None


class Join(_Message):
    action: Literal["join"]
    room: RoomCode
    name: NewName
    #: A local stack's bot (local_stack/bot_client.py) says so: host powers never pass to
    #: it (§10 as amended, docs/protocol.md "Host powers when the host is away"). Claiming
    #: it only keeps a phone from hosting.
    bot: StrictBool = False


class Resume(_Message):
    """A seated phone's first frame on each new socket: its seat's token rides in
    a frame, never in a URL (API Gateway's access logs, a proxy and the browser's history
    keep URLs), and a seat that is no longer the phone's is refused over the opened socket,
    where the phone can read why (a refused handshake tells a browser nothing). The
    connection takes the seat, and gets its view as a ping does."""

    action: Literal["resume"]
    room: RoomCode
    token: SeatToken
    #: As a ping's: the view comes back only if the phone shows another.
    rev: Rev | None = None


class SeatLink(_SeatMessage):
    """A one-time link that moves a seat to another phone (domain/seat_moves.py): a seated
    phone asks for its own seat's (``seat`` absent or its own name); the host asks for the
    seat of a phone gone at least SEAT_LINK_OFFLINE_SECONDS, and the whole table is told."""

    action: Literal["seat_link"]
    seat: Name | None = None


class TakeSeat(_Message):
    """A new phone opening a seat's one-time link: it takes that seat (the old phone is
    told and let go) and is answered as a join is, with the seat's new token."""

    action: Literal["take_seat"]
    room: RoomCode
    key: SeatToken


class Watch(_Message):
    """A table screen: the connection watches the room, seatless and read-only."""

    action: Literal["watch"]
    room: RoomCode
    #: The room's table key, from the host's table link: without it, refused.
    key: TableKey | None = None


class NewTableKey(_SeatMessage):
    """The host's new table link: the old one opens nothing, screens are let go."""

    action: Literal["new_table_key"]


class Leave(_SeatMessage):
    action: Literal["leave"]


class ChangeSettings(_SeatMessage):
    """The host's settings; with ``game``, the game the room plays from now on, and its
    settings (absent: that game's defaults). Without ``game`` the settings are required."""

    action: Literal["settings"]
    #: Read by the room's game (or ``game``) once the room is loaded (``parse_settings``).
    settings: Any = None
    #: The game the room plays from now on (the host's choice in the lobby).
    game: GameKey | None = None


class Reorder(_SeatMessage):
    action: Literal["reorder"]
    order: Annotated[list[Name], Field(max_length=12)]


class Kick(_SeatMessage):
    action: Literal["kick"]
    target: Name


class HandOver(_SeatMessage):
    action: Literal["hand_over"]
    target: Name


class Start(_SeatMessage):
    action: Literal["start"]


class Rematch(_SeatMessage):
    """The start of a new game from the lobby with the seats as they are (as ``start``)."""

    action: Literal["rematch"]


class RoomOptions(_SeatMessage):
    """The room's own options (not the game's settings), set by the host in the lobby."""

    action: Literal["room_options"]
    auto_away: StrictBool


class Ping(_SeatMessage):
    action: Literal["ping"]
    #: The ``rev`` of the view the client shows; if its view is another now (or it has
    #: none), the view is sent again. A rev tells only of the seat's own view (see ``rev``).
    rev: Rev | None = None


class Cover(_SeatMessage):
    """A frame that asks nothing and gets no answer: a phone whose owner has nothing to send
    sends one where another role's phone sends a move the step alone answers (the Knight's
    guard place, answered by the step's end to every seat), so that the Wi-Fi sees every
    phone send one frame there: no role's phone stands out by its frames (docs/security.md,
    "Who can observe what")."""

    action: Literal["cover"]
    #: The step it covers, named as a move names its own so that both read alike; not read.
    step: int | None = None


class Replay(_SeatMessage):
    """The last finished game's replay file, for a seat that played it."""

    action: Literal["replay"]


RoomAction = Annotated[
    CreateRoom
    | Join
    | Resume
    | Watch
    | Leave
    | ChangeSettings
    | Reorder
    | Kick
    | HandOver
    | Start
    | Rematch
    | RoomOptions
    | Ping
    | Cover
    | Replay
    | NewTableKey
    | SeatLink
    | TakeSeat,
    Field(discriminator="action"),
]
#: The names of the room actions above. The phone keeps copies of this list and the next
#: (frontend/js/app.js, connection.js), held to them by tests/service/test_protocol_lists.py.
ROOM_ACTIONS = ("create_room", "join", "resume", "watch", "leave", "settings", "reorder", "kick", "hand_over",
                "start", "rematch", "room_options", "ping", "cover", "replay", "new_table_key",
                "seat_link", "take_seat")  # fmt: skip
_ROOM_ADAPTER: TypeAdapter[RoomAction] = TypeAdapter(RoomAction)
#: The frames of a phone with no room yet: every other frame may name its room, read
#: alongside the connection's (``_SeatMessage.room``); ``join``, ``resume``, ``watch`` and
#: ``take_seat`` name the room they ask for.
ROOMLESS_ACTIONS = ("create_room", "join", "resume", "watch", "take_seat")
# A frame's name is read as a room action before any game's move (parse_client_message), so
# a move named like one would never reach its game; and a timeout is the deadline's turn,
# never a phone's (a replay file records it under that name).
reserve_move_names(ROOM_ACTIONS, "a room action")
reserve_move_names(("timeout",), "the server's own timeout")


def move_types() -> frozenset[str]:
    """Every move some registered game takes (a game registered later counts too)."""
    return frozenset().union(*(game.move_types for game in GAMES.values()))


#: The moves of the games shipped (the server's own ``timeout`` is never one).
GAME_ACTIONS = tuple(sorted(move_types()))


class Move(_Message):
    """A game move as the phone sent it: read by the room's game once the room is loaded
    (``read_move``), since only the room knows which game it plays."""

    type: str
    fields: dict[str, Any]


class GameMove(_SeatMessage):
    """A game move from a seat; its ``player`` is filled in by the service.

    ``step`` is the ``step`` of the view the move was made on: the room takes the move only
    on that step, so a late, replayed or retried frame never lands on a later one."""

    move: Move
    step: StrictInt


def read_move(game: Game, move: Move) -> BaseModel:
    """``move`` as ``game``'s action (InvalidAction if it is none); its ``player`` is the
    one the phone named, if any (the handler sets it to the seat)."""
    if move.type not in game.move_types:
        raise InvalidAction(f"Unknown action {move.type[:30]!r}.", code="unknown_action")
    return game.parse_move({**move.fields, "type": move.type})


def read_settings(game: Game, data: Any, kind: str) -> BaseModel:
    """The host's settings as ``game``'s model; InvalidAction names the field at fault."""
    try:
        return game.parse_settings(data)
    except ValidationError as exc:
        errors = [{**error, "loc": ("settings", *error["loc"])} for error in exc.errors()]
        located = ValidationError.from_exception_data(exc.title, errors)
        raise readable_error(located, kind) from exc


def chosen_settings(game: Game, msg: CreateRoom | ChangeSettings) -> BaseModel:
    """The settings ``msg`` gives ``game``: its ``settings`` read by that game, or the
    game's defaults when the message has none (a new room, a game chosen in the lobby)."""
    if "settings" not in msg.model_fields_set:
        return game.default_settings()
    return read_settings(game, msg.settings, msg.action)


def parse_client_message(body: str | bytes | None) -> RoomAction | GameMove:
    """Validate one frame from a client; raise InvalidAction with a readable message."""
    if body is None or body == "":
        raise InvalidAction("The message is empty.", code="bad_message")
    size = len(body.encode() if isinstance(body, str) else body)
    if size > MAX_MESSAGE_BYTES:
        raise InvalidAction(
            f"The message is too large ({size} bytes; at most {MAX_MESSAGE_BYTES}).",
            code="message_too_large", params={"max": MAX_MESSAGE_BYTES},
        )  # fmt: skip
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidAction("The message is not valid JSON.", code="not_json") from exc
    # About 2,000 nested brackets fit in 4 KB and exhaust json's recursion (tests/service/test_fuzz.py).
    except RecursionError as exc:
        raise InvalidAction("The message is nested too deeply.", code="bad_message") from exc
    if not isinstance(data, dict):
        raise InvalidAction("A message must be a JSON object with an 'action'.", code="bad_message")
    # The phone pads every frame to one length with spaces (frontend/js/connection.js).
    pad = data.pop("pad", "")
    if not isinstance(pad, str) or pad.strip(" "):
        raise InvalidAction("'pad' holds spaces only.", code="bad_message")
    # One field names the action: a "type" would rename a move (to "timeout", say) for the
    # engine, whose actions are named by "type"; no client message may carry one.
    if "type" in data:
        raise InvalidAction(
            "A message names its action in 'action' only; drop 'type'.",
            code="field_extra", params={"field": "type"},
        )  # fmt: skip
    name = data.get("action")
    if name in ROOM_ACTIONS:
        try:
            return _ROOM_ADAPTER.validate_python(data)
        except ValidationError as exc:
            raise readable_error(exc, name) from exc
        except InvalidAction as exc:  # a name refused (names.clean_name): passed through
            exc.action = name
            raise
    if name in move_types():
        fields = {k: v for k, v in data.items() if k not in ("action", "step", "room")}
        step = data.get("step")
        if type(step) is not int:
            raise InvalidAction(
                "A move names the step it was made on: the view's 'step'.",
                code="field_missing", params={"field": "step"}, action=name,
            )  # fmt: skip
        try:
            return GameMove(move=Move(type=name, fields=fields), step=step, room=data.get("room"))
        except ValidationError as exc:
            raise readable_error(exc, name) from exc
    if name == "timeout":
        raise InvalidAction("Timers are the server's job.", code="unknown_action")
    if name is None:
        raise InvalidAction(
            "A message needs an 'action'.", code="field_missing", params={"field": "action"}
        )
    raise InvalidAction(f"Unknown action {str(name)[:30]!r}.", code="unknown_action")


__all__ = ["GameMove", "RoomAction", "parse_client_message"]


def action_of(command: RoomAction | GameMove | None) -> str | None:
    """The type of a client message as read (None: not read), for its error frame."""
    if command is None:
        return None
    return command.move.type if isinstance(command, GameMove) else command.action
