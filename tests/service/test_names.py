"""Player names: normalised, nothing invisible, 1–20 visible
characters, and look-alike names refused as duplicates (functions/room_service/domain/names.py):
look-alikes from Unicode's confusables (ICU's skeletons, name_tables.py), while real names
in the four languages still pass. The table against ICU itself: test_name_tables.py."""

import itertools
import json
import unicodedata
from pathlib import Path

import pytest

from engine.errors import InvalidAction
from functions.room_service.domain.names import (
    NAME_REFUSALS,
    NAME_VISIBLE_MAX,
    NameRefused,
    clean_name,
    name_keys,
    names_clash,
)
from functions.room_service.service.commands import parse_client_message
from local_stack.bot_client import BOT_NAMES
from tests.support.service_harness import Harness


def refusal(raw: str) -> NameRefused:
    with pytest.raises(NameRefused) as caught:
        clean_name(raw)
    assert caught.value.code in NAME_REFUSALS
    return caught.value


# -- what a name becomes --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Mia", "Mia"),
        ("  Mia  ", "Mia"),
        ("Mia \u3000  Lee", "Mia Lee"),  # ideographic and runs of spaces: one space
        ("Mia\u00a0Lee", "Mia Lee"),  # no-break space
        ("Ｍｉａ", "Mia"),  # full-width
        ("𝐌𝐢𝐚", "Mia"),  # mathematical bold
        ("Zoe\u0308", "Zoë"),  # composed
        ("ﬁn", "fin"),  # ligature
    ],
)
def test_a_name_is_nfkc_normalised_stripped_and_its_spaces_collapsed(typed, kept):
    assert clean_name(typed) == kept


@pytest.mark.parametrize(
    "name",
    ["Bo", "小明", "Олена", "Ніна", "สมศักดิ์", "น้ำ", "Zoë", "José", "❤️ Mia", "Mia 🐈", "O'Neil",
     "Ann-Marie", "👍🏽", "a" * NAME_VISIBLE_MAX],
)  # fmt: skip
def test_ordinary_names_in_the_four_languages_and_emoji_are_kept(name):
    assert clean_name(name) == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize(
    ("char", "why"),
    [
        ("\x00", "control"), ("\x07", "control"), ("\t", "control"), ("\n", "control"),
        ("\x7f", "control"), ("\x85", "control"), ("\u2028", "line break"),
        ("\u2029", "line break"),
        ("\u202e", "bidi"), ("\u202a", "bidi"), ("\u2066", "bidi"), ("\u2069", "bidi"),
        ("\u200e", "bidi"), ("\u200f", "bidi"), ("\u061c", "bidi"),
        ("\u200b", "invisible"), ("\u200c", "invisible"), ("\u200d", "invisible"),
        ("\u2060", "invisible"), ("\ufeff", "invisible"), ("\u00ad", "invisible"),
        ("\U000e0041", "invisible"), ("\u180e", "invisible"),
        ("\u3164", "invisible"), ("\u115f", "invisible"), ("\uffa0", "invisible"),
        ("\u2800", "blank"), ("\u034f", "invisible"), ("\ufe00", "invisible"),
        ("\U000e0100", "invisible"),
        ("\ud800", "surrogate"), ("\uf8ff", "private-use"), ("\u0378", "not know"),
    ],
)  # fmt: skip
def test_control_bidi_format_and_invisible_characters_are_refused_by_name(char, why):
    for raw in (f"Mia{char}", f"Mi{char}a", f"{char}Mia", char):
        error = refusal(raw)
        assert error.code == "name_characters"
        shown = unicodedata.normalize("NFKC", char)  # Hangul fillers fold to U+1160
        assert why in error.message and f"U+{ord(shown):04X}" in error.message


def test_bob_with_a_hidden_character_is_refused_with_a_clear_message():
    error = refusal("B\u200bob")
    assert error.message == (
        "Names can't contain invisible formatting characters: this one has U+200B ZERO "
        "WIDTH SPACE. Type the name again without it."
    )


def test_marks_need_a_letter_and_may_not_pile_up():
    assert "without a letter" in refusal("\u0301Mia").message
    assert "without a letter" in refusal("Mia \u0301").message
    assert clean_name("x" + "\u0301\u0302\u0303\u0304") == "x\u0301\u0302\u0303\u0304"
    assert "stacked" in refusal("Z" + "\u0301\u0302\u0303\u0304\u0305\u0306" + "algo").message
    assert "variation selectors" in refusal("\ufe0fMia").message  # an emoji selector alone
    assert "variation selectors" in refusal("❤\ufe0f\ufe0f").message


@pytest.mark.parametrize("raw", ["", " ", "   ", "\u3000", "\u00a0\u2003", "\u1680"])
def test_a_blank_name_is_refused(raw):
    error = refusal(raw)
    assert (error.code, error.message) == (
        "name_blank",
        "A name needs at least one visible character.",
    )


def test_a_name_has_one_to_twenty_visible_characters():
    assert clean_name("a" * 20) == "a" * 20
    assert clean_name("  " + "a" * 20 + "  ") == "a" * 20  # surrounding spaces don't count
    error = refusal("a" * 21)
    assert error.code == "name_too_long" and "at most 20" in error.message and "21" in error.message
    # Combining marks are not characters of their own: a Thai name of 10 letters is 10.
    thai = "ที่" * 10  # 10 letters, 30 code points
    assert clean_name(thai) == thai
    assert refusal("ที่" * 21).code == "name_too_long"
    assert clean_name("小" * 20) == "小" * 20 and refusal("小" * 21).code == "name_too_long"


# -- look-alikes ----------------------------------------------------------------------------
#: These once passed next to a seated "Ann" and "Bob" under the hand-written table:
#: Cherokee Ꭺ, small capital ᴀ, Armenian օ, the Devanagari, Lao and Thai zeros, Myanmar ဝ,
#: small capital ᴏ.
IMITATIONS = [("Ann", "Ꭺnn"), ("Ann", "ᴀnn"), ("Bob", "Bօb"), ("Bob", "B०b"), ("Bob", "B໐b"),
              ("Bob", "B๐b"), ("Bob", "Bဝb"), ("Bob", "Bᴏb")]  # fmt: skip

#: Real names in the four languages of the phone (English, Traditional Chinese, Ukrainian,
#: Thai): each is kept (NFKC) and none clashes with another (tables of 12 or fewer).
REAL_NAMES = {
    "en": ["Ann", "Bob", "José", "Zoë", "Zoe", "Ann-Marie", "O'Brien", "O'Neil", "Mia", "Max",
           "Ian", "Clara"],
    "zh-Hant": ["小明", "陳美玲", "王小華", "林志偉", "張家豪", "李淑芬", "黃怡君", "小朋", "志明",
                "美玲", "Ann", "Bob"],
    "uk": ["Олена", "Андрій", "Оксана", "Ніна", "Тарас", "Ірина", "Юлія", "Богдан", "Ігор",
           "Віра", "Сергій", "Ганна"],
    "th": ["สมชาย", "มะลิ", "สมศักดิ์", "น้ำ", "นำ", "ปราณี", "สุดา", "ธนพล", "วิไล", "กิตติ",
           "อรุณ", "ชัย"],
}  # fmt: skip


@pytest.mark.parametrize(("seated", "new"), IMITATIONS)
def test_the_look_alikes_of_issue_32_clash(seated, new):
    assert names_clash(seated, new) and names_clash(new, seated)


@pytest.mark.parametrize("language", sorted(REAL_NAMES))
def test_real_names_in_the_four_languages_are_kept_and_do_not_clash(language):
    names = REAL_NAMES[language]
    for name in names:
        assert clean_name(name) == unicodedata.normalize("NFKC", name)  # Thai ำ: ํ + า
    for a, b in itertools.combinations(names, 2):
        assert not names_clash(a, b), (a, b)


@pytest.mark.parametrize(
    ("seated", "new"),
    [
        ("Bob", "Bоb"),  # Cyrillic о
        ("Bob", "ВОВ"),  # Cyrillic capitals
        ("Ann", "ANN"), ("Ann", "ann"),  # case
        ("Ian", "lan"),  # capital I, small l
        ("Al", "A1"), ("Al", "AI"),
        ("Bo", "B0"),  # zero
        ("Romy", "Rorny"),  # rn
        ("Mia", "Ｍｉａ"),  # full width
        ("Pepper", "Реррег"),  # all Cyrillic
        ("Nina", "Νina"), ("Kay", "Κaу"),  # Greek capitals, Cyrillic у
        ("Mia", "Mia"),  # the same name
        ("Ann-Marie", "Ann‐Marie"),  # hyphen U+2010
        ("O'Neil", "O’Neil"),  # right single quote
        ("Zoë", "Zoe\u0308"),  # composed and decomposed
        ("Ann", "ᴀɴɴ"), ("Bob", "ʙᴏʙ"),  # small capitals
        ("Ann", "Ꭺnn"), ("Ann", "Аnn"), ("Ann", "Αnn"),  # one letter from another script
        ("Tom", "Tοm"), ("Cam", "Carn"),  # Greek ο; m and rn (ICU maps m to rn)
        ("❤️ Mia", "❤ Mia"),  # emoji or text presentation of the same heart
        ("คำ", "ดำ"),  # ICU's Thai single-script confusable: ด and ต are drawn like ค
    ],
)  # fmt: skip
def test_confusable_names_clash(seated, new):
    assert names_clash(seated, new) and names_clash(new, seated)


@pytest.mark.parametrize(
    ("seated", "new"),
    [("Mia", "Max"), ("Zoë", "Zoe"), ("Ann", "Anna"), ("Ann B", "AnnB"), ("Cat1", "Cat11"),
     ("Clara", "Dara"), ("小明", "小朋"), ("Олена", "Оксана"), ("น้ำ", "นำ")],
)  # fmt: skip
def test_names_that_look_different_do_not_clash(seated, new):
    assert not names_clash(seated, new)


def test_the_names_the_project_seats_never_clash_with_each_other():
    groups = [BOT_NAMES, [f"Cat{i}" for i in range(1, 13)], ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Ed"]]  # fmt: skip
    for names in groups:
        for a, b in itertools.combinations(names, 2):
            assert not names_clash(a, b), (a, b)


def test_name_keys_are_skeletons_as_typed_in_upper_and_in_lower_case():
    assert name_keys("Bоb") == name_keys("Bob") == ("Bob", "BOB", "bob")
    assert name_keys("Ian") == ("lan", "lAN", "ian")  # I is drawn like l as typed


# -- through the protocol and the room service ----------------------------------------------
@pytest.mark.parametrize("action", ["create_room", "join"])
def test_create_and_join_refuse_a_bad_name_with_its_own_error_code(action):
    frame = {"action": action, "name": "Mia\u202e"} | ({"room": "ABCD"} if action == "join" else {})
    with pytest.raises(InvalidAction) as caught:
        parse_client_message(json.dumps(frame))
    assert caught.value.code == "name_characters"


def test_the_room_keeps_the_normalised_name_and_refuses_bad_ones_changing_nothing():
    h = Harness()
    h.send("ann", action="create_room", name="  Ａｎｎ  ", settings={})
    assert h.pusher.last("ann", "joined")["name"] == "Ann"
    h.code = h.pusher.last("ann", "joined")["room"]
    assert [s["name"] for s in h.view("ann")["seats"]] == ["Ann"]
    before = h.room()
    for name, code in [("\u200b", "name_characters"), ("  ", "name_blank"), ("b" * 21, "name_too_long"),
                       ("Bo\x00", "name_characters")]:  # fmt: skip
        h.send("bo", action="join", room=h.code, name=name)
        assert h.error("bo")["code"] == code, name
    assert h.room() == before


def test_an_exact_duplicate_is_still_refused():
    h = Harness()
    h.table(["Ann", "Bo"])
    h.send("late", action="join", room=h.code, name="  Bo ")
    assert "name is taken" in h.error("late")["message"]


@pytest.mark.parametrize("name", ["Bоb", "BOB", "B0b", "Ｂｏｂ", *(new for _, new in IMITATIONS)])
def test_joining_under_a_confusable_of_a_seated_name_is_refused(name):
    h = Harness()
    h.table(["Ann", "Bob"])
    before = h.room()
    h.send("late", action="join", room=h.code, name=name)
    error = h.error("late")
    assert error is not None and error["code"] == "name_taken", error
    assert "name is taken" in error["message"]
    assert h.room() == before


@pytest.mark.parametrize("language", sorted(REAL_NAMES))
def test_a_table_of_real_names_in_each_language_is_seated(language):
    names = REAL_NAMES[language]
    h = Harness()
    h.table(names)
    seated = [seat["name"] for seat in h.view(names[0])["seats"]]
    assert seated == [unicodedata.normalize("NFKC", name) for name in names]


def test_the_phone_shows_every_name_refusal_in_each_language():
    frontend = Path(__file__).resolve().parents[2] / "frontend"
    app = (frontend / "js" / "app.js").read_text()
    assert "t(`error_${code}`, params)" in app  # every refusal is worded as error_<code>
    for language in ("en", "zh-Hant", "uk", "th"):
        strings = json.loads((frontend / "i18n" / f"{language}.json").read_text())
        assert all(strings.get(f"error_{code}", "").strip() for code in NAME_REFUSALS), language
