"""The terms of cardtable/server/accounts/passwords.py that the account tests
leave open (issue 34, item 8: mutation testing): the argon2 costs a hash is
made with, the dummy hash that makes an unknown name cost one real
verification, and the bounds of a new password."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher, extract_parameters, profiles

from cardtable.server.accounts.passwords import MAX_LENGTH, MIN_LENGTH, Passwords, new_password
from cardtable.server.wire import BadInput


def test_the_fast_hasher_for_tests_uses_exactly_the_cheap_costs() -> None:
    costs = extract_parameters(Passwords(fast=True).hash("a password"))
    assert (costs.time_cost, costs.memory_cost, costs.parallelism) == (1, 1024, 1)


def test_the_real_hasher_uses_the_librarys_recommended_costs() -> None:
    """passwords.py: "argon2id with the library's recommended cost" (RFC 9106's
    low-memory profile in argon2-cffi 21.2 and later)."""
    recommended = profiles.get_default_parameters()
    made = extract_parameters(Passwords().hash("a password"))
    assert made == recommended
    assert recommended.memory_cost >= 65536 and recommended.time_cost >= 3  # not the cheap ones


def verified_hashes(passwords: Passwords, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every hash ``passwords`` verifies from now on (argon2's own verify still runs)."""
    seen: list[str] = []
    real = PasswordHasher.verify

    def verify(self: PasswordHasher, hash: str | bytes, password: str | bytes) -> bool:
        seen.append(str(hash))
        return real(self, hash, password)

    monkeypatch.setattr(PasswordHasher, "verify", verify)
    return seen


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "real"])
def test_an_unknown_name_costs_one_verification_with_a_real_hashs_costs(
    fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """passwords.py: an unknown name "takes as long as a wrong password's and
    does not tell which names exist": it verifies a hash of the same costs."""
    passwords = Passwords(fast=fast)
    stored = passwords.hash("the owner's password")
    seen = verified_hashes(passwords, monkeypatch)
    assert passwords.verify(None, "a guess") is False
    assert passwords.verify(stored, "a guess") is False
    unknown, wrong = seen
    assert unknown != stored
    assert extract_parameters(unknown) == extract_parameters(wrong)


def test_no_password_signs_an_unknown_name_in() -> None:
    passwords = Passwords(fast=True)
    for guess in ("no account has this password", "", "a guess"):
        assert passwords.verify(None, guess) is False
    assert passwords.verify(passwords.hash("a guess"), "a guess") is True


@pytest.mark.parametrize("length", [MIN_LENGTH, MIN_LENGTH + 1, MAX_LENGTH - 1, MAX_LENGTH])
def test_a_new_password_of_8_to_200_characters_is_taken(length: int) -> None:
    assert (MIN_LENGTH, MAX_LENGTH) == (8, 200)
    assert new_password("p" * length, "password") == "p" * length


@pytest.mark.parametrize("length", [0, MIN_LENGTH - 1, MAX_LENGTH + 1])
def test_a_new_password_outside_8_to_200_characters_is_refused_saying_where(length: int) -> None:
    with pytest.raises(BadInput) as refused:
        new_password("p" * length, "new password")
    assert str(refused.value) == "new password must be 8 to 200 characters"
