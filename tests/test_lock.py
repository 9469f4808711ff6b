"""The locks in requirements/ are what people install (docs/dependencies.md):
they must match pyproject.toml, pin every package with its hashes, agree with
each other, and be what this very run has installed."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
# Which extras of pyproject.toml each lock resolves (scripts/lock.sh).
LOCK_EXTRAS = {"play": (), "web": ("web",), "test": ("test",)}
PIN = re.compile(r"^(?P<requirement>[A-Za-z0-9][^\\\n]*?)\s*\\?$")


def load_stamp_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lock_stamp", ROOT / "scripts" / "lock_stamp.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lock_stamp = load_stamp_module()


def lock_path(name: str) -> Path:
    return ROOT / "requirements" / f"{name}.txt"


def pins(name: str) -> list[tuple[Requirement, list[str]]]:
    """Each pinned line of a lock as a requirement (``pkg==1.2 ; marker``) and its hashes."""
    result: list[tuple[Requirement, list[str]]] = []
    for line in lock_path(name).read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            result.append((Requirement(match["requirement"]), []))
        elif line.strip().startswith("--hash=") and result:
            result[-1][1].append(line.strip().removesuffix("\\").strip())
    return result


def pinned_version(requirement: Requirement) -> Version:
    (specifier,) = requirement.specifier
    assert specifier.operator == "==", f"{requirement} is not an exact pin"
    return Version(specifier.version)


def direct_requirements(extras: tuple[str, ...]) -> list[Requirement]:
    """pyproject.toml's requirements for ``extras``, its own extras expanded."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    wanted, seen = list(extras), set()
    result = [Requirement(text) for text in project["dependencies"]]
    while wanted:
        extra = wanted.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in project["optional-dependencies"][extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == "cardtable":
                wanted.extend(requirement.extras)
            else:
                result.append(requirement)
    return result


@pytest.mark.parametrize("name", LOCK_EXTRAS)
def test_each_lock_was_resolved_from_todays_pyproject(name: str) -> None:
    """A change to pyproject.toml's dependencies that was not locked again fails here."""
    third_line = lock_path(name).read_text(encoding="utf-8").splitlines()[2]
    assert third_line == lock_stamp.stamp_line(PYPROJECT), (
        f"requirements/{name}.txt was resolved from other dependencies than pyproject.toml "
        "has now: run `bash scripts/lock.sh` and commit requirements/"
    )


@pytest.mark.parametrize("name", LOCK_EXTRAS)
def test_every_requirement_is_pinned_within_its_range(name: str) -> None:
    pinned: dict[str, list[Version]] = {}
    for requirement, _ in pins(name):
        pinned.setdefault(canonicalize_name(requirement.name), []).append(
            pinned_version(requirement)
        )
    for requirement in direct_requirements(LOCK_EXTRAS[name]):
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        versions = pinned.get(canonicalize_name(requirement.name))
        assert versions, f"requirements/{name}.txt pins no {requirement.name}"
        for version in versions:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"requirements/{name}.txt pins {requirement.name} {version}, "
                f"outside pyproject.toml's {requirement}"
            )


@pytest.mark.parametrize("name", LOCK_EXTRAS)
def test_every_pin_is_exact_and_hashed(name: str) -> None:
    found = pins(name)
    assert found, f"requirements/{name}.txt pins nothing"
    for requirement, hashes in found:
        pinned_version(requirement)
        assert hashes and all(h.startswith("--hash=sha256:") for h in hashes), requirement


def test_the_locks_agree_on_every_version() -> None:
    """Playing and serving run the versions the suite ran on."""
    test_pins = {(canonicalize_name(r.name), str(r.marker)): r for r, _ in pins("test")}
    for name in ("play", "web"):
        for requirement, _ in pins(name):
            key = (canonicalize_name(requirement.name), str(requirement.marker))
            assert key in test_pins, f"requirements/{name}.txt: {requirement} is not in test.txt"
            assert pinned_version(requirement) == pinned_version(test_pins[key]), requirement


def test_the_checkers_are_pinned_exactly() -> None:
    """A new ruff or mypy finds new things: it moves forward on purpose, not by itself."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    test_extra = {
        canonicalize_name(Requirement(t).name): Requirement(t)
        for t in project["optional-dependencies"]["test"]
    }
    for checker in ("ruff", "mypy"):
        (specifier,) = test_extra[canonicalize_name(checker)].specifier
        assert specifier.operator == "==", f"{checker} is not pinned exactly: {specifier}"


@pytest.mark.skipif(
    os.environ.get("CARDTABLE_UNLOCKED") == "1",
    reason="scripts/test-newest.sh runs the newest versions the ranges allow, not the lock",
)
def test_this_run_has_the_locked_versions_installed() -> None:
    """The README's test command converges any machine to the lock, whatever it had."""
    differ = []
    for requirement, _ in pins("test"):
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        try:
            installed = Version(importlib.metadata.version(requirement.name))
        except importlib.metadata.PackageNotFoundError:
            differ.append(f"{requirement.name}: not installed")
            continue
        if installed != pinned_version(requirement):
            differ.append(f"{requirement.name}: {installed}, locked {pinned_version(requirement)}")
    assert not differ, "installed versions differ from requirements/test.txt: " + "; ".join(differ)
