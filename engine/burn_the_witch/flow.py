"""The flow of the game: rounds (§3), reveals and victory (§1), the effect queue with Trials by
Fire (§4), hexes (§5) and timer penalties (§6). ``Turn`` (turn.py) mixes it in.

One queue, first in, first out (§3): after each reveal, victory is checked first (a won
game ends at once, the queue is dropped); then the reveal appends its hex penalty or
retribution, then its Trial by Fire. Whether an effect can still happen is checked when it
starts. The next round starts when the queue is empty.

Steps are entered, and the game ended, by the shared walker's ``enter`` and ``game_over``
(engine/turns.py), which the turn has too.
"""

from typing import Any

from . import queries
from .effects import Effect
from .state import (
    Ballot,
    ChoiceKind,
    EffectKind,
    GameState,
    Identity,
    Outcome,
    Pending,
    Phase,
    Player,
    QueuedEffect,
    Reason,
    Trial,
    VoteOutcome,
    Winner,
)


class Flow:
    s: GameState
    now: float
    effects: list[Effect]

    # -- the public history ---------------------------------------------------------------------
    def record(self, **event: Any) -> None:
        """A public event for every phone's history (never changed once appended), filed
        under the round it happened in (0: the witching hour), so a round whose accusation
        timed out is told as its own round, not as the end of the one before."""
        self.s.history.append({"kind": event.pop("kind"), "round": self.s.round, **event})

    # -- §3 a round ----------------------------------------------------------------------------
    def start_round(self) -> None:
        """§3.1/§3.5: the next accuser is the first player with villagers going right from
        where the last round said to start."""
        s = self.s
        assert s.next_accuser_from is not None
        accuser = queries.first_with_villagers(s, s.next_accuser_from, include_start=True)
        assert accuser is not None  # §8: someone wins before the table empties
        s.round += 1
        s.accuser = accuser
        s.executioner = queries.executioner_for(s, accuser)
        s.accused_trait = None
        s.votes = {}
        s.last_vote = None
        s.outcome_of_vote = None
        s.next_accuser_from = None
        self.enter(Phase.ACCUSE)

    def accusation_timed_out(self) -> None:
        """§6: the accuser loses a villager of their own instead of the round; the next
        accuser is the first to their right with villagers."""
        s = self.s
        assert s.accuser is not None
        self.record(kind="timed_out", step="accuse", player=s.accuser)
        s.executioner = None
        s.next_accuser_from = queries.going_right(s, s.accuser, include_start=False)[0].name
        s.queue.append(QueuedEffect(kind=EffectKind.PENALTY, payer=s.accuser))
        self.run_queue()

    def close_vote(self, timed_out: bool) -> None:
        """§3.2: the ballots are counted and revealed as counts. §6: on a timeout, each
        player who has not voted loses a villager of their own, in seat order going right
        from the accuser, then the round's execution follows."""
        s = self.s
        assert s.accuser is not None
        burn = sum(ballot.burn for ballot in s.votes.values())
        save = sum(ballot.save for ballot in s.votes.values())
        s.last_vote = Ballot(burn=burn, save=save)
        s.outcome_of_vote = (
            VoteOutcome.BURN
            if burn > save
            else VoteOutcome.SAVE
            if save > burn
            else VoteOutcome.TIE
        )
        self.record(kind="vote", burn=burn, save=save, outcome=s.outcome_of_vote)
        if timed_out:
            for player in queries.going_right(s, s.accuser, include_start=True):
                if player.villagers and player.name not in s.votes:
                    self.record(kind="timed_out", step="vote", player=player.name)
                    s.queue.append(QueuedEffect(kind=EffectKind.PENALTY, payer=player.name))
        s.votes = {}  # the ballots are never needed again, and never sent
        s.queue.append(QueuedEffect(kind=EffectKind.EXECUTION))
        s.next_accuser_from = s.executioner
        self.run_queue()

    def execution_timed_out(self) -> None:
        """§6: the executioner loses a villager of their own instead of the execution."""
        s = self.s
        assert s.executioner is not None
        self.record(kind="timed_out", step="execute", player=s.executioner)
        s.queue.append(QueuedEffect(kind=EffectKind.PENALTY, payer=s.executioner))
        s.executioner = None
        self.run_queue()

    # -- reveals and victory (§1, §3.3–§3.4) ---------------------------------------------------
    def reveal(self, owner: Player, villager_name: str, uncoverer: str, cause: str) -> None:
        """Burn ``villager_name`` of ``owner``'s house, uncovered by ``uncoverer``: its
        identity is turned face up; then victory, then the effects it causes (§3)."""
        s = self.s
        index = next(i for i, v in enumerate(owner.villagers) if v.name == villager_name)
        villager = owner.villagers.pop(index)
        owner.burned.append(villager)
        self.record(kind="burn", villager=villager.name, traits=villager.traits,
                    owner=owner.name, identity=villager.identity, by=uncoverer,
                    cause=cause)  # fmt: skip
        if villager.identity is Identity.WITCH and not owner.hexed:
            owner.hexed = True  # §5
            self.record(kind="hexed", owner=owner.name)
        if self.check_victory():
            return
        if villager.identity is Identity.WITCH:
            return
        if owner.hexed and uncoverer != owner.name:
            s.queue.append(QueuedEffect(kind=EffectKind.HEX, payer=uncoverer, chooser=owner.name))
        elif owner.hexed and cause is EffectKind.TRIAL:
            # §5: the hexed owner chosen in a trial may lay the penalty on a pointer.
            assert s.trial is not None
            pointers = [p for p, target in s.trial.points.items() if target == owner.name]
            s.queue.append(
                QueuedEffect(kind=EffectKind.RETRIBUTION, chooser=owner.name, pointers=pointers)
            )
        if villager.identity is Identity.DEVOUT:
            s.queue.append(QueuedEffect(kind=EffectKind.TRIAL))

    def check_victory(self) -> bool:
        """§1: zealots when every witch has burned; sympathizers when the innocents burned
        reach the wrongly condemned number. One reveal changes one count, so never both."""
        s = self.s
        if queries.witches_left(s) == 0:
            self.end(
                Outcome(winner=Winner.ZEALOTS, reason=Reason.ALL_WITCHES_BURNED, round=s.round)
            )
        elif queries.innocents_burned(s) >= s.wrongly_condemned:
            self.end(
                Outcome(winner=Winner.SYMPATHIZERS, reason=Reason.THRESHOLD_REACHED, round=s.round)
            )
        else:
            return False
        return True

    def end(self, outcome: Outcome) -> None:
        s = self.s
        s.outcome = outcome
        s.queue, s.pending, s.trial = [], None, None
        s.accuser = s.executioner = None
        self.game_over(outcome)

    # -- the effect queue -----------------------------------------------------------------------
    def run_queue(self) -> None:
        """Start the first effect that can still happen; the next round once none is left."""
        s = self.s
        if s.phase is Phase.OVER:
            return  # a won game ends at once (§3)
        while s.queue:
            effect = s.queue.pop(0)
            if self.start_effect(effect):
                return
        self.start_round()

    def start_effect(self, effect: QueuedEffect) -> bool:
        """Start ``effect``; False if it lapses (§3: checked when it starts)."""
        s = self.s
        if effect.kind is EffectKind.EXECUTION:
            return self.start_execution()
        if effect.kind is EffectKind.TRIAL:
            return self.start_trial()
        if effect.kind is EffectKind.RETRIBUTION:
            assert effect.chooser is not None
            targets = [p for p in effect.pointers if s.player(p).villagers]
            if not targets:
                return False
            s.pending = Pending(
                kind=EffectKind.RETRIBUTION, chooser=effect.chooser, targets=targets
            )
            self.enter(Phase.RETRIBUTION)
            return True
        assert effect.payer is not None
        if not s.player(effect.payer).villagers:
            return False  # §5/§6: a player with no villagers owes nothing
        kind = EffectKind.HEX if effect.kind is EffectKind.HEX else EffectKind.PENALTY
        self.start_choice(kind, chooser=effect.chooser or effect.payer, payer=effect.payer)
        return True

    def start_choice(self, kind: ChoiceKind, chooser: str, payer: str) -> None:
        """A villager of ``payer``'s house is lost, chosen by ``chooser``."""
        if not self.s.player(payer).villagers:
            self.run_queue()  # a retribution laid on a house emptied meanwhile lapses
            return
        self.s.pending = Pending(kind=kind, chooser=chooser, payer=payer)
        self.enter(Phase.CHOOSE_VILLAGER)

    def start_execution(self) -> bool:
        """§3.3 after a vote (a timed-out vote's penalties may have emptied the
        executioner's house: then the executioner is found again from the accuser)."""
        s = self.s
        assert s.accuser is not None
        if s.executioner is None or not s.player(s.executioner).villagers:
            found = queries.first_with_villagers(s, s.accuser, include_start=False)
            s.executioner = found or queries.first_with_villagers(s, s.accuser, True)
            s.next_accuser_from = s.executioner
        self.enter(Phase.EXECUTE)
        return True

    # -- §4 Trial by Fire ---------------------------------------------------------------------
    def start_trial(self) -> bool:
        s = self.s
        targets = [p.name for p in s.players if p.villagers]
        if not targets:
            return False
        pointers = [p.name for p in s.players if any(t != p.name for t in targets)]
        s.trial = Trial(targets=targets, pointers=pointers)
        self.enter(Phase.TRIAL)
        return True

    def end_trial(self) -> None:
        """§4: points are revealed together; the most pointed player loses a villager of
        their own. Tie: most villagers, then the first going right from the round's
        accuser. Nobody pointed: every target is tied."""
        s = self.s
        trial = s.trial
        assert trial is not None and s.accuser is not None
        tally = {target: 0 for target in trial.targets}
        for target in trial.points.values():
            tally[target] += 1
        most = max(tally.values())
        tied = [t for t, n in tally.items() if n == most]
        most_villagers = max(len(s.player(t).villagers) for t in tied)
        tied = [t for t in tied if len(s.player(t).villagers) == most_villagers]
        order = [p.name for p in queries.going_right(s, s.accuser, include_start=True)]
        chosen = min(tied, key=order.index)
        trial.revealed, trial.chosen = True, chosen
        self.record(kind="trial", targets=trial.targets, points=dict(trial.points), chosen=chosen)
        self.start_choice(EffectKind.TRIAL, chooser=chosen, payer=chosen)
