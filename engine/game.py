"""The game interface: what the room service needs of any game, and nothing more.

A game is a pure state machine (no I/O, no clock, no global randomness: time comes in as
``now`` and the seed in ``new_game``). The room service holds a game's state as an opaque
pydantic model, stores it, and asks the game everything else through these methods:
who may play, which settings the lobby shows, what a move is, what a timeout and a
departure do, and what each seat may see. ``engine/games.py`` lists the games; a new game
subclasses ``Game`` and adds itself there (docs/architecture.md, "Adding a game"; the
smallest example is ``tests/support/coin_game.py``).

Errors: a move the game cannot read raises ``InvalidAction``; one its rules forbid now
raises ``IllegalAction``. Both carry a sentence for the player and change nothing.
"""

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from .effects import Effect
from .errors import GameError
from .rng import Rng

#: Longest player name in every game (a room seat's name is a player's name).
NAME_MAX = 40

View = dict[str, Any]
#: A bot's move: the fields of a client message (``{"type": ..., ...}``), or None to wait.
BotMove = dict[str, Any] | None

#: The keys every view of every game has, a seat's and the table's (``envelope``), so a
#: client reads any game's frame the same way.
ENVELOPE_KEYS = ("game", "phase", "step", "you", "deadline", "over", "outcome")


def envelope(
    game: str, phase: str, step: int, you: str | None, deadline: float | None, outcome: Any
) -> View:
    """What every view starts with: the game's key, its phase and the step the viewer sees,
    whose view it is (``you``: the seat's name, None for the table's), when the step times
    out, and whether the game is over with the game's own record of how (``outcome``, None
    until the end: a game that is over has one)."""
    return {"game": game, "phase": phase, "step": step, "you": you, "deadline": deadline,
            "over": outcome is not None, "outcome": outcome}  # fmt: skip


def _bounds(field: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """One setting's JSON schema, flattened for a client: its type, default, numeric bounds
    and choices, and ``optional`` when it may be null (pydantic's ``anyOf`` with null)."""
    found: dict[str, Any] = {"default": field["default"]} if "default" in field else {}
    branches = field.get("anyOf", [field])
    if any(branch.get("type") == "null" for branch in branches):
        found["optional"] = True
    for branch in branches:
        if "$ref" in branch:
            branch = defs[branch["$ref"].rsplit("/", 1)[-1]]
        if branch.get("type") == "array":
            found["list_of"] = _bounds(branch.get("items", {}), defs)
        for key in ("type", "minimum", "maximum", "enum", "minLength", "maxLength"):
            if key in branch and branch.get("type") != "null":
                found[key] = branch[key]
    return found


class Game(ABC):
    """One game the rooms can host. Subclasses set the class attributes and implement the
    methods; every method is pure and returns new objects (the state passed in is never
    changed)."""

    #: The registry key, stored in every room and sent in every view (``"catch_the_witch"``).
    key: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: The host's options in the lobby: a pydantic model whose defaults are a playable game.
    settings_model: ClassVar[type[BaseModel]]
    #: The game's whole state (secrets included), as stored in the room.
    state_model: ClassVar[type[BaseModel]]
    #: The moves a phone may send (``type`` values; never the server's own ``timeout``).
    move_types: ClassVar[frozenset[str]]
    #: Moves of which only the latest in a step counts (a changed vote replaces the earlier
    #: one, leaving no trace of the change).
    replacing_moves: ClassVar[frozenset[str]] = frozenset()
    #: Fields of a view that only tell how a step progresses (who it still waits for): a
    #: change to them alone is not pushed, so a move that leaves its step as it is reaches
    #: its mover alone; phones get them with the step's next change or on request (a
    #: ``ping``, docs/protocol.md).
    progress_fields: ClassVar[frozenset[str]] = frozenset()
    #: The module of the game's command-line helpers (``python -m engine.simulate|replay|demo
    #: --game KEY``; engine/command_lines.py says what it provides), or None: the game has
    #: none. A name, not an import, so the room service never loads bots and narrators.
    command_line: ClassVar[str | None] = None
    #: Moves a phone follows with a ``cover`` frame, which nothing answers (docs/protocol.md):
    #: where one role's phone sends a move more than the others' in a step, every other
    #: phone covers, so the frames' count tells no role. The game's client sends it; a bench
    #: playing phones sends it too (bench/backend.py).
    covered_moves: ClassVar[frozenset[str]] = frozenset()
    #: Moves that answer the question another move of the same step answers, by that move
    #: (one choice made either way): a bot phone that sent one has made the step's choice
    #: and waits for a view that shows it (local_stack/bot_client.py).
    same_choice_moves: ClassVar[dict[str, str]] = {}

    # -- the lobby --------------------------------------------------------------------------
    def default_settings(self) -> BaseModel:
        return self.settings_model()

    def parse_settings(self, data: Any) -> BaseModel:
        """The host's settings from the wire: raises pydantic's ``ValidationError``."""
        return self.settings_model.model_validate(data)

    @abstractmethod
    def start_problem(self, settings: BaseModel, player_count: int) -> GameError | None:
        """Why a game with these settings and this many seated players cannot start yet: the
        refusal a start would get, whose code and params the phones word (None: it can)."""

    def lobby_rules(self) -> dict[str, Any]:
        """What every lobby view says of the game itself, so a client need not copy it: the
        seats it takes and each setting's bounds and default (from the settings model)."""
        schema = self.settings_model.model_json_schema()
        return {
            "player_range": {"min": self.min_players, "max": self.max_players},
            "setting_bounds": {
                name: _bounds(field, schema.get("$defs", {}))
                for name, field in schema.get("properties", {}).items()
            },
        }

    def shortest_settings(self) -> dict[str, Any]:
        """The settings of the shortest game the lobby allows, as a host sends them: every
        timed step at its least limit, so a phone whose move got lost holds the table up
        the least (deploy/smoke.py plays a deployment with them). By default the defaults."""
        return {}

    def lobby_facts(self, settings: BaseModel, player_count: int) -> dict[str, Any]:
        """What the lobby shows besides the seats and settings (e.g. the role set the table
        deals for this many players). JSON-ready."""
        return {}

    # -- a game -------------------------------------------------------------------------------
    @abstractmethod
    def new_game(
        self, players: Sequence[str], settings: BaseModel, seed: int, host: str
    ) -> BaseModel:
        """Deal a new game for ``players`` in seat order (``start`` then settles it)."""

    @abstractmethod
    def start(self, state: BaseModel, now: float) -> tuple[BaseModel, list[Effect]]:
        """The first effects of a new game (its first step's timer, players already Away)."""

    @abstractmethod
    def rematch(self, state: BaseModel, seed: int) -> BaseModel:
        """The same seats again with a new deal, once the game is over (IllegalAction
        before). Step numbers go on from the last game's."""

    @abstractmethod
    def parse_move(self, data: dict[str, Any]) -> BaseModel:
        """A phone's move (``{"type": ..., ...}``, ``player`` not yet set) as the game's
        action model; raises ``InvalidAction`` with a readable sentence."""

    @abstractmethod
    def apply(
        self, state: BaseModel, action: BaseModel | dict[str, Any], now: float
    ) -> tuple[BaseModel, list[Effect]]:
        """One action at ``now`` (a move with its ``player`` set, or a stored move as a
        dict). Raises a ``GameError`` and changes nothing if the action is not possible."""

    @abstractmethod
    def time_out(self, state: BaseModel, now: float) -> tuple[BaseModel, list[Effect]]:
        """The current step's time has run out (``deadline(state) <= now``)."""

    @abstractmethod
    def leave(self, state: BaseModel, player: str, now: float) -> tuple[BaseModel, list[Effect]]:
        """``player`` has left the room mid-game: the game plays on without them (their
        turns are played automatically). A no-op once the game is over."""

    @abstractmethod
    def set_host(self, state: BaseModel, player: str) -> BaseModel:
        """The room's host powers have passed to ``player``."""

    # -- reading a state ----------------------------------------------------------------------
    def step(self, state: BaseModel) -> int:
        """Increases on every change of step: timers and moves name the step they belong to.
        By default the state's ``step`` field."""
        return state.step  # type: ignore[attr-defined]

    def deadline(self, state: BaseModel) -> float | None:
        """When the current step times out (absolute seconds), or None. By default the
        state's ``deadline`` field."""
        return state.deadline  # type: ignore[attr-defined]

    @abstractmethod
    def is_over(self, state: BaseModel) -> bool: ...

    def pushes_every_move(self, state: BaseModel) -> bool:
        """Who is sent a frame after a move that leaves this step as it is, whoever made it
        (who gets a frame must never tell who moved or what they hold). True:
        every seat, for steps where another seat must see a move at once (a witch's choice
        shown to the other witches, a vote shown on every phone). False: the mover alone;
        what the move changed for other seats (a card taken from a hand) reaches them with
        the step's end, or when their phone pings."""
        return False

    def sees_every_move(self, state: BaseModel, player: str) -> bool:
        """On a step that pushes every move: whether ``player``'s phone is among those sent
        it. By default every player's. A game may leave out a player no move of the step
        can show anything to, picked by what every phone sees (a frog's form), never by a
        secret: the frames still never tell who moved or what anyone holds."""
        return True

    @abstractmethod
    def seat_step(self, state: BaseModel, player: str) -> int:
        """The step number ``player``'s view shows: a move is taken only on it. It may
        differ from ``step`` where a step is secret from some players."""

    @abstractmethod
    def views(self, state: BaseModel) -> dict[str, View]:
        """What each player may see, by name, JSON-ready. Each view has the ``envelope``'s
        keys (``step``: the seat's, ``seat_step``; ``you``: the player's name)."""

    @abstractmethod
    def table_view(self, state: BaseModel) -> View:
        """What everyone may see (a shared screen at the table); ``envelope``'s keys with
        ``you`` None."""

    def view_is_over(self, view: View) -> bool:
        """Whether a view (one of ``views``) shows the game ended: a bot phone, which has
        only its view, stops playing there and waits for a rematch."""
        return view["over"]

    # -- bots ---------------------------------------------------------------------------------
    @abstractmethod
    def bot_move(self, view: View, rng: Rng) -> BotMove:
        """A bot's move decided from its own view alone (what its phone would show)."""
