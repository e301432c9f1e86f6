"""Issue 36, a light first view: the home page names every module its script imports
statically (``<link rel="modulepreload">``), so a phone fetches them all at once instead of
one import level after another, a round trip each on a slow network (bench/first_view.py).
The list must stay the import graph: a module missing from it is fetched late again, and
one no longer imported is a download for nothing."""

import re
from pathlib import Path

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


def test_the_home_page_preloads_exactly_the_modules_its_script_imports():
    page = (FRONTEND / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="js/app.js">' in page
    preloaded = PRELOAD.findall(page)
    graph = static_imports("js/app.js")
    assert len(graph) > 20, graph  # the graph was read (a broken pattern finds nothing)
    assert sorted(preloaded) == sorted(graph), (
        f"missing: {sorted(set(graph) - set(preloaded))}; "
        f"no longer imported: {sorted(set(preloaded) - set(graph))}"
    )
    assert "js/replay.js" not in preloaded  # loaded on demand only (a replay asked for)
