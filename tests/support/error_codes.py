"""Every error code the server can send, found in its source (docs/protocol.md, error frame).

A code reaches a phone three ways, and each is found here by reading the code with ``ast``:
a raise (or any call) naming ``code="..."``, a ``GameError`` subclass's ``code = "..."``,
and a name refusal ``NameRefused("name_...", ...)``. The validation codes of
``engine.errors.readable_error`` are listed there. With each code come the ``params`` keys
its raise sites pass (a literal dict), so a translation's placeholders can be checked.
"""

import ast
from functools import cache
from pathlib import Path

from engine.errors import VALIDATION_CODES
from tests.support.strings import strings as phone_strings

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (ROOT / "engine", ROOT / "functions")
LANGUAGES = ("en", "zh-Hant", "uk", "th")
#: Whose validation errors always carry a ``field``.
VALIDATION_PARAMS = frozenset({"field"})


def server_codes() -> dict[str, set[str]]:
    """Each code the server can send → the params keys some raise passes with it (a copy
    the caller may change)."""
    return {code: set(params) for code, params in _scanned_codes().items()}


@cache
def _scanned_codes() -> dict[str, frozenset[str]]:
    """The source read once per test process: a scan takes about 0.4 s, and the fuzz and
    stale-socket properties ask for every example (about 160 s of a worker's time)."""
    codes: dict[str, set[str]] = {code: set(VALIDATION_PARAMS) for code in VALIDATION_CODES}
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                for code, params in _codes_of(node):
                    codes.setdefault(code, set()).update(params)
    return {code: frozenset(params) for code, params in codes.items()}


def _codes_of(node: ast.AST) -> list[tuple[str, set[str]]]:
    if isinstance(node, ast.ClassDef):
        return [
            (stmt.value.value, set())
            for stmt in node.body
            if isinstance(stmt, ast.Assign)
            and [getattr(t, "id", None) for t in stmt.targets] == ["code"]
            and isinstance(stmt.value, ast.Constant)
        ]
    if not isinstance(node, ast.Call):
        return []
    keywords = {kw.arg: kw.value for kw in node.keywords}
    params = _keys(keywords.get("params"))
    code = keywords.get("code")
    if isinstance(code, ast.Constant) and isinstance(code.value, str):
        return [(code.value, params)]
    if getattr(node.func, "id", None) == "NameRefused" and isinstance(node.args[0], ast.Constant):
        return [(node.args[0].value, _keys(node.args[2]) if len(node.args) > 2 else set())]
    return []


def _keys(node: ast.AST | None) -> set[str]:
    if isinstance(node, ast.Dict):
        return {key.value for key in node.keys if isinstance(key, ast.Constant)}
    return set()


def strings(language: str) -> dict[str, str]:
    return phone_strings(language)
