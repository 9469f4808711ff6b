"""What each browser page costs to load: requests and bytes, raw and gzipped.

    python benchmarks/bench_page_weight.py [--peer ed38872]

Starts ``cardtable serve`` on 127.0.0.1 with a fresh SQLite file, opens each
page in Debian's Chromium (Playwright, as the browser tests do) and counts
every response of the server's own origin that the page fetched until the
network went quiet, each in a fresh context (a cold cache): the lobby, and
for each game a table (of bots, moving), its rules, learn and puzzles pages.
The server sends them uncompressed; the gzipped column says what a
compressing reverse proxy would send. The peer, measured in the same run, is
the browser's files at an older commit (``--peer``, read with ``git``): their
total bytes then and now, so the ratio says how much the client grew.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM_ARGS  # noqa: E402
from tests.browser.helpers import Server  # noqa: E402

CLIENT_FOLDERS = (
    "cardtable/server/web/static",
    "cardtable/games/marshmallow_test/web",
    "cardtable/games/myrummy_111/web",
)
CLIENT_SUFFIXES = (".js", ".css", ".html", ".json", ".svg")


def tree_bytes(commit: str | None) -> int:
    """Bytes of the browser's own files at ``commit`` (None: the working tree)."""
    total = 0
    if commit is None:
        for folder in CLIENT_FOLDERS:
            for path in (ROOT / folder).rglob("*"):
                if path.is_file() and path.suffix in CLIENT_SUFFIXES:
                    total += path.stat().st_size
        return total
    listing = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "-r", "-l", commit, "--", *CLIENT_FOLDERS],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for line in listing.splitlines():
        meta, name = line.split("\t", 1)
        if name.endswith(CLIENT_SUFFIXES):
            total += int(meta.split()[3])
    return total


def weigh(browser: Any, url: str, ready: str) -> tuple[int, int, int]:
    """(requests, raw bytes, gzipped bytes) of the server's responses while a
    fresh context (a cold cache) loads ``url`` until the network is quiet."""
    origin = url.split("/", 3)[:3]
    bodies: list[bytes] = []
    context = browser.new_context()
    page = context.new_page()

    def keep(response: Any) -> None:
        if response.url.split("/", 3)[:3] == origin:
            # A redirect or an aborted request has no body.
            with contextlib.suppress(Exception):
                bodies.append(response.body())

    page.on("response", keep)
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    context.close()
    packed = sum(len(gzip.compress(body, 6)) for body in bodies)
    return len(bodies), sum(map(len, bodies)), packed


def bots_table(server: Server, game: str) -> str:
    """A table of bots only, moving: what a person opening its link loads."""
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    body = json.dumps({"game": game, "seats": seats, "bot_delay_ms": 1000}).encode()
    request = urllib.request.Request(
        server.url + "/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return str(json.load(response)["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", default="ed38872", help="the older commit to compare with")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        parser.error("Debian's chromium is missing: bash scripts/install-test-deps.sh")
    rows: list[tuple[str, tuple[int, int, int]]] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server = Server(Path(folder) / "tables.sqlite3")
        server.start()
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            rows.append(("lobby", weigh(browser, server.url + "/", ".quick-game")))
            for game in ("marshmallow-test", "myrummy-111"):
                table = bots_table(server, game)
                pages = {
                    "table": (f"/t/{table}", "#board .seat"),
                    "rules": (f"/rules/{game}", "main h1"),
                    "learn": (f"/learn/{game}", "main h1"),
                    "puzzles": (f"/puzzles/{game}", "main h1"),
                }
                for name, (path, ready) in pages.items():
                    rows.append((f"{name} ({game})", weigh(browser, server.url + path, ready)))
        finally:
            browser.close()
            server.stop()
    print(f"{'page (cold cache)':<28} {'requests':>8} {'bytes':>10} {'gzipped':>10}")
    for name, (count, raw, packed) in rows:
        print(f"{name:<28} {count:>8} {raw:>10,} {packed:>10,}")
    now, before = tree_bytes(None), tree_bytes(args.peer)
    print(
        f"\nthe browser's files: {now:,} bytes now, {before:,} at {args.peer}"
        f" (ratio {now / before:.2f})"
    )


if __name__ == "__main__":
    main()
