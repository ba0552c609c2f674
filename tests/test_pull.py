"""`models pull` end to end against a Hugging Face Hub stand-in on loopback (no internet)."""

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli

WEIGHTS = b"GGUF" + bytes(range(256)) * 8
SERVED = "/someone/tiny-GGUF/resolve/main/tiny-q4.gguf"


class FakeHub(BaseHTTPRequestHandler):
    """Answers like the Hub's resolve endpoint: commit, ETag and size headers, then the bytes."""

    def _headers(self) -> bool:
        if self.path != SERVED:
            self.send_response(404)
            self.send_header("X-Error-Code", "EntryNotFound")
            self.end_headers()
            return False
        self.send_response(200)
        self.send_header("X-Repo-Commit", "0" * 40)
        self.send_header("ETag", f'"{hashlib.sha256(WEIGHTS).hexdigest()}"')
        self.send_header("Content-Length", str(len(WEIGHTS)))
        self.end_headers()
        return True

    def do_HEAD(self):
        self._headers()

    def do_GET(self):
        if self._headers():
            self.wfile.write(WEIGHTS)

    def log_message(self, *args):
        pass


def allow_hub(monkeypatch):
    """Undo conftest's HF_HUB_OFFLINE for one test (huggingface_hub reads it once, at import)."""
    import huggingface_hub.constants

    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)


@pytest.fixture
def hub(monkeypatch):
    allow_hub(monkeypatch)
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeHub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_pull_registers_the_file_and_use_selects_it(hub, where):
    runner = CliRunner()
    result = runner.invoke(cli, ["models", "pull", "--endpoint", hub, "someone/tiny-GGUF", "tiny-q4.gguf"])
    assert result.exit_code == 0, result.output
    pulled = where.models_dir / "tiny-q4.gguf"
    assert pulled.read_bytes() == WEIGHTS
    rows = json.loads(runner.invoke(cli, ["models", "list", "--json"]).output)
    row = next(row for row in rows if row["name"] == "tiny-q4")
    assert row["source"] == "hf:someone/tiny-GGUF" and row["location"] == str(pulled.resolve())
    assert runner.invoke(cli, ["models", "use", "tiny-q4"]).exit_code == 0
    assert json.loads(runner.invoke(cli, ["config", "show"]).output)["llm"]["model"] == "tiny-q4"


def test_pull_of_a_missing_file_names_it(hub):
    result = CliRunner().invoke(cli, ["models", "pull", "--endpoint", hub, "someone/tiny-GGUF", "nope.gguf"])
    assert result.exit_code == 1
    assert "repository 'someone/tiny-GGUF' has no file 'nope.gguf'" in result.output


def test_pull_refuses_non_gguf():
    result = CliRunner().invoke(cli, ["models", "pull", "someone/repo", "model.safetensors"])
    assert result.exit_code == 1 and "not a .gguf file" in result.output
