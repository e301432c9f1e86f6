"""One call of ``apply``: the move's checks, Away cats' moves and the walk through the steps.

``apply(state, action, now)`` validates the action against the current step,
changes a copy of the state, lets Away cats act automatically (§9), walks on
through every step that is complete (the table in steps.py), and returns the new
state and effects. An illegal action raises before anything is changed; the
caller's state is never touched.

The moves and the rules they lead to are in day.py (§3.2–§5), night.py (§3.4–§3.7,
§7, §8) and abilities.py (§6); ``Turn`` puts them together with the shared checks.
"""

from collections.abc import Callable, Iterable
from typing import Any

from ..errors import IllegalAction
from ..moves import check_timer_due
from ..turns import TurnBase
from . import tables
from .abilities import AbilityRules
from .actions import Action, MarkAway, Ok, Ready, Timeout, parse_action
from .day import DayRules
from .domain import Form, Phase, Place, Reason
from .effects import Effect, GameOver, StartTimer, StepChanged
from .night import NightRules
from .state import Cat, GameState, Note, Outcome
from .steps import EVERY_STEP_MOVES, STEPS, step_of, waiting_for


def apply(
    state: GameState, action: Action | dict | str, now: float
) -> tuple[GameState, list[Effect]]:
    """Apply one action at time ``now`` (seconds). Returns (new state, effects)."""
    action = parse_action(action)
    turn = Turn(state.clone(), now)
    turn.act(action)
    turn.settle()
    return turn.finish()


def start(state: GameState, now: float) -> tuple[GameState, list[Effect]]:
    """Settle a fresh game (e.g. every cat already Away); a no-op for most games."""
    turn = Turn(state.clone(), now)
    turn.settle()
    return turn.finish()


def apply_all(
    state: GameState, actions: Iterable[Action | dict], now: float
) -> tuple[GameState, list[Effect]]:
    """Apply several actions in order at one time (tests, replays)."""
    effects: list[Effect] = []
    for action in actions:
        state, new = apply(state, action, now)
        effects.extend(new)
    return state, effects


#: For each move, the steps that accept it (the ``moves`` of the table's rows).
_STEPS_FOR_MOVE: dict[str, frozenset[Phase]] = {}
for _phase, _step in STEPS.items():
    for _move in _step.moves | EVERY_STEP_MOVES:
        _STEPS_FOR_MOVE[_move] = _STEPS_FOR_MOVE.get(_move, frozenset()) | {_phase}


class Turn(TurnBase[GameState], DayRules, NightRules, AbilityRules):
    """A private copy of the state, the RNG and the effects of one ``apply``."""

    # -- dispatch ------------------------------------------------------------------------
    def act(self, action: Action) -> None:
        s = self.s
        if s.phase is Phase.GAME_OVER:
            raise IllegalAction("The game is over.", "§1", code="game_over")
        if isinstance(action, Timeout):
            self.on_timeout(action)
            return
        if action.player is None:
            raise IllegalAction(
                "A player action must name the acting cat.", "§12", code="no_player"
            )
        if not s.has_cat(action.player):
            raise IllegalAction(
                f"There is no cat named {action.player!r}.", "§12",
                code="no_such_cat", params={"name": action.player},
            )  # fmt: skip
        cat = s.cat(action.player)
        handler: Callable[[Cat, Any], None] = getattr(self, "on_" + action.type)
        handler(cat, action)
        marked_self = isinstance(action, MarkAway) and action.target == cat.name
        if cat.away and not marked_self:
            cat.away = False  # §9: Away ends when the cat acts again

    # -- checks shared by the moves ----------------------------------------------------------
    # A refusal tells its sender nothing the sender's own view does not show.
    # A role's action (guard, witch, Seer, Pickpocket) therefore checks the role first,
    # then human form, then the step: a cat without the role hears "Only the … can …" in
    # every step. Checking the step first would tell the others the guard step, which
    # they are shown as the place choice (§6.3, views.py).
    def _need_step_for(self, move: str, what: str, rule: str) -> None:
        """The current step accepts ``move`` (the ``moves`` of its row in steps.py)."""
        self._need_phase(*_STEPS_FOR_MOVE[move], what=what, rule=rule)

    def _need_role_move(
        self, cat: Cat, has_role: bool, refusal: str, move: str, what: str, rule: str
    ) -> None:
        """A role's move, checked in the order above: the role, human form, the step."""
        if not has_role:
            raise IllegalAction(refusal, rule, code="role_cannot", params={"move": move})
        self._need_human(cat, rule)
        self._need_step_for(move, what=what, rule=rule)

    def _need_phase(self, *phases: Phase, what: str, rule: str) -> None:
        if self.s.phase not in phases:
            raise IllegalAction(f"{what} is not possible now.", rule, code="not_now")

    def _need_human(self, cat: Cat, rule: str) -> None:
        if cat.form is Form.FROG:
            raise IllegalAction("Frogs cannot do that.", rule, code="frogs_cannot")
        if cat.form is Form.EXILED:
            raise IllegalAction("Exiled cats cannot do that.", rule, code="exiled_cannot")

    def _need_human_target(self, target: Cat, rule: str) -> None:
        if target.form is not Form.HUMAN:
            raise IllegalAction(
                f"{target.name} is not in human form.", rule,
                code="not_in_human_form", params={"name": target.name},
            )  # fmt: skip

    def _target(self, name: str, rule: str) -> Cat:
        if not self.s.has_cat(name):
            raise IllegalAction(
                f"There is no cat named {name!r}.", rule, code="no_such_cat", params={"name": name}
            )
        return self.s.cat(name)

    def _check_open(self, place: Place) -> None:
        if place not in tables.open_places(self.s.day):
            raise IllegalAction(
                f"The {place.value} is not open yet.", "§4",
                code="place_not_open", params={"place": place.value},
            )  # fmt: skip

    def _need_not_done(self, cat: Cat, message: str, rule: str) -> None:
        if cat.name in self.s.done:
            raise IllegalAction(message, rule, code="already_done")
        self.s.done.append(cat.name)

    def _note(self, cat: Cat, **note: Any) -> None:
        cat.notes.append(Note(day=self.s.day, **note))

    # -- entering a step -----------------------------------------------------------------------
    def enter(self, phase: Phase) -> None:
        """Enter ``phase``: a new step number, nobody done, and the step's timer (steps.py)."""
        s = self.s
        s.phase = phase
        s.step += 1
        if phase is Phase.GUARD:
            s.guard_steps += 1
        s.done = []
        self.effects.append(StepChanged(step=s.step, phase=phase))
        seconds = STEPS[phase].timer(s)
        s.deadline = None if seconds is None else self.now + seconds
        if s.deadline is not None:
            self.effects.append(StartTimer(step=s.step, deadline=s.deadline))

    def set_deadline(self, deadline: float) -> None:
        """The current step ends at ``deadline`` (a step whose end another step sets)."""
        self.s.deadline = deadline
        self.effects.append(StartTimer(step=self.s.step, deadline=deadline))

    def end(self, reason: Reason) -> None:
        s = self.s
        s.outcome = Outcome(winner=reason.winner, reason=reason, day=s.day)
        self.enter(Phase.GAME_OVER)
        self.effects.append(GameOver(outcome=s.outcome))

    # -- §3.1 role check, the scenes' OK -------------------------------------------------------
    def on_ready(self, cat: Cat, action: Ready) -> None:
        self._need_step_for("ready", what="Ready", rule="§3.1")
        self._need_not_done(cat, "You are already Ready.", "§3.1")

    def on_ok(self, cat: Cat, action: Ok) -> None:
        if self.s.phase not in _STEPS_FOR_MOVE["ok"]:
            raise IllegalAction("There is nothing to confirm now.", "§3", code="nothing_to_confirm")
        self._need_not_done(cat, "You have already tapped OK.", "§3")

    # -- §9 Away, timers ---------------------------------------------------------------------
    def on_mark_away(self, cat: Cat, action: MarkAway) -> None:
        if cat.name != self.s.host:
            raise IllegalAction("Only the host can mark a cat Away.", "§9", code="host_marks_away")
        target = self._target(action.target, "§9")
        if target.away:
            raise IllegalAction(
                f"{target.name} is already Away.", "§9",
                code="already_away", params={"name": target.name},
            )  # fmt: skip
        target.away = True

    def on_timeout(self, action: Timeout) -> None:
        check_timer_due(action.step, self.s.step, self.s.deadline, self.now, "§9")
        self.timeout()

    def timeout(self) -> None:
        """§9 table, column "time runs out" (the step's ``on_timeout``)."""
        on_timeout = step_of(self.s).on_timeout
        if on_timeout is None:  # pragma: no cover - a step without a timer has no deadline
            self.s.deadline = None
            return
        on_timeout(self)

    def auto_act(self, cat: Cat) -> None:
        """§9 table, column "Away": act at once for an Away cat the step waits for."""
        auto_act = step_of(self.s).auto_act
        if auto_act is not None:
            auto_act(self, cat)

    # -- walking the steps -------------------------------------------------------------------
    def settle(self) -> None:
        """Let Away cats act, then advance through every complete step."""
        for _ in range(1000):
            s = self.s
            if s.phase is Phase.GAME_OVER:
                return
            waiting = waiting_for(s)
            away = [name for name in waiting if s.cat(name).away]
            if away:
                self.auto_act(s.cat(away[0]))
                continue
            advance = step_of(s).advance
            if waiting or advance is None:  # the squabble ends only with its timer
                return
            advance(self)
        raise AssertionError("settle did not converge")  # pragma: no cover
