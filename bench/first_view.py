"""A phone's first view over slow 4G: how long until the home screen is usable.

    python bench/first_view.py [--runs 3] [--rtt-ms 150] [--kbit 1600]

Starts `python -m local_stack`, then opens the home page in Debian's Chromium at phone
size with an empty cache, its network emulated (Chrome DevTools' Network conditions: a
round trip of ``--rtt-ms`` and ``--kbit`` kbit/s down, 750 kbit/s up; "slow 4G"), and
times navigation start → the create form's button shown and enabled (the player can type
a name and tap), read by the page's own clock at the first frame that shows it (a check
polled from outside, every 0.5 s once it has waited a while, rounded the time up by as
much). Prints each run's time, the median, and what was downloaded: requests and
bytes on the wire (compressed, as sent) against the files' own size. Figures only, no
pass/fail: the target is a median of at most 2 s. The local server compresses
text as CloudFront does deployed (local_stack/gateway.py, template.yaml ``Compress``), so
the bytes are the deployed site's within a few percent; CloudFront's HTTP/2 makes its round
trips fewer than this HTTP/1.1 server's, so the time here is an upper bound.
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright

from tests.support.local_stack_process import LocalStackProcess
from tests.support.ui_table import CHROMIUM, FLAGS, PHONE

UPLOAD_KBIT = 750
#: The page's time since navigation start (ms) once the create form's button is there to
#: tap, checked at every frame; 0 (falsy: keep waiting) before.
USABLE_JS = """() => (document.querySelector("main[data-phase=home] button.big:enabled")
  ? performance.now() : 0)"""
#: Every resource the page loaded: transferred (wire) and decoded bytes.
RESOURCES_JS = """() => performance.getEntriesByType("resource").concat(performance.getEntriesByType("navigation"))
  .map((r) => ({ name: r.name, wire: r.transferSize, size: r.decodedBodySize }))"""


def one_view(browser, url: str, rtt_ms: float, kbit: float) -> tuple[float, list[dict]]:
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="en-GB")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": rtt_ms,
        "downloadThroughput": kbit * 1000 / 8, "uploadThroughput": UPLOAD_KBIT * 1000 / 8,
    })  # fmt: skip
    page.goto(url, wait_until="commit")
    shown = page.wait_for_function(USABLE_JS, polling="raf", timeout=30_000)
    usable = shown.json_value() / 1000
    resources = page.evaluate(RESOURCES_JS)
    context.close()
    return usable, resources


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rtt-ms", type=float, default=150)
    parser.add_argument("--kbit", type=float, default=1600)
    args = parser.parse_args()
    stack = LocalStackProcess()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            times, resources = [], []
            for run in range(args.runs):
                usable, resources = one_view(browser, stack.http_url + "/", args.rtt_ms, args.kbit)
                times.append(usable)
                print(f"run {run + 1}: home screen usable after {usable:.2f} s")
            browser.close()
    finally:
        stack.interrupt()
    wire = sum(r["wire"] for r in resources)
    size = sum(r["size"] for r in resources)
    print(f"median {statistics.median(times):.2f} s over {args.runs} runs "
          f"({args.rtt_ms:g} ms round trip, {args.kbit:g} kbit/s down); target <= 2 s")  # fmt: skip
    print(
        f"{len(resources)} requests, {wire / 1000:.0f} KB on the wire for {size / 1000:.0f} KB of files"
    )
    for r in sorted(resources, key=lambda r: -r["wire"])[:5]:
        print(f"  {r['wire'] / 1000:6.1f} KB  {r['name'].split('/', 3)[-1] or '/'}")


if __name__ == "__main__":
    main()
