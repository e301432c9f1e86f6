"""One call of ``apply``: the moves' checks, and the game's words for the shared walk.

``apply(state, action, now)`` validates the action against the current step,
changes a copy of the state, lets Away cats act automatically (§9), walks on
through every step that is complete (the table in steps.py), and returns the new
state and effects. An illegal action raises before anything is changed; the
caller's state is never touched. The walk itself (dispatch, Away moves, timeouts, the
host's Away mark) is every game's, engine/turns.py.

The moves and the rules they lead to are in day.py (§3.2–§5), night.py (§3.4–§3.7,
§7, §8) and abilities.py (§6); ``Turn`` puts them together with the shared checks.
"""

from collections.abc import Iterable
from typing import Any

from ..errors import IllegalAction
from ..turns import StepMachine
from . import tables
from .abilities import AbilityRules
from .actions import (
    Action,
    Approve,
    ChooseGuard,
    ChoosePlace,
    EndTalk,
    GuardPlace,
    GuessPlace,
    GuessSpell,
    MarkAway,
    Ok,
    PickpocketPeek,
    PickpocketTake,
    PlayCard,
    Propose,
    Ready,
    SeerLook,
    Vote,
    WitchPlace,
    WitchSpell,
    parse_action,
)
from .day import DayRules
from .domain import Form, Phase, Place, Reason
from .effects import Effect, GameOver, StepChanged
from .night import NightRules
from .state import Cat, GameState, Note, Outcome
from .steps import CONFIRM_PHASES, STEPS, phases_accepting


def apply(
    state: GameState, action: Action | dict | str, now: float
) -> tuple[GameState, list[Effect]]:
    """Apply one action at time ``now`` (seconds). Returns (new state, effects)."""
    return Turn.play(state, parse_action(action), now)


def start(state: GameState, now: float) -> tuple[GameState, list[Effect]]:
    """Settle a fresh game (e.g. every cat already Away); a no-op for most games."""
    return Turn.begin(state, now)


def apply_all(
    state: GameState, actions: Iterable[Action | dict], now: float
) -> tuple[GameState, list[Effect]]:
    """Apply several actions in order at one time (tests, replays)."""
    effects: list[Effect] = []
    for action in actions:
        state, new = apply(state, action, now)
        effects.extend(new)
    return state, effects


class Turn(StepMachine[GameState], DayRules, NightRules, AbilityRules):
    """A private copy of the state, the RNG and the effects of one ``apply``: the shared
    walk through ``STEPS`` (engine/turns.py), with the moves' rules and checks."""

    steps = STEPS
    over_phase = Phase.GAME_OVER
    over_rule = "§1"
    no_player_rule = "§12"
    away_rule = "§9"
    no_player_message = "A player action must name the acting cat."
    step_changed_effect = StepChanged
    game_over_effect = GameOver

    def seat_named(self, name: str, rule: str | None) -> Cat:
        return self._target(name, rule)

    def not_host(self) -> IllegalAction:
        return IllegalAction("Only the host can mark a cat Away.", "§9", code="host_marks_away")

    def entered(self, phase: Phase) -> None:
        """A new step: nobody is done; the guard steps are counted (views.seat_step)."""
        if phase is Phase.GUARD:
            self.s.guard_steps += 1
        self.s.done = []

    # -- checks shared by the moves ----------------------------------------------------------
    # A refusal tells its sender nothing the sender's own view does not show.
    # A role's action (guard, witch, Seer, Pickpocket) therefore checks the role first,
    # then human form, then the step: a cat without the role hears "Only the … can …" in
    # every step. Checking the step first would tell the others the guard step, which
    # they are shown as the place choice (§6.3, views.py).
    def _need_step_for(self, move: str, what: str, rule: str) -> None:
        """The current step accepts ``move`` (the ``moves`` of its row in steps.py)."""
        self._need_phase(*phases_accepting(move), what=what, rule=rule)

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

    def _target(self, name: str, rule: str | None) -> Cat:
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

    def end(self, reason: Reason) -> None:
        s = self.s
        s.outcome = Outcome(winner=reason.winner, reason=reason, day=s.day)
        self.game_over(s.outcome)

    # -- §3.1 role check, the scenes' OK -------------------------------------------------------
    def on_ready(self, cat: Cat, action: Ready) -> None:
        self._need_step_for("ready", what="Ready", rule="§3.1")
        self._need_not_done(cat, "You are already Ready.", "§3.1")

    def on_ok(self, cat: Cat, action: Ok) -> None:
        if self.s.phase not in CONFIRM_PHASES:
            raise IllegalAction("There is nothing to confirm now.", "§3", code="nothing_to_confirm")
        self._need_not_done(cat, "You have already tapped OK.", "§3")


#: Which rule takes each move (the host's Away mark is the shared one, engine/turns.py).
Turn.handlers = {
    Ready: Turn.on_ready,
    ChoosePlace: Turn.on_choose_place,
    ChooseGuard: Turn.on_choose_guard,
    GuardPlace: Turn.on_guard_place,
    WitchPlace: Turn.on_witch_place,
    WitchSpell: Turn.on_witch_spell,
    GuessPlace: Turn.on_guess_place,
    GuessSpell: Turn.on_guess_spell,
    Ok: Turn.on_ok,
    EndTalk: Turn.on_end_talk,
    SeerLook: Turn.on_seer_look,
    PickpocketPeek: Turn.on_pickpocket_peek,
    PickpocketTake: Turn.on_pickpocket_take,
    Propose: Turn.on_propose,
    Approve: Turn.on_approve,
    PlayCard: Turn.on_play_card,
    Vote: Turn.on_vote,
    MarkAway: Turn.on_mark_away,
}
