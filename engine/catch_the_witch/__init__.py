"""Catch the Witch: the rules engine (RULES.md).

Public API::

    state = new_game(["Ann", "Bo", "Cy", "Di"], settings={...}, seed=7)
    state, effects = apply(state, {"type": "ready", "player": "Ann"}, now)
    view(state, "Ann")          # what Ann may see, JSON-ready
    state.outcome               # Outcome(winner, reason, day) once decided
"""

from ..errors import GameError, IllegalAction, InvalidAction
from .actions import Action, parse_action
from .domain import BotLevel, Form, Ingredient, Phase, Place, Reason, Role, Side, Spell
from .effects import Effect, GameOver, StartTimer, StepChanged
from .rules import (
    apply,
    new_game,
    rematch,
    set_host,
    start,
    validate_role_set,
    waiting_for,
)
from .state import GameState, Outcome, Settings
from .views import all_views, seat_step, view

__all__ = [
    "Action",
    "BotLevel",
    "Effect",
    "Form",
    "GameError",
    "GameOver",
    "GameState",
    "IllegalAction",
    "Ingredient",
    "InvalidAction",
    "Outcome",
    "Phase",
    "Place",
    "Reason",
    "Role",
    "Settings",
    "Side",
    "Spell",
    "StartTimer",
    "StepChanged",
    "all_views",
    "apply",
    "new_game",
    "parse_action",
    "rematch",
    "seat_step",
    "set_host",
    "start",
    "validate_role_set",
    "view",
    "waiting_for",
]  # fmt: skip
