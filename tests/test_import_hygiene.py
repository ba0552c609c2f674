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
        "import scholar_tui.indexes.library, scholar_tui.indexes.library_search, scholar_tui.core.library.records, "
        "scholar_tui.core.library.unarxive, scholar_tui.core.library.openalex, scholar_tui.core.library.arxiv, "
        "scholar_tui.core.library.bibtex, scholar_tui.core.library.importer, scholar_tui.core.library.online, "
        "scholar_tui.core.library.apis, scholar_tui.core.library.api_backends, scholar_tui.core.library.fuzzy, "
        "scholar_tui.core.library.taxonomy\n"
        "import scholar_tui.training.formats, scholar_tui.training.crawler_env, scholar_tui.training.options\n"
        "import scholar_tui.core.conference.engine, scholar_tui.core.conference.sources, "
        "scholar_tui.core.conference.html_tree, scholar_tui.core.conference.evidence, "
        "scholar_tui.indexes.conference_vectors\n"
        "import scholar_tui.core.pasa.engine, scholar_tui.core.pasa.bench, scholar_tui.core.pasa.factory, "
        "scholar_tui.core.pasa.queries, scholar_tui.core.pasa.export, scholar_tui.core.pasa.reference_titles, "
        "scholar_tui.indexes.pasa_works, scholar_tui.training.crawler_env_library\n"
        "import scholar_tui.core.autofeedback, scholar_tui.core.autofeedback.bench, scholar_tui.core.autofeedback.model, "
        "scholar_tui.core.autofeedback.human, scholar_tui.indexes.autofeedback_log, scholar_tui.indexes.autofeedback_docs\n"
        "bad = sorted(name for name in sys.modules if name.split('.')[0] == 'textual' or name.startswith('scholar_tui.app'))\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
