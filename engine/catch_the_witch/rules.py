"""The rules of Catch the Witch (RULES.md §1–§10), as one pure state machine.

``apply(state, action, now)`` validates the action against the current step,
changes a copy of the state, lets Away cats act automatically (§9), walks on
through every step that is complete, and returns the new state and effects.
An illegal action raises before anything is changed; the caller's state is
never touched.
"""

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..errors import IllegalAction
from ..rng import Rng, seed_state
from . import tables
from .actions import (
    Action,
    Approve,
    ChooseGuard,
    ChoosePlace,
    EndTalk,
    GuardPlace,
    MarkAway,
    Ok,
    PickpocketPeek,
    PickpocketTake,
    PlayCard,
    Propose,
    Ready,
    SeerLook,
    Timeout,
    Vote,
    WitchPlace,
    WitchSpell,
    parse_action,
)
from .domain import (
    EMPTY_PAW,
    NIGHTSHADE,
    Form,
    Ingredient,
    Phase,
    Place,
    Reason,
    Role,
    Spell,
)
from .effects import Effect, GameOver, StartTimer, StepChanged
from .state import Cat, Day, GameState, Outcome, Settings, WitchChoice

#: Steps where every cat (frogs and exiled too) confirms a scene; Away counts as OK (§9).
CONFIRM_PHASES = frozenset(
    {Phase.EVENING, Phase.APPROVAL_RESULT, Phase.RITUAL_RESULT, Phase.VOTE_RESULT}
)
#: §6.1 the Seer acts from the evening until the exile vote starts.
SEER_PHASES = frozenset(
    {
        Phase.EVENING, Phase.DISCUSSION, Phase.PROPOSAL, Phase.APPROVAL, Phase.APPROVAL_RESULT,
        Phase.RITUAL, Phase.RITUAL_RESULT, Phase.SQUABBLE,
    }
)  # fmt: skip
#: §6.4 the Pickpocket acts from the evening until the day's first yes/no vote starts.
PICKPOCKET_PHASES = frozenset({Phase.EVENING, Phase.DISCUSSION, Phase.PROPOSAL})


# --------------------------------------------------------------------------------------
# Setup (§2)
# --------------------------------------------------------------------------------------
def validate_players(players: Sequence[str]) -> None:
    if not tables.MIN_PLAYERS <= len(players) <= tables.MAX_PLAYERS:
        raise IllegalAction(
            f"A game needs {tables.MIN_PLAYERS} to {tables.MAX_PLAYERS} cats, not {len(players)}.",
            "§10",
        )
    if len(set(players)) != len(players):
        raise IllegalAction("Two cats have the same name.", "§10")
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise IllegalAction("Each cat needs a name of 1 to 40 characters.", "§10")


def validate_role_set(roles: Sequence[Role], player_count: int) -> None:
    """§2.1: the rules a custom role set must follow, each with its own message."""
    if len(roles) != player_count:
        raise IllegalAction(
            f"The role set has {len(roles)} roles but there are {player_count} cats.", "§2.1"
        )
    counts = Counter(roles)
    witches = counts[Role.WITCH]
    if witches < 1:
        raise IllegalAction("The role set needs at least one Witch.", "§2.1")
    if witches >= player_count - witches:
        raise IllegalAction("There must be fewer witches than other cats.", "§2.1")
    for role in sorted(tables.UNIQUE_ROLES):
        if counts[role] > 1:
            raise IllegalAction(f"A role set may hold at most one {role.value}.", "§2.1")


def new_game(
    players: Sequence[str],
    settings: Settings | dict | None = None,
    seed: int = 0,
    roles: dict[str, Role | str] | None = None,
    host: str | None = None,
    required: Sequence[Sequence[Ingredient | str]] | None = None,
) -> GameState:
    """Deal roles and open the role check (§2, §3.1).

    ``roles`` fixes who is what (tests, replay files); otherwise the role set
    (custom from settings, or the §2.1 table) is shuffled with the seed.
    ``required`` pins the duck's draws per day (replay files).
    """
    players = list(players)
    validate_players(players)
    settings = Settings.model_validate(settings or {})
    rng = Rng(seed_state(seed))
    if roles is not None:
        unknown = set(roles) ^ set(players)
        if unknown:
            raise IllegalAction(
                f"Roles must name every cat exactly once (check {sorted(unknown)}).", "§2.1"
            )
        dealt = [Role(roles[name]) for name in players]
        validate_role_set(dealt, len(players))
    else:
        role_set = settings.roles or tables.default_roles(len(players))
        validate_role_set(role_set, len(players))
        dealt = rng.shuffled(role_set)
    if host is not None and host not in players:
        raise IllegalAction("The host must be one of the cats.", "§10")
    state = GameState(
        players=[Cat(name=name, role=role) for name, role in zip(players, dealt, strict=True)],
        settings=settings,
        host=host or players[0],
        rng=rng.state,
        scripted_required=[[Ingredient(i) for i in day] for day in (required or [])],
    )
    state.step = 1
    return state


def rematch(state: GameState, seed: int) -> GameState:
    """§10: same seats and order, new seed, roles dealt again, first Chief seat 1."""
    if state.phase is not Phase.GAME_OVER:
        raise IllegalAction("A rematch can start only after the result screen.", "§10")
    settings = state.settings
    if settings.roles is None or len(settings.roles) != len(state.players):
        settings = settings.model_copy(update={"roles": None})
    game = new_game(state.names(), settings, seed=seed, host=state.host)
    # Step numbers go on from the last game's, so no move made in it names a step of this one.
    game.step = state.step + 1
    return game


def set_host(state: GameState, name: str) -> GameState:
    """§10: host powers pass (the room decides when); returns a new state."""
    if not state.has_cat(name):
        raise IllegalAction(f"There is no cat named {name!r}.", "§10")
    new = state.clone()
    new.host = name
    return new


# --------------------------------------------------------------------------------------
# Queries shared by the rules, the views and the bots
# --------------------------------------------------------------------------------------
def knights_day(state: GameState) -> int:
    return tables.KNIGHTS_DAY[len(state.players)]


def seals_to_win(state: GameState) -> int:
    return tables.SEALS_TO_WIN[len(state.players)]


def unlocked_spells(state: GameState) -> list[Spell]:
    """§5: Frog from day 2; Snatch after 1 ritual held; Spoil after 2."""
    return [
        spell
        for spell, (first_day, rituals) in tables.SPELL_UNLOCK.items()
        if state.day >= first_day and state.rituals_held >= rituals
    ]


def place_choosers(state: GameState) -> list[Cat]:
    """§3.3: every non-witch cat in human form picks a place."""
    return [c for c in state.players if c.form is Form.HUMAN and not c.role.is_witch]


def human_witches(state: GameState) -> list[Cat]:
    return [c for c in state.players if c.form is Form.HUMAN and c.role.is_witch]


def place_counts(state: GameState) -> dict[Place, int]:
    """§3.3: cats gathering at each place, as the witches and a guarding Knight see it.

    Counts every gathering non-witch (Crow and Jester included); never witches
    and never a guarding Knight (he has no place).
    """
    counts = dict.fromkeys(tables.open_places(state.day), 0)
    for place in state.today.places.values():
        counts[place] += 1
    return counts


def cats_at(state: GameState, place: Place) -> list[str]:
    """§5: who a witch at ``place`` may target: non-witches gathered there, then witches
    who already chose it, in seat order."""
    today = state.today
    result = []
    for cat in state.players:
        if today.places.get(cat.name) is place or (
            (choice := today.witch_choices.get(cat.name)) and choice.place is place
        ):
            result.append(cat.name)
    return result


def waiting_for(state: GameState) -> list[str]:
    """Whom the current step waits for (Away cats that 'count as done' excluded)."""
    phase, today = state.phase, (state.days[-1] if state.days else None)
    if phase is Phase.ROLE_CHECK or phase in CONFIRM_PHASES:
        return [c.name for c in state.players if c.name not in state.done and not c.away]
    if phase is Phase.PLACE_CHOICE:
        return [
            c.name
            for c in place_choosers(state)
            if c.name not in today.places and not (c.role is Role.KNIGHT and today.guarding)
        ]
    if phase is Phase.GUARD:
        return [
            c.name for c in state.players if c.role is Role.KNIGHT and today.guard_place is None
        ]
    if phase is Phase.WITCHES:
        return [
            c.name
            for c in human_witches(state)
            if not (c.name in today.witch_choices and today.witch_choices[c.name].complete)
        ]
    if phase is Phase.DISCUSSION:
        return [c.name for c in state.humans() if c.name not in state.done and not c.away]
    if phase is Phase.PROPOSAL:
        return [state.chief] if state.chief else []
    if phase is Phase.APPROVAL:
        return [c.name for c in state.humans() if c.name not in state.approvals]
    if phase is Phase.RITUAL:
        return [name for name in today.ritual_members if name not in state.played]
    if phase is Phase.VOTE:
        return [c.name for c in state.humans() if c.name not in state.exile_votes]
    return []


def next_human_after(state: GameState, name: str | None) -> str:
    """§3.5 Chief rotation: the next cat in human form in seat order (seat 1 if nobody yet)."""
    names = state.names()
    start = 0 if name is None else names.index(name) + 1
    for offset in range(len(names)):
        cat = state.players[(start + offset) % len(names)]
        if cat.form is Form.HUMAN:
            return cat.name
    raise AssertionError("no cat in human form: the game should have ended")  # pragma: no cover


def ritual_size(state: GameState) -> int:
    return len(state.today.required)


def check_end_of_day(state: GameState) -> Reason | None:
    """§1 check order, step 2 (after attacks and restorations)."""
    remaining = [c for c in state.players if c.role.is_witch and c.form is not Form.EXILED]
    if all(c.form is Form.FROG for c in remaining):
        return Reason.WITCHES_ALL_FROGS if remaining else Reason.WITCHES_EXILED
    if _witches_take_over(state):
        return Reason.WITCHES_TAKE_OVER
    return None


def check_end_of_vote(state: GameState, exiled: str | None) -> Reason | None:
    """§1 check order, step 3 (a)–(e)."""
    exiled_cat = state.cat(exiled) if exiled else None
    if exiled_cat and exiled_cat.role is Role.JESTER:
        return Reason.JESTER_EXILED
    if state.day >= knights_day(state):
        if exiled_cat and exiled_cat.role.is_witch:
            return Reason.KNIGHTS_VOTE_SUCCESS
        return Reason.KNIGHTS_VOTE_FAIL
    remaining = [c for c in state.players if c.role.is_witch and c.form is not Form.EXILED]
    if not remaining:
        return Reason.WITCHES_EXILED
    if all(c.form is Form.FROG for c in remaining):
        return Reason.WITCHES_ALL_FROGS
    if _witches_take_over(state):
        return Reason.WITCHES_TAKE_OVER
    return None


def _witches_take_over(state: GameState) -> bool:
    """§1: non-witch cats in human form ≤ witches in human form, with ≥ 1 witch in human form."""
    witches = sum(1 for c in state.players if c.form is Form.HUMAN and c.role.is_witch)
    others = sum(1 for c in state.players if c.form is Form.HUMAN and not c.role.is_witch)
    return witches > 0 and others <= witches


def witch_score(state: GameState) -> int:
    """§1: the number of frogs when the game ends, witch frogs included."""
    return sum(1 for c in state.players if c.form is Form.FROG)


# --------------------------------------------------------------------------------------
# apply
# --------------------------------------------------------------------------------------
def apply(
    state: GameState, action: Action | dict | str, now: float
) -> tuple[GameState, list[Effect]]:
    """Apply one action at time ``now`` (seconds). Returns (new state, effects)."""
    action = parse_action(action)
    turn = _Turn(state.clone(), now)
    turn.act(action)
    turn.settle()
    return turn.finish()


def start(state: GameState, now: float) -> tuple[GameState, list[Effect]]:
    """Settle a fresh game (e.g. every cat already Away); a no-op for most games."""
    turn = _Turn(state.clone(), now)
    turn.settle()
    return turn.finish()


class _Turn:
    """One call of ``apply``: a private copy of the state, the RNG and the effects."""

    def __init__(self, state: GameState, now: float):
        self.s = state
        self.now = float(now)
        self.rng = Rng(state.rng)
        self.effects: list[Effect] = []

    def finish(self) -> tuple[GameState, list[Effect]]:
        self.s.rng = self.rng.state
        return self.s, self.effects

    # -- dispatch ------------------------------------------------------------------------
    def act(self, action: Action) -> None:
        s = self.s
        if s.phase is Phase.GAME_OVER:
            raise IllegalAction("The game is over.", "§1")
        if isinstance(action, Timeout):
            self.on_timeout(action)
            return
        if action.player is None:
            raise IllegalAction("A player action must name the acting cat.", "§12")
        if not s.has_cat(action.player):
            raise IllegalAction(f"There is no cat named {action.player!r}.", "§12")
        cat = s.cat(action.player)
        handler: Callable[[Cat, Any], None] = getattr(self, "on_" + action.type)
        handler(cat, action)
        marked_self = isinstance(action, MarkAway) and action.target == cat.name
        if cat.away and not marked_self:
            cat.away = False  # §9: Away ends when the cat acts again

    # -- helpers -------------------------------------------------------------------------
    # A refusal tells its sender nothing the sender's own view does not show (issue 18).
    # A role's action (guard, witch, Seer, Pickpocket) therefore checks the role first,
    # then human form, then the step: a cat without the role hears "Only the … can …" in
    # every step. Checking the step first would tell the others the guard step, which
    # they are shown as the place choice (§6.3, views.py).
    def _need_phase(self, *phases: Phase, what: str, rule: str) -> None:
        if self.s.phase not in phases:
            raise IllegalAction(f"{what} is not possible now.", rule)

    def _need_human(self, cat: Cat, rule: str) -> None:
        if cat.form is Form.FROG:
            raise IllegalAction("Frogs cannot do that.", rule)
        if cat.form is Form.EXILED:
            raise IllegalAction("Exiled cats cannot do that.", rule)

    def _target(self, name: str, rule: str) -> Cat:
        if not self.s.has_cat(name):
            raise IllegalAction(f"There is no cat named {name!r}.", rule)
        return self.s.cat(name)

    def _deadline_in(self, seconds: float | None) -> None:
        self.s.deadline = None if seconds is None else self.now + seconds
        if self.s.deadline is not None:
            self.effects.append(StartTimer(step=self.s.step, deadline=self.s.deadline))

    def _enter(self, phase: Phase, seconds: float | None = None) -> None:
        s = self.s
        s.phase = phase
        s.step += 1
        if phase is Phase.GUARD:
            s.guard_steps += 1
        s.done = []
        self.effects.append(StepChanged(step=s.step, phase=phase))
        self._deadline_in(seconds)

    @property
    def _limit(self) -> int | None:
        return self.s.settings.discussion_limit

    def _note(self, cat: Cat, **note: Any) -> None:
        cat.notes.append({"day": self.s.day, **note})

    # -- §3.1 role check -----------------------------------------------------------------
    def on_ready(self, cat: Cat, action: Ready) -> None:
        self._need_phase(Phase.ROLE_CHECK, what="Ready", rule="§3.1")
        if cat.name in self.s.done:
            raise IllegalAction("You are already Ready.", "§3.1")
        self.s.done.append(cat.name)

    # -- §3.3 day: place choice ------------------------------------------------------------
    def on_choose_place(self, cat: Cat, action: ChoosePlace) -> None:
        s = self.s
        self._need_phase(Phase.PLACE_CHOICE, Phase.GUARD, what="Choosing a place", rule="§3.3")
        self._need_human(cat, "§3.3")
        if cat.role.is_witch:
            raise IllegalAction("Witches choose their place during their 15 seconds.", "§3.3")
        if cat.role is Role.KNIGHT and s.today.guarding:
            raise IllegalAction("You chose to Guard; that cannot be changed.", "§6.3")
        self._check_open(action.place)
        restore = None
        if action.restore is not None:
            if cat.role is not Role.HERBALIST:
                raise IllegalAction("Only the Herbalist can restore a frog.", "§6.2")
            target = self._target(action.restore, "§6.2")
            if target.form is not Form.FROG:
                raise IllegalAction(f"{target.name} is not a frog.", "§6.2")
            restore = target.name
        s.today.places[cat.name] = action.place
        if cat.role is Role.HERBALIST:
            s.today.restore = restore

    def _check_open(self, place: Place) -> None:
        if place not in tables.open_places(self.s.day):
            raise IllegalAction(f"The {place.value} is not open yet.", "§4")

    def on_choose_guard(self, cat: Cat, action: ChooseGuard) -> None:
        s = self.s
        if cat.role is not Role.KNIGHT:
            raise IllegalAction("Only the Guardian Knight can guard.", "§6.3")
        self._need_human(cat, "§6.3")
        self._need_phase(Phase.PLACE_CHOICE, what="Choosing Guard", rule="§6.3")
        if s.today.guarding:
            raise IllegalAction("You already chose to Guard.", "§6.3")
        s.today.places.pop(cat.name, None)
        s.today.guarding = True

    def on_guard_place(self, cat: Cat, action: GuardPlace) -> None:
        if cat.role is not Role.KNIGHT:
            raise IllegalAction("Only the Guardian Knight can guard.", "§6.3")
        self._need_human(cat, "§6.3")
        self._need_phase(Phase.GUARD, what="Picking a place to guard", rule="§6.3")
        if self.s.today.guard_place is not None:
            raise IllegalAction("The guard place cannot be changed.", "§6.3")
        self._check_open(action.place)
        self.s.today.guard_place = action.place

    # -- §3.3 / §5 the witches' 15 seconds -------------------------------------------------
    def on_witch_place(self, cat: Cat, action: WitchPlace) -> None:
        if not cat.role.is_witch:
            raise IllegalAction("Only witches act during the witches' 15 seconds.", "§5")
        self._need_human(cat, "§5")
        self._need_phase(Phase.WITCHES, what="Choosing a witch's place", rule="§5")
        if cat.name in self.s.today.witch_choices:
            raise IllegalAction("A witch's choices are final once tapped.", "§3.3")
        self._check_open(action.place)
        self.s.today.witch_choices[cat.name] = WitchChoice(place=action.place)

    def on_witch_spell(self, cat: Cat, action: WitchSpell) -> None:
        s = self.s
        if not cat.role.is_witch:
            raise IllegalAction("Only witches cast spells.", "§5")
        self._need_human(cat, "§5")
        self._need_phase(Phase.WITCHES, what="Casting a spell", rule="§5")
        choice = s.today.witch_choices.get(cat.name)
        if choice is None:
            raise IllegalAction("Choose a place before a spell.", "§5")
        if choice.complete:
            raise IllegalAction("A witch's choices are final once tapped.", "§3.3")
        spell = action.spell
        if spell is not Spell.NONE and spell not in unlocked_spells(s):
            raise IllegalAction(f"The {spell.value} spell is not unlocked yet.", "§5")
        target = None
        if spell.needs_target:
            if action.target is None:
                raise IllegalAction(f"The {spell.value} spell needs a target.", "§5")
            if action.target == cat.name:
                raise IllegalAction("Choose another cat as the target.", "§5")
            if action.target not in cats_at(s, choice.place):
                raise IllegalAction(f"{action.target} is not at the {choice.place.value}.", "§5")
            target = action.target
        elif action.target is not None:
            raise IllegalAction(f"The {spell.value} spell takes no target.", "§5")
        choice.spell, choice.target = spell, target

    # -- §3.4 evening ---------------------------------------------------------------------
    def on_ok(self, cat: Cat, action: Ok) -> None:
        if self.s.phase not in CONFIRM_PHASES:
            raise IllegalAction("There is nothing to confirm now.", "§3")
        if cat.name in self.s.done:
            raise IllegalAction("You have already tapped OK.", "§3")
        self.s.done.append(cat.name)

    def on_end_talk(self, cat: Cat, action: EndTalk) -> None:
        self._need_phase(Phase.DISCUSSION, what="End talk", rule="§3.4")
        self._need_human(cat, "§3.4")
        if cat.name in self.s.done:
            raise IllegalAction("You have already tapped End talk.", "§3.4")
        self.s.done.append(cat.name)

    def on_seer_look(self, cat: Cat, action: SeerLook) -> None:
        s = self.s
        if cat.role is not Role.SEER:
            raise IllegalAction("Only the Seer can look into a cat.", "§6.1")
        self._need_human(cat, "§6.1")
        self._need_phase(*SEER_PHASES, what="Looking into a cat", rule="§6.1")
        if s.today.seer_used:
            raise IllegalAction("The Seer looks once per day.", "§6.1")
        target = self._target(action.target, "§6.1")
        if target.name == cat.name:
            raise IllegalAction("Choose another cat.", "§6.1")
        if target.form is Form.EXILED:
            raise IllegalAction("Exiled cats cannot be looked into.", "§6.1")
        s.today.seer_used = True
        cat.seer_results.append(
            {"day": s.day, "target": target.name, "witch": target.role.is_witch}
        )

    def on_pickpocket_peek(self, cat: Cat, action: PickpocketPeek) -> None:
        s = self.s
        if cat.role is not Role.PICKPOCKET:
            raise IllegalAction("Only the Pickpocket can peek.", "§6.4")
        self._need_human(cat, "§6.4")
        if s.phase not in PICKPOCKET_PHASES or s.today.approval_started:
            raise IllegalAction(
                "Peeking is possible from the evening until the first yes/no vote.", "§6.4"
            )
        if s.today.pickpocket_used:
            raise IllegalAction("The Pickpocket peeks once per day.", "§6.4")
        target = self._target(action.target, "§6.4")
        if target.name == cat.name:
            raise IllegalAction("Choose another cat.", "§6.4")
        self._need_human_target(target, "§6.4")
        s.today.pickpocket_used = True
        s.today.pickpocket_target = target.name

    def _need_human_target(self, target: Cat, rule: str) -> None:
        if target.form is not Form.HUMAN:
            raise IllegalAction(f"{target.name} is not in human form.", rule)

    def on_pickpocket_take(self, cat: Cat, action: PickpocketTake) -> None:
        s = self.s
        if cat.role is not Role.PICKPOCKET:
            raise IllegalAction("Only the Pickpocket can take a card.", "§6.4")
        victim_name = s.today.pickpocket_target if s.days else None
        if victim_name is None:
            raise IllegalAction("Peek at a cat's hand first.", "§6.4")
        victim = s.cat(victim_name)
        if action.card is not None:
            card = _ingredient(action.card)
            if card is None or card not in victim.hand:
                raise IllegalAction(f"{victim.name} has no {action.card} card.", "§6.4")
            victim.hand.remove(card)
            cat.hand.append(card)
        s.today.pickpocket_target = None

    # -- §3.5 proposal, §3.6 yes/no --------------------------------------------------------
    def on_propose(self, cat: Cat, action: Propose) -> None:
        s = self.s
        self._need_phase(Phase.PROPOSAL, what="Proposing", rule="§3.5")
        if cat.name != s.chief:
            raise IllegalAction("Only the Chief can propose.", "§3.5")
        members = list(action.members)
        size = ritual_size(s)
        if len(members) != size or len(set(members)) != size:
            raise IllegalAction(f"Pick exactly {size} different cats.", "§3.5")
        for name in members:
            self._need_human_target(self._target(name, "§3.5"), "§3.5")
        self._propose(members)

    def _propose(self, members: list[str]) -> None:
        s = self.s
        ordered = [name for name in s.names() if name in members]
        s.today.proposals.append({"chief": s.chief, "members": ordered})
        s.today.approval_started = True
        s.today.pickpocket_target = None  # §6.4: the window closes at the first yes/no vote
        s.approvals = {}
        self._enter(Phase.APPROVAL, self._limit)

    def on_approve(self, cat: Cat, action: Approve) -> None:
        self._need_phase(Phase.APPROVAL, what="Voting yes/no", rule="§3.6")
        self._need_human(cat, "§3.6")
        self.s.approvals[cat.name] = action.yes  # changeable until all have voted

    # -- §7 ritual -----------------------------------------------------------------------
    def on_play_card(self, cat: Cat, action: PlayCard) -> None:
        s = self.s
        self._need_phase(Phase.RITUAL, what="Playing a card", rule="§7")
        if cat.name not in s.today.ritual_members:
            raise IllegalAction("Only ritual members play a card.", "§7")
        if cat.name in s.played:
            raise IllegalAction("You have already played your card.", "§7")
        card = action.card
        if card == NIGHTSHADE:
            if cat.role not in (Role.WITCH, Role.CROW):
                raise IllegalAction("Only witches and the Crow have Nightshade.", "§7")
        elif card == EMPTY_PAW:
            if cat.hand:
                raise IllegalAction("An empty paw is only for an empty hand.", "§7")
        else:
            ingredient = _ingredient(card)
            if ingredient is None or ingredient not in cat.hand:
                raise IllegalAction(f"You have no {card} card.", "§7")
            cat.hand.remove(ingredient)
        s.played[cat.name] = card

    # -- §8 vote -------------------------------------------------------------------------
    def on_vote(self, cat: Cat, action: Vote) -> None:
        s = self.s
        self._need_phase(Phase.VOTE, what="Voting", rule="§8")
        self._need_human(cat, "§8")
        if action.target is not None:
            target = self._target(action.target, "§8")
            if target.name == cat.name:
                raise IllegalAction("You cannot vote for yourself.", "§8")
            self._need_human_target(target, "§8")
        s.exile_votes[cat.name] = action.target  # changeable until all have voted

    # -- §9 Away, timers ---------------------------------------------------------------------
    def on_mark_away(self, cat: Cat, action: MarkAway) -> None:
        if cat.name != self.s.host:
            raise IllegalAction("Only the host can mark a cat Away.", "§9")
        target = self._target(action.target, "§9")
        if target.away:
            raise IllegalAction(f"{target.name} is already Away.", "§9")
        target.away = True

    def on_timeout(self, action: Timeout) -> None:
        s = self.s
        if action.step is not None and action.step != s.step:
            raise IllegalAction("That timer belongs to an earlier step.", "§9")
        if s.deadline is None:
            raise IllegalAction("This step has no timer.", "§9")
        if self.now < s.deadline:
            raise IllegalAction("The time has not run out yet.", "§9")
        self.timeout()

    def timeout(self) -> None:
        """§9 table, column "time runs out"."""
        s, phase = self.s, self.s.phase
        today = s.today
        if phase is Phase.PLACE_CHOICE:
            for name in waiting_for(s):
                self.auto_place(s.cat(name))
        elif phase is Phase.GUARD:
            today.guard_place = self.rng.choice(tables.open_places(s.day))
        elif phase is Phase.WITCHES:
            for name in waiting_for(s):
                self.auto_witch(s.cat(name))
        elif phase is Phase.DISCUSSION:
            self._start_proposal()
            return
        elif phase is Phase.PROPOSAL:
            self.auto_propose()
            return
        elif phase is Phase.APPROVAL:
            for name in waiting_for(s):
                s.approvals[name] = True
        elif phase is Phase.VOTE:
            for name in waiting_for(s):
                s.exile_votes[name] = None
        elif phase is Phase.SQUABBLE:
            self._start_vote()
            return
        s.deadline = None

    # -- automatic choices (§9) ------------------------------------------------------------
    def auto_place(self, cat: Cat) -> None:
        """Random place; Herbalist restores nobody; Knight gathers (§9)."""
        self.s.today.places[cat.name] = self.rng.choice(tables.open_places(self.s.day))
        if cat.role is Role.HERBALIST:
            self.s.today.restore = None

    def auto_witch(self, cat: Cat) -> None:
        """§5: a random place if none, and no spell if the spell or its target is missing."""
        choices = self.s.today.witch_choices
        if cat.name not in choices:
            choices[cat.name] = WitchChoice(place=self.rng.choice(tables.open_places(self.s.day)))
        choices[cat.name].spell = Spell.NONE
        choices[cat.name].target = None

    def auto_propose(self) -> None:
        """§9: a random valid proposal."""
        members = self.rng.sample(self.s.human_names(), ritual_size(self.s))
        self._propose(members)

    def auto_act(self, cat: Cat) -> None:
        """§9 table, column "Away": act at once for an Away cat the step waits for."""
        s, phase = self.s, self.s.phase
        if phase is Phase.PLACE_CHOICE:
            self.auto_place(cat)
        elif phase is Phase.GUARD:
            s.today.guard_place = self.rng.choice(tables.open_places(s.day))
        elif phase is Phase.WITCHES:
            self.auto_witch(cat)
        elif phase is Phase.PROPOSAL:
            self.auto_propose()
        elif phase is Phase.APPROVAL:
            s.approvals[cat.name] = True
        elif phase is Phase.RITUAL:
            if cat.hand:
                s.played[cat.name] = cat.hand.pop(0).value
            else:
                s.played[cat.name] = EMPTY_PAW
        elif phase is Phase.VOTE:
            s.exile_votes[cat.name] = None

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
            if waiting or s.phase is Phase.SQUABBLE:
                return
            self.advance()
        raise AssertionError("settle did not converge")  # pragma: no cover

    def advance(self) -> None:
        """The current step is complete: move to the next (§3)."""
        s, phase = self.s, self.s.phase
        if phase is Phase.ROLE_CHECK or phase is Phase.VOTE_RESULT:
            self._start_day()
        elif phase is Phase.PLACE_CHOICE:
            knight = next((c for c in s.players if c.role is Role.KNIGHT), None)
            if s.today.guarding and knight is not None and knight.form is Form.HUMAN:
                s.place_deadline = s.deadline  # what everyone else still sees (views)
                self._enter(Phase.GUARD, self._limit)
            else:
                self._start_witches()
        elif phase is Phase.GUARD:
            self._start_witches()
        elif phase is Phase.WITCHES:
            self._resolve_day()
        elif phase is Phase.EVENING:
            self._enter(Phase.DISCUSSION, self._limit)
        elif phase is Phase.DISCUSSION:
            self._start_proposal()
        elif phase is Phase.APPROVAL:
            self._count_approval()
        elif phase is Phase.APPROVAL_RESULT:
            self._after_approval_result()
        elif phase is Phase.RITUAL:
            self._resolve_ritual()
        elif phase is Phase.RITUAL_RESULT:
            self._enter(Phase.SQUABBLE, tables.SQUABBLE_SECONDS)
        elif phase is Phase.VOTE:
            self._count_vote()
        else:  # pragma: no cover - PROPOSAL and GUARD always wait for someone
            raise AssertionError(f"cannot advance from {phase}")

    # -- §3.2 morning ---------------------------------------------------------------------
    def _start_day(self) -> None:
        s = self.s
        s.day += 1
        s.curse = 0
        s.approvals, s.exile_votes, s.played = {}, {}, {}
        size = min(tables.ritual_size(len(s.players), s.day), len(s.humans()))
        if len(s.scripted_required) >= s.day:
            drawn = list(s.scripted_required[s.day - 1])
        else:
            pool = [tables.ingredient_of(p) for p in tables.open_places(s.day)]
            drawn = [self.rng.choice(pool) for _ in range(size)]
        s.days.append(Day(number=s.day, required=drawn[:size], dropped=drawn[size:]))
        self._enter(Phase.PLACE_CHOICE, self._limit)

    def _start_witches(self) -> None:
        if human_witches(self.s):
            self._enter(Phase.WITCHES, tables.WITCH_SECONDS)
        else:  # §6: no witch in human form, the 15 s are skipped
            self._resolve_day()

    # -- §3.3 end of day: ① spells ② restoration ③ handing out ④ check ----------------------
    def _resolve_day(self) -> None:
        s = self.s
        today = s.today
        guard = today.guard_place if today.guarding else None
        frogs: set[str] = set()
        spoiled: set[Place] = set()
        repelled = False
        for witch in s.players:  # all spells resolve against the state before ①
            choice = today.witch_choices.get(witch.name)
            if choice is None or choice.spell in (None, Spell.NONE):
                continue
            worked = self._cast(witch, choice, guard, frogs, spoiled)
            repelled = repelled or choice.place is guard
            today.spells.append(
                {"witch": witch.name, "place": choice.place.value, "spell": choice.spell.value,
                 "target": choice.target, "worked": worked}
            )  # fmt: skip
            self._note(witch, kind="spell", spell=choice.spell.value, worked=worked)
        for name in frogs:
            s.cat(name).form = Form.FROG
        today.new_frogs = [name for name in s.names() if name in frogs]
        if repelled:
            knight = next(c for c in s.players if c.role is Role.KNIGHT)
            self._note(knight, kind="guard_repelled")
        # ② §6.2 restoration: only a Herbalist still in human form restores.
        herbalist = next((c for c in s.players if c.role is Role.HERBALIST), None)
        if today.restore and herbalist and herbalist.form is Form.HUMAN:
            target = s.cat(today.restore)
            if target.form is Form.FROG:
                target.form = Form.HUMAN
                today.restored.append(target.name)
        # ③ §4 handing out, in seat order.
        for cat in s.players:
            if cat.form is not Form.HUMAN or cat.name in today.restored:
                continue
            choice = today.witch_choices.get(cat.name)
            place = choice.place if choice else today.places.get(cat.name)
            if place is None:
                continue  # a guarding Knight gathers nothing
            cat.hand.append(Ingredient.ROTTEN if place in spoiled else tables.ingredient_of(place))
        # ④ §1 step 2.
        reason = check_end_of_day(s)
        if reason:
            self._end(reason)
            return
        # §1: with no non-witch in human form one of the checks above has fired.
        assert any(not c.role.is_witch for c in s.humans()), "end of day with no non-witch"
        # §2.2: capped again now that cats may have become frogs.
        humans = len(s.humans())
        if len(today.required) > humans:
            today.dropped = today.required[humans:] + today.dropped
            today.required = today.required[:humans]
        self._enter(Phase.EVENING)

    def _cast(
        self, witch: Cat, choice: WitchChoice, guard: Place | None, frogs: set[str],
        spoiled: set[Place],
    ) -> bool:  # fmt: skip
        """§5: one spell's effect; returns whether it worked."""
        s = self.s
        if choice.place is guard:
            return False
        if choice.spell is Spell.SPOIL:
            spoiled.add(choice.place)
            return True
        target = s.cat(choice.target)
        if choice.spell is Spell.FROG:
            witnesses = [
                name for name, place in s.today.places.items()
                if place is choice.place and name != target.name
            ]  # fmt: skip
            if witnesses:
                return False
            frogs.add(target.name)
            return True
        # Snatch: one random card of the target's hand.
        if not target.hand:
            return False
        witch.hand.append(target.hand.pop(self.rng.below(len(target.hand))))
        return True

    # -- §3.5 / §3.6 night ------------------------------------------------------------------
    def _start_proposal(self) -> None:
        s = self.s
        if not s.today.proposals:  # a new day: the cat after the last proposer
            s.chief = next_human_after(s, s.last_proposer)
        self._enter(Phase.PROPOSAL, self._limit)

    def _count_approval(self) -> None:
        s = self.s
        proposal = s.today.proposals[-1]
        order = s.names()
        proposal["yes"] = [n for n in order if s.approvals.get(n) is True]
        proposal["no"] = [n for n in order if s.approvals.get(n) is False]
        proposal["passed"] = len(proposal["yes"]) > len(proposal["no"])  # tie rejects
        s.last_proposer = s.chief
        if not proposal["passed"]:
            s.curse += 1
        self._enter(Phase.APPROVAL_RESULT)

    def _after_approval_result(self) -> None:
        s = self.s
        proposal = s.today.proposals[-1]
        if proposal["passed"]:
            s.today.ritual_members = list(proposal["members"])
            s.played = {}
            self._enter(Phase.RITUAL)
        elif s.curse >= tables.CURSE_CAPACITY:  # the day's ritual fails, straight to the vote
            s.today.ritual_result = "cursed"
            self._start_vote()
        else:
            s.chief = next_human_after(s, s.chief)
            self._enter(Phase.PROPOSAL, self._limit)

    def _resolve_ritual(self) -> None:
        """§7: success iff the played cards equal the required ingredients as a multiset."""
        s = self.s
        played = Counter(s.played[name] for name in s.today.ritual_members)
        required = Counter(i.value for i in s.today.required)
        success = played == required
        s.rituals_held += 1
        s.today.ritual_result = "success" if success else "failure"
        if success:
            s.seals += 1
            if s.seals >= seals_to_win(s):  # §1 step 1
                self._end(Reason.SEALS_COMPLETE)
                return
        self._enter(Phase.RITUAL_RESULT)

    # -- §8 vote -------------------------------------------------------------------------
    def _start_vote(self) -> None:
        self.s.exile_votes = {}
        self._enter(Phase.VOTE, self._limit)

    def _count_vote(self) -> None:
        s = self.s
        tally = Counter(t for t in s.exile_votes.values() if t is not None)
        exiled = None
        if tally:
            (top, top_votes), *rest = tally.most_common()
            if not rest or rest[0][1] < top_votes:
                exiled = top
        ordered = {n: s.exile_votes[n] for n in s.names() if n in s.exile_votes}
        s.today.vote = {"votes": ordered, "exiled": exiled}
        if exiled:
            s.cat(exiled).form = Form.EXILED
        reason = check_end_of_vote(s, exiled)
        if reason:
            self._end(reason)
        else:
            self._enter(Phase.VOTE_RESULT)

    def _end(self, reason: Reason) -> None:
        s = self.s
        s.outcome = Outcome(winner=reason.winner, reason=reason, day=s.day)
        self._enter(Phase.GAME_OVER)
        self.effects.append(GameOver(outcome=s.outcome))


def _ingredient(card: str) -> Ingredient | None:
    try:
        return Ingredient(card)
    except ValueError:
        return None


def apply_all(
    state: GameState, actions: Iterable[Action | dict], now: float
) -> tuple[GameState, list[Effect]]:
    """Apply several actions in order at one time (tests, replays)."""
    effects: list[Effect] = []
    for action in actions:
        state, new = apply(state, action, now)
        effects.extend(new)
    return state, effects
