"""A game that plugs in: the coin game (tests/support/coin_game.py, never shipped) played
lobby to result by two phones in Chromium, on a local stack that hosts it besides the
shipped games. Its client is one folder, frontend/js/games/coin/; the shell, the room
service and the local stack know it only through the registries (engine/games.py's
EXTRA_GAMES, the config.json's `games`), which tests/service/test_layers.py checks."""

import pytest
from playwright.sync_api import expect

from engine.games import EXTRA_GAMES_VARIABLE
from tests.support.local_stack_process import BROWSER_TIME_SCALE, LocalStackProcess
from tests.support.ui_table import ARTIFACTS


@pytest.fixture(scope="module")
def coin_stack():
    process = LocalStackProcess(
        time_scale=BROWSER_TIME_SCALE,
        env={EXTRA_GAMES_VARIABLE: "tests.support.coin_game:CoinGame"},
    )
    yield process
    process.interrupt()


def test_two_phones_play_the_coin_game_from_the_lobby_to_its_result(coin_stack, phones):
    host, guest = phones("en-GB"), phones("en-GB")
    host.goto(coin_stack.http_url + "/")
    host.fill("#name", "Ann")
    host.get_by_role("radio", name="Coin").check()
    host.get_by_role("button", name="Create a room", exact=True).click()
    code = host.locator("p.code").inner_text()

    guest.goto(coin_stack.http_url + "/")
    guest.fill("#name", "Bo")
    guest.fill("#code", code)
    guest.get_by_role("button", name="Join", exact=True).click()
    for phone in (host, guest):
        expect(phone.locator(".seats li")).to_have_count(2, timeout=10_000)
    # The seat range comes from the server's lobby view (player_range), not the client.
    expect(host.get_by_text("2–4 players")).to_be_visible()
    host.get_by_role("button", name="+").click()  # two rounds: the host's one setting
    expect(guest.get_by_text("Rounds: 2")).to_be_visible(timeout=10_000)
    # The table screen draws the game's own screens too, with a chip per seat (no strip).
    host.locator("#table-screen summary").click()
    tv = host.context.new_page()
    tv.goto(host.locator("#table-screen .link a").get_attribute("href"))
    expect(tv.locator("main")).to_have_attribute("data-phase", "lobby", timeout=15_000)
    host.get_by_role("button", name="Start the game").click()
    expect(tv.locator("main")).to_have_attribute("data-phase", "call", timeout=10_000)
    expect(tv.locator(".cats li")).to_have_count(2)
    expect(tv.get_by_role("heading", name="Heads or tails?")).to_be_visible()

    for round_number in (1, 2):
        for phone in (host, guest):
            expect(phone.get_by_text(f"Round {round_number} of 2")).to_be_visible(timeout=10_000)
        # Ann's call is kept and shown pressed while the step waits for Bo's; Bo's ends it.
        heads = host.get_by_role("button", name="Heads")
        heads.click()
        expect(heads).to_have_attribute("aria-pressed", "true")
        expect(host.get_by_text("Waiting for Bo")).to_be_visible()
        guest.get_by_role("button", name="Tails").click()
        host.screenshot(path=ARTIFACTS / f"coin-result-{round_number}.png")
        for phone in (host, guest):
            expect(phone.get_by_role("heading", name="The coin landed")).to_be_visible(
                timeout=10_000
            )
            phone.get_by_role("button", name="OK", exact=True).click()

    for phone in (host, guest):
        expect(phone.get_by_role("heading", name="Won:")).to_be_visible(timeout=10_000)
        expect(phone.locator(".coin-scores li")).to_have_count(2)
    host.screenshot(path=ARTIFACTS / "coin-end.png")
    # Back in the lobby, the last game's winners are told by the game's own words.
    host.get_by_role("button", name="To the lobby").click()
    expect(host.get_by_text("Last game: Won:")).to_be_visible()
    expect(host.get_by_role("button", name="Play again")).to_be_visible()
