"""A test driver: plays a game by names, step by step, recording every action.

    t = Table({"Ann": "witch", "Bo": "herbalist", "Cy": "pickpocket", "Di": "villager"})
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    ...
The recorded actions make a replay scenario (``t.scenario()``).
"""

from typing import Any

from engine.catch_the_witch import GameState, apply, new_game, view, waiting_for
from engine.catch_the_witch.domain import Form, Phase
from engine.command_lines import SCENARIO_FORMAT


class Table:
    def __init__(
        self,
        roles: dict[str, str],
        settings: dict | None = None,
        required: list[list[str]] | None = None,
        seed: int = 0,
    ):
        self.settings = {"discussion_limit": None} if settings is None else settings
        self.roles = roles
        self.required = required
        self.seed = seed
        self.state: GameState = new_game(
            list(roles), self.settings, seed=seed, roles=roles, required=required
        )
        self.now = 0.0
        self.actions: list[dict[str, Any]] = []
        self.effects: list = []

    # -- raw ---------------------------------------------------------------------------
    def do(self, player: str | None, kind: str, **fields: Any) -> GameState:
        action = {"type": kind, **fields}
        if player is not None:
            action["player"] = player
        self.now += 1.0
        self.state, self.effects = apply(self.state, action, self.now)
        self.actions.append(action)
        return self.state

    def timeout(self) -> GameState:
        assert self.state.deadline is not None, "this step has no timer"
        self.now = max(self.now, self.state.deadline)
        self.state, self.effects = apply(self.state, {"type": "timeout"}, self.now)
        self.actions.append({"type": "timeout"})
        return self.state

    @property
    def phase(self) -> Phase:
        return self.state.phase

    def view(self, name: str | None) -> dict:
        return view(self.state, name)

    def humans(self) -> list[str]:
        return [c.name for c in self.state.players if c.form is Form.HUMAN]

    def each_waiting(self, kind: str, **fields: Any) -> None:
        for name in list(waiting_for(self.state)):
            self.do(name, kind, **fields)

    # -- steps -------------------------------------------------------------------------
    def ready_all(self) -> None:
        self.each_waiting("ready")

    def morning(self) -> None:
        """The duck's announcement (§3.2) ends only with its timer."""
        if self.phase is Phase.MORNING:
            self.timeout()

    def places(self, **chosen: str) -> None:
        """After the morning, the named cats tap a place (a witch's tap is her plan)."""
        self.morning()
        for name, place in chosen.items():
            self.do(name, "choose_place", place=place)

    def plans(self, **plans: str) -> None:
        """Every witch in human form without a plan taps one (``plans``, else the forest),
        which ends the place choice once the others have chosen."""
        self.morning()
        witches = [n for n in self.humans() if self.roles[n] == "witch"]
        for name in witches:
            if self.phase is Phase.PLACE_CHOICE and name not in self.state.today.witch_plans:
                self.do(name, "choose_place", place=plans.get(name, "forest"))

    def witch(self, name: str, place: str, spell: str = "none", target: str | None = None):
        """A witch's whole turn: her plan if still in the place choice, her place and spell;
        once every witch has chosen, the 15 s run out (§3.3: the turn always lasts 15 s)."""
        self.plans(**{name: place})
        self.do(name, "witch_place", place=place)
        self._cast(name, spell, target)
        self.end_witches_turn()

    def witches_at(self, place: str, **casts: tuple[str, str | None]) -> None:
        """The named witches all choose ``place`` first, so each may target another there,
        then each casts its (spell, target) in the order given; then the 15 s run out."""
        self.plans()
        for name in casts:
            self.do(name, "witch_place", place=place)
        for name, (spell, target) in casts.items():
            self._cast(name, spell, target)
        self.end_witches_turn()

    def _cast(self, name: str, spell: str, target: str | None) -> None:
        fields = {"spell": spell} if target is None else {"spell": spell, "target": target}
        self.do(name, "witch_spell", **fields)

    def end_witches_turn(self) -> None:
        """The 15 s run out once no witch still chooses."""
        if self.phase is Phase.WITCHES and not waiting_for(self.state):
            self.timeout()

    def ok_all(self) -> None:
        self.each_waiting("ok")

    def end_talk_all(self) -> None:
        self.each_waiting("end_talk")

    def evening(self) -> None:
        """Evening announcement OK, then everyone ends the talk."""
        self.ok_all()
        self.end_talk_all()

    def propose(self, members: list[str]) -> None:
        self.do(self.state.chief, "propose", members=members)

    def approve_all(self, yes: bool = True, **exceptions: bool) -> None:
        for name in list(waiting_for(self.state)):
            self.do(name, "approve", yes=exceptions.get(name, yes))

    def passed_ritual(self, members: list[str], cards: dict[str, str]) -> None:
        """Propose, approve, confirm, play the given cards, confirm, squabble."""
        self.propose(members)
        self.approve_all(True)
        self.ok_all()
        for name, card in cards.items():
            self.do(name, "play_card", card=card)
        if self.phase is Phase.RITUAL_RESULT:
            self.ok_all()
            self.timeout()  # the 4-second squabble

    def reject(self) -> None:
        self.propose(self._any_members())
        self.approve_all(False)
        self.ok_all()

    def curse_day(self) -> None:
        """Three rejections: the ritual fails automatically, straight to the vote."""
        for _ in range(3):
            self.reject()

    def _any_members(self) -> list[str]:
        return self.humans()[: len(self.state.today.required)]

    def votes(self, **targets: str | None) -> None:
        for name in list(waiting_for(self.state)):
            self.do(name, "vote", target=targets.get(name))

    def scenario(self, description: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": SCENARIO_FORMAT,
            "description": description,
            "players": list(self.roles),
            "seed": self.seed,
            "settings": self.settings,
            "roles": self.roles,
        }
        if self.required:
            data["required"] = self.required
        data["actions"] = self.actions
        if self.state.outcome:
            data["expect"] = self.state.outcome.model_dump(mode="json")
        return data


FOUR = {"Ann": "witch", "Bo": "herbalist", "Cy": "pickpocket", "Di": "villager"}
SIX = {
    "Ann": "witch", "Bo": "herbalist", "Cy": "seer", "Di": "knight", "Eve": "witch",
    "Fay": "villager",
}  # fmt: skip
