"""`make dev`: the game on this machine, for phones on the same Wi-Fi.

python -m local_stack [--host 0.0.0.0] [--port 8080] [--bots 5] [--verbose]
"""

import argparse
import asyncio
import os
import signal
import sys

from functions.room_service.adapters.clock import TimeScaleRefused, parse_time_scale

from .stack import WILDCARD_HOSTS, LocalStack, Options, lan_address


def _seconds_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def _time_scale(text: str) -> float:
    try:
        return parse_time_scale(text)
    except TimeScaleRefused as refused:
        raise argparse.ArgumentTypeError(str(refused)) from None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m local_stack", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default: every interface, so phones can join)")  # fmt: skip
    parser.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    parser.add_argument("--bots", type=int, default=0, metavar="N",
                        help="seat N bot cats in every room a person creates (1-11)")  # fmt: skip
    parser.add_argument("--think", type=_seconds_range, default=(0.4, 1.2), metavar="S-S",
                        help="bots' seconds before each move (default 0.4-1.2)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=4,
                        help="Lambda worker processes (concurrent invocations)")  # fmt: skip
    parser.add_argument("--idle-timeout", type=float, default=600,
                        help="seconds without a client frame before a socket is closed (API Gateway: 600)")  # fmt: skip
    parser.add_argument(
        "--dynamodb-url", help="use this DynamoDB (e.g. DynamoDB Local) instead of moto"
    )
    parser.add_argument("--sqs-url", help="use this SQS endpoint instead of moto")
    parser.add_argument("--time-scale", type=_time_scale, default=1.0, metavar="N",
                        help="game time runs N times faster: every timer and countdown N times "
                             "shorter (tests; default 1, as deployed)")  # fmt: skip
    parser.add_argument("--time-origin", type=float, metavar="EPOCH",
                        help="with --time-scale: the wall-clock second at which game time equals "
                             "wall time (default: now); a restart over the same store mid-game "
                             "passes the one the first run printed")  # fmt: skip
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    parser.add_argument("--verbose", action="store_true", help="handler logs and metrics")
    parser.add_argument("--log-level", choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="the handlers' log level, without the metrics (default WARNING, "
                             "INFO with --verbose; deployed: template.yaml's LogLevel, INFO)")  # fmt: skip
    return parser.parse_args(argv)


def banner(stack: LocalStack, qr: bool) -> str:
    host = stack.options.host
    lan = lan_address() if host in WILDCARD_HOSTS else host
    local = f"http://127.0.0.1:{stack.port}/"
    lines = ["", "Catch the Witch is running.", f"  On this computer:  {local}"]
    phone_url = f"http://{lan}:{stack.port}/" if lan and not lan.startswith("127.") else None
    if phone_url:
        lines.append(f"  On phones (same Wi-Fi):  {phone_url}")
    lines.append(f"  WebSocket:  {stack.websocket_url}")
    lines.append(f"  DynamoDB:  {stack.dynamodb_url}   SQS:  {stack.sqs_url}"
                 + ("   (moto, in memory)" if stack.moto else ""))  # fmt: skip
    if stack.options.time_scale != 1:
        scale = stack.options.time_scale
        lines.append(f"  Time runs {scale:g}× faster: a 15 s step takes {15 / scale:.2g} s "
                     f"(time origin {stack.time_origin!r}).")  # fmt: skip
    if stack.options.bots:
        lines.append(f"  Bots: {stack.options.bots} join every room you create.")
    lines.append("  Ctrl-C stops everything.")
    text = "\n".join(lines)
    if qr and phone_url:
        import segno

        text += "\n\nScan to open on a phone:\n" + _qr_text(segno.make(phone_url, error="m"))
    return text


def _qr_text(code) -> str:
    import io

    out = io.StringIO()
    code.terminal(out=out, compact=True, border=2)
    return out.getvalue()


async def serve(options: Options, qr: bool) -> None:
    stack = LocalStack(options)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stack.start()
    print(banner(stack, qr), flush=True)
    try:
        await stop.wait()
    finally:
        print("\nStopping…", flush=True)
        await stack.stop()
        print("Stopped.", flush=True)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    options = Options(host=args.host, port=args.port, bots=max(0, min(args.bots, 11)),
                      think=args.think, workers=max(1, args.workers),
                      idle_timeout=args.idle_timeout, dynamodb_url=args.dynamodb_url,
                      sqs_url=args.sqs_url, verbose=args.verbose, log_level=args.log_level,
                      time_scale=args.time_scale, time_origin=args.time_origin)  # fmt: skip
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(serve(options, qr=not args.no_qr))
    # Everything is stopped ("Stopped." is printed): tearing down the interpreter's modules
    # (moto's, boto3's) saves nothing and took seconds of Ctrl-C's wait on a busy machine.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
