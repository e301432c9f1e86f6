"""The phone client's strings as a phone reads them (frontend/js/i18n.js): the shell's file
of a language (frontend/i18n/<lang>.json) with every game's own
(frontend/js/games/<game>/i18n/<lang>.json) merged over it, one table of keys."""

import json
from functools import cache
from pathlib import Path

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
LANGUAGES = ("en", "zh-Hant", "uk", "th")


def string_files(language: str) -> list[Path]:
    """The files a phone reads for ``language``: the shell's first, then each game's."""
    return [FRONTEND / "i18n" / f"{language}.json",
            *sorted((FRONTEND / "js" / "games").glob(f"*/i18n/{language}.json"))]  # fmt: skip


@cache
def _merged(language: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in string_files(language):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def strings(language: str) -> dict[str, str]:
    """Every string of ``language``, the shell's and every game's (a copy the caller may
    change)."""
    return dict(_merged(language))
