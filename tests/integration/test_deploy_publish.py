"""What `make deploy` does after `sam deploy`, against moto (CloudFormation
outputs, S3, CloudFront), and the published client in a real browser.

The stack here is a stand-in with the real stack's outputs (moto cannot run the SAM
template's WebSocket API); the publisher reads them exactly as it reads the real ones."""

import io
import json
import re
from pathlib import Path, PurePosixPath

import boto3
import pytest
from moto import mock_aws

import deploy.__main__ as deployer
from deploy.frontend import IMMUTABLE, NO_CACHE, uploads
from deploy.stack import destroy
from engine.games import GAMES

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
    # The WebSocket's address and the games it hosts: a deployed phone counts down on the wall clock (no
    # time_scale: that is the local stack's, for tests).
    assert json.loads(config["Body"].read()) == {
        "websocket_url": WEBSOCKET_URL,
        "games": list(GAMES),
    }
    assert config["ContentType"].startswith("application/json")
    for page in (
        "index.html",
        "rules.html",
        "js/games/catch_the_witch/rules/en.html",
        "table.html",
        "table",
        "config.json",
    ):
        assert objects[page]["CacheControl"] == NO_CACHE, page
    versioned = {key for key in objects if key.startswith("v/")}
    assert len({key.split("/")[1] for key in versioned}) == 1
    for key in versioned:
        assert objects[key]["CacheControl"] == IMMUTABLE, key
    # "": a page also served without ".html" (deploy/frontend.py PAGE_ALIASES: /table).
    suffix_types = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
                    ".json": "application/json", ".html": "text/html", "": "text/html",
                    ".webm": "video/webm", ".mp4": "video/mp4"}  # fmt: skip
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
    objects = {key: item["Body"].read() for key, item in
               _objects(session, _bucket(session)).items()}  # fmt: skip
    checked = 0
    for key, body in objects.items():
        if key.endswith((".html", ".js", ".mjs")):  # text; the videos (vendor/) are not
            missing = _references(key, body.decode()) - set(objects)
            assert not missing, f"{key} refers to {missing}"
            checked += len(_references(key, body.decode()))
    index_refs = _references("index.html", objects["index.html"].decode())
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


def test_destroy_after_publish_leaves_no_file_and_no_stack(cloud):
    """The published client (more files than one DeleteObjects page would need to be
    exact about) goes with the stack; every other state: tests/integration/test_deploy_destroy."""
    session, _ = cloud
    deployer.publish(session, STACK, out=io.StringIO())
    bucket = _bucket(session)
    out = io.StringIO()
    destroy(session, STACK, out, poll_seconds=0)
    assert f"Emptied s3://{bucket}/ ({len(uploads(WEBSOCKET_URL))} objects)" in out.getvalue()
    assert bucket not in {b["Name"] for b in session.client("s3").list_buckets()["Buckets"]}
    assert session.client("cloudformation").describe_stacks()["Stacks"] == []


def test_the_published_client_boots_from_its_versioned_assets_and_plays(stack, phones):
    """The published layout in Chromium: the page loads its versioned scripts, styles
    and strings, reads config.json, and creates a room on the WebSocket it names (here
    the local stack's). Every HTTP request is answered from the published objects with
    their stored content type and the template's response headers policy, as CloudFront
    answers (a missing key: 403, as S3 behind CloudFront does), at the local stack's own
    address: $connect accepts only the site's origin, and there the site is the
    local stack. The WebSocket itself is not routed: it reaches the local stack."""
    from playwright.sync_api import expect

    from local_stack.template import Template

    published = {u.key: u for u in uploads(stack.websocket_url)}
    headers = Template.load().frontend_headers().for_websocket(
        stack.websocket_url.rsplit("/", 1)[0])  # fmt: skip

    def as_cloudfront(route):
        key = PurePosixPath(route.request.url.split("?")[0].split("/", 3)[3] or "index.html")
        upload = published.get(str(key))
        if upload is None:
            route.fulfill(status=403, body="AccessDenied")
            return
        route.fulfill(status=200, body=upload.body,
                      headers={**headers, "Content-Type": upload.content_type,
                               "Cache-Control": upload.cache_control})  # fmt: skip

    page = phones("uk-UA")
    page.route(f"{stack.http_url}/**", as_cloudfront)
    # A page Playwright answers has no address, so Chromium takes it for a public site,
    # whose sockets to this computer it blocks unless allowed (Local Network Access).
    page.context.grant_permissions(["local-network-access"])
    fetched: list[str] = []
    refused_by_csp: list[str] = []
    page.on("response", lambda r: fetched.append(f"{r.status} {r.url}"))
    page.on("console", lambda message: refused_by_csp.append(message.text)
            if "Content Security Policy" in message.text else None)  # fmt: skip
    page.goto(f"{stack.http_url}/")
    page.fill("#name", "Zoe")
    strings = json.loads((FRONTEND / "i18n" / "uk.json").read_text())
    page.get_by_role("button", name=strings["create_room"], exact=True).click()
    expect(page.locator(".seats li")).to_have_count(5, timeout=20_000)
    assert not [line for line in fetched if not line.startswith(("200", "101"))], fetched
    assert any("/v/" in line and line.endswith("/i18n/uk.json") for line in fetched), fetched
    assert refused_by_csp == []
