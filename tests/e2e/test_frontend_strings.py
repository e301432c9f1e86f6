"""The phone client's strings: the shell's and each game's own (frontend/js/i18n.js reads
them as one table), one file per language with the same keys and placeholders, no key in
two places, each where the code that uses it is, every key the code uses there, and game
terms following the rulebook translations."""

import json
import re
from pathlib import Path

import pytest

from tests.support.strings import FRONTEND, LANGUAGES, strings

GAMES = FRONTEND / "js" / "games"
#: The folders of strings: the shell's, then each game's.
FOLDERS = [FRONTEND / "i18n", *sorted(path.parent for path in GAMES.glob("*/i18n/en.json"))]
#: ``t("key")``; ``t("role_" + role)`` and ``t(`role_${role}`)``: the family ``role_``.
USES = re.compile(r"""\bt\(\s*["'`]([a-z_]+)(?:["']\s*\+|\$\{)?""")


def folder_strings(folder: Path, code: str) -> dict[str, str]:
    return json.loads((folder / f"{code}.json").read_text(encoding="utf-8"))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def keys_used(paths) -> set[str]:
    """The keys (and families, ending in "_") the modules at ``paths`` word with ``t``."""
    return {key for path in paths for key in USES.findall(path.read_text(encoding="utf-8"))}


def shell_modules() -> list[Path]:
    return sorted((FRONTEND / "js").glob("*.js"))


def covered(used: set[str], keys: set[str]) -> list[str]:
    """The keys and families of ``used`` that ``keys`` lacks."""
    return sorted(
        key
        for key in used
        if not (any(k.startswith(key) for k in keys) if key.endswith("_") else key in keys)
    )


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: folder.parent.name)
@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_every_language_has_every_key_with_the_same_placeholders(folder, code):
    english, other = folder_strings(folder, "en"), folder_strings(folder, code)
    assert sorted(set(english) - set(other)) == [], "missing keys"
    assert sorted(set(other) - set(english)) == [], "keys English does not have"
    for key, text in english.items():
        assert placeholders(other[key]) == placeholders(text), key
        assert other[key].strip(), key


def test_no_key_is_in_two_files_of_strings():
    """Merged into one table, a key of two files would be one of them, by load order."""
    seen: dict[str, Path] = {}
    twice = []
    for folder in FOLDERS:
        for key in folder_strings(folder, "en"):
            if key in seen:
                twice.append((key, seen[key].relative_to(FRONTEND), folder.relative_to(FRONTEND)))
            seen[key] = folder
    assert twice == []


def test_every_key_the_code_uses_exists():
    # the shell (js/*.js) and every game's module (js/games/<game>/*.js)
    used = keys_used((FRONTEND / "js").rglob("*.js"))
    assert used, 'the scan found no t("…") calls'
    assert covered(used, set(strings("en"))) == []


def test_the_shell_words_its_screens_with_its_own_strings():
    """A game's strings are its own: a shell module wording one would break with it gone."""
    assert covered(keys_used(shell_modules()), set(folder_strings(FRONTEND / "i18n", "en"))) == []


def test_a_string_one_game_alone_uses_is_in_its_folder():
    """The shell's file holds what the shell words and what two games share: a key that
    only one game's modules name (quoted, or as a family: ``t("role_" + role)``) goes in
    that game's folder. Any quoted mention elsewhere counts as a use (so the check errs
    on the side of the shell)."""
    modules = {path: path.read_text(encoding="utf-8") for path in (FRONTEND / "js").rglob("*.js")}

    def users(key: str) -> set[str]:
        quoted = re.compile(rf"""["'`]{re.escape(key)}["'`]""")
        return {
            path.parent.name if path.parent.parent == GAMES else "the shell"
            for path, text in modules.items()
            if quoted.search(text)
            or any(key.startswith(f) for f in USES.findall(text) if f.endswith("_"))
            or key.startswith("error_")  # the shell words every refusal: `error_${code}`
        }

    one_game = {key: found for key in folder_strings(FRONTEND / "i18n", "en")
                if len(found := users(key)) == 1 and "the shell" not in found}  # fmt: skip
    assert one_game == {}


def test_the_language_menu_lists_exactly_the_string_files():
    menu = (FRONTEND / "js" / "i18n.js").read_text()
    listed = re.findall(
        r'"?([\w-]+)"?: "[^"]+"', menu.split("LANGUAGES = {", 1)[1].split("}", 1)[0]
    )
    assert sorted(listed) == sorted(LANGUAGES)
    for folder in FOLDERS:
        assert sorted(p.stem for p in folder.glob("*.json")) == sorted(LANGUAGES), folder


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
    return (GAMES / "catch_the_witch" / "rules" / f"{code}.html").read_text()


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
    assert (FRONTEND / "js" / "games.js").read_text().count("/rules/${language}.html") == 1


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
