"""A room as stored: seats, host, settings and (once started) the game state."""

import hashlib
import secrets
import zlib
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, model_validator

from engine.errors import GameError
from engine.game import Game
from engine.games import DEFAULT_GAME, game_of

#: Room codes avoid letters that read alike aloud or on a small screen (I/1, O/0, L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
#: 23^8 ≈ 7.8e10 codes, so guessing one is not a way into strangers' lobbies (issue 18;
#: the numbers are in docs/security.md "Rooms"). Shown as two groups of four (ABCD EFGH);
#: spaces and dashes typed between them are ignored (normalise_code). Most players join
#: by the link or the QR code and type nothing.
CODE_LENGTH = 8
#: Seat tokens carry 192 random bits; only their hash is stored.
TOKEN_BYTES = 24
#: A finished or abandoned room is deleted by DynamoDB TTL after this long.
ROOM_TTL_SECONDS = 24 * 3600
#: §10 host powers pass after this long disconnected.
HOST_GRACE_SECONDS = 30
#: With the room option ``auto_away`` (issue 13), a seat whose phone has been offline this
#: long during a game is marked Away (§9), as the host could do by hand.
AUTO_AWAY_SECONDS = 60
#: A lobby seat whose phone has been gone this long is freed (issue 18: lobby squatting).
#: In a game seats stay: a gone cat is played as Away (§9).
LOBBY_SEAT_GRACE_SECONDS = 120
#: A kicked cat is kept out of that room this long (by name, and by address when no
#: seated cat shares it: see lobby.ban).
KICK_BAN_SECONDS = 600
#: At most this many bans kept in a room (expired ones are dropped first, then the oldest).
MAX_BANS = 24


class Seat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    token_hash: str
    connection: str | None = None
    #: When the seat's last connection closed (for the §10 host hand-over).
    disconnected_at: float | None = None
    #: ``address_key`` of the address the seat joined from (a kick may ban it).
    address: str | None = None
    #: The seat played the game whose result the lobby keeps (``Room.last_result``):
    #: its phone may show that result; a latecomer's goes straight to the lobby.
    played_last_game: bool = False


class Ban(BaseModel):
    """A kicked cat kept out until ``until``: a join whose name clashes with ``name``
    (names.names_clash), or that comes from ``address`` (an ``address_key``), is refused."""

    model_config = ConfigDict(extra="forbid")
    name: str
    address: str | None = None
    until: float


class Room(BaseModel):
    """``game`` is the registry key (engine/games.py) of the game the room plays;
    ``settings`` and ``state`` are that game's own models, parsed by that key."""

    model_config = ConfigDict(extra="forbid")
    code: str
    #: Guards every write (conditional update on this number).
    version: int = 0
    host: str
    seats: list[Seat] = Field(default_factory=list)
    #: Required, though a room created without one plays DEFAULT_GAME (``_game_models``):
    #: with no default it is stored even when it is the default (``stored_room``), so a
    #: stored room never changes game when the default does.
    game: str
    settings: SerializeAsAny[BaseModel]
    #: The game under way (None: the lobby).
    state: SerializeAsAny[BaseModel] | None = None
    expires_at: int = 0
    #: Kicked cats kept out for a while (at most MAX_BANS, see lobby.ban).
    bans: list[Ban] = Field(default_factory=list)
    #: Room option (issue 13): mark a seat Away once its phone has been offline
    #: AUTO_AWAY_SECONDS during a game. Set by the host in the lobby.
    auto_away: bool = True
    #: The last finished game's public table view (``Game.table_view`` of its final
    #: state; ~1.3 KB compressed for 12 cats), kept in the lobby until the next start.
    last_result: dict[str, Any] | None = None
    #: The steps of the games played before in this room: a game's step k is shown, taken
    #: in moves and timed as ``steps_before + k`` (``room_step``), so no move or timer of
    #: one game names a step of the next, whoever is seated in it.
    steps_before: int = 0
    #: Not stored: the current step's pending moves by seat, as merged in at load
    #: (``UnitOfWork.load``), so a repeat of a move already made is taken once.
    pending_moves: dict[str, list[dict]] = Field(default_factory=dict, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _game_models(cls, data: Any) -> Any:
        """Settings and state as stored (plain JSON) become the room's game's models."""
        if not isinstance(data, dict):
            return data
        data = {"game": DEFAULT_GAME, **data}
        game = game_of(data["game"])
        settings = data.get("settings")
        if settings is None:
            data["settings"] = game.default_settings()
        elif not isinstance(settings, BaseModel):
            data["settings"] = game.parse_settings(settings)
        state = data.get("state")
        if state is not None and not isinstance(state, BaseModel):
            data["state"] = game.state_model.model_validate(state)
        return data

    @property
    def rules(self) -> Game:
        """The game this room plays (every call into the game goes through it)."""
        return game_of(self.game)

    def seat(self, name: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.name == name), None)

    def seat_by_token(self, token: str) -> Seat | None:
        digest = hash_token(token)
        return next(
            (seat for seat in self.seats if secrets.compare_digest(seat.token_hash, digest)), None
        )

    def revoke_token(self, seat: Seat) -> None:
        """A seat that stays (a cat who left mid-game plays on as Away, §9) but that no
        token opens any more: every connection bound to it, spare sockets too, is let go."""
        seat.token_hash = REVOKED_TOKEN_HASH

    def room_step(self, step: int) -> int:
        """The current game's step ``step`` as the room numbers it: after the steps of the
        games before (views, moves and deadline timers all use this number)."""
        return self.steps_before + step

    @property
    def stored_step(self) -> int | None:
        """The step the room is at as stored (the room's numbering); None before a game.
        Its pending moves are kept under this number (``RoomStore.read``)."""
        return None if self.state is None else self.room_step(self.rules.step(self.state))

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def closed(self) -> bool:
        """A lobby whose last seat left: nobody can join it (issue 18), TTL takes it."""
        return not self.started and not self.seats


#: No token hashes to this (a SHA-256 hex digest has 64 hex digits).
REVOKED_TOKEN_HASH = "revoked"


class Binding(NamedTuple):
    """What a connection proved: the token (by its hash) of a named seat in a room.

    It speaks for that seat only while the seat still has that token. Leaving, a kick
    or a new join under the same name changes or removes the seat's token, so every
    older binding (a spare socket opened with the old token) speaks for nobody."""

    room: str
    seat: str
    token_hash: str

    def holds(self, seat: Seat | None) -> bool:
        return seat is not None and secrets.compare_digest(seat.token_hash, self.token_hash)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normalise_code(code: str) -> str:
    """What a player typed (any case, maybe ``abcd efgh`` or ``ABCD-EFGH``) as a code."""
    return "".join(code.split()).replace("-", "").upper()


def address_key(source_ip: str | None) -> str | None:
    """What a room keeps of a caller's address: a hash, so the table does not show the
    address in plain sight (not anonymous: IPv4 addresses are few enough to try all)."""
    if not source_ip:
        return None
    return hashlib.sha256(f"ctw-address:{source_ip}".encode()).hexdigest()[:32]


class Submission(BaseModel):
    """One seat's pending moves in one step, written only by that seat (conflict-free).

    ``actions`` are ``{"t": seconds, "action": {...}}`` in the order made; a changed
    vote replaces the earlier one, so no trace of the change is kept (RULES §3.6).
    ``n`` counts writes, guarding the seat's own double taps and the consuming write.
    """

    model_config = ConfigDict(extra="forbid")
    player: str
    step: int
    actions: list[dict] = Field(default_factory=list)
    n: int = 0


# -- stored sizes -----------------------------------------------------------------------------
#: DynamoDB refuses an item over 400 KB with an error no player could read. Each item this
#: service stores is checked against a bound well below it before any write, in every
#: store, and refused with a clear error (nothing is written). A 12-cat room takes ~2 KB
#: compressed at its largest; 40 pending moves (unit_of_work.MAX_MOVES_PER_STEP) under 16 KB.
MAX_ROOM_BYTES = 200_000
MAX_SUBMISSION_BYTES = 64_000


class RoomTooLarge(GameError):
    code = "room_too_large"


class MovesTooLarge(GameError):
    code = "too_many_moves"


def stored_room(room: Room) -> bytes:
    """The room as stored: zlib-compressed JSON (a 12-cat room's ~11 KB of repetitive JSON
    stores in ~2 KB; DynamoDB bills a write unit per KB, a read unit per 4 KB). Fields at
    their defaults are left out: loading fills them in again."""
    json = room.model_dump_json(exclude={"version", "expires_at"}, exclude_defaults=True)
    body = zlib.compress(json.encode())
    if len(body) > MAX_ROOM_BYTES:
        raise RoomTooLarge(
            f"Room {room.code} has grown to {len(body)} bytes (limit {MAX_ROOM_BYTES})."
        )
    return body


def stored_submission(submission: Submission) -> str:
    """A seat's pending moves as stored: JSON, refused past its bound."""
    body = submission.model_dump_json()
    if len(body.encode()) > MAX_SUBMISSION_BYTES:
        raise MovesTooLarge(
            f"Your moves in this step take {len(body.encode())} bytes (limit "
            f"{MAX_SUBMISSION_BYTES}): this one was not taken. Your earlier moves stand."
        )
    return body
