"""The look-alike tables names.py ships (name_tables.py) against ICU itself.

ICU comes from PyICU, a dev dependency (the Lambda package does not have it): the file in
the repository must be what make_name_tables.py writes from the installed ICU, and names.py's
skeleton must be ICU's SpoofChecker.getSkeleton for every character a name can hold and for
strings of them, so the table can neither rot nor be misread.
"""

import itertools
import random
import unicodedata

import icu
import pytest

from functions.room_service.domain import make_name_tables, name_tables, names
from functions.room_service.domain.names import names_clash
from local_stack.bot_client import BOT_NAMES
from tests.service.test_names import IMITATIONS, REAL_NAMES

CHECKER = icu.SpoofChecker()
#: The only default-ignorable characters a name keeps; names.py drops them (module doc).
PRESENTATION = {0xFE0E: None, 0xFE0F: None}


def icu_skeleton(text: str) -> str:
    """ICU's skeleton of the NFKC text, as names.py compares it (without U+FE0E/U+FE0F)."""
    return CHECKER.getSkeleton(0, unicodedata.normalize("NFKC", text)).translate(PRESENTATION)


def icu_confusable(first: str, second: str) -> bool:
    """ICU's skeletons agree as typed, in upper case or in lower case (names.py's keys,
    without its small capitals)."""
    return any(
        icu_skeleton(case(first)) == icu_skeleton(case(second))
        for case in (str, str.upper, str.casefold)
    )


def scripts(text: str) -> set[str]:
    """ICU's scripts of the text's letters and digits (Common and Inherited left out)."""
    found = {icu.Script.getScript(ord(char)).getName() for char in text}
    return found - {"Common", "Inherited"}


def test_the_shipped_tables_are_what_the_installed_icu_generates():
    shipped = make_name_tables.OUTPUT.read_text()
    assert shipped == make_name_tables.render(), (
        f"name_tables.py is from ICU {name_tables.ICU_VERSION}, the installed ICU is "
        f"{icu.ICU_VERSION}: run make name-tables and commit the new table"
    )


def test_the_skeleton_of_every_character_a_name_can_hold_is_icus():
    wrong = []
    for cp in range(0x110000):
        if unicodedata.category(chr(cp)) in ("Cn", "Co", "Cs"):
            continue  # clean_name refuses these
        text = unicodedata.normalize("NFKC", chr(cp))
        if names._skeleton(text) != icu_skeleton(text):
            wrong.append(f"U+{cp:04X}")
    assert not wrong, wrong[:20]


def test_the_skeleton_of_strings_of_look_alikes_and_marks_is_icus():
    """Skeletons are taken of whole names: mapped characters next to marks that NFD reorders,
    ranges and multi-character targets, in 4,000 seeded random strings."""
    table = names._table(name_tables.SKELETONS)
    pool = sorted({*map(chr, table), *"".join(table.values()), *"AaBbOoIl01rnm '-",
                   *map(chr, range(0x300, 0x370)), *"ัิ่้๊์ำ", "\ufe0f"})  # fmt: skip
    rng = random.Random(32)
    wrong = []
    for _ in range(4000):
        text = "".join(rng.choices(pool, k=rng.randint(1, 8)))
        if names._skeleton(unicodedata.normalize("NFKC", text)) != icu_skeleton(text):
            wrong.append(text)
    assert not wrong, [ascii(text) for text in wrong[:10]]


def test_names_clash_exactly_where_icus_skeletons_agree_but_for_small_capitals():
    """No name is refused beyond what ICU's skeleton says (in one of the three cases): the
    real names of the four languages, the table's names and test_names.py's look-alikes."""
    everyone = {*itertools.chain(*REAL_NAMES.values()), *itertools.chain(*IMITATIONS)}
    everyone |= {*BOT_NAMES, "Tom", "Tοm", "Cam", "Carn", "ВОВ", "Ian", "lan"}
    small_capitals = names._table(name_tables.SMALL_CAPITALS)
    for first, second in itertools.combinations(sorted(everyone), 2):
        ours, icus = names_clash(first, second), icu_confusable(first, second)
        if any(ord(c) in small_capitals for c in first + second):
            assert ours >= icus, (first, second)
        else:
            assert ours == icus, (first, second)


@pytest.mark.parametrize(("seated", "new"), IMITATIONS)
def test_issue_32_look_alikes_are_icu_confusables_or_small_capitals(seated, new):
    assert names_clash(seated, new)
    if scripts(new) == {"Latin"}:  # ᴀnn, Bᴏb: one script, a small capital in it
        assert any(ord(c) in names._SMALL_CAPITALS for c in new)
    else:  # Cherokee, Armenian, Devanagari, Lao, Thai, Myanmar borrowed into a Latin name
        assert len(scripts(new)) == 2 and icu_skeleton(new) == icu_skeleton(seated)
