"""Engines never import the UI: core/, models/ and indexes/ work headless (CLI, benchmarks)."""

import subprocess
import sys


def test_engines_do_not_import_textual():
    code = (
        "import sys\n"
        "import scholar_tui.core.config, scholar_tui.core.doctor, scholar_tui.models, "
        "scholar_tui.models.llamacpp, scholar_tui.models.openai_http, scholar_tui.indexes.db, "
        "scholar_tui.indexes.prompt_log, scholar_tui.models.bench, scholar_tui.core.sandbox, "
        "scholar_tui.core.sandbox_worker\n"
        "bad = sorted(name for name in sys.modules if name.split('.')[0] == 'textual' or name.startswith('scholar_tui.app'))\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
