"""Errors a player can read. Raising one never changes the game state."""

from pydantic import ValidationError


class GameError(Exception):
    """Base: ``code`` is stable for programs, ``message`` is for people."""

    code = "game_error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InvalidAction(GameError):
    """The message is malformed: unknown type, missing or mistyped field."""

    code = "invalid_action"


class IllegalAction(GameError):
    """The message is well formed but the rules forbid it now.

    ``rule`` names the RULES.md section broken, so a player (and a developer)
    can jump from the error to the rule.
    """

    code = "illegal_action"

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} (RULES {self.rule})" if self.rule else self.message


def readable_error(exc: ValidationError, kind: str) -> str:
    """The first validation problem of message ``kind`` as a sentence for a player."""
    first = exc.errors(include_url=False)[0]
    location = [str(part) for part in first["loc"] if str(part) != kind]
    field = ".".join(location) or "action"
    error_type = first["type"]
    if error_type == "missing":
        return f"'{kind}' needs the field '{field}'."
    if error_type == "extra_forbidden":
        return f"'{kind}' does not take the field '{field}'."
    if error_type == "enum":
        allowed = first.get("ctx", {}).get("expected", "")
        return f"'{field}' must be one of {allowed}."
    return f"Field '{field}' of '{kind}': {first['msg']}."
