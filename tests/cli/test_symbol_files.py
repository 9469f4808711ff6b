"""One set of joker-symbol table formats, accepted everywhere and documented
with an example file (issue 10, item 6)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.core.errors import OptionError
from cardtable.games.myrummy_111.cards import DEFAULT_SYMBOLS, load_symbols, parse_symbols

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "symbols.md"
runner = CliRunner()
TABLE = tuple(1 + (i * 7) % 4 for i in range(110))  # not the default deck


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(map(str, TABLE)),  # one per line
        " ".join(map(str, TABLE)),
        ",".join(map(str, TABLE)),
        "\n".join(", ".join(map(str, TABLE[i : i + 10])) for i in range(0, 110, 10)),
        json.dumps(list(TABLE)),
        "".join(map(str, TABLE)),  # 110 digits in a row, as OpenSpiel's `symbols`
        "\n" + "".join(map(str, TABLE)) + "\n",
    ],
)
def test_every_documented_form_reads_the_same_table(text: str, tmp_path: Path) -> None:
    assert parse_symbols(text) == TABLE
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8-sig")  # with a byte order mark, too
    assert load_symbols(path) == TABLE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 2 3", "must list 110 integers 1–4 (cards 2…111), got 3"),
        ("1" * 109, "must list 110 integers 1–4 (cards 2…111), got 109"),
        ("1 x 3", "the text, number 2: 'x' is not an integer"),
        ("[1, 2", "not valid JSON"),
        ("5" * 110, "card 2 has 5 symbols"),
    ],
)
def test_a_wrong_table_says_why(text: str, message: str) -> None:
    with pytest.raises(OptionError) as info:
        parse_symbols(text)
    assert message in str(info.value)


def test_the_docs_example_file_and_digit_string_are_the_default_deck() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert "examples/symbols.txt" in doc
    assert load_symbols(ROOT / "docs" / "examples" / "symbols.txt") == DEFAULT_SYMBOLS
    (digits,) = re.findall(r"\b[1-4]{110}\b", doc)
    assert parse_symbols(digits) == DEFAULT_SYMBOLS


def test_symbols_flag_takes_the_110_digit_string(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_text("".join(["1"] * 110), encoding="utf-8")
    save = tmp_path / "game.json"
    args = ["play", "myrummy-111", "-p", "2", "--symbols", str(path), "--save", str(save)]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert json.loads(save.read_text())["options"]["symbols"] == [1] * 110
