"""Every step of the game, each defined once: the table ``STEPS`` (§3–§6).

A row says whom the step waits for, the moves it accepts, its time limit, what happens when
the time runs out, an Away player's automatic move, and what comes next once nobody is
waited for. turn.py walks the table; views.py reads it for each phone's ``can``.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import autoplay, tables
from .actions import Action
from .state import GameState, Phase

if TYPE_CHECKING:
    from .turn import Turn


@dataclass(frozen=True)
class Step:
    waits_for: Callable[[GameState], list[str]]
    moves: frozenset[str] = frozenset()
    #: Seconds until the step times out, or None: it waits (§6, timers off).
    timer: Callable[[GameState], float | None] = lambda state: None
    on_timeout: Callable[["Turn"], None] | None = None
    #: §6 Away: the move made at once for an Away player the step waits for.
    auto_move: Callable[["Turn", str], Action] | None = None
    #: Once nobody is waited for; None: a move or the timer moves on.
    advance: Callable[["Turn"], None] | None = None


#: Moves possible in every step but the end: the host's Away mark, a timer's firing.
EVERY_STEP_MOVES = frozenset({"mark_away", "timeout"})


def round_timer(state: GameState) -> float | None:
    """§6: accuse, vote and execute wait unless the timers option is on."""
    return state.settings.timer_seconds if state.settings.timers else None


def choice_timer(state: GameState) -> float:
    """§6 [design]: every other choice has a limit, the room's timer or 2 minutes."""
    return state.settings.timer_seconds if state.settings.timers else tables.CHOICE_SECONDS


def _coven_to_tap(state: GameState) -> list[str]:
    return [state.coven] if state.coven and state.bewitched is None else []


def _accuser(state: GameState) -> list[str]:
    return [state.accuser] if state.accuser and state.accused_trait is None else []


def _voters_to_vote(state: GameState) -> list[str]:
    return [p.name for p in state.players if p.villagers and p.name not in state.votes]


def _executioner(state: GameState) -> list[str]:
    return [state.executioner] if state.executioner else []


def _pointers_to_lock(state: GameState) -> list[str]:
    trial = state.trial
    return [] if trial is None else [p for p in trial.pointers if p not in trial.locked]


def _chooser(state: GameState) -> list[str]:
    return [state.pending.chooser] if state.pending else []


def _nobody(state: GameState) -> list[str]:
    return []


def _end_witching_hour(turn: "Turn") -> None:
    for name in _coven_to_tap(turn.s):
        turn.act(autoplay.bewitch(turn, name), automatic=True)
    turn.start_round()


def _choose_at_random(turn: "Turn") -> None:
    """§6: a choice whose time ran out is made at random among the legal options; every
    phone is told whose time ran out, so the pick is not taken for the chooser's own."""
    for name in _chooser(turn.s):
        turn.record(kind="timed_out", step=turn.s.phase, player=name)
        turn.act(STEPS[turn.s.phase].auto_move(turn, name), automatic=True)  # type: ignore[misc]


STEPS: dict[Phase, Step] = {
    # §2: always the full length, whatever the coven does: only the timer ends it.
    "witching_hour": Step(
        _coven_to_tap,
        frozenset({"bewitch"}),
        timer=lambda state: tables.WITCHING_HOUR_SECONDS,
        on_timeout=_end_witching_hour,
        auto_move=autoplay.bewitch,
    ),
    "accuse": Step(
        _accuser,
        frozenset({"accuse"}),
        timer=round_timer,
        on_timeout=lambda turn: turn.accusation_timed_out(),
        auto_move=autoplay.accuse,
    ),
    "vote": Step(
        _voters_to_vote,
        frozenset({"vote"}),
        timer=round_timer,
        on_timeout=lambda turn: turn.close_vote(timed_out=True),
        auto_move=autoplay.vote,
        advance=lambda turn: turn.close_vote(timed_out=False),
    ),
    "execute": Step(
        _executioner,
        frozenset({"execute"}),
        timer=round_timer,
        on_timeout=lambda turn: turn.execution_timed_out(),
        auto_move=autoplay.execute,
    ),
    "trial": Step(
        _pointers_to_lock,
        frozenset({"point"}),
        timer=lambda state: tables.TRIAL_SECONDS,
        on_timeout=lambda turn: turn.end_trial(),
        auto_move=autoplay.point,
        advance=lambda turn: turn.end_trial(),
    ),
    "choose_villager": Step(
        _chooser,
        frozenset({"choose_villager"}),
        timer=choice_timer,
        on_timeout=_choose_at_random,
        auto_move=autoplay.choose_villager,
    ),
    "retribution": Step(
        _chooser,
        frozenset({"retribute"}),
        timer=choice_timer,
        on_timeout=_choose_at_random,
        auto_move=autoplay.retribute,
    ),
    "over": Step(_nobody),
}


def waiting_for(state: GameState) -> list[str]:
    return STEPS[state.phase].waits_for(state)
