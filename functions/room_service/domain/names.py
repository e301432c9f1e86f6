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

``names_clash`` says whether a new name looks like a seated one (so no cat passes for
another): UTS #39 *skeletons* (map each character to the one it is mistaken for, then
compare) from Unicode's confusables, exactly as ICU computes them. The table is
name_tables.py, generated at build time by make_name_tables.py beside it
(``make name-tables``) with ICU's spoof checker through PyICU, a dev dependency only: the
Lambda package needs nothing beyond the standard library and ships 26 KB of Python (2,527
characters mapped, read into a translate table in about 2 ms of cold import).
tests/service/test_name_tables.py checks that the file is what the installed ICU generates
and that these skeletons are ICU's, for every character and for strings of them.

Why no package at run time: confusable-homoglyphs (last release 2024-01) ships no skeleton
function and parses a 900 KB JSON file at import (every Lambda cold start); confusables
1.2.0 has had no release since 2021; PyICU publishes no wheels (it compiles against the
system's ICU, which the Lambda runtime lacks; ICU's libraries are about 40 MB) and icu4py
has no spoof checker. The hand-written table used before missed whole scripts:
Cherokee Ꭺ, Armenian օ, the Devanagari, Lao and Thai zeros and Myanmar ဝ all passed as o.

So a name that borrows a letter or digit from another script (a mixed-script imitation)
clashes with the seated name it copies, whatever script it borrows from, and no two names
clash that ICU's skeletons tell apart in the same case (below): distinct names in one script
(Олена/Оксана, 小明/小朋, น้ำ/นำ, Zoë/Zoe) both pass. Where ICU's confusables do fold letters
of one script together (Thai ด and ต are drawn like ค, so ดำ clashes with คำ; Latin rn and m)
the second name is refused, as ICU says, and nothing beyond. Names are NFKC-normalised
first, so full-width, mathematical and other compatibility forms never reach the table.

Two additions to ICU's skeleton. Small capitals (ᴀ, ʙ, ᴏ) have no case mapping and ICU's
skeleton leaves most of them alone, so in the upper-case key they are read as the capital
Unicode names them after (LATIN LETTER SMALL CAPITAL A → LATIN CAPITAL LETTER A; the table
is generated too): "ᴀnn" is "ANN" like "Ann". And the emoji/text presentation selectors
U+FE0E/U+FE0F (the only default-ignorable characters clean_name keeps) are dropped:
"❤️ Mia" and "❤ Mia" show the same heart.

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

from . import name_tables

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
def _table(text: str) -> dict[int, str]:
    """A name_tables.py table (``target: sources`` lines, hex) as a str.translate table."""
    table: dict[int, str] = {}
    for line in text.splitlines():
        target, _, sources = line.partition(":")
        like = "".join([chr(int(code, 16)) for code in target.split("+")]) if target else ""
        for item in sources.split():
            if "-" in item:
                first, last = item.split("-")
                table.update(dict.fromkeys(range(int(first, 16), int(last, 16) + 1), like))
            else:
                table[int(item, 16)] = like
    return table


#: Character → its UTS #39 skeleton (ICU's), plus the presentation selectors → nothing.
_SKELETONS = _table(name_tables.SKELETONS) | dict.fromkeys(_EMOJI_PRESENTATION, "")
#: Small capital → the capital letter it is drawn as (the upper-case key only).
_SMALL_CAPITALS = _table(name_tables.SMALL_CAPITALS)


def _skeleton(text: str) -> str:
    """ICU's skeleton of NFKC ``text`` (without U+FE0E/U+FE0F): NFD, map, NFD again."""
    mapped = unicodedata.normalize("NFKD", text).translate(_SKELETONS)
    return unicodedata.normalize("NFD", mapped)


def name_keys(name: str) -> tuple[str, str, str]:
    """The name's skeletons: as typed, in upper case, in lower case (see the module doc)."""
    text = unicodedata.normalize("NFKC", name)
    return (
        _skeleton(text),
        _skeleton(text.upper().translate(_SMALL_CAPITALS)),
        _skeleton(text.casefold()),
    )


def names_clash(first: str, second: str) -> bool:
    """Whether two names are too alike to tell apart at a table (equal names clash)."""
    return any(a == b for a, b in zip(name_keys(first), name_keys(second), strict=True))
