"""The villager deck [design] (RULES-burn-the-witch.md §2): 30 named villagers, 3 of the 12
traits each, copied from ../shared/burn-the-witch-villagers.json. Python data, not a file read at
run time, so a packaged Lambda needs nothing besides the code. tests/engine/burn_the_witch/
test_s2_setup.py checks the properties the rules state for it."""

TRAITS: tuple[str, ...] = (
    "hat",
    "beard",
    "glasses",
    "cat",
    "broom",
    "candle",
    "red_hair",
    "apron",
    "cane",
    "basket",
    "scarf",
    "freckles",
)

#: (name, traits) of each villager card; names are unique and identify a villager in moves.
VILLAGERS: tuple[tuple[str, tuple[str, str, str]], ...] = (
    ("Agnes", ("hat", "candle", "cane")),
    ("Bram", ("broom", "basket", "freckles")),
    ("Clara", ("beard", "scarf", "freckles")),
    ("Dirk", ("hat", "cat", "scarf")),
    ("Edda", ("beard", "broom", "cane")),
    ("Fenn", ("beard", "broom", "red_hair")),
    ("Greta", ("red_hair", "basket", "scarf")),
    ("Hugo", ("broom", "candle", "red_hair")),
    ("Ilse", ("beard", "cane", "freckles")),
    ("Jory", ("glasses", "red_hair", "freckles")),
    ("Katrin", ("red_hair", "apron", "cane")),
    ("Lars", ("hat", "apron", "basket")),
    ("Mara", ("glasses", "broom", "candle")),
    ("Nils", ("glasses", "cane", "freckles")),
    ("Oda", ("cat", "candle", "basket")),
    ("Piet", ("hat", "broom", "freckles")),
    ("Quinn", ("hat", "red_hair", "scarf")),
    ("Rosa", ("hat", "cat", "broom")),
    ("Sven", ("beard", "glasses", "basket")),
    ("Tilde", ("glasses", "cat", "cane")),
    ("Ulf", ("hat", "beard", "apron")),
    ("Vera", ("glasses", "candle", "apron")),
    ("Wim", ("cat", "candle", "cane")),
    ("Xenia", ("candle", "apron", "freckles")),
    ("Yara", ("cat", "red_hair", "freckles")),
    ("Zeno", ("broom", "cane", "basket")),
    ("Anouk", ("beard", "apron", "basket")),
    ("Bodo", ("cat", "apron", "scarf")),
    ("Cato", ("beard", "glasses", "scarf")),
    ("Dora", ("glasses", "basket", "scarf")),
)

TRAITS_OF: dict[str, tuple[str, str, str]] = dict(VILLAGERS)
