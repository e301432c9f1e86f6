"""The phone client's strings: one file per language with the same keys and placeholders,
every key the code uses exists, and game terms follow the rulebook translations."""

import json
import re
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
LANGUAGES = ["en", "zh-Hant", "uk", "th"]


def strings(code: str) -> dict[str, str]:
    return json.loads((FRONTEND / "i18n" / f"{code}.json").read_text())


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_every_language_has_every_key_with_the_same_placeholders(code):
    english, other = strings("en"), strings(code)
    assert sorted(set(english) - set(other)) == [], "missing keys"
    assert sorted(set(other) - set(english)) == [], "keys English does not have"
    for key, text in english.items():
        assert placeholders(other[key]) == placeholders(text), key
        assert other[key].strip(), key


def test_every_key_the_code_uses_exists():
    # the shell (js/*.js) and every game's module (js/games/<game>/*.js)
    code = "\n".join(path.read_text() for path in (FRONTEND / "js").rglob("*.js"))
    used = set(re.findall(r"\bt\(\s*\"([a-z_]+)\"", code))
    assert used, 'the scan found no t("…") calls'
    keys = set(strings("en"))
    prefixes = {key for key in used if key.endswith("_")}  # t("role_" + role): a key family
    assert sorted(used - prefixes - keys) == []
    assert all(any(k.startswith(prefix) for k in keys) for prefix in prefixes), prefixes


def test_the_language_menu_lists_exactly_the_string_files():
    menu = (FRONTEND / "js" / "i18n.js").read_text()
    listed = re.findall(
        r'"?([\w-]+)"?: "[^"]+"', menu.split("LANGUAGES = {", 1)[1].split("}", 1)[0]
    )
    assert sorted(listed) == sorted(LANGUAGES)
    assert sorted(p.stem for p in (FRONTEND / "i18n").glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize(
    ("code", "key", "term"),
    [
        ("zh-Hant", "chief", "村長"), ("zh-Hant", "curse", "詛咒條"), ("zh-Hant", "form_frog", "青蛙"),
        ("zh-Hant", "skip", "棄權"), ("uk", "chief", "староста"), ("uk", "curse", "Шкала прокляття"),
        ("uk", "role_knight", "Охоронець"), ("th", "chief", "ผู้ใหญ่บ้าน"), ("th", "curse", "เกจคำสาป"),
        ("th", "end_talk", "จบการคุย"), ("zh-Hant", "gathering_scene", "採集材料中"),
        ("uk", "gathering_scene", "Збір інгредієнтів"), ("th", "gathering_scene", "กำลังเก็บวัตถุดิบ"),
    ],
)  # fmt: skip
def test_game_terms_follow_the_rulebook_translations(code, key, term):
    assert term.lower() in strings(code)[key].lower()


def _rules(code: str) -> str:
    return (FRONTEND / "rules" / f"{code}.html").read_text()


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_rules_page_in_each_language_with_the_same_sections_and_terms(code):
    english, page = _rules("en"), _rules(code)
    for tag in ("<h1>", "<h2>", '<div class="panel">', "<p>", "<strong>"):
        assert page.count(tag) == english.count(tag), tag
    # Section icons in the same order: the same chapters in every language.
    assert re.findall(r"<h2>(\S+)", page) == re.findall(r"<h2>(\S+)", english)
    terms = {
        "en": ["Chief", "curse gauge", "frog", "Nightshade"],
        "zh-Hant": ["村長", "詛咒條", "青蛙", "顛茄", "騎士團抵達的那一天"],
        "uk": ["Староста", "шкалу прокляття", "жаб", "Беладону"],
        "th": ["ผู้ใหญ่บ้าน", "เกจคำสาป", "กบ", "เบลลาดอนนา", "วันที่กองอัศวินมาถึง"],
    }[code]
    words = " ".join(page.split()).lower()
    for term in terms:
        assert term.lower() in words, term
    # rules.html (its script) fetches one fragment per language (in the game's folder).
    assert (FRONTEND / "js" / "rules.js").read_text().count("/${code}.html") == 1


#: RULES §8: a skip does not compete, so it protects no one (one vote exiles a cat if the
#: others skip). Neither the book nor RULES stops a frog from talking.
SKIP_WARNING = {"en": "Skipping protects no one", "zh-Hant": "棄權保護不了任何人",
                "uk": "Утримання нікого не захищає", "th": "การงดโหวตไม่ได้ปกป้องใคร"}  # fmt: skip
FROGS_TALK_BAN = {"en": "cannot talk", "zh-Hant": "不能說話", "uk": "не говорять", "th": "กบพูด"}


@pytest.mark.parametrize("code", list(SKIP_WARNING))
def test_the_rules_page_warns_that_skipping_protects_no_one_and_lets_frogs_talk(code):
    page = _rules(code)
    assert SKIP_WARNING[code] in page
    assert FROGS_TALK_BAN[code] not in page
