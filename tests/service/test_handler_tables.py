"""A reader finds a command's handler from its type: the handler tables (service/handlers.py
and room_service.ARRIVALS) name every command and every timer once, each with a handler of
its own whose signature names that type."""

import typing

import pytest

from functions.room_service.domain.timers import TimerMessage
from functions.room_service.service.commands import GameMove, RoomAction
from functions.room_service.service.handlers import SEAT_HANDLERS, TIMER_HANDLERS
from functions.room_service.service.room_service import ARRIVALS

COMMAND_TYPES = {*typing.get_args(typing.get_args(RoomAction)[0]), GameMove}
TIMER_TYPES = set(typing.get_args(TimerMessage))
COMMAND_TABLES = {"ARRIVALS": ARRIVALS, "SEAT_HANDLERS": SEAT_HANDLERS}


def test_every_command_type_has_exactly_one_handler():
    named = [kind for table in COMMAND_TABLES.values() for kind in table]
    assert len(named) == len(set(named)), "a command is in both tables"
    assert set(named) == COMMAND_TYPES, (
        f"no handler for {sorted(t.__name__ for t in COMMAND_TYPES - set(named))}; "
        f"not a command: {sorted(t.__name__ for t in set(named) - COMMAND_TYPES)}"
    )


def test_every_timer_type_has_exactly_one_handler():
    assert set(TIMER_HANDLERS) == TIMER_TYPES


@pytest.mark.parametrize("tables", [COMMAND_TABLES.values(), [TIMER_HANDLERS]],
                         ids=["commands", "timers"])  # fmt: skip
def test_every_handler_answers_one_type(tables):
    handlers = [handler for table in tables for handler in table.values()]
    assert len(handlers) == len(set(handlers)), "one handler answers two types"


@pytest.mark.parametrize(
    ("kind", "handler"),
    [(kind, handler) for table in [*COMMAND_TABLES.values(), TIMER_HANDLERS]
     for kind, handler in table.items()],
    ids=lambda value: getattr(value, "__name__", str(value)),
)  # fmt: skip
def test_each_handler_is_typed_with_the_type_it_answers(kind, handler):
    # Go-to-definition works both ways: from the handler's parameter to the type it answers.
    hints = typing.get_type_hints(handler)
    assert kind in hints.values(), f"{handler.__name__} names no parameter a {kind.__name__}"
