"""``python -m scholar_tui.training.<script>``: run a script's main, errors as one line, summary as JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from scholar_tui.core.jsonl import FormatError
from scholar_tui.training.errors import TrainingError


def run_script(main: Callable[[list[str] | None], dict[str, Any]], argv: list[str] | None = None) -> None:
    try:
        summary = main(argv)
    except (TrainingError, FormatError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(summary, indent=2, default=str))
