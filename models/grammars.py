"""GBNF helpers: the grammars that keep a tiny model's decisions inside what is valid."""

from __future__ import annotations

import json
from collections.abc import Sequence


def gbnf_literal(text: str) -> str:
    """``text`` as a GBNF string literal."""
    return json.dumps(text, ensure_ascii=False)


def choice_grammar(choices: Sequence[str]) -> str:
    """A grammar whose only sentences are the given strings."""
    if not choices:
        raise ValueError("choices must not be empty")
    return "root ::= " + " | ".join(gbnf_literal(choice) for choice in choices) + "\n"
