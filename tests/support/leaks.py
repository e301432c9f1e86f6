"""Leak audit by non-interference: a view must not change when secrets change.

``scramble(state, viewer, rng)`` returns a copy of the state where everything the
viewer may not know is shuffled or rewritten: the roles of cats whose role the
viewer does not know, other cats' hands, notes, Seer results and Pickpocket
peeks (at the end, which tells every look and peek, only the hands the peeks saw), the
places of others (today's, and every past day's, so what a cat gathered shows for that
cat alone), other witches' past choices, unrevealed yes/no and exile votes, cards played
in the ritual, the RNG and the pinned draws. If ``view(state, viewer)`` differs from
``view(scramble(...), viewer)``, the view depends on a secret: a leak.

``assert_no_leak_in(game, ...)`` runs the audit of the room's game: Catch the Witch's here,
Burn the Witch's in tests/engine/burn_the_witch/leaks.py (it scrambles the identities under
each house's villagers, other players' dealt hands and so factions, who was bewitched,
ballots, points before the reveal, and the RNG).
"""

import random

from engine.catch_the_witch import GameState, Phase, tables, view
from engine.catch_the_witch.domain import Form, Ingredient, Role, Spell
from engine.catch_the_witch.state import Day, Note, Peek, SeerResult
from engine.rng import KEY_BYTES, RngState
from tests.engine.burn_the_witch import leaks as burn_the_witch_leaks


def known_roles(state: GameState, viewer: str | None) -> set[str]:
    """Whose role ``viewer`` may know (``None``: the public table screen)."""
    if state.phase is Phase.GAME_OVER:  # §1: the result screen reveals every role
        return set(state.names())
    me = state.cat(viewer) if viewer is not None else None
    known = {viewer} if viewer is not None else set()
    if me is not None and me.role in (Role.WITCH, Role.CROW):
        known |= {c.name for c in state.players if c.role is Role.WITCH}
    if state.settings.reveal_role_on_exile:
        known |= {c.name for c in state.players if c.form is Form.EXILED}
    return known


def scramble(state: GameState, viewer: str | None, rng: random.Random) -> GameState:
    s = state.clone()
    s.days = [Day.model_validate(day.model_dump()) for day in s.days]  # clone shares past days
    me = s.cat(viewer) if viewer is not None else None
    others = [c for c in s.players if c.name != viewer]
    unknown = [c for c in others if c.name not in known_roles(s, viewer)]
    roles = [c.role for c in unknown]
    if me is not None and me.role in (
        Role.WITCH,
        Role.CROW,
    ):  # they know who the witches are, not the rest
        roles = [r for r in roles if r is not Role.WITCH]
        unknown = [c for c in unknown if c.role is not Role.WITCH]
    rng.shuffle(roles)
    for cat, role in zip(unknown, roles, strict=True):
        cat.role = role
    today = s.days[-1] if s.days else None
    peeked = today.pickpocket_target if (today and me and me.role is Role.PICKPOCKET) else None
    # §1: the result tells the Seer's looks and the Pickpocket's peeks and thefts,
    # never the hand a peek saw.
    over = s.phase is Phase.GAME_OVER
    for cat in others:
        if cat.name != peeked:
            cat.hand = [rng.choice(list(Ingredient)) for _ in range(rng.randrange(0, 4))]
        cat.notes = [Note(day=1, kind="spell", spell=Spell.FROG, worked=rng.random() < 0.5)]
        if over:
            for peek in cat.peeks:
                peek.hand = [rng.choice(list(Ingredient)) for _ in range(rng.randrange(0, 3))]
            continue
        seen = viewer or cat.name  # the table screen has no seat of its own
        cat.seer_results = [SeerResult(day=1, target=seen, witch=rng.random() < 0.5)]
        hand = [rng.choice(list(Ingredient)) for _ in range(rng.randrange(0, 3))]
        cat.peeks = [Peek(day=1, target=seen, hand=hand, took=hand[0] if hand else None)]
    s.rng = RngState(key=rng.randbytes(KEY_BYTES).hex(), public=rng.randrange(99),
                     secret=rng.randrange(99))  # fmt: skip
    s.scripted_required = [[rng.choice(list(Ingredient))]]
    if today is None or s.phase is Phase.GAME_OVER:
        return s
    for day in s.days[:-1]:
        _shuffle_places(day.places, viewer, rng)
        for name, choice in day.witch_choices.items():
            if name != viewer:
                choice.place = rng.choice(tables.open_places(day.number))
    may_see_places = me is not None and me.role.is_witch and s.phase is Phase.WITCHES
    if not may_see_places:
        _shuffle_places(today.places, viewer, rng)
    if s.phase is Phase.APPROVAL:
        for name in s.approvals:
            if name != viewer:
                s.approvals[name] = rng.random() < 0.5
    if s.phase is Phase.VOTE:
        for name in s.exile_votes:
            if name != viewer:
                s.exile_votes[name] = rng.choice([None, *s.human_names()])
    if s.phase is Phase.RITUAL:
        for name in s.played:
            if name != viewer:
                s.played[name] = rng.choice(["nightshade", "empty", "fish", "rotten"])
    return s


def _shuffle_places(places: dict, viewer: str | None, rng: random.Random) -> None:
    names = [n for n in places if n != viewer]
    shuffled = [places[n] for n in names]
    rng.shuffle(shuffled)
    places.update(zip(names, shuffled, strict=True))


def assert_no_leak(state: GameState, viewer: str | None, rng: random.Random) -> None:
    seen = view(state, viewer)
    scrambled = view(scramble(state, viewer, rng), viewer)
    assert seen == scrambled, _first_difference(seen, scrambled, viewer)


def assert_no_leak_in(game: str, state, viewer: str | None, rng: random.Random) -> None:
    """The non-interference audit of ``game``'s (a registry key) view of ``state``."""
    AUDITS[game](state, viewer, rng)


AUDITS = {"catch_the_witch": assert_no_leak,
          "burn_the_witch": burn_the_witch_leaks.assert_no_leak}  # fmt: skip


def _first_difference(a, b, viewer: str | None, path: str = "view") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), viewer, f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, viewer, f"{path}[{i}]")
    return f"{viewer}'s view depends on a secret at {path}: {a!r} vs {b!r}"
