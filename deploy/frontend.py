"""The phone client as the objects of the stack's bucket.

Pages (``index.html``, ``rules.html``, the rules fragments) and ``config.json`` keep
their paths and are never cached, so a deploy shows at once. Every other file (scripts,
styles, strings, vendored code) is an asset: it goes under ``v/<version>/``, named by a
hash of all the assets, and is cached for a year; the pages are rewritten to point there.
A phone that loaded an older page keeps getting that page's own assets, which stay.
"""

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from engine.games import GAMES

FRONTEND = Path(__file__).resolve().parent.parent / "frontend"

NO_CACHE = "no-cache"  # revalidate every time (CloudFront keeps it 1 s at most)
IMMUTABLE = "public, max-age=31536000, immutable"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webm": "video/webm",
    ".mp4": "video/mp4",
    ".webmanifest": "application/manifest+json",
}
#: Files of frontend/ that are not served (documentation of the folder itself).
NOT_SERVED = {".md"}
#: The configuration the client fetches (frontend/js/app.js).
CONFIG = "config.json"
#: Pages also served at a path without ``.html`` (the table screen's ``/table?room=CODE``):
#: S3 and CloudFront map no extensionless path to a file, so the page is uploaded under that
#: key too, as text/html. Its relative references resolve as from ``table.html`` (same folder).
PAGE_ALIASES = {"table.html": "table"}


@dataclass(frozen=True)
class Upload:
    key: str
    body: bytes
    content_type: str
    cache_control: str


def _is_page(relative: str) -> bool:
    return relative.endswith(".html")


def _content_type(relative: str) -> str:
    suffix = Path(relative).suffix
    if suffix not in CONTENT_TYPES:
        raise ValueError(f"frontend/{relative}: no content type known for {suffix!r}")
    return CONTENT_TYPES[suffix]


def _served(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.suffix not in NOT_SERVED
    }


def asset_version(assets: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for relative, body in sorted(assets.items()):
        digest.update(relative.encode() + b"\0" + body + b"\0")
    return digest.hexdigest()[:12]


def _versioned_page(text: str, assets: set[str], prefix: str) -> str:
    """Points a page's relative references to assets (``href``/``src`` attributes and
    module imports such as ``from "./js/i18n.js"``) at the versioned copies."""

    def rewrite(match: re.Match) -> str:
        opening, target, closing = match.groups()
        path = target.removeprefix("./")
        return f"{opening}{prefix}{path}{closing}" if path in assets else match.group(0)

    return re.sub(r'((?:href|src)="|from\s+")([^"]+)(")', rewrite, text)


def uploads(websocket_url: str, root: Path = FRONTEND) -> list[Upload]:
    """Everything to put in the bucket, assets first, then pages, config.json last: a
    phone never gets a page whose assets are not there yet."""
    files = _served(root)
    assets = {relative: body for relative, body in files.items() if not _is_page(relative)}
    prefix = f"v/{asset_version(assets)}/"
    found = [
        Upload(prefix + relative, body, _content_type(relative), IMMUTABLE)
        for relative, body in sorted(assets.items())
    ]
    for relative in sorted(set(files) - set(assets)):
        page = _versioned_page(files[relative].decode(), set(assets), prefix).encode()
        found.append(Upload(relative, page, _content_type(relative), NO_CACHE))
        if relative in PAGE_ALIASES:
            found.append(Upload(PAGE_ALIASES[relative], page, _content_type(relative), NO_CACHE))
    # The games the deployed stack hosts (its registry is this one), for the create form.
    config = json.dumps({"websocket_url": websocket_url, "games": list(GAMES)}).encode()
    found.append(Upload(CONFIG, config, _content_type(CONFIG), NO_CACHE))
    return found


def invalidation_paths(published: list[Upload]) -> list[str]:
    """What CloudFront may still hold from the last deploy: the unversioned paths."""
    return ["/", *sorted(f"/{u.key}" for u in published if u.cache_control == NO_CACHE)]
