"""Names that look like a taken one are refused at sign-up (issue 27, item 10):
NFKC and Unicode's confusables (TR39 skeletons, cardtable/server/names.py),
and no name mixing Latin, Greek and Cyrillic letters."""

from __future__ import annotations

import pytest

from cardtable.server.settings import Limits
from tests.server.accounts_helpers import account_server


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Ｄave", "looks like 'Dave', which is taken"),  # a fullwidth D
        ("Dаve", "mixes Latin, Greek or Cyrillic letters"),  # a Cyrillic a
        ("Дave", "mixes Latin, Greek or Cyrillic letters"),  # a Cyrillic De
        ("DAVE", "the name 'DAVE' is taken"),  # case, as before
        ("ΒOB", "mixes Latin, Greek or Cyrillic letters"),  # a Greek Beta
        ("ВОВ", "looks like 'BOB', which is taken"),  # all Cyrillic: one script
        ("ΑΝΝΑ", "looks like 'Anna', which is taken"),  # all Greek
        ("Dave1", "looks like 'Davel', which is taken"),  # 1 and l
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_refused(db_url: str, name: str, words: str) -> None:
    with account_server(db_url) as server:
        for taken in ("Dave", "BOB", "Anna", "Davel"):
            server.browser().sign_up(taken)
        refused = server.browser().sign_up(name, status=409)
        assert words in refused["error"], refused


def test_names_that_only_resemble_one_are_accepted(db_url: str) -> None:
    # Six sign-ups from the test client's one address: past --signups-per-minute.
    with account_server(db_url, limits=Limits(signups_per_minute=6)) as server:
        for name in ("Dave", "Davy", "Дима", "Ελένη", "Zoë", "Zoe"):
            assert server.browser().sign_up(name)["account"]["name"] == name
