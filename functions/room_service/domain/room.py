"""A room as stored: seats, host, settings and (once started) the game state."""

import hashlib
import json
import secrets
import zlib
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, model_validator

from engine.errors import GameError
from engine.game import Game
from engine.games import DEFAULT_GAME, game_of

from . import room_dictionary_1
from .journal import JournaledGame

#: Room codes avoid letters that read alike aloud or on a small screen (I/1, O/0, L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
#: 23^8 ≈ 7.8e10 codes, so guessing one is not a way into strangers' lobbies (the
#: numbers are in docs/security.md "Rooms"). Shown as two groups of four (ABCD EFGH);
#: spaces and dashes typed between them are ignored (normalise_code). Most players join
#: by the link or the QR code and type nothing.
CODE_LENGTH = 8
#: Seat tokens carry 192 random bits; only their hash is stored.
TOKEN_BYTES = 24
#: A finished or abandoned room is deleted by DynamoDB TTL after this long.
ROOM_TTL_SECONDS = 24 * 3600
#: §10 host powers pass after this long disconnected.
HOST_GRACE_SECONDS = 30
#: With the room option ``auto_away``, a seat whose phone has been offline this
#: long during a game is marked Away (§9), as the host could do by hand.
AUTO_AWAY_SECONDS = 60
#: A lobby seat whose phone has been gone this long is freed: no squatting a lobby.
#: In a game seats stay: a gone cat is played as Away (§9).
LOBBY_SEAT_GRACE_SECONDS = 120
#: A kicked cat is kept out of that room this long (by name, and by address when no
#: seated cat shares it: see lobby.ban).
KICK_BAN_SECONDS = 600
#: At most this many bans kept in a room (expired ones are dropped first, then the oldest).
MAX_BANS = 24
#: [design] At most this many table screens (``watch``) per room: a TV and a laptop or two.
#: Each is pushed the public view on every change, so the cap bounds what a room costs.
MAX_WATCHERS = 4
#: [design] What every screen is told of seats moving to new phones (seat_moves.py): the
#: newest this many, shown for this long.
SEAT_NEWS_KEPT = 4
SEAT_NEWS_SECONDS = 120


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
    #: A bot's seat (a local stack's, ``Join.bot``): never given host powers.
    bot: bool = False
    #: The hash of the seat's one-time link key (seat_moves.py), and when it stops opening
    #: the seat; None: no link is open.
    link_hash: str | None = None
    link_until: float | None = None


class SeatNews(BaseModel):
    """A seat that moved to a new phone, or whose link the host made (seat_moves.py): told
    on every screen, so that no seat changes hands unseen."""

    model_config = ConfigDict(extra="forbid")
    name: str
    what: Literal["link", "moved"]
    at: float


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
    #: The host whose powers passed because its phone stayed away (§10 as amended): they
    #: return to it when it reconnects. None once back, or when it let them go itself.
    host_away: str | None = None
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
    #: Room option: mark a seat Away once its phone has been offline
    #: AUTO_AWAY_SECONDS during a game. Set by the host in the lobby.
    auto_away: bool = True
    #: The last finished game's public table view (``Game.table_view`` of its final
    #: state; ~1.3 KB compressed for 12 cats), kept in the lobby until the next start.
    last_result: dict[str, Any] | None = None
    #: The steps of the games played before in this room: a game's step k is shown, taken
    #: in moves and timed as ``steps_before + k`` (``room_step``), so no move or timer of
    #: one game names a step of the next, whoever is seated in it.
    steps_before: int = 0
    #: The connections watching as table screens (``watch``; at most MAX_WATCHERS): no
    #: seat, no token; pushed the public view (replies.public_view) when it changes.
    watchers: list[str] = Field(default_factory=list)
    #: The key a ``watch`` must carry (table_screens.py): shown only in the
    #: host's lobby view, kept across games and hand-overs, changed only by the host's
    #: ``new_table_key``. "" (a room stored before keys): no screen watches until then.
    table_key: str = ""
    #: Seats moved (or offered) to new phones lately, for every screen (seat_moves.tell).
    seat_news: list[SeatNews] = Field(default_factory=list)
    #: Not stored: the current step's pending moves by seat, as merged in at load
    #: (``UnitOfWork.load``), so a repeat of a move already made is taken once.
    pending_moves: dict[str, list[dict]] = Field(default_factory=dict, exclude=True)
    #: Not stored here: the turns the game took since the room was loaded (journal.py),
    #: which the store writes beside the room on its step's item (``RoomStore.save``).
    journal: list[dict[str, Any]] = Field(default_factory=list, exclude=True)

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
        """The game this room plays (every call into the game goes through it), writing
        down each turn it takes in ``journal``."""
        return JournaledGame(game_of(self.game), self.journal)  # type: ignore[return-value]

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
        """A lobby whose last seat left: nobody can join it, TTL takes it."""
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

    @property
    def watching(self) -> bool:
        """A table screen's binding (``watcher_binding``): no seat, no token."""
        return self.seat == WATCHER_SEAT


#: The seat of a table screen's binding: no seat has it (names.clean_name refuses it).
WATCHER_SEAT = ""


def watcher_binding(code: str) -> Binding:
    """A connection watching room ``code`` as a table screen: it speaks for no seat."""
    return Binding(code, WATCHER_SEAT, "")


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def could_be_code(code: str) -> bool:
    """Whether ``code`` (normalised) is one ``new_code`` could have made."""
    return len(code) == CODE_LENGTH and all(letter in CODE_ALPHABET for letter in code)


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


def room_json(room: Room) -> str:
    """The room's JSON as stored (before compression). Fields at their defaults are left
    out: loading fills them in again; the version and expiry are attributes of their own."""
    return room.model_dump_json(exclude={"version", "expires_at"}, exclude_defaults=True)


def stored_room(room: Room) -> bytes:
    """The room as stored: its JSON compressed by zlib with the current preset dictionary
    (room_dictionary_1.py: JSON of rooms of both games, so even a room's first occurrence
    of each key and value is a short reference). A 12-cat room's ~12 KB of JSON stores in
    under 1.8 KB, fewer write units (DynamoDB bills one per started KB of an item)."""
    compressor = zlib.compressobj(9, zdict=ROOM_DICTIONARY)
    body = compressor.compress(room_json(room).encode()) + compressor.flush()
    if len(body) > MAX_ROOM_BYTES:
        raise RoomTooLarge(
            f"Room {room.code} has grown to {len(body)} bytes (limit {MAX_ROOM_BYTES})."
        )
    return body


def loaded_room_json(body: bytes) -> str:
    """The JSON of a stored room, whichever dictionary compressed it (or none: rooms
    stored before there was one). zlib's header says whether a dictionary was used and
    names it by its adler32 (RFC 1950: the FDICT flag and DICTID)."""
    header, flags = body[0], body[1]
    if not flags & ZLIB_FDICT:
        return zlib.decompress(body).decode()
    dictionary_id = int.from_bytes(body[2:6], "big")
    dictionary = ROOM_DICTIONARIES.get(dictionary_id)
    if dictionary is None:
        raise UnknownRoomDictionary(
            f"This room was stored with a compression dictionary this version does not know "
            f"(id {dictionary_id:#010x}; known: {', '.join(f'{i:#010x}' for i in ROOM_DICTIONARIES)})."
        )
    decompressor = zlib.decompressobj(zdict=dictionary)
    data = decompressor.decompress(body) + decompressor.flush()
    if not decompressor.eof:
        raise zlib.error(f"A stored room ends early (compression header {header:#04x}).")
    return data.decode()


class UnknownRoomDictionary(ValueError):
    """A stored room compressed with a dictionary this code does not have: never expected
    (dictionaries are only ever added), so it is an error to fix, not to play around."""


#: RFC 1950: the bit of a zlib stream's second byte that says a preset dictionary follows.
ZLIB_FDICT = 0x20
#: Every dictionary a stored room may have been compressed with, by its zlib id (adler32).
#: A dictionary in use is never changed or removed: a new one is added (a new generated
#: module) and becomes ROOM_DICTIONARY; rooms stored with the older ones still load.
ROOM_DICTIONARIES: dict[int, bytes] = {
    zlib.adler32(dictionary): dictionary for dictionary in (room_dictionary_1.DICTIONARY,)
}
#: The dictionary new writes use.
ROOM_DICTIONARY = room_dictionary_1.DICTIONARY


def stored_submission(submission: Submission) -> str:
    """A seat's pending moves as stored in the step's item: compact JSON, one entry per
    move. The seat, the step and the count of writes are not repeated: the attributes'
    names, the item's key and the seat's ``n#`` attribute hold them (``loaded_submission``).
    A move made for the seat itself (every one the service takes) is ``[t, type]``, or
    ``[t, type, {its other fields}]``; any other action is kept whole: ``[t, {action}]``.
    A list of such entries, or the entry alone when it is the only one (the usual case).
    ``t`` is kept to the millisecond: it orders the step's moves (ties by seat, then in
    the order made, so one seat's moves keep their order) and the engines start deadlines
    from it, where a millisecond is nothing. Refused past its bound."""
    entries: list[list] = []
    for entry in submission.actions:
        at, action = stored_time(entry["t"]), entry["action"]
        kind = action.get("type")
        if action.get("player") == submission.player and isinstance(kind, str):
            rest = {k: v for k, v in action.items() if k not in ("player", "type")}
            entries.append([at, kind, rest] if rest else [at, kind])
        else:
            entries.append([at, action])
    stored = entries[0] if len(entries) == 1 else entries
    body = json.dumps(stored, separators=(",", ":"), ensure_ascii=False)
    if len(body.encode()) > MAX_SUBMISSION_BYTES:
        raise MovesTooLarge(
            f"Your moves in this step take {len(body.encode())} bytes (limit "
            f"{MAX_SUBMISSION_BYTES}): this one was not taken. Your earlier moves stand."
        )
    return body


def stored_time(at: float) -> float:
    """A move's time to the millisecond (a clock's float has microseconds and more)."""
    return at if isinstance(at, int) or round(at, 3) == at else round(at, 3)


def loaded_submission(body: str, player: str, step: int, n: int) -> Submission:
    """A seat's pending moves as ``stored_submission`` stores them, or as stored before
    (a whole ``Submission`` as JSON object: an item written by an older deploy)."""
    if body.startswith("{"):
        return Submission.model_validate_json(body)
    entries = json.loads(body)
    if entries and not isinstance(entries[0], list):  # one entry alone (a list: "[[")
        entries = [entries]
    actions = []
    for at, action, *rest in entries:
        if isinstance(action, str):  # a move of the seat's own: [t, type, {fields}?]
            action = {"player": player, "type": action, **(rest[0] if rest else {})}
        actions.append({"t": at, "action": action})
    return Submission(player=player, step=step, actions=actions, n=n)
