"""Only the site's own origin opens a WebSocket. `$connect` reads
the handshake's ``Origin`` header from the API Gateway event and refuses (403) one that
``ALLOWED_ORIGINS`` does not list, compared exactly: scheme, host (any case) and port, no
prefix or suffix matching. A handshake without an Origin is let through (only a
non-browser client leaves it out, and it could send any value). The handler's refusals
are in tests/integration/test_handlers_moto.py, the local stack's over a real WebSocket
in tests/integration/test_local_stack_hardening.py."""

import pytest

from events.generate import websocket_event
from functions.room_service.entrypoints import lambda_app
from functions.room_service.entrypoints.lambda_app import (
    ALLOWED_ORIGINS_VARIABLE,
    allowed_origins,
    origin_key,
    refused_origin,
)
from local_stack.template import Template

SITE = "https://d111111abcdef8.cloudfront.net"


def _handshake(headers: dict | None) -> dict:
    return websocket_event("$connect", "CONNECT", "Lb9UmdxeDoECIeg=", headers=headers)


@pytest.fixture
def site(monkeypatch):
    monkeypatch.setenv(ALLOWED_ORIGINS_VARIABLE, f"{SITE} http://127.0.0.1:8080")


@pytest.mark.parametrize("origin", [
    SITE, "https://D111111ABCDEF8.CloudFront.NET", f"{SITE}:443", "HTTPS://d111111abcdef8.cloudfront.net",
    "http://127.0.0.1:8080",
])  # fmt: skip
def test_the_sites_own_origin_connects_whatever_the_case_of_its_host(site, origin):
    assert refused_origin(_handshake({"Origin": origin})) is None


@pytest.mark.parametrize("origin", [
    "https://evil.example",
    f"{SITE}.evil.com",  # a suffix
    "https://evil.d111111abcdef8.cloudfront.net",  # a prefix: another CloudFront site
    "https://d111111abcdef8.cloudfront.net.",  # another host to a browser
    "http://d111111abcdef8.cloudfront.net",  # the scheme
    f"{SITE}:8443",  # the port
    "http://127.0.0.1:8081", "http://127.0.0.1", "http://localhost:8080",  # not listed
    f"{SITE}/", f"{SITE}/path", f"{SITE}?x", f"{SITE}#x",  # not an origin
    f"https://user@{SITE[8:]}", f"https://{SITE[8:]}@evil.example",  # userinfo tricks
    f"{SITE} https://evil.example", f" {SITE}", f"{SITE}\t", "",  # lists, spaces, empty
    "null",  # a sandboxed frame, a file:// page
    "chrome-extension://abcdefghijklmnop", "wss://d111111abcdef8.cloudfront.net",
])  # fmt: skip
def test_any_other_origin_is_refused_and_named(site, origin):
    assert refused_origin(_handshake({"Origin": origin})) == origin


def test_the_header_is_found_in_any_case_and_every_value_counts(site):
    for name in ("Origin", "origin", "ORIGIN", "oRiGiN"):
        assert refused_origin(_handshake({name: "https://evil.example"})) == "https://evil.example"
        assert refused_origin(_handshake({name: SITE})) is None
    # Two Origin headers (no browser sends that): each must be allowed.
    event = _handshake({"Origin": SITE})
    event["multiValueHeaders"] = {"origin": ["https://evil.example"], "Origin": [SITE]}
    assert refused_origin(event) == "https://evil.example"


def test_a_handshake_without_an_origin_is_let_through(site):
    """Browsers always send one; a client that leaves it out could as well send ours."""
    assert refused_origin(_handshake(None)) is None
    assert (
        refused_origin(_handshake({"Host": "abc123.execute-api.eu-west-1.amazonaws.com"})) is None
    )


def test_unset_means_not_configured_every_origin_passes_and_a_warning_says_so(monkeypatch, caplog):
    lambda_app._warn_origins_not_configured.cache_clear()
    for value in (None, "", "   "):
        if value is None:
            monkeypatch.delenv(ALLOWED_ORIGINS_VARIABLE, raising=False)
        else:
            monkeypatch.setenv(ALLOWED_ORIGINS_VARIABLE, value)
        assert allowed_origins() is None
        assert refused_origin(_handshake({"Origin": "https://evil.example"})) is None
    warnings = [r for r in caplog.records if ALLOWED_ORIGINS_VARIABLE in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelname == "WARNING"  # once per container
    lambda_app._warn_origins_not_configured.cache_clear()


def test_a_value_that_is_not_a_list_of_origins_fails_in_words(monkeypatch):
    monkeypatch.setenv(ALLOWED_ORIGINS_VARIABLE, f"{SITE}, https://b.example/ *")
    with pytest.raises(ValueError, match=r"ALLOWED_ORIGINS: \[.*'\*'\] are not origins"):
        refused_origin(_handshake({"Origin": SITE}))


def test_origins_compare_by_scheme_host_and_port():
    assert origin_key("https://A.example") == ("https", "a.example", 443)
    assert origin_key("http://[::1]:8080") == ("http", "[::1]", 8080)
    assert origin_key("http://a.example:80") == origin_key("http://a.example")
    assert origin_key("https://a.example:80") != origin_key("http://a.example")


def test_the_deployed_connect_function_allows_the_cloudfront_site_alone():
    template = Template.load()
    connect = template.resources["ConnectFunction"]["Properties"]
    variables = {**template.environment(), **connect["Environment"]["Variables"]}
    assert variables[ALLOWED_ORIGINS_VARIABLE] == {
        "Fn::Sub": "https://${FrontendDistribution.DomainName}"
    }
