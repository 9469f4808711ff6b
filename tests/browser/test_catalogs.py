"""Every interface string lives in a catalog (one JSON file per language):
each literal key the shell or a board asks for is in its English catalog, and
every other language's file holds only keys English has."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

from cardtable.core.registry import manifests

REPO = Path(__file__).resolve().parents[2]
STATIC = REPO / "cardtable" / "server" / "web" / "static"
KEY = re.compile(r"""\bt\(\s*["']([\w.]+)["']""")


def keys_asked(folder: Path, pattern: str) -> set[str]:
    return {k for path in folder.glob(pattern) for k in KEY.findall(path.read_text())}


def test_the_shell_asks_only_for_keys_its_catalog_has() -> None:
    english = json.loads((STATIC / "i18n" / "en.json").read_text())
    asked = keys_asked(STATIC, "*.js")
    assert asked and not asked - set(english), sorted(asked - set(english))
    for other in (STATIC / "i18n").glob("*.json"):
        assert set(json.loads(other.read_text())) <= set(english), other.name


def test_each_board_asks_only_for_keys_its_catalog_or_the_shells_has() -> None:
    shell = set(json.loads((STATIC / "i18n" / "en.json").read_text()))
    boards = 0
    for m in manifests().values():
        if m.web_client is None or m.package is None:
            continue
        folder = Path(str(files(m.package))) / Path(m.web_client).parent
        english = json.loads((folder / "i18n.en.json").read_text())
        asked = keys_asked(folder, "*.js")
        missing = asked - set(english) - shell
        assert asked and not missing, (m.name, sorted(missing))
        for other in folder.glob("i18n.*.json"):
            assert set(json.loads(other.read_text())) <= set(english), other.name
        boards += 1
    assert boards >= 2


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogs() -> list[Path]:
    """Every English catalog: the shell's and each board's."""
    found = [STATIC / "i18n" / "en.json"]
    for m in manifests().values():
        if m.web_client is not None and m.package is not None:
            folder = Path(str(files(m.package))) / Path(m.web_client).parent
            found.append(folder / "i18n.en.json")
    return found


def translation_of(english: Path, lang: str) -> Path:
    return english.with_name(english.name.replace("en.json", f"{lang}.json"))


def shape(value: object) -> tuple[str, frozenset[str]]:
    """What a translation must keep: plural forms or not, and the placeholders used."""
    if isinstance(value, dict):
        return ("plural", frozenset(p for v in value.values() for p in PLACEHOLDER.findall(v)))
    return ("text", frozenset(PLACEHOLDER.findall(str(value))))


def test_german_and_french_have_every_key_of_each_english_catalog() -> None:
    for english in catalogs():
        source = json.loads(english.read_text())
        for lang in ("de", "fr"):
            path = translation_of(english, lang)
            assert path.is_file(), f"{path} is missing"
            other = json.loads(path.read_text())
            missing = sorted(set(source) - set(other))
            assert not missing, (path.name, english.parent.name, missing)
            for key, value in source.items():
                # A plural in one language may have more forms, but not other placeholders.
                got, want = shape(other[key]), shape(value)
                assert got[0] == want[0], (path, key)
                assert got[1] <= want[1] | {"count"}, (path, key, got, want)
