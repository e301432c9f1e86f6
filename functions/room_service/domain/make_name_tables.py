"""Write name_tables.py, the look-alike tables names.py compares player names with.

    make name-tables        (python -m functions.room_service.domain.make_name_tables)

A build-time tool: it needs PyICU (a dev dependency, compiled against the system's ICU,
Debian's libicu-dev), the Lambda package does not (make package leaves this file out) and
names.py reads only the generated name_tables.py. Every code point is asked of ICU:

- SKELETONS: ICU's UTS #39 skeleton (SpoofChecker.getSkeleton, from Unicode's
  confusables.txt) of each character that NFKD leaves as it is, where the skeleton is not
  the character itself. Names are NFKC-normalised before they are compared, so characters
  NFKD changes never reach the table (the NFKD of an NFKC string is its NFD).
- SMALL_CAPITALS: each small capital (U+1D00 ᴀ LATIN LETTER SMALL CAPITAL A) → the
  capital its Unicode name says it is drawn as (U+0041 LATIN CAPITAL LETTER A). Small
  capitals have no case mapping and ICU's skeleton leaves most of them alone, so "ᴀnn"
  would pass next to "Ann"; names.py folds them in its upper-case key only.

The same ICU gives the same file byte for byte; tests/service/test_name_tables.py checks
the file in the repository is what the installed ICU gives, and fails with the command to
run when ICU (a new Debian, a new Unicode) moves on.
"""

import re
from collections import defaultdict
from pathlib import Path

import icu

OUTPUT = Path(__file__).with_name("name_tables.py")
LINE_MAX = 100
_SMALL_CAPITAL = re.compile(r"(\w+) (?:CAPITAL )?LETTER SMALL CAPITAL (.+)")
_NOT_CHARACTERS = (
    icu.UCharCategory.UNASSIGNED,
    icu.UCharCategory.PRIVATE_USE_CHAR,
    icu.UCharCategory.SURROGATE,
)


def _characters() -> list[int]:
    """Every assigned code point that is not private-use or a surrogate, in order."""
    return [cp for cp in range(0x110000) if icu.Char.charType(cp) not in _NOT_CHARACTERS]


def skeletons() -> dict[int, str]:
    """Code point → ICU's skeleton of it, for NFKD-stable characters it changes."""
    checker = icu.SpoofChecker()
    nfkd = icu.Normalizer2.getNFKDInstance()
    table = {}
    for cp in _characters():
        char = chr(cp)
        if nfkd.isNormalized(char):
            skeleton = checker.getSkeleton(0, char)
            if skeleton != char:
                table[cp] = skeleton
    return table


def small_capitals() -> dict[int, str]:
    """Small capital → the capital letter of the same name (where Unicode has one)."""
    named = {icu.Char.charName(cp): cp for cp in _characters()}
    named.pop("", None)
    nfkd = icu.Normalizer2.getNFKDInstance()
    table = {}
    for name, cp in named.items():
        match = _SMALL_CAPITAL.fullmatch(name)
        capital = match and named.get(f"{match[1]} CAPITAL LETTER {match[2]}")
        if capital and nfkd.isNormalized(chr(cp)):
            table[cp] = chr(capital)
    return table


def _ranges(codes: list[int]) -> list[str]:
    """Sorted code points as hex items, runs of three or more written first-last."""
    items, start = [], 0
    while start < len(codes):
        end = start
        while end + 1 < len(codes) and codes[end + 1] == codes[end] + 1:
            end += 1
        if end - start >= 2:
            items.append(f"{codes[start]:X}-{codes[end]:X}")
        else:
            items.extend(f"{code:X}" for code in codes[start : end + 1])
        start = end + 1
    return items


def encode(table: dict[int, str]) -> str:
    """``target: sources`` lines (hex; target code points joined by +), by first source;
    a long line goes on under the same target."""
    by_target: dict[str, list[int]] = defaultdict(list)
    for cp, target in table.items():
        by_target[target].append(cp)
    lines = []
    for target, codes in sorted(by_target.items(), key=lambda item: min(item[1])):
        head = "+".join(f"{ord(char):X}" for char in target) + ":"
        line = head
        for item in _ranges(sorted(codes)):
            if len(line) + 1 + len(item) > LINE_MAX and line != head:
                lines.append(line)
                line = head
            line += " " + item
        lines.append(line)
    return "\n".join(lines) + "\n"


def render() -> str:
    """The text of name_tables.py for the installed ICU."""
    return f'''"""Look-alike tables for names.py, generated from ICU {icu.ICU_VERSION} (Unicode \
{icu.UNICODE_VERSION}) by
make_name_tables.py beside it (make name-tables). Do not edit: tests/service/test_name_tables.py
checks this file is what the installed ICU generates.

A line is ``target: sources``: each source code point (hex; a-b is a range) stands for the
target (hex code points joined by +; nothing after an empty target)."""

ICU_VERSION = "{icu.ICU_VERSION}"
UNICODE_VERSION = "{icu.UNICODE_VERSION}"

#: ICU's UTS #39 skeleton (confusables.txt) of each character NFKD leaves as it is, where it
#: is not the character itself.
SKELETONS = """\\
{encode(skeletons())}"""

#: Small capitals → the capital letter of the same Unicode name (upper-case key only).
SMALL_CAPITALS = """\\
{encode(small_capitals())}"""
'''


def main() -> None:
    text = render()
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT} ({len(text.encode())} bytes, ICU {icu.ICU_VERSION})")


if __name__ == "__main__":
    main()
