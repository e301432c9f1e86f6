"""Every step of the game, each defined once: the table ``STEPS`` (§3–§6).

A row (engine/steps.py) says whom the step waits for, the moves it accepts, its time limit
(None: it waits, §6 timers off), what happens when the time runs out, an Away player's
automatic move (§6: autoplay.py's, applied like a phone's), and what comes next once
nobody is waited for. The shared walker (engine/turns.py) plays the table; views.py reads
it for each phone's ``can``.
"""

from typing import TYPE_CHECKING

from ..steps import Step, every_move, nobody
from . import autoplay, tables
from .state import GameState, Phase

if TYPE_CHECKING:
    from .turn import Turn


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


def _end_witching_hour(turn: "Turn") -> None:
    for name in _coven_to_tap(turn.s):
        turn.play_automatic(name)
    turn.start_round()


def _choose_at_random(turn: "Turn") -> None:
    """§6: a choice whose time ran out is made at random among the legal options; every
    phone is told whose time ran out, so the pick is not taken for the chooser's own."""
    for name in _chooser(turn.s):
        turn.record(kind="timed_out", step=turn.s.phase, player=name)
        turn.play_automatic(name)


STEPS: dict[Phase, Step["Turn"]] = {
    # §2: always the full length, whatever the coven does: only the timer ends it.
    Phase.WITCHING_HOUR: Step(
        _coven_to_tap,
        frozenset({"bewitch"}),
        timer=lambda state: tables.WITCHING_HOUR_SECONDS,
        on_timeout=_end_witching_hour,
        auto_move=autoplay.bewitch,
    ),
    Phase.ACCUSE: Step(
        _accuser,
        frozenset({"accuse"}),
        timer=round_timer,
        on_timeout=lambda turn: turn.accusation_timed_out(),
        auto_move=autoplay.accuse,
    ),
    Phase.VOTE: Step(
        _voters_to_vote,
        frozenset({"vote"}),
        timer=round_timer,
        on_timeout=lambda turn: turn.close_vote(timed_out=True),
        auto_move=autoplay.vote,
        advance=lambda turn: turn.close_vote(timed_out=False),
    ),
    Phase.EXECUTE: Step(
        _executioner,
        frozenset({"execute"}),
        timer=round_timer,
        on_timeout=lambda turn: turn.execution_timed_out(),
        auto_move=autoplay.execute,
    ),
    Phase.TRIAL: Step(
        _pointers_to_lock,
        frozenset({"point"}),
        timer=lambda state: tables.TRIAL_SECONDS,
        on_timeout=lambda turn: turn.end_trial(),
        auto_move=autoplay.point,
        advance=lambda turn: turn.end_trial(),
    ),
    Phase.CHOOSE_VILLAGER: Step(
        _chooser,
        frozenset({"choose_villager"}),
        timer=choice_timer,
        on_timeout=_choose_at_random,
        auto_move=autoplay.choose_villager,
    ),
    Phase.RETRIBUTION: Step(
        _chooser,
        frozenset({"retribute"}),
        timer=choice_timer,
        on_timeout=_choose_at_random,
        auto_move=autoplay.retribute,
    ),
    Phase.OVER: Step(nobody),
}
#: Every move a phone may send in some step.
PHONE_MOVES = every_move(STEPS) | EVERY_STEP_MOVES


def waiting_for(state: GameState) -> list[str]:
    return STEPS[state.phase].waits_for(state)
