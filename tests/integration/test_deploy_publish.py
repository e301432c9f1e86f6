"""Issue 11: what `make deploy` does after `sam deploy`, against moto (CloudFormation
outputs, S3, CloudFront), and the published client in a real browser.

The stack here is a stand-in with the real stack's outputs (moto cannot run the SAM
template's WebSocket API); the publisher reads them exactly as it reads the real ones."""

import io
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path, PurePosixPath
from typing import ClassVar

import boto3
import pytest
from moto import mock_aws

import deploy.__main__ as deployer
from deploy.frontend import IMMUTABLE, NO_CACHE, uploads

REGION = "eu-west-1"
STACK = "catch-the-witch"
WEBSOCKET_URL = "wss://abc123.execute-api.eu-west-1.amazonaws.com/prod"
FRONTEND = Path(__file__).resolve().parents[2] / "frontend"

STAND_IN = """
Parameters:
  DistributionId: {Type: String}
  DistributionDomain: {Type: String}
Resources:
  FrontendBucket: {Type: "AWS::S3::Bucket"}
Outputs:
  FrontendBucketName: {Value: !Ref FrontendBucket}
  FrontendDistributionId: {Value: !Ref DistributionId}
  FrontendUrl: {Value: !Sub "https://${DistributionDomain}"}
  WebSocketUrl: {Value: "wss://abc123.execute-api.eu-west-1.amazonaws.com/prod"}
"""


@pytest.fixture
def cloud(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        session = boto3.Session(region_name=REGION)
        distribution = session.client("cloudfront").create_distribution(DistributionConfig={
            "CallerReference": "test", "Comment": "", "Enabled": True,
            "Origins": {"Quantity": 1, "Items": [{"Id": "frontend",
                        "DomainName": "bucket.s3.eu-west-1.amazonaws.com",
                        "S3OriginConfig": {"OriginAccessIdentity": ""}}]},
            "DefaultCacheBehavior": {"TargetOriginId": "frontend",
                                     "ViewerProtocolPolicy": "redirect-to-https",
                                     "CachePolicyId": "658327ea-f89d-4fab-a63d-7e88639e58f6"},
        })["Distribution"]  # fmt: skip
        session.client("cloudformation").create_stack(
            StackName=STACK, TemplateBody=STAND_IN,
            Parameters=[{"ParameterKey": "DistributionId", "ParameterValue": distribution["Id"]},
                        {"ParameterKey": "DistributionDomain",
                         "ParameterValue": distribution["DomainName"]}],
        )  # fmt: skip
        yield session, distribution


def _objects(session, bucket: str) -> dict[str, dict]:
    s3 = session.client("s3")
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket).get("Contents", [])]
    return {key: s3.get_object(Bucket=bucket, Key=key) for key in keys}


def _bucket(session) -> str:
    return deployer.stack_outputs(session.client("cloudformation"), STACK)["FrontendBucketName"]


def test_publish_uploads_the_client_writes_config_invalidates_and_prints_the_url(cloud):
    session, distribution = cloud
    out = io.StringIO()
    url = deployer.publish(session, STACK, out=out)
    assert url == f"https://{distribution['DomainName']}/"
    objects = _objects(session, _bucket(session))
    config = objects["config.json"]
    # Only the WebSocket's address: a deployed phone counts down on the wall clock (no
    # time_scale: that is the local stack's, for tests).
    assert json.loads(config["Body"].read()) == {"websocket_url": WEBSOCKET_URL}
    assert config["ContentType"].startswith("application/json")
    for page in ("index.html", "rules.html", "rules/en.html", "table.html", "table", "config.json"):
        assert objects[page]["CacheControl"] == NO_CACHE, page
    versioned = {key for key in objects if key.startswith("v/")}
    assert len({key.split("/")[1] for key in versioned}) == 1
    for key in versioned:
        assert objects[key]["CacheControl"] == IMMUTABLE, key
    # "": a page also served without ".html" (deploy/frontend.py PAGE_ALIASES: /table).
    suffix_types = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
                    ".json": "application/json", ".html": "text/html", "": "text/html"}  # fmt: skip
    for key, item in objects.items():
        assert item["ContentType"].startswith(suffix_types[PurePosixPath(key).suffix]), key
    assert not [key for key in objects if key.endswith(".md")]
    (invalidation,) = session.client("cloudfront").list_invalidations(
        DistributionId=distribution["Id"])["InvalidationList"]["Items"]  # fmt: skip
    paths = session.client("cloudfront").get_invalidation(
        DistributionId=distribution["Id"], Id=invalidation["Id"]
    )["Invalidation"]["InvalidationBatch"]["Paths"]["Items"]
    assert {"/", "/index.html", "/config.json", "/rules.html", "/table"} <= set(paths)
    assert not [p for p in paths if p.startswith("/v/")]  # versioned assets never go stale
    printed = out.getvalue()
    assert url in printed and WEBSOCKET_URL in printed and "█" in printed  # the QR code


def _references(key: str, text: str) -> set[str]:
    """Relative references of a page or module, resolved to bucket keys."""
    found = set(re.findall(r'(?:href|src)="([^"#?:]+)"', text)) if key.endswith(".html") else set()
    found |= set(re.findall(r'(?:from\s+|import\s*\(\s*)"(\.{1,2}/[^"]+)"', text))
    if "${code}" in text:  # fetch(new URL(`../i18n/${code}.json`, import.meta.url))
        for template in re.findall(r"new URL\(`([^`]+)`", text):
            found |= {template.replace("${code}", code) for code in ("en", "zh-Hant", "uk", "th")}
    # The rules fragments are inserted into rules.html: they resolve against its folder.
    base = PurePosixPath() if key.startswith("rules/") else PurePosixPath(key).parent
    resolved = set()
    for reference in (f for f in found if not f.endswith("/")):  # folders: the index page
        parts: list[str] = []
        for part in (base / reference).parts:
            if part == "..":
                parts.pop()
            elif part != ".":
                parts.append(part)
        resolved.add("/".join(parts))
    return resolved


def test_every_reference_of_the_published_pages_and_modules_resolves_in_the_bucket(cloud):
    session, _ = cloud
    deployer.publish(session, STACK, out=io.StringIO())
    objects = {key: item["Body"].read().decode() for key, item in
               _objects(session, _bucket(session)).items()}  # fmt: skip
    checked = 0
    for key, text in objects.items():
        if key.endswith((".html", ".js", ".mjs")):
            missing = _references(key, text) - set(objects)
            assert not missing, f"{key} refers to {missing}"
            checked += len(_references(key, text))
    index_refs = _references("index.html", objects["index.html"])
    assert any(ref.startswith("v/") and ref.endswith("js/app.js") for ref in index_refs)
    assert checked > 10


def test_a_new_deploy_gets_a_new_asset_version_and_keeps_the_old_one(cloud, tmp_path):
    session, _ = cloud
    deployer.publish(session, STACK, out=io.StringIO())
    first = {k.split("/")[1] for k in _objects(session, _bucket(session)) if k.startswith("v/")}
    changed = tmp_path / "frontend"
    changed.mkdir()
    for path in FRONTEND.rglob("*"):
        if path.is_file():
            target = changed / path.relative_to(FRONTEND)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    (changed / "css" / "style.css").write_text((FRONTEND / "css" / "style.css").read_text() + "\n")
    assert uploads(WEBSOCKET_URL, changed)[0].key.split("/")[1] not in first
    unchanged = uploads(WEBSOCKET_URL)
    assert {u.key.split("/")[1] for u in unchanged if u.key.startswith("v/")} == first


def test_destroy_empties_the_bucket_and_tolerates_a_missing_stack(cloud):
    session, _ = cloud
    deployer.publish(session, STACK, out=io.StringIO())
    bucket = _bucket(session)
    assert deployer.empty_bucket(session, STACK, out=io.StringIO()) > 10
    assert _objects(session, bucket) == {}
    out = io.StringIO()
    assert deployer.empty_bucket(session, "no-such-stack", out=out) == 0
    assert "nothing to empty" in out.getvalue()


class _BucketSite(BaseHTTPRequestHandler):
    """Serves published objects with their stored content type, as CloudFront would."""

    objects: ClassVar[dict[str, tuple[bytes, str]]] = {}

    def do_GET(self):
        key = self.path.split("?")[0].lstrip("/") or "index.html"
        if key not in self.objects:
            self.send_error(403)  # what S3 behind CloudFront answers for a missing key
            return
        body, content_type = self.objects[key]
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_the_published_client_boots_from_its_versioned_assets_and_plays(stack, phones):
    """The published layout in Chromium: the page loads its versioned scripts, styles
    and strings, reads config.json, and creates a room on the WebSocket it names (here
    the local stack's)."""
    from playwright.sync_api import expect

    published = uploads(stack.websocket_url)
    _BucketSite.objects = {u.key: (u.body, u.content_type) for u in published}
    server = ThreadingHTTPServer(("127.0.0.1", 0), _BucketSite)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = phones("uk-UA")
        fetched: list[str] = []
        page.on("response", lambda r: fetched.append(f"{r.status} {r.url}"))
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
        page.fill("#name", "Zoe")
        strings = json.loads((FRONTEND / "i18n" / "uk.json").read_text())
        page.get_by_role("button", name=strings["create_room"], exact=True).click()
        expect(page.locator(".seats li")).to_have_count(5, timeout=20_000)
    finally:
        server.shutdown()
    assert not [line for line in fetched if not line.startswith(("200", "101"))], fetched
    assert any("/v/" in line and line.endswith("/i18n/uk.json") for line in fetched), fetched
