"""Every [design] number of RULES.md in one table, so balance work tunes one file.

Changing a number here changes the game: say so in the issue note and in
docs/balance.md (the simulator, ``python -m engine.simulate``, measures it).
"""

from .domain import Ingredient, Place, Role, Spell

MIN_PLAYERS = 4
MAX_PLAYERS = 12

_W, _C, _J, _S, _H, _K, _P, _V = (
    Role.WITCH, Role.CROW, Role.JESTER, Role.SEER,
    Role.HERBALIST, Role.KNIGHT, Role.PICKPOCKET, Role.VILLAGER,
)  # fmt: skip

#: §2.1 roles by player count: (witch, crow, jester, seer, herbalist, knight, pickpocket, villager)
#: As RULES.md §2.1 (issue 17: the bots that deduce need no role moved; the balance
#: levers are rules, FROG_WITNESSES below; docs/balance.md).
ROLE_COUNTS: dict[int, tuple[int, int, int, int, int, int, int, int]] = {
    4: (1, 0, 0, 0, 1, 0, 1, 1),
    5: (1, 0, 0, 1, 1, 1, 0, 1),
    6: (2, 0, 0, 1, 1, 1, 0, 1),
    7: (2, 1, 0, 1, 1, 1, 0, 1),
    8: (2, 1, 1, 1, 1, 1, 0, 1),
    9: (2, 1, 1, 1, 1, 1, 1, 1),
    10: (3, 1, 1, 1, 1, 1, 1, 1),
    11: (3, 1, 1, 1, 1, 1, 1, 2),
    12: (3, 1, 1, 1, 1, 1, 1, 3),
}
ROLE_ORDER = (_W, _C, _J, _S, _H, _K, _P, _V)

#: §2.1 roles a custom set may hold at most once.
UNIQUE_ROLES = frozenset({_S, _H, _K, _P, _C, _J})

#: §2.2 seals to win, the Knights' day (last day), ingredients needed per day (last repeats).
SEALS_TO_WIN: dict[int, int] = {4: 3, 5: 3, 6: 3, 7: 3, 8: 3, 9: 4, 10: 4, 11: 4, 12: 4}
KNIGHTS_DAY: dict[int, int] = {4: 5, 5: 5, 6: 6, 7: 6, 8: 6, 9: 7, 10: 7, 11: 7, 12: 7}
RITUAL_SIZES: dict[int, tuple[int, ...]] = {
    4: (2, 2, 2, 2, 2),
    5: (2, 2, 3, 3, 3),
    6: (2, 3, 3, 3, 3, 3),
    7: (2, 3, 3, 3, 3, 3),
    8: (3, 3, 3, 4, 4, 4),
    9: (3, 3, 4, 4, 4, 4, 4),
    10: (3, 3, 4, 4, 4, 5, 5),
    11: (3, 4, 4, 4, 5, 5, 5),
    12: (3, 4, 4, 5, 5, 5, 6),
}

#: §2.2 the curse gauge: the N-th rejection of a day fills it.
CURSE_CAPACITY = 3

#: §4 places: ingredient and first open day, in display order.
PLACES: dict[Place, tuple[Ingredient, int]] = {
    Place.FOREST: (Ingredient.MUSHROOM, 1),
    Place.MEADOW: (Ingredient.MOONFLOWER, 1),
    Place.RIVER: (Ingredient.FISH, 1),
    Place.CAVE: (Ingredient.CRYSTAL, 3),
    Place.TOWER: (Ingredient.CANDLE, 5),
}

#: §5 how many non-witch cats besides the target may gather where a Frog is cast and not
#: stop it (RULES.md: none). A rule lever of issue 17: against bots that deduce, the
#: witches won too rarely at most counts, where the cats crowd the three to five places
#: and a lone cat, the only one a Frog could reach, is rare; measured per count over 200
#: games each way (docs/balance.md). The view says it (``frog_witnesses``), and so does
#: the witch's hint.
FROG_WITNESSES: dict[int, int] = {4: 1, 5: 1, 6: 0, 7: 1, 8: 1, 9: 1, 10: 0, 11: 0, 12: 1}

#: §5 spell unlocking: (first day it may be cast, rituals held needed).
SPELL_UNLOCK: dict[Spell, tuple[int, int]] = {
    Spell.FROG: (2, 0),
    Spell.SNATCH: (1, 1),
    Spell.SPOIL: (1, 2),
}

#: §9 / §3 timing, in seconds.
WITCH_SECONDS = 15
#: §3.2 [design] the morning: the duck's announcement shows this long, for everyone.
MORNING_SECONDS = 8
SQUABBLE_SECONDS = 4
DISCUSSION_LIMIT_DEFAULT = 120
DISCUSSION_LIMIT_MIN = 30
DISCUSSION_LIMIT_MAX = 300


def ritual_size(player_count: int, day: int) -> int:
    sizes = RITUAL_SIZES[player_count]
    return sizes[min(day, len(sizes)) - 1]


def default_roles(player_count: int) -> list[Role]:
    roles: list[Role] = []
    for role, count in zip(ROLE_ORDER, ROLE_COUNTS[player_count], strict=True):
        roles.extend([role] * count)
    return roles


def open_places(day: int) -> list[Place]:
    return [place for place, (_, first_day) in PLACES.items() if day >= first_day]


def ingredient_of(place: Place) -> Ingredient:
    return PLACES[place][0]


def place_of(ingredient: Ingredient) -> Place | None:
    for place, (ing, _) in PLACES.items():
        if ing is ingredient:
            return place
    return None
