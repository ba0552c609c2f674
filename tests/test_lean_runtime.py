"""The runtime stays lean: what `scholar-tui` runs outside `train` never imports torch,
transformers or sentence-transformers, and `--help` / `paths` load no model at all.

Each check runs real commands (click's runner, in a fresh interpreter) and then reads
``sys.modules``: an import added anywhere on those paths fails here, although torch is installed.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
TRAINING_ONLY = {"torch", "transformers", "sentence_transformers"}
MODEL_RUNTIMES = {"llama_cpp", "lancedb", "pyarrow", "numpy", "gguf", "safetensors", "textual"} | TRAINING_ONLY


def loaded_after(commands: list[list[str]], home: Path) -> tuple[set[str], list[str]]:
    """Top-level modules imported after running ``commands`` in one fresh interpreter, and outputs."""
    code = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from scholar_tui.app.cli import cli\n"
        f"outputs = []\nfor args in {commands!r}:\n"
        "    result = CliRunner().invoke(cli, args)\n"
        "    assert result.exit_code == 0, (args, result.output, result.exception)\n"
        "    outputs.append(result.output)\n"
        "print(json.dumps({'modules': sorted({name.split('.')[0] for name in sys.modules}), 'outputs': outputs}))\n"
    )
    env = {**os.environ, "SCHOLAR_TUI_HOME": str(home), "SCHOLAR_TUI_NETWORK__OFFLINE": "1"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    return set(report["modules"]), report["outputs"]


def test_help_and_paths_load_no_model(tmp_path):
    modules, _ = loaded_after(
        [["--help"], ["paths"], ["bench", "--help"], ["conf", "--help"], ["train", "--help"]], tmp_path / "home"
    )
    assert not modules & MODEL_RUNTIMES, sorted(modules & MODEL_RUNTIMES)


@pytest.mark.embeddings
def test_commands_that_embed_never_import_training_packages(tmp_path):
    tiny = FIXTURES / "conference" / "tinyqa" / "TINY2024.json"
    bibtex = FIXTURES / "library" / "bibtex" / "sample.bib"
    modules, outputs = loaded_after(
        [
            ["conf", "import", str(tiny)],
            [
                "conf",
                "ask",
                "TINY2024",
                "When does the author rebuttal period end?",
                "--answerer",
                "computed",
                "--json",
            ],
            ["import", "bibtex", str(bibtex)],
            ["library", "search", "random polynomials", "--json"],
            ["models", "list"],
            ["doctor"],
        ],
        tmp_path / "home",
    )
    assert "llama_cpp" in modules and "lancedb" in modules  # the embedding paths really ran
    assert not modules & TRAINING_ONLY, sorted(modules & TRAINING_ONLY)
    # the llama.cpp embedder retrieves the right path of the tiny conference
    assert "March 19, 2024" in json.loads(outputs[1])["answer"]


@pytest.mark.embeddings
def test_a_cold_library_search_imports_neither_lancedb_nor_torch(tmp_path):
    """`library search` in a fresh process reads the index snapshot: no lancedb (2–3 s to import),
    no pyarrow, no training package; the embedder (llama.cpp) still runs."""
    bibtex = FIXTURES / "library" / "bibtex" / "sample.bib"
    home = tmp_path / "home"
    loaded_after([["import", "bibtex", str(bibtex)]], home)  # builds LanceDB and the snapshot
    modules, outputs = loaded_after([["library", "search", "formal undecidable propositions", "--json"]], home)
    assert "llama_cpp" in modules and json.loads(outputs[0]), outputs
    assert not modules & ({"lancedb", "pyarrow"} | TRAINING_ONLY), sorted(
        modules & ({"lancedb", "pyarrow"} | TRAINING_ONLY)
    )


def test_the_tui_module_never_imports_training_packages(tmp_path):
    code = (
        "import sys\nimport scholar_tui.app.tui, scholar_tui.core.services, scholar_tui.app.startup_probe\n"
        "print(sorted({name.split('.')[0] for name in sys.modules} & %r))" % TRAINING_ONLY
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "[]", result.stdout + result.stderr
