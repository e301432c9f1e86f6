"""A game's steps, declared: each game lists its steps as rows of ``Step`` (its ``steps.py``,
a table by phase), and the shared walker (engine/turns.py) plays them: it takes a move in
the step that accepts it, plays Away seats' moves, fires the timeout, and moves on once
nobody is waited for. A game writes what its steps are, never how they are walked.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

#: The game's turn (a ``StepMachine`` subclass), which a row's rules are called with.
TurnT = TypeVar("TurnT")


def no_timer(state: Any) -> float | None:
    return None


def nobody(state: Any) -> list[str]:
    """A step nobody moves in: only its timer (or a move of another step) ends it."""
    return []


@dataclass(frozen=True)
class Step(Generic[TurnT]):
    #: The seats whose move the step needs, in the order their Away moves are made.
    waits_for: Callable[[Any], list[str]]
    #: The move types a seat may send in this step (a move's handler says why not).
    moves: frozenset[str] = frozenset()
    #: Seconds until the step's timer fires, None for no timer.
    timer: Callable[[Any], float | None] = no_timer
    #: What happens when the time runs out; None: the step has no timer.
    on_timeout: Callable[[TurnT], None] | None = None
    #: The move made at once for an Away seat the step waits for (and, where the time runs
    #: out, for every seat still waited for): a move, which the walker applies like a
    #: phone's, through the same checks but leaving the Away mark; or None, the rule having
    #: made the choice itself. None here: an Away seat is waited for.
    auto_move: Callable[[TurnT, str], Any] | None = None
    #: Once nobody is waited for: enter the next step. None: a move or the timer moves on.
    advance: Callable[[TurnT], None] | None = None


def accepting(steps: dict[Any, Step[Any]], *moves: str) -> frozenset[Any]:
    """The phases whose step accepts any of ``moves``."""
    return frozenset(phase for phase, step in steps.items() if step.moves & set(moves))


def every_move(steps: dict[Any, Step[Any]]) -> frozenset[str]:
    """Every move some step of ``steps`` accepts."""
    return frozenset().union(*(step.moves for step in steps.values()))
