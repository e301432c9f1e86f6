"""Questions about a game's state that the rules, the views and the bots share (§1, §3,
§5): counts, who may be targeted, the Chief's rotation, the end-of-game checks."""

from . import tables
from .domain import Form, Ingredient, Place, Reason, Role, Spell
from .state import Cat, GameState


def knights_day(state: GameState) -> int:
    return tables.KNIGHTS_DAY[len(state.players)]


def seals_to_win(state: GameState) -> int:
    return tables.SEALS_TO_WIN[len(state.players)]


def frog_witnesses(state: GameState) -> int:
    """§5: how many witnesses a Frog may have and still work at this table."""
    return tables.FROG_WITNESSES[len(state.players)]


def seer_first_day(state: GameState) -> int:
    """§6.1: the first day the Seer may look at this table."""
    return tables.SEER_FIRST_DAY[len(state.players)]


def unlocked_spells(state: GameState) -> list[Spell]:
    """§5: Frog from day 2 (day 1 at some counts, tables.FROG_FIRST_DAY); Snatch after
    1 ritual held; Spoil after 2."""
    frog_held_back = state.day < tables.FROG_FIRST_DAY[len(state.players)]
    return [
        spell
        for spell, rituals in tables.SPELL_RITUALS_NEEDED.items()
        if state.rituals_held >= rituals and not (spell is Spell.FROG and frog_held_back)
    ]


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
    if witches_take_over(state):
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
    if witches_take_over(state):
        return Reason.WITCHES_TAKE_OVER
    return None


def witches_take_over(state: GameState) -> bool:
    """§1: non-witch cats in human form ≤ witches in human form, with ≥ 1 witch in human form."""
    witches = sum(1 for c in state.players if c.form is Form.HUMAN and c.role.is_witch)
    others = sum(1 for c in state.players if c.form is Form.HUMAN and not c.role.is_witch)
    return witches > 0 and others <= witches


def witch_score(state: GameState) -> int:
    """§1: the number of frogs when the game ends, witch frogs included."""
    return sum(1 for c in state.players if c.form is Form.FROG)


def ingredient_of_card(card: str) -> Ingredient | None:
    """The ingredient a played or taken card names, None for any other word (§6.4, §7)."""
    try:
        return Ingredient(card)
    except ValueError:
        return None
