"""The night (RULES §3.4–§3.7, §7, §8): End talk, the Chief's proposal, the yes/no vote
and the curse gauge, the ritual, and the exile vote.

``NightRules`` is a part of the turn (turn.py): ``self.s`` is the state being changed,
``self.public`` and ``self.secret`` its random streams (engine/rng.py), and the shared
checks (``_need_human``…) are the turn's.
"""

from collections import Counter

from ..errors import IllegalAction
from . import tables
from .actions import Approve, EndTalk, PlayCard, Propose, Vote
from .domain import EMPTY_PAW, NIGHTSHADE, Form, Phase, Reason, RitualResult, Role
from .queries import (
    check_end_of_vote,
    ingredient_of_card,
    next_human_after,
    ritual_size,
    seals_to_win,
)
from .state import Cat, ExileVote, Proposal


class NightRules:
    def on_end_talk(self, cat: Cat, action: EndTalk) -> None:
        self._need_step_for("end_talk", what="End talk", rule="§3.4")
        self._need_human(cat, "§3.4")
        self._need_not_done(cat, "You have already tapped End talk.", "§3.4")

    # -- §3.5 proposal, §3.6 yes/no --------------------------------------------------------
    def on_propose(self, cat: Cat, action: Propose) -> None:
        s = self.s
        self._need_step_for("propose", what="Proposing", rule="§3.5")
        if cat.name != s.chief:
            raise IllegalAction("Only the Chief can propose.", "§3.5", code="chief_only")
        members = list(action.members)
        size = ritual_size(s)
        if len(members) != size or len(set(members)) != size:
            raise IllegalAction(
                f"Pick exactly {size} different cats.", "§3.5",
                code="pick_exactly", params={"n": size},
            )  # fmt: skip
        for name in members:
            self._need_human_target(self._target(name, "§3.5"), "§3.5")
        self.propose(members)

    def propose(self, members: list[str]) -> None:
        s = self.s
        ordered = [name for name in s.names() if name in members]
        s.today.proposals.append(Proposal(chief=s.chief, members=ordered))
        s.today.approval_started = True
        s.today.pickpocket_target = None  # §6.4: the window closes at the first yes/no vote
        s.approvals = {}
        self.enter(Phase.APPROVAL)

    def on_approve(self, cat: Cat, action: Approve) -> None:
        self._need_step_for("approve", what="Voting yes/no", rule="§3.6")
        self._need_human(cat, "§3.6")
        self.s.approvals[cat.name] = action.yes  # changeable until all have voted

    # -- §7 ritual -----------------------------------------------------------------------
    def on_play_card(self, cat: Cat, action: PlayCard) -> None:
        s = self.s
        self._need_step_for("play_card", what="Playing a card", rule="§7")
        if cat.name not in s.today.ritual_members:
            raise IllegalAction("Only ritual members play a card.", "§7", code="members_only")
        if cat.name in s.played:
            raise IllegalAction(
                "You have already played your card.", "§7", code="card_already_played"
            )
        card = action.card
        if card == NIGHTSHADE:
            if cat.role not in (Role.WITCH, Role.CROW):
                raise IllegalAction(
                    "Only witches and the Crow have Nightshade.", "§7", code="no_nightshade"
                )
        elif card == EMPTY_PAW:
            if cat.hand:
                raise IllegalAction(
                    "An empty paw is only for an empty hand.", "§7", code="empty_paw_only_empty"
                )
        else:
            ingredient = ingredient_of_card(card)
            if ingredient is None or ingredient not in cat.hand:
                raise IllegalAction(
                    f"You have no {card} card.", "§7", code="no_such_card", params={"card": card}
                )
            cat.hand.remove(ingredient)
        s.played[cat.name] = card

    # -- §8 vote -------------------------------------------------------------------------
    def on_vote(self, cat: Cat, action: Vote) -> None:
        s = self.s
        self._need_step_for("vote", what="Voting", rule="§8")
        self._need_human(cat, "§8")
        if action.target is not None:
            target = self._target(action.target, "§8")
            if target.name == cat.name:
                raise IllegalAction("You cannot vote for yourself.", "§8", code="vote_yourself")
            self._need_human_target(target, "§8")
        s.exile_votes[cat.name] = action.target  # changeable until all have voted

    def auto_propose(self) -> None:
        """§9: a random valid proposal."""
        members = self.secret.sample(self.s.human_names(), ritual_size(self.s))
        self.propose(members)

    # -- §3.5 / §3.6 night ------------------------------------------------------------------
    def start_proposal(self) -> None:
        s = self.s
        if not s.today.proposals:  # a new day: the cat after the last proposer
            s.chief = next_human_after(s, s.last_proposer)
        self.enter(Phase.PROPOSAL)

    def count_approval(self) -> None:
        s = self.s
        proposal = s.today.proposals[-1]
        order = s.names()
        proposal.yes = [n for n in order if s.approvals.get(n) is True]
        proposal.no = [n for n in order if s.approvals.get(n) is False]
        proposal.passed = len(proposal.yes) > len(proposal.no)  # tie rejects
        s.last_proposer = s.chief
        if not proposal.passed:
            s.curse += 1
        self.enter(Phase.APPROVAL_RESULT)

    def after_approval_result(self) -> None:
        s = self.s
        proposal = s.today.proposals[-1]
        if proposal.passed:
            s.today.ritual_members = list(proposal.members)
            s.played = {}
            self.enter(Phase.RITUAL)
        elif s.curse >= tables.CURSE_CAPACITY:  # the day's ritual fails, straight to the vote
            s.today.ritual_result = RitualResult.CURSED
            self.start_vote()
        else:
            s.chief = next_human_after(s, s.chief)
            self.enter(Phase.PROPOSAL)

    def resolve_ritual(self) -> None:
        """§7: success iff the played cards equal the required ingredients as a multiset."""
        s = self.s
        played = Counter(s.played[name] for name in s.today.ritual_members)
        required = Counter(i.value for i in s.today.required)
        success = played == required
        s.rituals_held += 1
        s.today.ritual_result = RitualResult.SUCCESS if success else RitualResult.FAILURE
        if success:
            s.seals += 1
            if s.seals >= seals_to_win(s):  # §1 step 1
                self.end(Reason.SEALS_COMPLETE)
                return
        self.enter(Phase.RITUAL_RESULT)

    # -- §8 vote -------------------------------------------------------------------------
    def start_vote(self) -> None:
        self.s.exile_votes = {}
        self.enter(Phase.VOTE)

    def count_vote(self) -> None:
        s = self.s
        tally = Counter(t for t in s.exile_votes.values() if t is not None)
        exiled = None
        if tally:
            (top, top_votes), *rest = tally.most_common()
            if not rest or rest[0][1] < top_votes:
                exiled = top
        ordered = {n: s.exile_votes[n] for n in s.names() if n in s.exile_votes}
        s.today.vote = ExileVote(votes=ordered, exiled=exiled)
        if exiled:
            s.cat(exiled).form = Form.EXILED
        reason = check_end_of_vote(s, exiled)
        if reason:
            self.end(reason)
        else:
            self.enter(Phase.VOTE_RESULT)
