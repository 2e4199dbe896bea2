"""Settings from the environment and ``.env``: read as dotenv readers do, typos reported."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import Settings, env_value, load_settings, read_env_file
from tests.helpers.paths import REPO_ROOT


def test_the_readmes_own_env_example_keeps_the_dev_guild(tmp_path: Path) -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    example = next(line.strip() for line in readme.splitlines()
                   if line.strip().startswith("DISCORD_DEV_GUILD="))
    assert "#" in example, "the README's example has an inline comment"
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN=abc\n{example}\n", encoding="utf-8")
    warnings: list[str] = []
    settings = load_settings({}, env, warnings.append)
    assert settings.discord_dev_guild == "123456789012345678"
    assert warnings == []


@pytest.mark.parametrize(("raw", "value"), [
    ("plain", "plain"), ("with space # comment", "with space"), ("a#b", "a#b"),
    ("'quoted # kept'  # comment", "quoted # kept"), ('"x y"', "x y"), ("", ""),
    ("  padded  ", "padded"), ("#only", "#only"),
])
def test_values_are_read_as_dotenv_readers_do(raw: str, value: str) -> None:
    assert env_value(raw) == value


def test_a_line_that_is_not_key_value_is_reported(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("# a comment\n\nexport LOG_LEVEL=info\nnonsense line\n=value\n",
                   encoding="utf-8")
    warnings: list[str] = []
    assert read_env_file(env, warnings.append) == {"LOG_LEVEL": "info"}
    assert len(warnings) == 2 and "line 4" in warnings[0] and "line 5" in warnings[1]


@pytest.mark.parametrize(("name", "value", "field", "fallback"), [
    ("BOT_LANGUAGE", "fr", "language", "en"),
    ("DATABASE_SYNC", "fast", "database_sync", "full"),
    ("LOG_LEVEL", "chatty", "log_level", "WARNING"),
    ("TELEGRAM_WEBHOOK_PORT", "99999", "telegram_webhook_port", 8443),
    ("BOT_GAMES_PER_USER", "lots", "games_per_user", 12),
    ("BOT_GAMES_PER_SERVER", "-1", "games_per_server", 300),
    ("DISCORD_DEV_GUILD", "my server", "discord_dev_guild", ""),
])
def test_every_invalid_setting_falls_back_and_is_reported(
        name: str, value: str, field: str, fallback: object) -> None:
    warnings: list[str] = []
    settings = load_settings({name: value}, None, warnings.append)
    assert getattr(settings, field) == fallback
    assert len(warnings) == 1
    assert name in warnings[0] and repr(value) in warnings[0] and repr(fallback) in warnings[0]


def test_valid_settings_are_taken_without_a_word() -> None:
    warnings: list[str] = []
    settings = load_settings({"BOT_LANGUAGE": "NL", "DATABASE_SYNC": "normal",
                              "LOG_LEVEL": "debug", "TELEGRAM_WEBHOOK_PORT": "8080",
                              "BOT_GAMES_PER_USER": "0", "DISCORD_DEV_GUILD": "42"},
                             None, warnings.append)
    assert warnings == []
    assert (settings.language, settings.database_sync, settings.log_level) == (
        "nl", "normal", "DEBUG")
    assert (settings.telegram_webhook_port, settings.games_per_user,
            settings.discord_dev_guild) == (8080, 0, "42")
    assert load_settings({}, None, warnings.append) == Settings() and warnings == []


def test_the_default_warning_is_one_line_on_stderr_and_a_log_warning(
        capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.config"):
        load_settings({"BOT_LANGUAGE": "fr"}, None)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "BOT_LANGUAGE='fr'" in err
    assert [record.levelno for record in caplog.records] == [logging.WARNING]


# ------------------------------------------------- issue 40, defect 12: misspelt names
def test_a_misspelt_setting_is_named_with_the_one_meant(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("TELEGRAM_TOKN=abc\n", encoding="utf-8")
    warnings: list[str] = []
    settings = load_settings({"BOT_LANGAUGE": "nl", "DISCORD_SOMETHING": "x",
                              "HOME": "/root", "DATABASE_PATH": "db"}, env, warnings.append)
    assert settings.language == "en" and settings.telegram_token == ""
    assert "BOT_LANGAUGE: did you mean BOT_LANGUAGE?" in warnings[0]
    assert "DISCORD_SOMETHING is not a setting" in warnings[1]
    assert "TELEGRAM_TOKN: did you mean TELEGRAM_TOKEN?" in warnings[2]
    assert len(warnings) == 3, "known names and other programs' names pass without a word"
