"""Errors a player can read. Raising one never changes the game state.

Every refusal carries a stable snake_case ``code`` and ``params`` (names, cards, numbers):
the phone shows ``t("error_" + code, params)`` in its player's language (docs/protocol.md),
and every code has a string in every frontend/i18n/*.json (tests/engine/test_error_codes.py
finds every code the server can send). ``message`` is English, for logs and developers.
"""

from pydantic import ValidationError

#: A value a phone may put into its translated sentence.
Param = str | int | float | None


class GameError(Exception):
    """Base: ``code`` and ``params`` are for programs (the phone words them), ``message`` is
    for people reading logs. A subclass may fix its ``code``; a raise may name a more
    specific one."""

    code = "game_error"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: dict[str, Param] | None = None,
        action: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params: dict[str, Param] = dict(params or {})
        #: The type of the refused message when the refusal itself knows it (a malformed
        #: message whose type was read); otherwise the service names it (docs/protocol.md).
        self.action = action


class InvalidAction(GameError):
    """The message is malformed: unknown type, missing or mistyped field."""

    code = "bad_message"


class IllegalAction(GameError):
    """The message is well formed but the rules forbid it now.

    ``rule`` names the RULES.md section broken, so a player (and a developer)
    can jump from the error to the rule.
    """

    code = "illegal_action"

    def __init__(
        self,
        message: str,
        rule: str | None = None,
        *,
        code: str | None = None,
        params: dict[str, Param] | None = None,
    ):
        super().__init__(message, code=code, params=params)
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} (RULES {self.rule})" if self.rule else self.message


#: Every code ``readable_error`` may give (tests/engine/test_error_codes.py).
VALIDATION_CODES = frozenset({"bad_message", "field_missing", "field_extra", "field_invalid"})


def readable_error(exc: ValidationError, kind: str) -> InvalidAction:
    """The first validation problem of message ``kind`` as an error to raise: a code among
    ``VALIDATION_CODES`` with ``{"field": ...}`` (the dotted path of the field at fault),
    and a sentence for logs."""
    first = exc.errors(include_url=False)[0]
    field = ".".join(str(part) for part in first["loc"] if str(part) != kind)
    error_type = first["type"]
    if not field:  # the message as a whole (e.g. not an object) is wrong
        code, message = "bad_message", f"'{kind}': {first['msg']}."
    elif error_type == "missing":
        code, message = "field_missing", f"'{kind}' needs the field '{field}'."
    elif error_type == "extra_forbidden":
        code, message = "field_extra", f"'{kind}' does not take the field '{field}'."
    elif error_type == "enum":
        allowed = first.get("ctx", {}).get("expected", "")
        code, message = "field_invalid", f"'{field}' must be one of {allowed}."
    else:
        code, message = "field_invalid", f"Field '{field}' of '{kind}': {first['msg']}."
    return InvalidAction(message, code=code, params={"field": field or kind}, action=kind)
