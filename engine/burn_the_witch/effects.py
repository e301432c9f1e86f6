"""Burn the Witch's effects: the shared ones (engine/effects.py), its outcome typed."""

from .. import effects as shared
from .state import Outcome

StartTimer = shared.StartTimer
StepChanged = shared.StepChanged


class GameOver(shared.GameOver):
    outcome: Outcome


Effect = StepChanged | StartTimer | GameOver
