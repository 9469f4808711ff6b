"""``docs/server.md`` names the browser-storage key under which the table page
really keeps a seat's token (``cardtable/server/web/static/api.js``)."""

from __future__ import annotations

import re

from tests.server.processes import ROOT


def test_the_server_page_names_the_key_the_table_page_keeps_a_token_under() -> None:
    api = (ROOT / "cardtable" / "server" / "web" / "static" / "api.js").read_text(encoding="utf-8")
    found = re.search(r"const TOKEN_KEY = \(tableId\) => `([^`$]*)\$\{tableId\}`;", api)
    assert found is not None, "api.js no longer says TOKEN_KEY as this test reads it"
    page = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    assert f'localStorage["{found.group(1)}"+id]' in page
