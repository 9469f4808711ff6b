"""``cardtable serve``: its database URL and its mistakes, in one line each."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.cli.serve_cmd import default_db_url, normalize_db_url
from cardtable.server.settings import Bounds, Limits, Settings, bounds_of


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("sqlite:////tmp/t.db", "sqlite+aiosqlite:////tmp/t.db"),
        ("postgresql://me@127.0.0.1:5432/ct", "postgresql+asyncpg://me@127.0.0.1:5432/ct"),
        ("postgres://me@host/ct", "postgresql+asyncpg://me@host/ct"),
        ("postgresql+asyncpg://me@host/ct", "postgresql+asyncpg://me@host/ct"),
    ],
)
def test_plain_urls_get_the_async_drivers(given: str, used: str) -> None:
    assert normalize_db_url(given) == used


def test_the_default_database_lives_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_db_url()
    assert url == f"sqlite+aiosqlite:///{tmp_path / 'cardtable' / 'tables.sqlite3'}"
    assert (tmp_path / "cardtable").is_dir()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--db", "mysql://me@host/ct"], "--db"),
        (["--port", "70000"], "--port 70000"),
        (["--bot-workers", "0"], "--bot-workers 0"),
        (["--analysis-budget", "0"], "--analysis-budget 0"),
        (["--analysis-budget", "11"], "at most 10"),
        (["--max-tables", "0"], "--max-tables 0: at least 1"),
        (["--creates-per-minute", "0"], "--creates-per-minute 0: at least 1"),
        (["--waiting-per-client", "-1"], "--waiting-per-client -1: at least 1"),
        (["--joins-per-minute", "0"], "--joins-per-minute 0"),
        (["--token-attempts-per-minute", "0"], "--token-attempts-per-minute 0"),
        (["--signups-per-minute", "0"], "--signups-per-minute 0: at least 1"),
        (["--chat-per-minute", "0"], "--chat-per-minute 0: at least 1"),
        (["--max-connections", "0"], "--max-connections 0: at least 1"),
        (["--waiting-minutes", "0"], "--waiting-minutes 0: give a number above 0"),
        (["--abandoned-hours", "-2"], "--abandoned-hours -2"),
        (["--park-minutes", "-1"], "--park-minutes -1: at least 0"),
        (["--sweep-seconds", "0.5"], "--sweep-seconds 0.5: give 1 to 3600"),
        (["--public-url", "cards.example.org"], "--public-url 'cards.example.org'"),
        (["--redis", "localhost:6379"], "--redis 'localhost:6379': give a redis://"),
        (["--redis", "redis://127.0.0.1:6379/0"], "--redis: several processes share one"),
        (["--smtp", "mail.example.org", "--mail-from", "c@x.org"], "--smtp 'mail.example.org'"),
        (["--smtp", "smtp://mail.example.org"], "--smtp: give --mail-from ADDRESS too"),
        (["--mail-from", "c@x.org"], "--mail-from: notices are sent only with --smtp"),
        (
            ["--db", "postgresql://me@h/ct", "--redis", "redis://h/0", "--lease-seconds", "0.1"],
            "--lease-seconds 0.1: give 0.5 to 300",
        ),
    ],
)
def test_bad_arguments_get_one_error_line(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output


def test_every_lobby_limit_is_an_option_with_its_default() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    flat = " ".join(result.output.replace("│", " ").split())
    for option, default in [
        ("--max-tables", "5000"),
        ("--waiting-minutes", "30.0"),
        ("--abandoned-hours", "24.0"),
        ("--park-minutes", "5.0"),
        ("--sweep-seconds", "30.0"),
        ("--creates-per-minute", "10"),
        ("--waiting-per-client", "5"),
        ("--joins-per-minute", "30"),
        ("--token-attempts-per-minute", "20"),
        ("--signups-per-minute", "5"),
        ("--chat-per-minute", "12"),
        ("--chat-per-address-per-minute", "60"),
    ]:
        assert option in flat, option
        assert f"[default: {default}]" in flat.split(option, 1)[1].split("--", 1)[0], option
    assert "--public-url" in flat and "--trusted-proxy" in flat


def setting_flags() -> list[tuple[str, Any, Bounds]]:
    """Every setting of cardtable/server/settings.py: (flag, default in flag units, bounds)."""
    found = []
    for owner in (Settings, Limits):
        for each in fields(owner):
            if "setting" in each.metadata:
                default, bounds = bounds_of(owner, each.name)
                flag = "--" + (bounds.flag or each.name.replace("_", "-"))
                found.append(
                    (flag, default if bounds.scale == 1 else default / bounds.scale, bounds)
                )
    return found


def test_every_setting_is_a_serve_flag_with_the_fields_default_and_help() -> None:
    """One source per setting: the flag's default and help are the field's."""
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "300"})
    flat = " ".join(result.output.replace("│", " ").split())
    flags = setting_flags()
    assert len(flags) >= 14
    for flag, default, bounds in flags:
        assert flag in flat, flag
        described = flat.split(flag + " ", 1)[1]
        assert described.split("> ", 1)[1].startswith(bounds.help), flag
        if flag != "--bot-workers":  # serve's default is the cores less one
            assert described.split("[default: ", 1)[1].startswith(f"{default}]"), flag


@pytest.mark.parametrize(("flag", "default", "bounds"), setting_flags())
def test_a_setting_out_of_its_range_gets_one_line_naming_the_flag(
    flag: str, default: Any, bounds: Bounds
) -> None:
    low = bounds.at_least if bounds.at_least is not None else bounds.above
    assert low is not None, f"{flag} has no lower bound"
    wrong = low / bounds.scale - 1 if bounds.at_least is not None else low / bounds.scale
    result = CliRunner().invoke(app, ["serve", flag, f"{wrong:g}"])
    assert result.exit_code == 2
    assert f"error: {flag} {wrong:g}: " in result.output and "Traceback" not in result.output
    if bounds.at_most is not None:
        over = CliRunner().invoke(app, ["serve", flag, f"{bounds.at_most / bounds.scale + 1:g}"])
        assert over.exit_code == 2 and f"error: {flag} " in over.output
