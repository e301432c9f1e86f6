"""Player names: what a name may be, and when two names are too alike to share a room.

``clean_name`` turns what a phone typed into the name the room keeps: NFKC-normalised,
surrounding whitespace stripped, inner whitespace runs collapsed to one space, 1–20
visible characters. It refuses, with a message saying which character and why, anything
a table of phones can't see or that changes how the text around it is drawn: control
characters, line breaks, bidi controls, other format (Cf) characters (so also the
zero-width joiner of combined emoji), default-ignorable fillers and blank-looking letters,
private-use and unassigned code points, unpaired surrogates, combining marks with no letter
under them and stacks of more than four marks. Variation selector 15/16 (U+FE0E/U+FE0F,
which phones add to emoji such as ❤️) is kept right after a visible character.

``names_clash`` says whether a new name looks like a seated one (issue 18): the UTS #39
idea of a *skeleton* (map each character to the one it is mistaken for, then compare), with
a hand-written table instead of Unicode's confusables.txt. The PyPI candidates were not a
fit: confusable-homoglyphs (last release 2024-01) ships no skeleton function and parses a
900 KB JSON file at import (every Lambda cold start); confusables 1.2.0 has had no release
since 2021. The table covers what phones at a party can type: Cyrillic and Greek letters
that look like Latin ones (both cases), the Latin/digit look-alikes I l 1 | and O 0,
Cyrillic З/б for 3/6, dash and apostrophe variants, the two obsolete Thai letters ฃ ฅ,
and katakana that look like CJK ideographs. NFKC already folds full-width, mathematical
and other compatibility forms.

Case: names are compared case-insensitively. On a shared screen "ann", "Ann" and "ANN" are
the same cat to the people voting, and a case-only twin is the easiest impersonation; the
cost is only that a second Ann picks another name. So two names clash when their skeletons
agree as typed, or both in upper case, or both in lower case. Three keys, not one: a
character can look like one Latin letter in one case and another in the other (Greek ν
looks like v, its capital Ν like N), and "Ian"/"lan" only look alike as typed.
"""

import unicodedata

from engine.errors import IllegalAction, InvalidAction
from engine.game import NAME_MAX

#: Visible characters (not counting combining marks) a name may have.
NAME_VISIBLE_MAX = 20
#: Combining marks allowed on one letter (Thai stacks two; zalgo text stacks dozens).
MARKS_MAX = 4
#: Error codes the phone shows in the player's language (frontend/i18n/*.json).
NAME_REFUSALS = ("name_blank", "name_too_long", "name_characters", "name_taken")

_BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
#: Default-ignorable or blank-looking characters that are not Cf, Cc or Zs.
_INVISIBLE = {
    0x034F,  # combining grapheme joiner
    0x115F, 0x1160, 0x3164, 0xFFA0,  # Hangul fillers
    0x17B4, 0x17B5,  # Khmer inherent vowels
    *range(0x180B, 0x1810),  # Mongolian free variation selectors
    0x2800,  # braille pattern blank
    *range(0x1D173, 0x1D17B),  # musical symbol beams/ties (format-like)
}  # fmt: skip
_VARIATION = {*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}
_EMOJI_PRESENTATION = {0xFE0E, 0xFE0F}


class NameRefused(InvalidAction):
    """A name the room won't take; ``code`` is one of NAME_REFUSALS."""

    def __init__(self, code: str, message: str, params: dict[str, int] | None = None):
        super().__init__(message, code=code, params=params)


class NameTaken(IllegalAction):
    """The name, or one too alike to tell apart, is already seated in this room."""

    code = "name_taken"

    def __init__(self) -> None:
        super().__init__(
            "That name is taken in this room, or looks too much like one that is "
            "(names differing only in case or in look-alike letters count as the same); "
            "choose another.",
            "§10",
        )


def _describe(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, '')}".rstrip()


def _refused(char: str, previous: str | None, marks: int) -> str | None:
    """Why ``char`` may not stand here (None: it may)."""
    code, category = ord(char), unicodedata.category(char)
    if category == "Cc":
        return "control characters"
    if code in _BIDI:
        return "text-direction (bidi) controls"
    if category == "Cf":
        return "invisible formatting characters"
    if category in ("Zl", "Zp"):
        return "line breaks"
    if category == "Cs":
        return "broken characters (unpaired surrogates)"
    if category == "Co":
        return "private-use characters (every phone draws them differently)"
    if category == "Cn":
        return "characters this server does not know yet"
    if code in _INVISIBLE:
        return "invisible or blank characters"
    if code in _VARIATION:
        after_visible = previous is not None and not previous.isspace()
        after_visible = after_visible and ord(previous) not in _VARIATION
        if code in _EMOJI_PRESENTATION and after_visible and marks == 0:
            return None
        return "invisible characters (variation selectors)"
    if category.startswith("M"):
        if previous is None or previous.isspace():
            return "accents or marks without a letter under them"
        if marks >= MARKS_MAX:
            return f"more than {MARKS_MAX} marks stacked on one letter"
    return None


def clean_name(raw: str) -> str:
    """The name a room keeps for what a phone typed; raise NameRefused if there is none."""
    text = unicodedata.normalize("NFKC", raw)
    previous: str | None = None
    marks = 0
    for char in text:
        why = _refused(char, previous, marks)
        if why:
            raise NameRefused(
                "name_characters",
                f"Names can't contain {why}: this one has {_describe(char)}. "
                "Type the name again without it.",
            )
        is_mark = unicodedata.category(char).startswith("M") and ord(char) not in _VARIATION
        marks = marks + 1 if is_mark else 0
        previous = char
    # Only spaces are whitespace here (control characters and line breaks were refused).
    text = " ".join(text.split())
    if not text:
        raise NameRefused("name_blank", "A name needs at least one visible character.")
    visible = sum(1 for char in text if not unicodedata.category(char).startswith("M"))
    if visible > NAME_VISIBLE_MAX or len(text) > NAME_MAX:
        raise NameRefused(
            "name_too_long",
            f"A name has at most {NAME_VISIBLE_MAX} characters; this one has {visible}.",
            {"max": NAME_VISIBLE_MAX, "n": visible},
        )
    return text


# -- look-alikes --------------------------------------------------------------------------
def _table() -> dict[int, str]:
    """Character → the character it is mistaken for (in that case, as drawn)."""
    pairs = {
        # Latin and digits: I l 1 | and O 0 (as UTS #39 maps them).
        "I": "l", "1": "l", "|": "l", "ǀ": "l", "ı": "i", "0": "O", "ɑ": "a", "ɡ": "g",
        # Cyrillic capitals, then small letters.
        "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "l", "Ј": "J", "К": "K",
        "М": "M", "О": "O", "Р": "P", "Ѕ": "S", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y",
        "Һ": "h", "Ӏ": "l", "Ԁ": "d", "Ԛ": "Q", "Ԝ": "W", "З": "3",
        "а": "a", "с": "c", "е": "e", "о": "o", "р": "p", "х": "x", "у": "y", "ү": "y",
        "ѕ": "s", "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l",
        "г": "r", "б": "6",
        # Greek capitals, then small letters.
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
        "ο": "o", "α": "a", "ν": "v", "ι": "i", "ρ": "p", "υ": "u", "χ": "x", "γ": "y",
        "ϲ": "c", "ϳ": "j",
        # Dashes and apostrophes.
        "‐": "-", "‑": "-", "‒": "-", "–": "-", "−": "-", "—": "一", "―": "一", "ー": "一",
        "ㅡ": "一", "‘": "'", "’": "'", "‛": "'", "′": "'", "ʼ": "'", "`": "'", "´": "'",
        # Thai: the two obsolete letters drawn like living ones.
        "ฃ": "ข", "ฅ": "ค",
        # Katakana drawn like CJK ideographs (and hiragana he like katakana he).
        "ロ": "口", "エ": "工", "カ": "力", "タ": "夕", "ニ": "二", "ハ": "八", "ト": "卜",
        "へ": "ヘ",
    }  # fmt: skip
    return {ord(char): like for char, like in pairs.items()}


_LOOKS_LIKE = _table()
#: Letter pairs drawn like one letter (UTS #39 maps these too); only as typed.
_PAIRS = (("rn", "m"), ("vv", "w"))


def _skeleton(text: str, pairs: bool) -> str:
    shape = unicodedata.normalize("NFD", text).translate(_LOOKS_LIKE)
    shape = "".join(c for c in shape if ord(c) not in _EMOJI_PRESENTATION)
    if pairs:
        for pair, like in _PAIRS:
            shape = shape.replace(pair, like)
    return unicodedata.normalize("NFD", shape)


def name_keys(name: str) -> tuple[str, str, str]:
    """The name's skeletons: as typed, in upper case, in lower case (see the module doc)."""
    text = unicodedata.normalize("NFKC", name)
    return (
        _skeleton(text, pairs=True),
        _skeleton(text.upper(), pairs=False),
        _skeleton(text.casefold(), pairs=False),
    )


def names_clash(first: str, second: str) -> bool:
    """Whether two names are too alike to tell apart at a table (equal names clash)."""
    return any(a == b for a, b in zip(name_keys(first), name_keys(second), strict=True))
