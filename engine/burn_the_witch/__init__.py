"""Burn the Witch: the second game's rules engine (RULES-burn-the-witch.md, docs/burn-the-witch.md).

Public API::

    state = new_game(["Ann", "Bo", "Cy", "Di", "Ed"], seed=7)
    state, effects = start(state, now)
    state, effects = apply(state, {"type": "accuse", "player": "Ann", "trait": "hat"}, now)
    all_views(state)["Ann"]     # what Ann's phone shows, JSON-ready
"""

from .actions import Action, parse_action
from .setup import new_game, rematch, set_host
from .state import GameState, Outcome, Settings
from .steps import waiting_for
from .turn import apply, start
from .views import all_views, table_view, view

__all__ = [
    "Action",
    "GameState",
    "Outcome",
    "Settings",
    "all_views",
    "apply",
    "new_game",
    "parse_action",
    "rematch",
    "set_host",
    "start",
    "table_view",
    "view",
    "waiting_for",
]
