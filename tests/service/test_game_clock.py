"""The local stack's time scale: game time N times faster through one clock,
the handlers', the timer queue's delays and the phones' countdowns; never on AWS."""

import json

import pytest

from functions.room_service.adapters import clock as clock_module
from functions.room_service.adapters import sqs as sqs_module
from functions.room_service.adapters.clock import (
    TIME_ORIGIN_VARIABLE,
    TIME_SCALE_VARIABLE,
    WALL_CLOCK,
    GameClock,
    TimeScaleRefused,
    clock_from_environment,
)
from functions.room_service.adapters.sqs import SqsTimers
from functions.room_service.domain.timers import DeadlineTimer
from functions.room_service.entrypoints import lambda_app
from local_stack.__main__ import parse_args
from local_stack.stack import LocalStack, Options
from local_stack.template import Template

ORIGIN = 1_800_000_000.0


def test_without_a_scale_the_clock_is_the_wall_clock():
    assert clock_from_environment({}) is WALL_CLOCK
    assert clock_from_environment({TIME_SCALE_VARIABLE: " "}) is WALL_CLOCK


def test_game_time_runs_scale_times_the_wall_clock_from_the_origin(monkeypatch):
    clock = clock_from_environment({TIME_SCALE_VARIABLE: "10", TIME_ORIGIN_VARIABLE: str(ORIGIN)})
    assert clock == GameClock(10.0, ORIGIN)
    monkeypatch.setattr(clock_module.time, "time", lambda: ORIGIN + 3)
    assert clock.now() == ORIGIN + 30  # 3 wall seconds are 30 game seconds
    assert clock.real_seconds(15) == 1.5  # the witches' 15 s
    assert WALL_CLOCK.now() == ORIGIN + 3


@pytest.mark.parametrize(("variable", "value"), [
    ("AWS_EXECUTION_ENV", "AWS_Lambda_python3.12"),  # a managed runtime
    ("AWS_LAMBDA_FUNCTION_NAME", "catch-the-witch-MessageFunction-X1"),
    ("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9001"),  # an OS-only runtime or a container image
])  # fmt: skip
def test_a_lambda_function_on_aws_refuses_a_time_scale(variable, value):
    environ = {TIME_SCALE_VARIABLE: "10", TIME_ORIGIN_VARIABLE: str(ORIGIN), variable: value}
    with pytest.raises(TimeScaleRefused, match="local stack only"):
        clock_from_environment(environ)


def test_the_handlers_refuse_to_serve_with_a_time_scale_on_aws(monkeypatch):
    monkeypatch.setenv(TIME_SCALE_VARIABLE, "10")
    monkeypatch.setenv(TIME_ORIGIN_VARIABLE, str(ORIGIN))
    monkeypatch.setenv("AWS_EXECUTION_ENV", "AWS_Lambda_python3.12")
    lambda_app.game_clock.cache_clear()
    try:
        with pytest.raises(TimeScaleRefused):
            lambda_app.now()
    finally:
        lambda_app.game_clock.cache_clear()


@pytest.mark.parametrize("scale", ["0.5", "0", "-2", "11", "fast", "nan", "inf"])
def test_a_scale_is_a_number_from_1_to_10(scale):
    with pytest.raises(TimeScaleRefused, match="from 1 to 10"):
        clock_from_environment({TIME_SCALE_VARIABLE: scale, TIME_ORIGIN_VARIABLE: "0"})
    with pytest.raises(SystemExit):
        parse_args(["--time-scale", scale])


def test_a_scale_without_an_origin_is_refused():
    with pytest.raises(TimeScaleRefused, match=TIME_ORIGIN_VARIABLE):
        clock_from_environment({TIME_SCALE_VARIABLE: "4"})


class _Sqs:
    def __init__(self):
        self.sent: list[dict] = []

    def send_message(self, **message):
        self.sent.append(message)


@pytest.mark.parametrize(("scale", "delay", "sent"), [(1, 15.5, 16), (10, 15.5, 2), (4, 8.5, 3),
                                                      (10, 0, 0), (1, 2000, 900)])  # fmt: skip
def test_the_timer_queue_waits_the_real_seconds_never_less(monkeypatch, scale, delay, sent):
    sqs = _Sqs()
    monkeypatch.setattr(sqs_module.aws_client, "client", lambda service: sqs)
    timers = SqsTimers("https://queue", time_scale=scale)
    timers.schedule(DeadlineTimer(room="ABCD", step=1, deadline=0), delay)
    (message,) = sqs.sent
    assert message["DelaySeconds"] == sent
    assert json.loads(message["MessageBody"])["room"] == "ABCD"


def test_the_deployed_functions_never_carry_a_time_scale():
    """template.yaml is what AWS runs: no function's environment has the variables (the
    handlers would refuse them there anyway)."""
    environment = Template.load().environment()
    assert TIME_SCALE_VARIABLE not in environment and TIME_ORIGIN_VARIABLE not in environment


def test_the_local_stack_tells_the_phones_its_clock_only_when_it_runs_fast():
    assert LocalStack(Options()).clock_config() == {}
    fast = LocalStack(Options(time_scale=4, time_origin=ORIGIN))
    assert fast.clock_config() == {"time_scale": 4, "time_origin": ORIGIN}
    assert parse_args([]).time_scale == 1.0
    assert parse_args(["--time-scale", "4", "--time-origin", "12.5"]).time_origin == 12.5
