"""Catch the Witch's effects: the shared ones (engine/effects.py), with its own types."""

from .. import effects as shared
from .domain import Phase
from .state import Outcome

StartTimer = shared.StartTimer


class StepChanged(shared.StepChanged):
    phase: Phase


class GameOver(shared.GameOver):
    outcome: Outcome


Effect = StepChanged | StartTimer | GameOver
