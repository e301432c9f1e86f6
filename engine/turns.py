"""What every game's ``apply`` works on, and the walk through a game's steps, written once.

``TurnBase``: a private copy of the state, the streams drawn from the state's key
(engine/rng.py: ``public`` for draws the table sees at once, ``secret`` for the others),
and the effects gathered for the room; ``finish`` stores how far each stream has drawn.

``StepMachine``: a turn that walks the game's step table (engine/steps.py). ``act`` takes
one move to its handler, found by the move's class in the game's ``handlers`` table;
``settle`` plays the Away seats' moves and moves on through every step nobody waits in;
a timer's firing runs the step's ``on_timeout``; the host's Away mark is the same in every
game. What the games word differently (their rules' sections, some codes and sentences,
the phase of a game that is over) are class attributes of the game's turn, so every
refusal stays the game's own.
"""

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from .effects import GameOver, StartTimer, StepChanged
from .errors import IllegalAction
from .moves import MarkAway, Timeout, check_timer_due
from .rng import Streams
from .steps import Step

State = TypeVar("State")


class TurnBase(Generic[State]):
    def __init__(self, state: State, now: float):
        self.s = state
        self.now = float(now)
        streams = Streams(state.rng)  # type: ignore[attr-defined]
        self._streams = streams
        self.public = streams.public
        self.secret = streams.secret
        self.effects: list[Any] = []

    def finish(self) -> tuple[State, list[Any]]:
        self.s.rng = self._streams.state()  # type: ignore[attr-defined]
        return self.s, self.effects


class Seat(Protocol):
    """A player's seat as the walker sees it: a name, and whether it is played for."""

    name: str
    away: bool


#: A move's handler: the turn, the seat that moved, the move.
Handler = Callable[[Any, Any, Any], None]


class StepMachine(TurnBase[State]):
    """One ``apply`` of a game whose steps are a table: the game's ``Turn`` subclasses it,
    sets the class attributes, implements ``seat_named``, and gives each move a handler."""

    #: The game's state, which the walker reads its ``phase``, ``step``, ``deadline`` and
    #: ``host`` of.
    s: Any
    #: The game's steps, by phase (its ``steps.py``).
    steps: ClassVar[Mapping[Any, Step[Any]]]
    #: Which handler takes each move, by the move's class, set once the turn's class exists
    #: (``Turn.handlers = {Vote: Turn.on_vote, ...}``): from a move's class a reader goes
    #: straight to its rule. ``Timeout`` is the machine's own.
    handlers: ClassVar[Mapping[type, Handler]]
    #: The phase of a game that is over: no move is taken in it and nothing settles.
    over_phase: ClassVar[str]
    #: The sections of the game's rules that the machine's refusals name.
    over_rule: ClassVar[str | None] = None
    no_player_rule: ClassVar[str | None] = None
    #: Away marks and timers.
    away_rule: ClassVar[str | None] = None
    #: The machine's refusal of a move naming no player, as the game words it.
    no_player_message: ClassVar[str] = "A move must name its player."
    #: The effect types the game's own are (a game may type the shared ones more narrowly).
    step_changed_effect: ClassVar[type[StepChanged]] = StepChanged
    game_over_effect: ClassVar[type[GameOver]] = GameOver
    #: How many automatic moves and steps one ``settle`` may walk through: a table that
    #: loops for ever is a bug, told at once.
    settle_limit: ClassVar[int] = 10_000

    # -- one call of the game's apply and start ---------------------------------------------
    @classmethod
    def play(
        cls, state: State, move: Any, now: float, automatic: bool = False
    ) -> tuple[State, list[Any]]:
        """One move at ``now`` on a private copy of ``state``, then the steps it completes.
        ``automatic``: the server's own move in a player's name, which is no act of theirs
        (their Away mark stays)."""
        turn = cls(state.clone(), now)
        turn.act(move, automatic)
        turn.settle()
        return turn.finish()

    @classmethod
    def begin(cls, state: State, now: float) -> tuple[State, list[Any]]:
        """A new game's first effects: its ``first_step``, then Away seats' moves."""
        turn = cls(state.clone(), now)
        turn.first_step()
        turn.settle()
        return turn.finish()

    # -- what a game may add -----------------------------------------------------------------
    def seat_named(self, name: str, rule: str | None) -> Seat:
        """The seat of player ``name``; IllegalAction (naming ``rule``) if there is none."""
        raise NotImplementedError

    def not_host(self) -> IllegalAction:
        """The refusal of an Away mark by anyone but the host."""
        return IllegalAction(
            "Only the host can mark a player Away.", self.away_rule, code="host_marks_away"
        )

    def first_step(self) -> None:
        """What starting a new game does before it settles (by default nothing: the deal
        has set the first step)."""

    def entered(self, phase: Any) -> None:
        """What a new step resets in the state besides its number and timer."""

    # -- reading the table -------------------------------------------------------------------
    @property
    def row(self) -> Step[Any]:
        """The current step's row of the table."""
        return self.steps[self.s.phase]

    def waiting_for(self) -> list[str]:
        return self.row.waits_for(self.s)

    def is_over(self) -> bool:
        return self.s.phase == self.over_phase

    # -- a move ----------------------------------------------------------------------------------
    def act(self, move: Any, automatic: bool = False) -> None:
        """One move; ``automatic``: the engine's own, which leaves an Away mark alone."""
        if self.is_over():
            raise IllegalAction("The game is over.", self.over_rule, code="game_over")
        if isinstance(move, Timeout):
            self.on_timeout(move)
            return
        if move.player is None:
            raise IllegalAction(self.no_player_message, self.no_player_rule, code="no_player")
        seat = self.seat_named(move.player, self.no_player_rule)
        self.handlers[type(move)](self, seat, move)
        marked_self = isinstance(move, MarkAway) and move.target == seat.name
        if seat.away and not automatic and not marked_self:
            seat.away = False  # Away ends when the player acts again

    def on_mark_away(self, seat: Seat, move: MarkAway) -> None:
        """The host marks a player Away: their moves are made for them from now on."""
        if seat.name != self.s.host:
            raise self.not_host()
        target = self.seat_named(move.target, self.away_rule)
        if target.away:
            raise IllegalAction(
                f"{target.name} is already Away.", self.away_rule,
                code="already_away", params={"name": target.name},
            )  # fmt: skip
        target.away = True

    def on_timeout(self, move: Timeout) -> None:
        """The step's time has run out: its ``on_timeout``, its timer spent."""
        s = self.s
        check_timer_due(move.step, s.step, s.deadline, self.now, self.away_rule)
        on_timeout = self.row.on_timeout
        assert on_timeout is not None  # a step with a deadline has a timeout rule
        s.deadline = None
        on_timeout(self)

    def play_automatic(self, name: str) -> None:
        """The step's automatic move for ``name`` (Away, or out of time): a move the row
        returns is applied like a phone's, through the same checks, leaving the Away mark;
        None: the row's rule has made the choice itself."""
        auto_move = self.row.auto_move
        assert auto_move is not None  # every step that plays a seat's move for it has one
        move = auto_move(self, name)
        if move is not None:
            self.act(move, automatic=True)

    # -- walking the steps -------------------------------------------------------------------
    def settle(self) -> None:
        """Play the Away seats' moves, then move on through every step nobody waits in."""
        for _ in range(self.settle_limit):
            if self.is_over():
                return
            step, waiting = self.row, self.waiting_for()
            if step.auto_move is not None:
                away = [name for name in waiting if self.seat_named(name, None).away]
                if away:
                    self.play_automatic(away[0])
                    continue
            if waiting or step.advance is None:
                return
            step.advance(self)
        raise AssertionError("settle did not converge")  # pragma: no cover

    def enter(self, phase: Any) -> None:
        """Enter ``phase``: a new step number and the step's timer (the table's ``timer``)."""
        s = self.s
        s.phase = phase
        s.step += 1
        self.entered(phase)
        self.effects.append(self.step_changed_effect(step=s.step, phase=phase))
        seconds = self.steps[phase].timer(s)
        s.deadline = None if seconds is None else self.now + seconds
        if s.deadline is not None:
            self.effects.append(StartTimer(step=s.step, deadline=s.deadline))

    def set_deadline(self, deadline: float) -> None:
        """The current step ends at ``deadline`` (a step whose end another step sets)."""
        self.s.deadline = deadline
        self.effects.append(StartTimer(step=self.s.step, deadline=deadline))

    def game_over(self, outcome: Any) -> None:
        """The game is decided: its last step, and the room told how (``outcome``)."""
        self.enter(self.over_phase)
        self.effects.append(self.game_over_effect(outcome=outcome))
