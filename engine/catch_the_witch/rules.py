"""The rules of Catch the Witch (RULES.md §1–§10) in one place for importers.

The rules themselves live in modules named after their part of the game: setup.py
(§2, §10), steps.py (the table of steps), turn.py (``apply``: one move and the walk
through the steps), day.py (§3.2–§5), night.py (§3.4–§3.8), abilities.py (§6) and
queries.py (questions about a state). This module names them all for callers that
import ``rules``.
"""

from .queries import (
    cats_at,
    check_end_of_day,
    check_end_of_vote,
    human_witches,
    knights_day,
    next_human_after,
    place_counts,
    ritual_size,
    seals_to_win,
    unlocked_spells,
    witch_score,
    witches_take_over,
)
from .setup import new_game, rematch, set_host, validate_players, validate_role_set
from .steps import CONFIRM_PHASES, PICKPOCKET_PHASES, SEER_PHASES, STEPS, waiting_for
from .turn import Turn, apply, apply_all, start

#: The names this module had when it held every rule (tests reach for them).
_Turn = Turn
_witches_take_over = witches_take_over

__all__ = [
    "CONFIRM_PHASES",
    "PICKPOCKET_PHASES",
    "SEER_PHASES",
    "STEPS",
    "apply",
    "apply_all",
    "cats_at",
    "check_end_of_day",
    "check_end_of_vote",
    "human_witches",
    "knights_day",
    "new_game",
    "next_human_after",
    "place_counts",
    "rematch",
    "ritual_size",
    "seals_to_win",
    "set_host",
    "start",
    "unlocked_spells",
    "validate_players",
    "validate_role_set",
    "waiting_for",
    "witch_score",
    "witches_take_over",
]
