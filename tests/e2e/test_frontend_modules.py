"""A light first view: the home page names every module of the shell its script imports
statically (``<link rel="modulepreload">``), and the client's registry of games
(js/games.js, preloaded) imports every module of each game itself, so a phone fetches them
all in two round trips instead of one import level after another, a round trip each on a
slow network (bench/first_view.py). The lists must stay the import graph: a module missing
from them is fetched late again, and one no longer imported is a download for nothing. The
shell's pages name no game: a game's modules, stylesheet, strings and rules are its folder's.
"""

import re
from pathlib import Path

from engine.games import GAMES
from tests.support.coin_game import CoinGame

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
#: ``import … from "x"``, ``export … from "x"`` and ``import "x"``; not ``import("x")``, which
#: loads on demand (the replay's module) and must not be preloaded.
STATIC_IMPORT = re.compile(
    r'^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|^\s*import\s+"([^"]+)"', re.M
)
PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)">')


def static_imports(entry: str) -> list[str]:
    """Every module ``entry`` (a path under frontend/) reaches by static imports, in the
    order first met, ``entry`` left out."""
    found: list[str] = []
    waiting = [entry]
    while waiting:
        module = waiting.pop(0)
        if module in found:
            continue
        found.append(module)
        text = (FRONTEND / module).read_text(encoding="utf-8")
        for match in STATIC_IMPORT.finditer(text):
            target = (FRONTEND / module).parent / (match.group(1) or match.group(2))
            waiting.append(target.resolve().relative_to(FRONTEND.resolve()).as_posix())
    return found[1:]


def is_a_games(module: str) -> bool:
    return module.startswith("js/games/")


def imported_by(module: str) -> list[str]:
    """The modules ``module`` imports statically itself (not through another)."""
    text = (FRONTEND / module).read_text(encoding="utf-8")
    return [
        ((FRONTEND / module).parent / (m.group(1) or m.group(2)))
        .resolve()
        .relative_to(FRONTEND.resolve())
        .as_posix()
        for m in STATIC_IMPORT.finditer(text)
    ]


def test_the_home_page_preloads_exactly_the_shells_modules_its_script_imports():
    page = (FRONTEND / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="js/app.js">' in page
    preloaded = PRELOAD.findall(page)
    graph = [module for module in static_imports("js/app.js") if not is_a_games(module)]
    assert len(graph) > 10, graph  # the graph was read (a broken pattern finds nothing)
    assert sorted(preloaded) == sorted(graph), (
        f"missing: {sorted(set(graph) - set(preloaded))}; "
        f"no longer imported: {sorted(set(preloaded) - set(graph))}"
    )
    assert "js/games.js" in preloaded, "the registry, which asks for every game's modules"
    assert "js/replay.js" not in preloaded  # loaded on demand only (a replay asked for)


def test_the_registry_imports_every_module_of_each_game_itself():
    """One round trip after the registry for all of them, however deep a game's imports."""
    direct = imported_by("js/games.js")
    games = sorted({module.split("/")[2] for module in direct if is_a_games(module)})
    assert games, "the registry imports the games"
    for game in games:
        index = f"js/games/{game}/index.js"
        assert index in direct, game
        own = {m for m in static_imports(index) if m.startswith(f"js/games/{game}/")}
        named = {m for m in direct if m.startswith(f"js/games/{game}/")} - {index}
        assert sorted(named) == sorted(own), (
            f"{game}: not named: {sorted(own - named)}; not imported: {sorted(named - own)}"
        )


def test_a_game_is_one_folder_the_shell_finds_by_its_key():
    """Each game the registry imports has its stylesheet, its strings in every language
    and its rules page in every language in its folder (js/games.js reads them from there)."""
    languages = sorted(p.stem for p in (FRONTEND / "i18n").glob("*.json"))
    for module in imported_by("js/games.js"):
        if not module.endswith("/index.js") or not is_a_games(module):
            continue
        folder = (FRONTEND / module).parent
        assert (folder / "style.css").is_file(), folder.name
        for language in languages:
            assert (folder / "i18n" / f"{language}.json").is_file(), (folder.name, language)
            assert (folder / "rules" / f"{language}.html").is_file(), (folder.name, language)


def test_no_file_of_the_shell_names_a_game():
    """Outside a game's folder and the registry, the client names no game's key (as a word
    or joined by "_": ``catch_the_witch``, ``coin_game``), so a game plugs in unchanged."""
    keys = {*GAMES, CoinGame.key}
    named = re.compile(rf"(?<![A-Za-z0-9])({'|'.join(map(re.escape, keys))})(?![A-Za-z0-9])")
    naming = {
        str(path.relative_to(FRONTEND)): sorted(
            set(named.findall(path.read_text(errors="replace")))
        )
        for path in sorted(FRONTEND.rglob("*"))
        if path.is_file()
        and path.suffix != ".md"
        and path.relative_to(FRONTEND).parts[:2] != ("js", "games")
        and path != FRONTEND / "js" / "games.js"
    }
    assert {file: keys for file, keys in naming.items() if keys} == {}
