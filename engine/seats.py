"""A game state's players looked up by name: every game's state lists its seats, in seat
order, as ``players``, each with a ``name``."""

from typing import Any


class Seats:
    """Mixed into a game's state model, whose ``players`` it reads (not declared here: the
    model's own field keeps its place among the fields)."""

    def seat(self, name: str) -> Any:
        """The player named ``name`` (KeyError if there is none)."""
        for player in self.players:
            if player.name == name:
                return player
        raise KeyError(name)

    def has_seat(self, name: str) -> bool:
        return any(player.name == name for player in self.players)
