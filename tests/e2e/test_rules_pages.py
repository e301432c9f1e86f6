"""A rules page for each game in each language (no browser: the
HTML is parsed). rules.html loads the game's own ``js/games/<game>/rules/<lang>.html``
(``?game=``; none or an unknown game: the default game). Each language's Burn the Witch
page has the same sections as the English one, the setup numbers of the game's one table,
and the Burn the Witch terms of ../shared/GLOSSARY.md."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from engine.burn_the_witch import tables
from engine.games import DEFAULT_GAME, GAMES
from tests.support.error_codes import LANGUAGES

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
#: The rules page's script (rules.html loads it: the site's CSP runs no inline script).
RULES_PAGE = (FRONTEND / "js" / "rules.js").read_text()
#: The client's registry of games, which says where a game's rules pages are.
REGISTRY = (FRONTEND / "js" / "games.js").read_text()

#: GLOSSARY.md's Burn the Witch terms (key: en, zh-Hant, uk, th) that a rules page names.
#: Copied here because the glossary lives outside the repository (../shared/).
GLOSSARY = {
    "btw_game": ("Burn the Witch", "燒死女巫", "Спалити відьму", "เผาแม่มด"),
    "btw_house": ("house", "家族", "родина", "ครัวเรือน"),
    "btw_villager": ("villager", "村民", "селянин", "ชาวบ้าน"),
    "btw_identity": ("identity", "身分", "особа", "ตัวตน"),
    "btw_innocent": ("innocent", "無辜者", "невинний", "ผู้บริสุทธิ์"),
    "btw_devout": ("devout", "虔信者", "побожний", "ผู้เคร่งศรัทธา"),
    "btw_witch": ("witch", "女巫", "відьма", "แม่มด"),
    "btw_zealots": ("Zealots", "狂信者", "Фанатики", "ฝ่ายคลั่งศรัทธา"),
    "btw_sympathizers": ("Sympathizers", "同情者", "Прихильники", "ฝ่ายเห็นใจแม่มด"),
    "btw_bewitched": ("bewitched", "被蠱惑", "зачарований", "ต้องมนตร์"),
    "btw_coven": ("coven", "女巫會", "ковен", "กลุ่มแม่มด"),
    "btw_hex": ("hex", "邪咒", "наврочення", "คำสาปแช่ง"),
    "btw_trial_by_fire": ("Trial by Fire", "火之審判", "Випробування вогнем", "การพิพากษาด้วยไฟ"),
    "btw_witching_hour": ("the witching hour", "女巫時刻", "відьомська година", "ยามแม่มด"),
    "btw_accuser": ("accuser", "控訴者", "обвинувач", "ผู้กล่าวหา"),
    "btw_executioner": ("executioner", "行刑者", "кат", "เพชฌฆาต"),
    "btw_accuse": ("Accuse", "指控", "Звинуватити", "กล่าวหา"),
    "btw_vote": ("Vote", "投票", "Голосування", "ลงคะแนน"),
    "btw_execute": ("Execute", "行刑", "Стратити", "ประหาร"),
    "btw_burn": ("Burn", "燒", "Спалити", "เผา"),
    "btw_save": ("Save", "救", "Помилувати", "ไว้ชีวิต"),
    "btw_trait": ("trait", "特徵", "ознака", "ลักษณะ"),
    "btw_wrongly_condemned": ("wrongly condemned", "冤死者", "безневинно засуджені", "ผู้ถูกตัดสินผิด"),
    "trait_hat": ("hat", "帽子", "капелюх", "หมวก"),
    "trait_beard": ("beard", "鬍子", "борода", "เครา"),
    "trait_glasses": ("glasses", "眼鏡", "окуляри", "แว่นตา"),
    "trait_cat": ("cat", "貓", "кіт", "แมว"),
    "trait_broom": ("broom", "掃帚", "мітла", "ไม้กวาด"),
    "trait_candle": ("candle", "蠟燭", "свічка", "เทียน"),
    "trait_red_hair": ("red hair", "紅髮", "руде волосся", "ผมแดง"),
    "trait_apron": ("apron", "圍裙", "фартух", "ผ้ากันเปื้อน"),
    "trait_cane": ("cane", "手杖", "ціпок", "ไม้เท้า"),
    "trait_basket": ("basket", "籃子", "кошик", "ตะกร้า"),
    "trait_scarf": ("scarf", "圍巾", "шарф", "ผ้าพันคอ"),
    "trait_freckles": ("freckles", "雀斑", "веснянки", "กระ"),
    # Catch the Witch's seed terms shared by both games' lobbies
    "host": ("host", "房主", "ведучий", "เจ้าของห้อง"),
    "away": ("Away", "離席", "Не на місці", "ไม่อยู่"),
}


class Page(HTMLParser):
    """What a rules fragment is made of: its headings, panels, table rows and text."""

    def __init__(self, text: str):
        super().__init__()
        self.h1: list[str] = []
        self.h2: list[str] = []
        self.panels = 0
        self.strong = 0
        self.rows: list[list[str]] = []
        self.links: list[str] = []
        #: Where each table's shared rows are (rules.html adds them: ``data-rows``).
        self.shared_rows: list[str] = []
        self.text: list[str] = []
        self._open: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._open.append(tag)
        if tag == "div" and attrs.get("class") == "panel":
            self.panels += 1
        if tag == "table" and "data-rows" in attrs:
            self.shared_rows.append(attrs["data-rows"])
        if tag == "tr":
            self.rows.append([])
        if tag == "strong":
            self.strong += 1
        if tag == "a":
            self.links.append(attrs.get("href", ""))

    def handle_endtag(self, tag):
        if tag in self._open:
            del self._open[len(self._open) - 1 - self._open[::-1].index(tag)]

    def handle_data(self, data):
        self.text.append(data)
        where = self._open[-1] if self._open else None
        if where in ("h1", "h2"):
            getattr(self, where).append(data.strip())
        if where == "td" and self.rows:
            self.rows[-1].append(data.strip())

    @property
    def words(self) -> str:
        return " ".join(" ".join(self.text).split()).casefold()


def rules_folder(game: str) -> Path:
    """The folder of a game's rules pages (js/games.js ``rulesPage``)."""
    found = re.search(r"return `js/games/\$\{game\.key\}/(\w+)/\$\{language\}\.html`", REGISTRY)
    assert found, "js/games.js says where a game's rules pages are"
    return FRONTEND / "js" / "games" / game / found.group(1)


def page(game: str, language: str) -> Page:
    return Page((rules_folder(game) / f"{language}.html").read_text())


def test_rules_html_shows_the_games_own_page_and_falls_back_to_the_default_game():
    assert re.search(rf'export const DEFAULT_GAME = "{DEFAULT_GAME}"', REGISTRY)
    assert 'gameByKey(params.get("game"))' in RULES_PAGE, "none or an unknown one: the default"
    assert "rulesPage(game, code)" in RULES_PAGE
    assert "&game=${game.key}" in RULES_PAGE, "the language links keep the game"
    assert 'querySelectorAll("table[data-rows]")' in RULES_PAGE, "shared rows are added"
    assert "new URL(table.dataset.rows, page)" in RULES_PAGE, "relative to the fragment"
    assert not (FRONTEND / "rules").exists(), "a game's rules live in its own folder"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_game_has_a_rules_page_in_each_language(game, language):
    rules = page(game, language)
    assert len(rules.h1) == 1 and rules.h1[0], "one title (rules.html shows it as the tab's)"
    assert rules.links[0] == "./", "the first link goes back to the game"
    assert rules.h2 and rules.panels > len(rules.h2)


def _icon(heading: str) -> str:
    return heading.split()[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_burn_the_witch_page_has_the_english_pages_sections(language):
    english, rules = page("burn_the_witch", "en"), page("burn_the_witch", language)
    assert [_icon(h) for h in rules.h2] == [_icon(h) for h in english.h2]
    assert len(set(rules.h2)) == len(rules.h2) == len(english.h2) == 8
    assert rules.panels == english.panels
    assert rules.strong == english.strong, "the same terms in bold: sides and steps"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_burn_the_witch_page_shows_the_setup_table_of_the_game(language):
    """RULES-burn-the-witch §2: one row per table size, as engine/burn_the_witch/tables.py."""
    rules = page("burn_the_witch", language)
    assert rules.shared_rows == ["setup.html"], "one copy of the numbers"
    assert [row for row in rules.rows if row] == [], "the page has only its header row"
    shared = Page((rules_folder("burn_the_witch") / rules.shared_rows[0]).read_text())
    rows = [row for row in shared.rows if row]
    expected = []
    for count in range(tables.MIN_PLAYERS, tables.MAX_PLAYERS + 1):
        row = tables.setup_row(count)
        expected.append([str(count), f"{row.innocents} ({row.devout})",
                         str(row.witches), str(row.wrongly_condemned)])  # fmt: skip
    assert rows == expected
    per_house = {count: tables.setup_row(count).per_house for count in tables.SETUP}
    assert per_house == {count: 4 if count == 5 else 3 for count in tables.SETUP}, (
        "the pages say: 4 villagers per house with 5 players, else 3"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_burn_the_witch_page_uses_the_glossarys_terms(language):
    words = page("burn_the_witch", language).words
    column = LANGUAGES.index(language)
    missing = [key for key, terms in GLOSSARY.items() if terms[column].casefold() not in words]
    assert not missing, f"{language}: no glossary term for {missing}"


def test_the_glossary_check_can_fail():
    """A page in another language lacks this one's terms (the check reads each language)."""
    words = page("burn_the_witch", "en").words
    assert GLOSSARY["btw_zealots"][LANGUAGES.index("th")] not in words
