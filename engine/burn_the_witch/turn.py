"""One call of ``apply``: the moves' checks, and the game's words for the shared walk.

``apply(state, action, now)`` checks the move against the current step (steps.py), changes
a private copy of the state, lets Away players act at once (§6), and returns the new state
and its effects. A refused move raises before anything changes; the caller's state is never
touched. The walk itself (dispatch, Away moves, timeouts, the host's Away mark) is every
game's, engine/turns.py; the flow of the game (rounds, reveals, the effect queue) is in
flow.py.
"""

from typing import Any

from ..errors import IllegalAction
from ..turns import StepMachine
from . import queries
from .actions import (
    Accuse,
    Action,
    Bewitch,
    ChooseVillager,
    Execute,
    MarkAway,
    Point,
    Retribute,
    Vote,
    parse_action,
)
from .flow import Flow
from .state import Ballot, Direction, EffectKind, GameState, Phase, Player
from .steps import STEPS


def apply(state: GameState, action: Action | dict[str, Any], now: float, automatic: bool = False):
    """Apply one move at time ``now`` (seconds): (new state, effects). ``automatic``: the
    server's own move in a player's name, which is no act of theirs (§6 Away stays)."""
    return Turn.play(state, parse_action(action), now, automatic)


def start(state: GameState, now: float):
    """Start the witching hour: its timer, and Away players' moves."""
    return Turn.begin(state, now)


class Turn(StepMachine[GameState], Flow):
    """A private copy of the state, the RNG and the effects of one ``apply``: the shared
    walk through ``STEPS`` (engine/turns.py), with the moves' rules and checks."""

    steps = STEPS
    over_phase = Phase.OVER
    over_rule = "§1"
    no_player_rule = "§3"
    away_rule = "§6"

    def first_step(self) -> None:
        self.enter(Phase.WITCHING_HOUR)

    def not_host(self) -> IllegalAction:
        return IllegalAction(
            "Only the host can mark a player Away.", "§6", code="btw_host_marks_away"
        )

    def seat_named(self, name: str, rule: str | None) -> Player:
        """§2 names the players, whatever the move that names one."""
        return self.named_player(name)

    # -- checks shared by the moves ----------------------------------------------------------
    def named_player(self, name: str) -> Player:
        if not self.s.has_player(name):
            raise IllegalAction(
                f"There is no player named {name!r}.", "§2",
                code="btw_no_such_player", params={"name": name},
            )  # fmt: skip
        return self.s.player(name)

    def need_step_for(self, move: str, rule: str) -> None:
        if move not in STEPS[self.s.phase].moves:
            raise IllegalAction(f"'{move}' is not possible at this step.", rule, code="not_now")

    def need_turn(self, player: Player, whose: str | None, rule: str) -> None:
        if player.name != whose:
            raise IllegalAction(
                "It is not your turn to do that.", rule,
                code="btw_not_your_turn", params={"name": whose},
            )  # fmt: skip

    def need_villagers(self, player: Player, rule: str) -> None:
        """§3: a player without villagers may not accuse, vote or execute."""
        if not player.villagers:
            raise IllegalAction("You have no villagers left.", rule, code="btw_no_villagers")

    # -- §2 the witching hour ---------------------------------------------------------------
    def on_bewitch(self, player: Player, action: Bewitch) -> None:
        # The coven is checked first, in every step: a refusal tells nobody the step.
        if player.name != self.s.coven:
            raise IllegalAction("Only a coven can bewitch.", "§2", code="btw_no_coven")
        self.need_step_for("bewitch", "§2")
        if self.s.bewitched is not None:
            raise IllegalAction("You have bewitched already.", "§2", code="already_done")
        target = queries.neighbour_to_bewitch(self.s, player.name, action.direction)
        self.s.bewitched = target
        # The tap comes from the coven's side of the bewitched: a tap going left comes from
        # the bewitched player's right.
        self.s.player(target).bewitched_from = (
            Direction.RIGHT if action.direction == Direction.LEFT else Direction.LEFT
        )

    # -- §3 a round ------------------------------------------------------------------------
    def on_accuse(self, player: Player, action: Accuse) -> None:
        self.need_step_for("accuse", "§3.1")
        self.need_turn(player, self.s.accuser, "§3.1")
        if action.trait not in queries.shown_traits(self.s):
            raise IllegalAction(
                f"No living villager shows {action.trait!r}.", "§3.1",
                code="btw_trait_not_shown", params={"trait": action.trait},
            )  # fmt: skip
        self.s.accused_trait = action.trait
        self.record(kind="accuse", accuser=player.name, trait=action.trait)
        self.enter(Phase.VOTE)

    def on_vote(self, player: Player, action: Vote) -> None:
        self.need_step_for("vote", "§3.2")
        self.need_villagers(player, "§3.2")
        living = len(player.villagers)
        if action.burn + action.save != living:
            raise IllegalAction(
                f"Cast one vote per living villager: {living}.", "§3.2",
                code="btw_vote_count", params={"n": living},
            )  # fmt: skip
        self.s.votes[player.name] = Ballot(burn=action.burn, save=action.save)

    def on_execute(self, player: Player, action: Execute) -> None:
        self.need_step_for("execute", "§3.3")
        self.need_turn(player, self.s.executioner, "§3.3")
        if action.villager not in queries.complying(self.s):
            raise IllegalAction(
                f"{action.villager} does not comply with the vote.", "§3.3",
                code="btw_not_complying", params={"villager": action.villager},
            )  # fmt: skip
        owner = queries.owner_of(self.s, action.villager)
        assert owner is not None
        self.s.executioner = None
        self.reveal(owner, action.villager, uncoverer=player.name, cause=EffectKind.EXECUTION)
        self.run_queue()

    # -- §4 Trial by Fire, §5 hex, §6 penalties ---------------------------------------------
    def on_point(self, player: Player, action: Point) -> None:
        self.need_step_for("point", "§4")
        trial = self.s.trial
        assert trial is not None
        if player.name not in trial.pointers:
            raise IllegalAction("You have nobody to point at.", "§4", code="btw_cannot_point")
        if player.name in trial.locked:
            raise IllegalAction("Your point is locked.", "§4", code="btw_point_locked")
        if action.target == player.name or action.target not in trial.targets:
            raise IllegalAction(
                f"{action.target} cannot be pointed at.", "§4",
                code="btw_not_a_target", params={"name": action.target},
            )  # fmt: skip
        trial.points[player.name] = action.target
        if action.locked:
            trial.locked.append(player.name)

    def on_choose_villager(self, player: Player, action: ChooseVillager) -> None:
        self.need_step_for("choose_villager", "§4")
        pending = self.s.pending
        assert pending is not None and pending.payer is not None
        self.need_turn(player, pending.chooser, "§5")
        payer = self.s.player(pending.payer)
        if not any(v.name == action.villager for v in payer.villagers):
            raise IllegalAction(
                f"{action.villager} is not a villager of {payer.name}'s house.", "§5",
                code="btw_not_in_house", params={"villager": action.villager, "name": payer.name},
            )  # fmt: skip
        self.s.pending = None
        cause = pending.kind
        self.reveal(payer, action.villager, uncoverer=player.name, cause=cause)
        if cause is EffectKind.TRIAL:
            self.s.trial = None
        self.run_queue()

    def on_retribute(self, player: Player, action: Retribute) -> None:
        self.need_step_for("retribute", "§5")
        pending = self.s.pending
        assert pending is not None
        self.need_turn(player, pending.chooser, "§5")
        if action.target is not None and action.target not in pending.targets:
            raise IllegalAction(
                f"{action.target} did not point at you or has no villagers.", "§5",
                code="btw_not_a_pointer", params={"name": action.target},
            )  # fmt: skip
        self.s.pending = None
        self.record(kind="retribution", by=player.name, target=action.target)
        if action.target is not None:
            self.start_choice(EffectKind.HEX, chooser=player.name, payer=action.target)
        else:
            self.run_queue()


#: Which rule takes each move (the host's Away mark is the shared one, engine/turns.py).
Turn.handlers = {
    Bewitch: Turn.on_bewitch,
    Accuse: Turn.on_accuse,
    Vote: Turn.on_vote,
    Execute: Turn.on_execute,
    Point: Turn.on_point,
    ChooseVillager: Turn.on_choose_villager,
    Retribute: Turn.on_retribute,
    MarkAway: Turn.on_mark_away,
}
