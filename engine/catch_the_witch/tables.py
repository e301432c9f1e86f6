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
#: As RULES.md §2.1 but at 5 cats, where a Crow takes the Knight's seat (docs/balance.md:
#: one witch alone against four lost about 90 % of games whatever rule lever was
#: pulled; with a Crow and the Seer looking from day 3, SEER_FIRST_DAY, about half;
#: the Knight then joins from 6 cats on; the other balance levers are rules:
#: FROG_WITNESSES, FROG_FIRST_DAY at 4 cats, SEER_FIRST_DAY at 5, 8 and 11, RITUAL_SIZES
#: at 7, KNIGHTS_DAY at 11; docs/balance.md).
ROLE_COUNTS: dict[int, tuple[int, int, int, int, int, int, int, int]] = {
    4: (1, 0, 0, 0, 1, 0, 1, 1),
    5: (1, 1, 0, 1, 1, 0, 0, 1),
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
#: As RULES.md §2.2 but (docs/balance.md): at 7 cats day 2's ritual takes two
#: cards, not three (the village won 40 %, 54 % with two); at 11 cats the Knights come
#: on day 6, not 7 (the village won 61 %; 55 % with the Seer looking from day 2 too,
#: SEER_FIRST_DAY). At 5 cats rituals of 3 now equal the clean cats (Seer, Herbalist,
#: Villager) rather than stay below them: rituals of 2 gave the village 64 %.
SEALS_TO_WIN: dict[int, int] = {4: 3, 5: 3, 6: 3, 7: 3, 8: 3, 9: 4, 10: 4, 11: 4, 12: 4}
KNIGHTS_DAY: dict[int, int] = {4: 5, 5: 5, 6: 6, 7: 6, 8: 6, 9: 7, 10: 7, 11: 6, 12: 7}
RITUAL_SIZES: dict[int, tuple[int, ...]] = {
    4: (2, 2, 2, 2, 2),
    5: (2, 2, 3, 3, 3),
    6: (2, 3, 3, 3, 3, 3),
    7: (2, 2, 3, 3, 3, 3),
    8: (3, 3, 3, 4, 4, 4),
    9: (3, 3, 4, 4, 4, 4, 4),
    10: (3, 3, 4, 4, 4, 5, 5),
    11: (3, 4, 4, 4, 5, 5),
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
#: stop it (RULES.md: none). A rule lever of the balance: against bots that deduce, the
#: witches won too rarely at most counts, where the cats crowd the three to five places
#: and a lone cat, the only one a Frog could reach, is rare; measured per count over 200
#: games each way (docs/balance.md). The view says it (``frog_witnesses``), and so does
#: the witch's hint. At 8 cats the book's none, with the Seer from day 3 (SEER_FIRST_DAY).
FROG_WITNESSES: dict[int, int] = {4: 1, 5: 1, 6: 0, 7: 1, 8: 0, 9: 1, 10: 0, 11: 0, 12: 1}

#: §6.1 the first day the Seer may look (RULES.md: day 1). A rule lever of the balance: at
#: 5 cats, a witch and her Crow against a Seer who looks from the first evening lost
#: 70 % of games (each look finds a saboteur or clears a cat in a table of four); with
#: the Seer looking from day 3 the village wins about half. At 11 cats from day 2, with
#: the Knights' day 6 (the village won 61 %, 58 % with the Knights' day alone; the
#: Knights' day 5 alone, 52 %, would have cut the game by two days). At 8 cats from day 3,
#: with the book's Frog (FROG_WITNESSES 0): more than a third of exiles were a lone vote,
#: most of them the Seer's on her day-1 find; now about a sixth, and the village wins
#: about half (its wins 42 % before; the book's Frog alone, 64 %). The view says it
#: (``seer_first_day``), and so do the Seer's role card and the rules pages.
SEER_FIRST_DAY: dict[int, int] = {4: 1, 5: 3, 6: 1, 7: 1, 8: 3, 9: 1, 10: 1, 11: 2, 12: 1}

#: §5 the first day a Frog may be cast (RULES.md: day 2, "so the witches cannot win
#: before anyone has talked"). A rule lever of the balance: at 4 cats a day-1 Frog cannot
#: win (two cats stay in human form against the witch), and the lone witch, with every
#: failed ritual of two naming her to her partner, lost 63 % of games; with a Frog from
#: day 1, 48 % (docs/balance.md). The view's ``unlocked_spells`` says it.
FROG_FIRST_DAY: dict[int, int] = {4: 1, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2}

#: §5 spell unlocking: rituals held needed (and the Frog's first day, FROG_FIRST_DAY).
SPELL_RITUALS_NEEDED: dict[Spell, int] = {Spell.FROG: 0, Spell.SNATCH: 1, Spell.SPOIL: 2}

#: §9 / §3 timing, in seconds.
WITCH_SECONDS = 15
#: §3.2 [design] the morning: the duck's announcement shows this long, for everyone.
MORNING_SECONDS = 8
SQUABBLE_SECONDS = 4
#: §6.3 [design, docs/engine.md] the Knight's guard ends with the place choice's countdown,
#: which every phone shows; when less than this is left of it, both are given this long.
GUARD_MIN_SECONDS = 15
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
