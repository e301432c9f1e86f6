"""English left on a phone set to another language: the Latin-letter words a screen shows
(its visible text plus the aria-labels and titles of what is visible), less the words that
are no English (players' names, the room code, ...). For tests/e2e/test_browser_one_human.py."""

from __future__ import annotations

import re

from local_stack.bot_client import BOT_NAMES
from tests.support.strings import strings as phone_strings

#: Everything a person sees or hears on the page: the body's rendered text (innerText skips
#: hidden elements) and the names a screen reader reads for visible elements.
SEEN_TEXT_JS = """() => {
  const visible = (el) => el.offsetParent !== null || getComputedStyle(el).position === "fixed";
  const names = [...document.querySelectorAll("[aria-label], [title]")].filter(visible)
    .flatMap((el) => [el.getAttribute("aria-label"), el.getAttribute("title")]).filter(Boolean);
  return [document.body.innerText, ...names].join("\\n");
}"""

#: Latin-letter words that are no English in any language:
#: - "QR": the zh-Hant and uk strings name the code so (frontend/i18n: share, qr_label,
#:   cannot_join), as people there call it; th says it in Thai script.
#: - "English": the language selector names each language in itself, so that an English
#:   reader can find their way back (frontend/js/i18n.js LANGUAGES).
NOT_ENGLISH = frozenset({"QR", "English"})

#: A web address is typed or scanned, not read (the lobby's join link).
_ADDRESS = re.compile(r"https?://\S+")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def strings(language: str) -> dict[str, str]:
    return phone_strings(language)


def english_words(text: str, names: set[str]) -> list[str]:
    """The Latin-letter words of `text` other than `names` and NOT_ENGLISH (each once).
    A name spelled out letter by letter (the room code's label, for screen readers) is one too."""
    text = _ADDRESS.sub(" ", text)
    for name in names:
        text = text.replace(" ".join(name), " ")
    allowed = NOT_ENGLISH | {word for name in names for word in _LATIN_WORD.findall(name)}
    found = [w for w in _LATIN_WORD.findall(text) if w not in allowed]
    return list(dict.fromkeys(found))


def table_names(human: str, room_code: str) -> set[str]:
    """The names a one-human table can show: the human's, the local stack's bots', the room
    code as shown (in groups) and as the room knows it (its screen-reader label spells that)."""
    return {human, room_code, re.sub(r"[^A-Za-z0-9]", "", room_code), *BOT_NAMES}
