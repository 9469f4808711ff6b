"""Browser tests: the real server (``cardtable serve`` in its own process, on a
temporary SQLite file) driven by Debian's Chromium through Playwright.

Chromium comes from ``apt-get install -y chromium`` (installed here when it is
missing and we are root); Playwright's own browser download is never used.
Screenshots land in ``test-artifacts/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed: pip install '.[test]'"
)

from tests.browser.helpers import REPO, Server  # noqa: E402  (after the skips above)

SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",  # we run as root
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _chromium() -> str:
    path = shutil.which("chromium")
    if path is None and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "install", "-y", "chromium"], check=False, capture_output=True)
        path = shutil.which("chromium")
    if path is None:
        pytest.skip(
            "Debian's chromium is missing and cannot be installed here (needs root apt-get)"
        )
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    yield from _serving(Server(tmp_path / "tables.sqlite3"))


@pytest.fixture
def server_behind_a_proxy(tmp_path: Path) -> Iterator[Server]:
    """The server trusting 127.0.0.1 as its proxy, so that each person's page
    can say its own address (``X-Forwarded-For`` in ``extra_http_headers``), as people at
    their own homes would: two accounts from one address are not rated."""
    yield from _serving(Server(tmp_path / "tables.sqlite3", "--trusted-proxy", "127.0.0.1"))


def _serving(running: Server) -> Iterator[Server]:
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's axe.min.js: vendored by the pip package axe-playwright-python
    (in the test extra), else fetched from the npm registry with ``npm pack``."""
    try:
        from importlib.resources import files

        return files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        pass
    cache = REPO / "test-artifacts" / "axe"
    script = cache / "package" / "axe.min.js"
    if not script.is_file():
        if shutil.which("npm") is None:
            pytest.skip(
                "axe-core is unavailable: pip install axe-playwright-python, or install npm"
            )
        cache.mkdir(parents=True, exist_ok=True)
        packed = subprocess.run(
            ["npm", "pack", "axe-core@4", "--silent"], cwd=cache, capture_output=True, text=True
        )
        if packed.returncode != 0:
            pytest.skip(f"npm pack axe-core failed: {packed.stderr.strip()[:200]}")
        subprocess.run(
            ["tar", "-xzf", packed.stdout.strip().splitlines()[-1]], cwd=cache, check=True
        )
    return script.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
