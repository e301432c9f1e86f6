"""Every step of a day (§3), each defined once: the table ``STEPS``.

A row says whom the step waits for, its timer, what happens when time runs out
(§9 table, "time runs out"), an Away cat's automatic move (§9 table, "Away"), what
comes next once nobody is waited for, which moves it accepts, and two facts the
views need. The turn (turn.py) walks the table; views.py and bots.py read it.

The row's functions take the turn (a private copy of the state with its RNG and
effects) and call the rule it names there (day.py, night.py, abilities.py).
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import steps
from ..steps import accepting, nobody
from . import tables
from .domain import EMPTY_PAW, Form, Phase, Role
from .queries import human_witches
from .state import GameState

if TYPE_CHECKING:  # the turn reads this table: only the type checker looks back
    from .turn import Turn


@dataclass(frozen=True)
class Step(steps.Step["Turn"]):
    """A row of the shared step table (engine/steps.py: whom it waits for, its moves, its
    timer, §9's "time runs out" and "Away" columns, what follows), and two facts the views
    need."""

    #: Everyone may see who has not moved yet (views: "waiting").
    public_waiting: bool = True
    #: The day's spells are resolved: its evening news is public (views).
    after_spells: bool = True


#: Moves that are possible in every step: the host's Away mark (§9), a timer's firing
#: (refused unless the step's deadline has passed), and the Pickpocket's take, which
#: needs a peek, and a peek is only possible in its own steps (§6.4).
EVERY_STEP_MOVES = frozenset({"mark_away", "timeout", "pickpocket_take"})
#: §6.1 the Seer acts from the evening until the exile vote starts.
_SEER = frozenset({"seer_look"})
#: §6.4 the Pickpocket peeks from the evening until the day's first yes/no vote starts.
_SEER_AND_PICKPOCKET = _SEER | {"pickpocket_peek"}


def discussion_limit(state: GameState) -> float | None:
    """§9: the host's limit for each timed discussion step (None: Off)."""
    return state.settings.discussion_limit


def _guard_random_place(turn: "Turn", knight: str) -> None:
    """§9: the Knight guards a random open place."""
    turn.s.today.guard_place = turn.secret.choice(tables.open_places(turn.s.day))


# -- whom each step waits for ----------------------------------------------------------------
def _not_done(state: GameState) -> list[str]:
    """A scene every cat (frogs and exiled too) confirms; Away counts as OK (§9)."""
    return [c.name for c in state.players if c.name not in state.done and not c.away]


def _place_choosers(state: GameState) -> list[str]:
    """Every cat in human form, witches too: a witch taps her plan like anyone taps a place,
    so the step waits for her as for anyone (docs/engine.md, "Decisions beyond RULES.md")."""
    today = state.today
    return [
        c.name
        for c in state.humans()
        if c.name not in today.places
        and c.name not in today.witch_plans
        and not (c.role is Role.KNIGHT and today.guarding)
    ]


def _knight_to_guard(state: GameState) -> list[str]:
    guard_place = state.today.guard_place
    return [c.name for c in state.players if c.role is Role.KNIGHT and guard_place is None]


def _witches(state: GameState) -> list[str]:
    choices = state.today.witch_choices
    return [
        c.name for c in human_witches(state) if not (c.name in choices and choices[c.name].complete)
    ]


def _humans_not_done(state: GameState) -> list[str]:
    return [c.name for c in state.humans() if c.name not in state.done and not c.away]


def _chief(state: GameState) -> list[str]:
    return [state.chief] if state.chief else []


def _humans_without_approval(state: GameState) -> list[str]:
    return [c.name for c in state.humans() if c.name not in state.approvals]


def _ritual_members(state: GameState) -> list[str]:
    return [name for name in state.today.ritual_members if name not in state.played]


def _humans_without_vote(state: GameState) -> list[str]:
    return [c.name for c in state.humans() if c.name not in state.exile_votes]


# -- Away moves and timeouts (§9) ------------------------------------------------------------
# An Away cat's choice is made here and returns None, not sent as a move through its
# handler's checks as Burn the Witch's are: a witch's would be two moves (her place, then
# no spell), and the checks would refuse a choice these have always made in states no game
# reaches but the secrecy tests build (tests/engine/test_refusal_side_channels.py: a guard
# step whose Knight role is scrambled onto a frog or an exiled cat).
def _fill_in(turn: "Turn") -> None:
    """Time ran out: every cat still waited for gets its automatic move (the step ends when
    the last move is in)."""
    for name in turn.waiting_for():
        turn.play_automatic(name)


def _end_witches_turn(turn: "Turn") -> None:
    """§3.3: only the 15 s end the witches' turn: the missing choices are made (§9), then
    the day resolves."""
    _fill_in(turn)
    turn.resolve_day()


def _approve(turn: "Turn", name: str) -> None:
    turn.s.approvals[name] = True


def _play_first_card(turn: "Turn", name: str) -> None:
    hand = turn.s.cat(name).hand
    turn.s.played[name] = hand.pop(0).value if hand else EMPTY_PAW


def _skip_vote(turn: "Turn", name: str) -> None:
    turn.s.exile_votes[name] = None


def _after_place_choice(turn: "Turn") -> None:
    """§6.3: a Knight who chose Guard picks his place now, from the counts."""
    s = turn.s
    knight = next((c for c in s.players if c.role is Role.KNIGHT), None)
    if s.today.guarding and knight is not None and knight.form is Form.HUMAN:
        place_deadline = s.deadline
        turn.enter(Phase.GUARD)
        if place_deadline is not None:
            # One countdown on every phone: a fresh one on the Knight's alone
            # told which phone was his. What is left of the place choice's, or at least
            # GUARD_MIN_SECONDS for everyone.
            turn.set_deadline(max(place_deadline, turn.now + tables.GUARD_MIN_SECONDS))
        s.place_deadline = s.deadline  # what everyone else sees (views)
    else:
        turn.start_witches()


STEPS: dict[Phase, Step] = {
    Phase.ROLE_CHECK: Step(
        _not_done, frozenset({"ready"}), advance=lambda t: t.start_day(), after_spells=False
    ),
    # §3.2 the duck's announcement: nobody moves; only its timer ends it.
    Phase.MORNING: Step(
        nobody,
        timer=lambda state: tables.MORNING_SECONDS,
        on_timeout=lambda t: t.enter(Phase.PLACE_CHOICE),
        public_waiting=False,
        after_spells=False,
    ),
    Phase.PLACE_CHOICE: Step(
        _place_choosers,
        frozenset({"choose_place", "choose_guard"}),
        timer=discussion_limit,
        on_timeout=_fill_in,
        auto_move=lambda t, name: t.auto_place(t.s.cat(name)),
        advance=_after_place_choice,
        public_waiting=False,  # who still chooses would show who is a witch
        after_spells=False,
    ),
    Phase.GUARD: Step(
        _knight_to_guard,
        frozenset({"choose_place", "guard_place"}),
        # No timer of its own: it keeps the place choice's countdown (_after_place_choice).
        on_timeout=_fill_in,
        auto_move=_guard_random_place,
        advance=lambda t: t.start_witches(),
        public_waiting=False,
        after_spells=False,
    ),
    Phase.WITCHES: Step(
        _witches,
        # Every other cat in human form may guess meanwhile (docs/engine.md): nobody waits for it.
        frozenset({"witch_place", "witch_spell", "guess_place", "guess_spell"}),
        timer=lambda state: tables.WITCH_SECONDS,
        # §3.3: the turn always lasts the full 15 s, even when every witch has chosen:
        # a shorter gathering would tell the table what the witches did. No ``advance``.
        on_timeout=_end_witches_turn,
        auto_move=lambda t, name: t.auto_witch(t.s.cat(name)),
        public_waiting=False,
        after_spells=False,
    ),
    Phase.EVENING: Step(
        _not_done,
        frozenset({"ok"}) | _SEER_AND_PICKPOCKET,
        advance=lambda t: t.enter(Phase.DISCUSSION),
    ),
    Phase.DISCUSSION: Step(
        _humans_not_done,
        frozenset({"end_talk"}) | _SEER_AND_PICKPOCKET,
        timer=discussion_limit,
        on_timeout=lambda t: t.start_proposal(),
        advance=lambda t: t.start_proposal(),
    ),
    Phase.PROPOSAL: Step(
        _chief,
        frozenset({"propose"}) | _SEER_AND_PICKPOCKET,
        timer=discussion_limit,
        on_timeout=lambda t: t.auto_propose(),
        auto_move=lambda t, name: t.auto_propose(),
    ),
    Phase.APPROVAL: Step(
        _humans_without_approval,
        frozenset({"approve"}) | _SEER,
        timer=discussion_limit,
        on_timeout=_fill_in,
        auto_move=_approve,
        advance=lambda t: t.count_approval(),
    ),
    Phase.APPROVAL_RESULT: Step(
        _not_done, frozenset({"ok"}) | _SEER, advance=lambda t: t.after_approval_result()
    ),
    Phase.RITUAL: Step(
        _ritual_members,
        frozenset({"play_card"}) | _SEER,
        auto_move=_play_first_card,
        advance=lambda t: t.resolve_ritual(),
    ),
    Phase.RITUAL_RESULT: Step(
        _not_done, frozenset({"ok"}) | _SEER, advance=lambda t: t.enter(Phase.SQUABBLE)
    ),
    # §3.7 "Who was it?!": nobody moves; only its 4 seconds end it.
    Phase.SQUABBLE: Step(
        nobody,
        _SEER,
        timer=lambda state: tables.SQUABBLE_SECONDS,
        on_timeout=lambda t: t.start_vote(),
        public_waiting=False,
    ),
    Phase.VOTE: Step(
        _humans_without_vote,
        frozenset({"vote"}),
        timer=discussion_limit,
        on_timeout=_fill_in,
        auto_move=_skip_vote,
        advance=lambda t: t.count_vote(),
    ),
    Phase.VOTE_RESULT: Step(_not_done, frozenset({"ok"}), advance=lambda t: t.start_day()),
    Phase.GAME_OVER: Step(nobody, public_waiting=False),
}


def waiting_for(state: GameState) -> list[str]:
    """Whom the current step waits for (Away cats that 'count as done' excluded)."""
    return STEPS[state.phase].waits_for(state)


def phases_accepting(*moves: str) -> frozenset[Phase]:
    """The steps in which any of ``moves`` may be sent."""
    return accepting(STEPS, *moves)


#: Steps where every cat (frogs and exiled too) confirms a scene; Away counts as OK (§9).
CONFIRM_PHASES = phases_accepting("ok")
#: §6.1 the Seer acts from the evening until the exile vote starts.
SEER_PHASES = phases_accepting("seer_look")
#: §6.4 the Pickpocket acts from the evening until the day's first yes/no vote starts.
PICKPOCKET_PHASES = phases_accepting("pickpocket_peek")
#: Steps where a cat taps once to say it is done (Ready, OK, End talk): its ``done`` mark.
TAP_PHASES = phases_accepting("ready", "ok", "end_talk")
