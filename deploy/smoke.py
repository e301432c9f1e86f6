"""python -m deploy.smoke --stack NAME --region REGION
python -m deploy.smoke --websocket-url URL --site-url URL

Proves a deployment by playing it: bot phones (local_stack/bot_client.py, which play
from the views they are sent), the fewest that every game seats, play one whole game of
every registered game (engine/games.py) against the WebSocket API, created and started
through the lobby as a host does, with the game's shortest settings
(``Game.shortest_settings``); every socket sends the site's origin as its Origin header,
as a browser on the site does. Meanwhile the site's page and config.json are fetched and
checked: the game's page, the same WebSocket URL, and the browser security headers. One
line per check and per game; exit code 0 when all pass, 1 when any fails.

With --stack, the URLs are the stack's outputs `WebSocketUrl` and `FrontendUrl`.

A smoke game leaves nothing a player sees: when it ends every phone leaves, the last
leaving closes the room (no code opens it again) and DynamoDB's TTL deletes its items.
It counts against the per-address limits like any table (docs/security.md, Floods: 2 of
the 30 rooms an address may create in an hour, 10 of its 60 connects a minute).
"""

import argparse
import asyncio
import contextlib
import json
import re
import sys
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, urlsplit

import aiohttp
from multidict import MultiMapping

from engine.games import GAMES, game_of
from local_stack.bot_client import BOT_NAMES, BotClient

#: The fewest players every game seats: one table size plays them all.
PLAYERS = max(game.min_players for game in GAMES.values())
#: How long a bot takes over each move, in game seconds: a person reads the screen, then
#: taps. Bots at machine speed pass their connections' quiet share and meet the address's
#: limit (docs/security.md, Floods), which a table of people never does: the smoke would
#: fail a healthy deployment. On a faster game clock (the local stack's --time-scale, which
#: config.json gives the phones) the bots think as much faster, so a test meets the limits
#: as a deployment does.
THINK_SECONDS = (0.5, 1.0)
GAME_LIMIT_SECONDS = 300
#: After a deploy CloudFront may serve the previous page for a minute or two (its
#: invalidation): the page's checks are tried again for this long before they fail.
PAGE_WAIT_SECONDS = 180
PAGE_RETRY_SECONDS = 10
REQUEST_SECONDS = 15
LEAVE_SECONDS = 5
HANG_UP_AFTER_LEAVE_SECONDS = 0.5
#: Refusals a bot may meet in a healthy game: a move that crossed the end of its step on
#: the wire (a timer, or another player's last move, came first). Any other refusal is a bug.
RACED_REFUSALS = frozenset({"stale_move", "not_now", "nothing_to_confirm", "game_over"})
FRONTEND_PAGE = Path(__file__).resolve().parent.parent / "frontend" / "index.html"


_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _explicit_port(parts: SplitResult) -> int | None:
    """The URL's port as a browser keeps it: None for its scheme's default."""
    return None if parts.port == _DEFAULT_PORTS.get(parts.scheme) else parts.port


@dataclass
class Check:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'}  {self.name}: {self.detail}"


@dataclass(frozen=True)
class Target:
    websocket_url: str
    site_url: str  # the page's URL, ending in "/"
    origin: str  # what a browser on the site sends as Origin

    @classmethod
    def of(cls, websocket_url: str, site_url: str, origin: str | None = None) -> "Target":
        for name, url, schemes in (("WebSocket URL", websocket_url, ("ws", "wss")),
                                   ("site URL", site_url, ("http", "https"))):  # fmt: skip
            parts = urlsplit(url)
            if parts.scheme not in schemes or not parts.hostname:
                raise ValueError(f"the {name} {url!r} is not a {' or '.join(schemes)} URL")
        return cls(websocket_url, site_url.rstrip("/") + "/", origin or origin_of(site_url))


def origin_of(url: str) -> str:
    """The serialised origin of ``url`` (scheme://host[:port]), as a browser sends it."""
    parts = urlsplit(url)
    host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname
    port = _explicit_port(parts)
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def target_of_stack(cloudformation, stack: str, origin: str | None = None) -> Target:
    """The stack's outputs, as `make deploy` left them (ValueError: no such stack, or its
    outputs missing, e.g. a stack whose creation failed)."""
    from botocore.exceptions import ClientError

    from deploy.stack import stack_outputs

    try:
        outputs = stack_outputs(cloudformation, stack)
    except ClientError as error:
        raise ValueError(f"cannot read the stack {stack!r}: {error}") from error
    missing = [key for key in ("WebSocketUrl", "FrontendUrl") if key not in outputs]
    if missing:
        raise ValueError(f"the stack {stack!r} has no output {' or '.join(missing)}: is it "
                         f"deployed (make deploy)?")  # fmt: skip
    return Target.of(outputs["WebSocketUrl"], outputs["FrontendUrl"], origin)


# -- the page ------------------------------------------------------------------------------
@dataclass
class Fetched:
    url: str
    status: int
    headers: MultiMapping[str]
    body: str


async def _fetch(session: aiohttp.ClientSession, url: str) -> Fetched:
    async with session.get(url, timeout=aiohttp.ClientTimeout(total=REQUEST_SECONDS)) as answer:
        return Fetched(str(answer.url), answer.status, answer.headers, await answer.text())


def _title(html: str) -> str | None:
    found = re.search(r"<title>(.*?)</title>", html, re.S | re.I)
    return found.group(1).strip() if found else None


def check_page(page: Fetched) -> Check:
    """The game's page: 200, the client's title, its app element and its script."""
    expected = _title(FRONTEND_PAGE.read_text())
    problems = []
    if page.status != 200:
        problems.append(f"HTTP {page.status}")
    if not page.headers.get("Content-Type", "").startswith("text/html"):
        problems.append(f"Content-Type {page.headers.get('Content-Type')!r}")
    if _title(page.body) != expected:
        problems.append(f"title {_title(page.body)!r}, not {expected!r}")
    if not re.search(r"<main\b[^>]*\bid=\"screen\"", page.body):
        problems.append('no app element <main id="screen">')
    if not re.search(r"<script\b[^>]*\bsrc=\"[^\"]*js/app\.js\"", page.body):
        problems.append("no js/app.js script")
    if problems:
        return Check("page", False, f"{page.url}: " + "; ".join(problems))
    return Check("page", True, f"{page.url} answers 200 with the game's page ({expected!r})")


def check_config(config: Fetched, websocket_url: str) -> Check:
    """config.json names the WebSocket URL played (and, from the local stack's
    --time-scale, the faster game clock the phones count down with: shown, not required)."""
    if config.status != 200:
        return Check("config.json", False, f"{config.url}: HTTP {config.status}")
    try:
        settings = json.loads(config.body)
        named, scale = settings["websocket_url"], float(settings.get("time_scale", 1))
    except (ValueError, TypeError, KeyError) as error:
        return Check("config.json", False, f"{config.url}: unreadable ({error!r})")
    if named.rstrip("/") != websocket_url.rstrip("/"):
        return Check("config.json", False, f"names {named}, not {websocket_url}")
    clock = f" (game clock {scale:g}x)" if scale != 1 else ""
    return Check("config.json", True, f"names {named}{clock}")


def check_headers(page: Fetched, websocket_url: str) -> Check:
    """The browser security headers the site must send (template.yaml), on the page."""
    problems, found = [], []
    headers = page.headers
    # Several headers, or one with comma-separated policies: each policy is enforced.
    policies = [parse_csp(policy) for value in headers.getall("Content-Security-Policy", [])
                for policy in value.split(",")]  # fmt: skip
    if not policies:
        problems.append("no Content-Security-Policy")
    else:
        if not any(policy.get("frame-ancestors") == ["'none'"] for policy in policies):
            problems.append("Content-Security-Policy lacks frame-ancestors 'none'")
        if not any("connect-src" in policy for policy in policies):
            problems.append("Content-Security-Policy has no connect-src")
        # Every policy is enforced: each must let the phone open its socket.
        elif not all(allows_connection(policy, websocket_url, page.url) for policy in policies):
            problems.append(f"Content-Security-Policy's connect-src refuses {websocket_url}")
        else:
            found.append(f"CSP frame-ancestors 'none', connect-src allows "
                         f"{origin_of(websocket_url)}")  # fmt: skip
    for name, value in (("X-Frame-Options", "DENY"), ("X-Content-Type-Options", "nosniff")):
        if headers.get(name, "").strip().lower() != value.lower():
            problems.append(f"{name} is {headers.get(name)!r}, not {value!r}")
        else:
            found.append(f"{name}: {headers[name]}")
    referrer = headers.get("Referrer-Policy", "").strip().lower()
    # The page's URL may carry a room code (join links): never sent whole to other sites.
    leaking = {"unsafe-url", "no-referrer-when-downgrade"}
    if not referrer or referrer.split(",")[-1].strip() in leaking:
        problems.append(f"Referrer-Policy is {headers.get('Referrer-Policy')!r}")
    else:
        found.append(f"Referrer-Policy: {referrer}")
    # Browsers ignore HSTS over http (RFC 6797 §8.1): it is required of an https site only.
    if urlsplit(page.url).scheme == "https":
        hsts = headers.get("Strict-Transport-Security", "")
        max_age = re.search(r"max-age\s*=\s*\"?(\d+)", hsts, re.I)
        if not max_age or int(max_age.group(1)) <= 0:
            problems.append(f"Strict-Transport-Security is {hsts or None!r}")
        else:
            found.append(f"Strict-Transport-Security: {hsts}")
    if problems:
        return Check("headers", False, "; ".join(problems))
    return Check("headers", True, "; ".join(found))


def parse_csp(policy: str) -> dict[str, list[str]]:
    """One serialised policy: directive name → source list, lowercased (CSP3 §2.2.1: a
    repeated directive's later copies are ignored)."""
    directives: dict[str, list[str]] = {}
    for directive in policy.lower().split(";"):
        tokens = directive.split()
        if tokens:
            directives.setdefault(tokens[0], tokens[1:])
    return directives


def allows_connection(policy: dict[str, list[str]], url: str, page_url: str) -> bool:
    """Whether ``policy`` lets a page at ``page_url`` open ``url`` (connect-src, else
    default-src, else anything): CSP3 §6.7.2.7, "Does url match source list in origin"."""
    sources = policy.get("connect-src", policy.get("default-src"))
    if sources is None:
        return True
    if not sources or sources == ["'none'"]:
        return False
    return any(_source_matches(source, url, page_url) for source in sources)


_HOST_SOURCE = re.compile(
    r"^(?:(?P<scheme>[a-z][a-z0-9+.-]*)://)?(?P<host>\*|(?:\*\.)?[a-z0-9.-]+|\[[0-9a-f:.]+\])"
    r"(?::(?P<port>\d+|\*))?(?P<path>/[^?#]*)?$",
    re.I,
)


def _scheme_matches(source: str, scheme: str) -> bool:
    """CSP3 "scheme-part match": the same scheme, or a secure upgrade of it."""
    upgrades = {"http": {"https"}, "ws": {"wss", "http", "https"}, "wss": {"https"}}
    return source == scheme or scheme in upgrades.get(source, set())


def _source_matches(source: str, url: str, page_url: str) -> bool:
    """CSP3 §6.7.2.8, "Does url match expression in origin" (no redirects)."""
    target, page = urlsplit(url), urlsplit(page_url)
    scheme = target.scheme
    if source == "*":
        return scheme in ("http", "https") or scheme == page.scheme
    if re.fullmatch(r"[a-z][a-z0-9+.-]*:", source):
        return _scheme_matches(source[:-1], scheme)
    if source == "'self'":  # the page's own host and port; ws from an http page
        same_port = _explicit_port(target) == _explicit_port(page)  # or both the default
        secure = scheme in ("https", "wss") or (page.scheme == "http" and scheme in ("http", "ws"))
        return target.hostname == page.hostname and same_port and secure
    host_source = _HOST_SOURCE.match(source)
    if not host_source or source.startswith("'"):
        return False  # a keyword, nonce or hash: never a connection's source
    part = host_source.groupdict()
    if not _scheme_matches(part["scheme"] or page.scheme, scheme):
        return False
    # The spec matches host names only; browsers also match an IP literal exactly (the
    # local stack's 127.0.0.1), which this follows.
    host, pattern = target.hostname or "", part["host"].strip("[]")
    if pattern.startswith("*."):
        if not host.endswith(pattern[1:]):
            return False
    elif pattern != "*" and pattern != host:
        return False
    port = target.port or _DEFAULT_PORTS.get(scheme)
    if part["port"] != "*" and int(part["port"] or _DEFAULT_PORTS.get(scheme, -1)) != port:
        return False
    path = part["path"] or ""
    if path and path != "/":
        wanted = target.path or "/"
        return wanted.startswith(path) if path.endswith("/") else wanted == path
    return True


async def game_clock_scale(target: Target) -> float:
    """The game clock's speed the site's config.json gives the phones: the local stack's
    --time-scale, else 1 (a deployed site names none; one that cannot be read fails the
    page's checks, not the games)."""
    try:
        async with aiohttp.ClientSession() as session:
            config = await _fetch(session, target.site_url + "config.json")
        return max(1.0, float(json.loads(config.body).get("time_scale", 1)))
    except (aiohttp.ClientError, TimeoutError, ValueError, TypeError, AttributeError):
        return 1.0


async def check_site(target: Target, wait: float, out) -> list[Check]:
    """The page, config.json and the headers, tried again until they pass or ``wait``
    seconds have passed (CloudFront's invalidation)."""
    end = time.monotonic() + wait
    told = False
    async with aiohttp.ClientSession() as session:
        while True:
            try:
                page = await _fetch(session, target.site_url)
                config = await _fetch(session, target.site_url + "config.json")
                checks = [check_page(page), check_config(config, target.websocket_url),
                          check_headers(page, target.websocket_url)]  # fmt: skip
            except (aiohttp.ClientError, TimeoutError) as error:
                checks = [Check("page", False, f"{target.site_url}: {error!r}")]
            failed = [check for check in checks if not check.ok]
            if not failed or time.monotonic() + PAGE_RETRY_SECONDS > end:
                return checks
            if not told:
                print(f"...   {failed[0].name}: {failed[0].detail}; trying again for up to "
                      f"{wait:g} s (CloudFront may still serve the previous page)",
                      file=out, flush=True)  # fmt: skip
                told = True
            await asyncio.sleep(PAGE_RETRY_SECONDS)


# -- the games -----------------------------------------------------------------------------
class GameFailed(Exception):
    pass


@dataclass
class Table:
    """The bot phones at one room, and where they are (for a failure's line)."""

    game: str
    phones: list[BotClient]
    stage: str = "starting"
    code: str | None = None
    started_at: float = field(default_factory=time.monotonic)

    @property
    def host(self) -> BotClient:
        return self.phones[0]

    def where(self) -> str:
        """The step the table is at: the stage, the game's step and phase, each phone."""
        if self.stage != "playing":
            return self.stage
        view = self.host.game() or {}
        at = f"step {view.get('step')}, phase {view.get('phase')}"
        if view.get("waiting"):
            at += f", waiting for {', '.join(view['waiting'])}"
        return f"{at}; phones: " + "; ".join(_phone_state(phone) for phone in self.phones)

    def steps_seen(self) -> int:
        return len({view["step"] for _, kind, view in self.host.timeline
                    if kind == "view" and view.get("phase") != "lobby" and "step" in view})  # fmt: skip


def _phone_state(phone: BotClient) -> str:
    sent = next((message for message in reversed(phone.sent) if message["action"] != "ping"), None)
    last = f"{sent['action']}@{sent.get('step')}" if sent else "nothing"
    error = f", refused {phone.errors[-1]['code']}" if phone.errors else ""
    return f"{phone.name} {'online' if phone.connected else 'OFFLINE'}, sent {last}{error}"


async def play_game(game: str, target: Target, limit: float, time_scale: float = 1.0) -> Check:
    think = (THINK_SECONDS[0] / time_scale, THINK_SECONDS[1] / time_scale)
    table = Table(game, [BotClient(target.websocket_url, name, origin=target.origin, think=think)
                         for name in BOT_NAMES[:PLAYERS]])  # fmt: skip
    deadline = asyncio.timeout(limit)
    try:
        async with deadline:
            await _play(table)
        return _result(table)
    except TimeoutError:
        if deadline.expired():
            return Check(game, False, f"{_room(table)}stuck after {limit:g} s on {table.where()}")
        return Check(game, False, f"{_room(table)}{table.stage}: no answer in time")
    except aiohttp.WSServerHandshakeError as error:
        return Check(game, False, f"{_room(table)}{table.stage}: the WebSocket handshake was "
                                  f"refused with HTTP {error.status} (Origin {target.origin})")  # fmt: skip
    except (GameFailed, aiohttp.ClientError, OSError, RuntimeError) as error:
        return Check(game, False, f"{_room(table)}{table.stage}: {error}")
    finally:
        await _leave(table)


def _room(table: Table) -> str:
    return f"room {table.code}: " if table.code else ""


async def _play(table: Table) -> None:
    host, guests = table.host, table.phones[1:]
    for phone in table.phones:
        table.stage = f"connecting {phone.name}"
        await phone.connect()
    table.stage = "creating the room"
    # The shortest game: a phone whose move got lost holds the table up the least. The bots
    # move at once, so the game takes as long as its fixed-length steps.
    table.code = await host.create_room(game_of(table.game).shortest_settings(), game=table.game)
    for phone in guests:
        table.stage = f"{phone.name} joining"
        await phone.join(table.code)
    table.stage = f"waiting in the lobby for {PLAYERS} seats and no start problem"
    await host.wait_for(lambda bot: _can_start(bot.view), timeout=None)
    players = [asyncio.create_task(phone.play()) for phone in table.phones]
    table.stage = "starting the game"
    await host.send({"action": "start"})
    table.stage = "playing"
    # A phone whose socket closes mid-game would hold the table until the limit: say so now.
    dropped = [asyncio.create_task(phone.wait_for(lambda bot: not bot.connected, timeout=None))
               for phone in table.phones]  # fmt: skip
    try:
        playing = set(players)
        while playing:
            done, _ = await asyncio.wait([*playing, *dropped], return_when=asyncio.FIRST_COMPLETED)
            if done & set(dropped):
                gone = [phone.name for phone in table.phones if not phone.connected]
                raise GameFailed(f"the socket of {', '.join(gone)} closed mid-game on "
                                 f"{table.where()}")  # fmt: skip
            for player in done:
                player.result()  # a phone's failure, if any
            playing -= done
    finally:
        for task in (*players, *dropped):
            task.cancel()
    table.stage = "finished"


def _can_start(view: dict[str, Any] | None) -> bool:
    return bool(view and view.get("phase") == "lobby"
                and len(view.get("seats", [])) == PLAYERS and view.get("start_problem") is None)  # fmt: skip


def _result(table: Table) -> Check:
    results = {json.dumps((phone.game() or {}).get("outcome"), sort_keys=True)
               for phone in table.phones}  # fmt: skip
    outcome = (table.host.game() or {}).get("outcome") or {}
    seconds = time.monotonic() - table.started_at
    problems = []
    if len(results) != 1 or "winner" not in outcome:
        problems.append(f"the phones' results differ or name no winner: {sorted(results)}")
    refused = sorted({f"{phone.name}: {error['code']}" for phone in table.phones
                      for error in phone.errors if error.get("code") not in RACED_REFUSALS})  # fmt: skip
    if refused:
        problems.append(f"refused moves: {', '.join(refused)}")
    # API Gateway's own frames (no type): a failed Lambda or a throttled frame.
    gateway = sorted({str(message.get("message")) for phone in table.phones
                      for message in phone.received if "type" not in message})  # fmt: skip
    if gateway:
        problems.append(f"API Gateway answered {' / '.join(gateway)}")
    summary = (f"room {table.code}, {PLAYERS} players ({', '.join(p.name for p in table.phones)}), "
               f"{table.steps_seen()} steps, winner {outcome.get('winner')}, "
               f"{seconds:.0f} s")  # fmt: skip
    if problems:
        return Check(table.game, False, f"{summary}: " + "; ".join(problems))
    return Check(table.game, True, summary)


async def _leave(table: Table) -> None:
    """Every phone leaves, the host last: in the lobby each seat is freed and the last
    closes the room for good (docs/protocol.md), which TTL then deletes; in a game the
    leavers are played as Away to its end, which frees their seats. Then all hang up."""
    seated = [phone for phone in table.phones if phone.connected and phone.room]
    host = table.host
    with contextlib.suppress(aiohttp.ClientError, ConnectionError, TimeoutError):
        for phone in seated:
            if phone is not host:
                await phone.send({"action": "leave"})
        if host in seated:
            if (host.view or {}).get("phase") == "lobby":  # its view shows the others go
                await host.wait_for(lambda bot: len(bot.view.get("seats", [])) == 1,
                                    LEAVE_SECONDS)  # fmt: skip
            await host.send({"action": "leave"})
            # Hanging up at once would race the leave with $disconnect, two invocations
            # API Gateway does not order: a lost race keeps the seat 120 s more (seat_check).
            await asyncio.sleep(HANG_UP_AFTER_LEAVE_SECONDS)
    for phone in table.phones:
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            await phone.close()


# -- the whole ---------------------------------------------------------------------------
async def smoke(target: Target, *, games: bool = True, page: bool = True,
                page_wait: float = PAGE_WAIT_SECONDS, game_limit: float = GAME_LIMIT_SECONDS,
                out=None) -> list[Check]:  # fmt: skip
    """Every check, the games and the site's at once; each printed as it ends."""
    out = out or sys.stdout
    print(f"Smoke test of {target.websocket_url} (site {target.site_url}, Origin "
          f"{target.origin})", file=out, flush=True)  # fmt: skip
    checks: list[Check] = []

    async def report(job: Awaitable[list[Check]]) -> None:
        for check in await job:
            checks.append(check)
            print(check.line(), file=out, flush=True)

    async def game_check(game: str, time_scale: float) -> list[Check]:
        return [await play_game(game, target, game_limit, time_scale)]

    jobs = [check_site(target, page_wait, out)] if page else []
    if games:
        time_scale = await game_clock_scale(target)
        jobs += [game_check(game, time_scale) for game in GAMES]
    await asyncio.gather(*(report(job) for job in jobs))
    failed = [check.name for check in checks if not check.ok]
    if games:
        print("The smoke rooms are closed (every phone left) and expire by DynamoDB's TTL: "
              "no player can join or see them.", file=out)  # fmt: skip
    if failed:
        print(f"SMOKE FAILED: {len(failed)} of {len(checks)} checks failed "
              f"({', '.join(failed)})", file=out)  # fmt: skip
    else:
        print(f"SMOKE PASSED: {len(checks)} checks", file=out)
    return checks


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m deploy.smoke", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--stack", help="read WebSocketUrl and FrontendUrl from this stack")
    parser.add_argument("--region", help="the stack's region (with --stack)")
    parser.add_argument("--websocket-url", help="the WebSocket API (instead of --stack)")
    parser.add_argument("--site-url", help="the site serving the page (instead of --stack)")
    parser.add_argument("--origin", help="the Origin the phones send (default: the site's)")
    parser.add_argument("--only", choices=["page", "games"],
                        help="run only the page's checks, or only the games")  # fmt: skip
    parser.add_argument("--page-wait", type=float, default=PAGE_WAIT_SECONDS, metavar="SECONDS",
                        help="how long the page's checks are tried again (default %(default)g)")  # fmt: skip
    parser.add_argument("--game-limit", type=float, default=GAME_LIMIT_SECONDS,
                        metavar="SECONDS", help="each game's limit (default %(default)g)")  # fmt: skip
    args = parser.parse_args(argv)
    urls = (args.websocket_url, args.site_url)
    by_stack = bool(args.stack and args.region) and urls == (None, None)
    if not by_stack and (args.stack or args.region or None in urls):
        parser.error("give --stack and --region, or --websocket-url and --site-url")
    if args.game_limit <= 0 or args.page_wait < 0:
        parser.error("--game-limit must be positive and --page-wait at least 0")
    try:
        if by_stack:
            import boto3

            cloudformation = boto3.Session(region_name=args.region).client("cloudformation")
            target = target_of_stack(cloudformation, args.stack, args.origin)
        else:
            target = Target.of(args.websocket_url, args.site_url, args.origin)
    except ValueError as error:
        print(f"SMOKE FAILED: {error}", file=out)
        return 2
    checks = asyncio.run(smoke(target, games=args.only != "page", page=args.only != "games",
                               page_wait=args.page_wait, game_limit=args.game_limit, out=out))  # fmt: skip
    return 0 if all(check.ok for check in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
