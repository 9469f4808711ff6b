"""``docs/architecture.md`` lists every contract the conformance suite checks,
one line per test, and the suite checks every contract listed (issue 19).

A test added to ``tests/conformance/`` without its line in the list fails
here, and so does a line naming a test that does not exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADING = "### What the conformance suite checks"


def listed_contracts() -> list[list[str]]:
    """The test names each item of the list names, item by item."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split(HEADING, 1)[1].split("\n#", 1)[0]
    items = re.split(r"\n- ", "\n" + section.split("\n- ", 1)[1])
    return [re.findall(r"`(test_\w+)`", item) for item in items if item.strip()]


def conformance_tests() -> set[str]:
    found = set()
    for path in (ROOT / "tests" / "conformance").glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found |= {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        }
    return found


def test_each_listed_contract_names_one_conformance_test() -> None:
    items = listed_contracts()
    assert len(items) >= 10
    for names in items:
        assert len(names) == 1, names


def test_the_list_and_the_conformance_suite_agree() -> None:
    listed = [names[0] for names in listed_contracts()]
    assert len(set(listed)) == len(listed)
    suite = conformance_tests()
    assert sorted(suite - set(listed)) == [], "conformance tests missing from the list"
    assert sorted(set(listed) - suite) == [], "listed contracts with no conformance test"
