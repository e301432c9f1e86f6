"""The roles' abilities (RULES §6.1 Seer, §6.4 Pickpocket); the Herbalist's restore and
the Knight's guard are part of the place choice (day.py).

``AbilityRules`` is a part of the turn (turn.py): ``self.s`` is the state being changed,
and the shared checks (``_need_human``…) are the turn's.
"""

from ..errors import IllegalAction
from .actions import PickpocketPeek, PickpocketTake, SeerLook
from .domain import Form, Role
from .queries import ingredient_of_card, seer_first_day
from .state import Cat, Peek, SeerResult
from .steps import PICKPOCKET_PHASES


class AbilityRules:
    def on_seer_look(self, cat: Cat, action: SeerLook) -> None:
        s = self.s
        self._need_role_move(
            cat, cat.role is Role.SEER, "Only the Seer can look into a cat.",
            "seer_look", what="Looking into a cat", rule="§6.1",
        )  # fmt: skip
        if s.today.seer_used:
            raise IllegalAction("The Seer looks once per day.", "§6.1", code="seer_once_per_day")
        first_day = seer_first_day(s)
        if s.day < first_day:
            raise IllegalAction(
                f"At this table the Seer first looks on day {first_day}.", "§6.1",
                code="seer_not_yet", params={"day": first_day},
            )  # fmt: skip
        target = self._target(action.target, "§6.1")
        if target.name == cat.name:
            raise IllegalAction("Choose another cat.", "§6.1", code="target_yourself")
        if target.form is Form.EXILED:
            raise IllegalAction(
                "Exiled cats cannot be looked into.", "§6.1",
                code="seer_not_exiled", params={"name": target.name},
            )  # fmt: skip
        s.today.seer_used = True
        cat.seer_results.append(
            SeerResult(day=s.day, target=target.name, witch=target.role.is_witch)
        )

    def on_pickpocket_peek(self, cat: Cat, action: PickpocketPeek) -> None:
        s = self.s
        if cat.role is not Role.PICKPOCKET:
            raise IllegalAction(
                "Only the Pickpocket can peek.", "§6.4",
                code="role_cannot", params={"move": "pickpocket_peek"},
            )  # fmt: skip
        self._need_human(cat, "§6.4")
        if s.phase not in PICKPOCKET_PHASES or s.today.approval_started:
            raise IllegalAction(
                "Peeking is possible from the evening until the first yes/no vote.",
                "§6.4",
                code="peek_window",
            )
        if s.today.pickpocket_used:
            raise IllegalAction(
                "The Pickpocket peeks once per day.", "§6.4", code="pickpocket_once_per_day"
            )
        target = self._target(action.target, "§6.4")
        if target.name == cat.name:
            raise IllegalAction("Choose another cat.", "§6.4", code="target_yourself")
        self._need_human_target(target, "§6.4")
        s.today.pickpocket_used = True
        s.today.pickpocket_target = target.name
        cat.peeks.append(Peek(day=s.day, target=target.name, hand=list(target.hand)))

    def on_pickpocket_take(self, cat: Cat, action: PickpocketTake) -> None:
        s = self.s
        if cat.role is not Role.PICKPOCKET:
            raise IllegalAction(
                "Only the Pickpocket can take a card.", "§6.4",
                code="role_cannot", params={"move": "pickpocket_take"},
            )  # fmt: skip
        victim_name = s.today.pickpocket_target if s.days else None
        if victim_name is None:
            raise IllegalAction("Peek at a cat's hand first.", "§6.4", code="peek_first")
        victim = s.cat(victim_name)
        if action.card is not None:
            card = ingredient_of_card(action.card)
            if card is None or card not in victim.hand:
                raise IllegalAction(
                    f"{victim.name} has no {action.card} card.", "§6.4",
                    code="victim_has_no_card",
                    params={"name": victim.name, "card": action.card},
                )  # fmt: skip
            victim.hand.remove(card)
            cat.hand.append(card)
            cat.peeks[-1].took = card
        s.today.pickpocket_target = None
