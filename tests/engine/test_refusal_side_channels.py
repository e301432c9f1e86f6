"""No side channels: a refusal tells a cat nothing its own view does not.

A refused action comes back to its sender as (code, params, message, RULES §). Whether an action
is refused, and how, must therefore depend only on what the sender's own view shows:

- §6.3 / §3.3: during the guard step every cat but the Knight is shown the place choice
  (views.py), so each of their actions must fare exactly as it would in the place choice
  with the Knight still to decide; the same while the Knight's Gather/Guard is secret.
- §2.3: secrets the sender may not know (other cats' roles, hands, places, unrevealed
  votes, played cards: ``tests/support/leaks.scramble``) must not change any refusal.
- §2.3: an action of a role the sender does not hold is refused in the same words for
  every cat without that role whose situation looks the same ("Only the Seer can look
  into a cat." for every non-Seer), so a refusal never sorts cats by their roles.

Games of every size 4–12 are played by the bots (in some the Knight guards every day
from day 2). At one state of every step (two of the place choice and of the guard step),
every seat sends every action type with every plausible argument (each place, spell,
target and card) through the body of ``apply`` (``Probe``).
"""

import random

import pytest

import engine.catch_the_witch.bots as bots_module
from engine.catch_the_witch import (
    GameError,
    GameState,
    IllegalAction,
    Phase,
    Role,
    apply,
    rules,
    view,
)
from engine.catch_the_witch.actions import Action, ChooseGuard, SeerLook, parse_action
from engine.catch_the_witch.autoplay import play_new
from engine.catch_the_witch.domain import EMPTY_PAW, NIGHTSHADE, Form, Ingredient, Place, Spell
from tests.support.leaks import scramble
from tests.support.table import Table

#: (player count, seed, discussion limit, the Knight guards every day from day 2)
GAMES = [
    (4, 1, None, False),
    (5, 2, 30, False),  # no Knight at 5 cats (tables.ROLE_COUNTS)
    (6, 3, None, True),
    (7, 4, 120, False),
    (8, 5, None, True),
    (9, 6, 60, True),
    (10, 7, None, False),
    (11, 8, 30, True),
    (12, 9, None, True),
]
NOBODY = "Nobody"  # a name no cat has

Outcome = str | tuple[str, dict, str, str | None]


# -- what a seat may send ------------------------------------------------------------------
def catalogue(state: GameState, me: str) -> list[dict]:
    """Every action type, with each plausible argument, as ``me`` could send it."""
    names = state.names()
    targets = [*names, NOBODY]
    humans = state.human_names()
    size = len(state.today.required) if state.days else 1
    cards = [i.value for i in Ingredient] + [NIGHTSHADE, EMPTY_PAW]
    actions: list[dict] = [{"type": "ready"}, {"type": "ok"}, {"type": "end_talk"}]
    actions += [{"type": "choose_guard"}, {"type": "approve", "yes": True}]
    actions += [{"type": "approve", "yes": False}, {"type": "vote", "target": None}]
    for place in Place:
        for kind in ("choose_place", "guard_place", "witch_place"):
            actions.append({"type": kind, "place": place.value})
    for spell in Spell:
        for target in [None, *targets]:
            actions.append({"type": "witch_spell", "spell": spell.value, "target": target})
    for target in targets:
        actions.append({"type": "choose_place", "place": "forest", "restore": target})
        for kind in ("seer_look", "pickpocket_peek", "vote", "mark_away"):
            actions.append({"type": kind, "target": target})
    for card in [None, *cards]:
        actions.append({"type": "pickpocket_take", "card": card})
    for card in cards:
        actions.append({"type": "play_card", "card": card})
    proposals = [humans[:size], names[-size:], [me] * size, humans[: size + 1], [NOBODY]]
    actions += [{"type": "propose", "members": members} for members in proposals]
    return [{**action, "player": me} for action in actions]


def outcome(state: GameState, action: dict, now: float) -> tuple[Outcome, GameState | None]:
    """("accepted", new state) or ((code, params, message, rule), None)."""
    try:
        new, _ = apply(state, action, now)
    except GameError as exc:
        return (exc.code, exc.params, exc.message, getattr(exc, "rule", None)), None
    return "accepted", new


class Probe:
    """``outcome`` for many actions against one state, quickly.

    ``apply`` copies the whole state for every action; most actions here are refused,
    and a refusal changes nothing (rules.py: "An illegal action raises before anything is
    changed"), so one copy serves until an action is accepted. ``untouched`` checks that
    promise."""

    def __init__(self, state: GameState, now: float):
        self.state, self.now = state, now
        self.work = state.clone()

    def __call__(self, action: Action) -> tuple[Outcome, GameState | None]:
        turn = rules._Turn(self.work, self.now)
        try:
            turn.act(action)
        except GameError as exc:
            # Every refusal of the rules names its RULES section (errors.py).
            assert not isinstance(exc, IllegalAction) or exc.rule, exc.message
            return (exc.code, exc.params, exc.message, getattr(exc, "rule", None)), None
        turn.settle()
        after, _ = turn.finish()
        self.work = self.state.clone()
        return "accepted", after

    def untouched(self) -> bool:
        return self.work == self.state


def at(state: GameState) -> float:
    """A moment inside the current step (before any deadline)."""
    return state.deadline - 1 if state.deadline is not None else 0.0


# -- the games -----------------------------------------------------------------------------
def sample_states(count: int, seed: int, limit: int | None, guarding: bool, monkeypatch):
    """Two states of every step: the first after the step began, and the last before it
    ended (or a state in the middle of it, where it has only one)."""
    if guarding:
        monkeypatch.setattr(bots_module, "KNIGHT_GUARD_CHANCE", 1.0)
    states: list[GameState] = []
    play_new(count, seed, {"discussion_limit": limit}, observer=lambda _, s: states.append(s))
    by_step: dict[int, list[GameState]] = {}
    for state in states:
        if state.phase is not Phase.GAME_OVER:
            by_step.setdefault(state.step, []).append(state)
    # One state of every step: the first after it began or the last before it ended, by
    # turns; both in the place choice and the guard step, where the Knight is hidden.
    picked = []
    for index, group in enumerate(by_step.values()):
        if group[0].phase in (Phase.PLACE_CHOICE, Phase.GUARD) and len(group) > 1:
            picked += [group[0], group[-1]]
        else:
            picked.append(group[-1] if index % 2 else group[0])
    return picked


def without_the_knights_secret(state: GameState, viewer: str) -> GameState | None:
    """§6.3: the same moment as ``viewer`` (not the Knight) sees it, with the Knight's
    secret the other way: the guard step, or the Knight's Guard during the place choice,
    becomes the place choice with the Knight still to decide; a place choice waiting for
    the Knight becomes one where he has chosen Guard. None where there is nothing hidden."""
    knight = next((c for c in state.players if c.role is Role.KNIGHT), None)
    if knight is None or knight.name == viewer or knight.form is not Form.HUMAN:
        return None
    if state.phase not in (Phase.PLACE_CHOICE, Phase.GUARD):
        return None
    twin = state.clone()
    today = twin.today
    if twin.phase is Phase.GUARD or today.guarding:
        twin.phase = Phase.PLACE_CHOICE
        today.guarding, today.guard_place = False, None
        today.places.pop(knight.name, None)
    elif knight.name not in today.places:
        today.guarding = True
    else:
        return None
    # Only the Knight sees the guard step's countdown; the others see none (views.py).
    twin.deadline = None if state.phase is Phase.GUARD else state.deadline
    return twin


def _shown(v: dict) -> dict:
    """A view with its countdown left out (see ``without_the_knights_secret``)."""
    return {key: value for key, value in v.items() if key != "deadline"}


# -- §6.3 / §3.3 the guard step ------------------------------------------------------------
def test_s6_3_a_cat_other_than_the_knight_is_refused_alike_in_the_guard_step_and_the_place_choice():
    six = {"Ann": "witch", "Bo": "herbalist", "Cy": "seer", "Di": "knight", "Eve": "witch"}
    t = Table({**six, "Fay": "villager"}, required=[["fish"]] * 9)
    t.ready_all()
    t.places(Bo="river", Cy="river", Fay="meadow", Ann="forest", Eve="forest")
    waiting_for_the_knight = t.state
    t.do("Di", "choose_guard")
    guard_step = t.state
    assert guard_step.phase is Phase.GUARD
    for name in ("Ann", "Bo", "Cy", "Eve", "Fay"):
        assert view(guard_step, name) == view(waiting_for_the_knight, name)
        for action in catalogue(guard_step, name):
            seen, _ = outcome(waiting_for_the_knight, action, 9.0)
            assert outcome(guard_step, action, 9.0)[0] == seen, action
    # Changing one's place is still allowed: §3.3 "until the witches' turn starts".
    t.do("Bo", "choose_place", place="forest")
    assert t.state.phase is Phase.GUARD and t.state.today.places["Bo"] is Place.FOREST


@pytest.mark.parametrize(("count", "seed", "limit", "guarding"), GAMES)
def test_s2_3_s6_3_a_refusal_depends_only_on_the_senders_own_view(
    count, seed, limit, guarding, monkeypatch
):
    check_refusals_depend_only_on_the_view(
        sample_states(count, seed, limit, guarding, monkeypatch), guarding, random.Random(seed)
    )


def check_refusals_depend_only_on_the_view(
    states: list[GameState], guarding: bool, rng: random.Random
) -> None:
    """Every action of every seat fares alike in the worlds its sender cannot tell apart."""
    twins = guard_steps = 0
    for state in states:
        now = at(state)
        for me in state.names():
            worlds = [("secrets scrambled", scramble(state, me, rng))]
            twin = without_the_knights_secret(state, me)
            if twin is not None:
                worlds.append(("the Knight's choice the other way", twin))
                twins += 1
                guard_steps += state.phase is Phase.GUARD
            for label, world in worlds:
                assert _shown(view(world, me)) == _shown(view(state, me)), (label, me)
            probes = [Probe(state, now)] + [Probe(world, now) for _, world in worlds]
            for action in map(parse_action, catalogue(state, me)):
                seen, after = probes[0](action)
                for (label, _), probe in zip(worlds, probes[1:], strict=True):
                    other, other_after = probe(action)
                    assert other == seen, f"{me} ({label}): {action}: {seen} vs {other}"
                    if label.startswith("the Knight") and after is not None:
                        shown = _shown(view(after, me))
                        if shown["phase"] == Phase.PLACE_CHOICE.value:  # still the same step
                            assert other_after is not None, action
                            assert _shown(view(other_after, me)) == shown, action
            assert all(probe.untouched() for probe in probes), f"a refusal changed the state: {me}"
    if any(cat.role is Role.KNIGHT for cat in states[0].players):
        assert twins > 0, "no place choice with a Knight to hide"
        assert guard_steps > 0 or not guarding, "the Knight never guarded"


# -- §2.3 a refusal does not sort cats by role ---------------------------------------------
#: The role actions, and the roles whose holders may be answered differently.
ROLE_ACTIONS = {
    "choose_guard": {Role.KNIGHT},
    "guard_place": {Role.KNIGHT},
    "witch_place": {Role.WITCH},
    "witch_spell": {Role.WITCH},
    # [design] a guess (docs/engine.md): every cat but a witch may make one
    "guess_place": set(Role) - {Role.WITCH},
    "guess_spell": set(Role) - {Role.WITCH},
    "seer_look": {Role.SEER},
    "pickpocket_peek": {Role.PICKPOCKET},
    "pickpocket_take": {Role.PICKPOCKET},
    "restore": {Role.HERBALIST, Role.WITCH, Role.KNIGHT},  # choose_place with a restore
    "nightshade": {Role.WITCH, Role.CROW},  # play_card nightshade
}


def _role_action(action: dict) -> str | None:
    if action["type"] == "choose_place" and "restore" in action:
        return "restore"
    if action["type"] == "play_card" and action["card"] == NIGHTSHADE:
        return "nightshade"
    return action["type"] if action["type"] in ROLE_ACTIONS else None


def _situation(state: GameState, me: str) -> tuple:
    """What a refusal of a role action to a cat without the role may depend on."""
    v = view(state, me)
    mine = v["me"]
    today = state.today if state.days else None
    member = bool(today and me in today.ritual_members)
    return (v["phase"], mine["form"], v["your_turn"], mine.get("done"), "place" in mine,
            member, me in state.played)  # fmt: skip


def _key(action: dict, me: str) -> str:
    """The action with the sender's own name written as "<me>"."""
    fields = {k: v for k, v in action.items() if k != "player"}
    return repr(sorted((k, "<me>" if v == me else v) for k, v in fields.items()))


@pytest.mark.parametrize(("count", "seed", "limit", "guarding"), GAMES[::2])
def test_s2_3_a_role_action_is_refused_alike_to_every_cat_without_the_role(
    count, seed, limit, guarding, monkeypatch
):
    check_role_actions_refused_alike(sample_states(count, seed, limit, guarding, monkeypatch))


def check_role_actions_refused_alike(states: list[GameState]) -> None:
    for state in states:
        now = at(state)
        answers: dict[tuple, dict[str, Outcome]] = {}
        for me in state.names():
            role = state.cat(me).role
            situation = _situation(state, me)
            probe = Probe(state, now)
            for action in catalogue(state, me):
                family = _role_action(action)
                if family is None or role in ROLE_ACTIONS[family]:
                    continue
                key = _key(action, me)
                seen, _ = probe(parse_action(action))
                earlier = answers.setdefault((situation, key), {})
                for other, answer in earlier.items():
                    mentions_either = f"'{other}'" in key or f"'{me}'" in key
                    if not mentions_either:
                        assert answer == seen, f"{key}: {other} {answer} vs {me} {seen}"
                earlier[me] = seen


# -- the checks have teeth -----------------------------------------------------------------
def _step_first_choose_guard(self, cat, action):
    """The old refusal order: the step first, so the guard step showed."""
    self._need_phase(Phase.PLACE_CHOICE, what="Choosing Guard", rule="§6.3")
    if cat.role is not Role.KNIGHT:
        raise IllegalAction("Only the Guardian Knight can guard.", "§6.3")
    self.s.today.guarding = True


def _seer_look_telling_witches_apart(self, cat, action):
    if cat.role.is_witch:
        raise IllegalAction("Witches cannot look into a cat.", "§6.1")
    original_seer_look(self, cat, action)


original_seer_look = rules._Turn.on_seer_look


def test_the_checks_catch_a_planted_side_channel(monkeypatch):
    states = sample_states(6, 3, None, True, monkeypatch)
    monkeypatch.setitem(rules._Turn.handlers, ChooseGuard, _step_first_choose_guard)
    with pytest.raises(AssertionError, match="choose_guard"):
        check_refusals_depend_only_on_the_view(states, True, random.Random(3))
    monkeypatch.setitem(rules._Turn.handlers, SeerLook, _seer_look_telling_witches_apart)
    with pytest.raises(AssertionError, match="seer_look"):
        check_role_actions_refused_alike(states)
