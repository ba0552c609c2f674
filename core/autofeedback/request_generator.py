"""A model that writes API requests under a grammar, and rewrites them after feedback.

The default model is tiny (SmolLM2-135M), so the request it may emit is constrained by a GBNF
grammar built from the specs: ``<<API>>NAME(key=value, …)<</API>>`` with NAME one of the
documented APIs, each key one of the documented parameter names (of any API), and each value a
double-quoted string or an integer. Within that, the model can still make the errors the paper
sees most (§2.2: E2.1 — the wrong API — above all, E3.1, E4.1) and every run-time error (a value
that names nothing). With ``constrain_names=False`` names are free identifiers, and E2.2/E2.3/E3.x
become possible too.

After dynamic feedback the model first writes a one-line ``Thought:`` (ReAct, §3.3.2), then the
request. Prompts keep a fixed prefix (the API list) so llama.cpp reuses its cache.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from scholar_tui.core.autofeedback.loop import FeedbackRecord, Generation
from scholar_tui.core.autofeedback.request_parser import BLOCK
from scholar_tui.core.autofeedback.retriever import first_sentence
from scholar_tui.core.library.apis import SPECS, APISpec
from scholar_tui.models.grammars import gbnf_literal

MAX_ARGUMENTS = 3


def request_grammar(
    specs: Mapping[str, APISpec] = SPECS, *, constrain_names: bool = True, thought: bool = False
) -> str:
    parameters = sorted({p.name for spec in specs.values() for p in spec.parameters})
    if constrain_names:
        name = " | ".join(gbnf_literal(api) for api in specs)
        key = " | ".join(gbnf_literal(parameter) for parameter in parameters)
    else:
        name = key = "[a-zA-Z_] [a-zA-Z0-9_]{0,40}"
    root = '"Thought: " thought "\\n" request' if thought else "request"
    return "\n".join(
        [
            f"root ::= {root}",
            "thought ::= [^\\n<]{1,160}",
            'request ::= "<<API>>" name "(" args? ")<</API>>"',
            f"name ::= {name}",
            f'args ::= arg (", " arg){{0,{MAX_ARGUMENTS - 1}}}',
            'arg ::= key "=" value',
            f"key ::= {key}",
            'value ::= "\\"" [^"\\\\\\n]{0,120} "\\"" | [0-9]{1,9}',
            "",
        ]
    )


def system_prompt(specs: Mapping[str, APISpec] = SPECS) -> str:
    """The APIs, one line each, and no demonstrations.

    Measured with SmolLM2-135M on the bench's cases: with one demonstration per API the model
    copies a demonstration for most instructions (4/14 first requests right, but 3/11 seeded
    errors fixed after one static feedback); without any it follows the feedback's "Call it as …"
    far more often (2/14 first requests right, 6/11 fixed). Feedback is what this module is for.
    """
    lines = ["You call academic APIs. Answer with exactly one API request between <<API>> and <</API>>.", "APIs:"]
    for spec in specs.values():
        parameters = ", ".join(p.name + ("" if p.required else "?") for p in spec.parameters)
        lines.append(f"- {spec.name}({parameters}): {first_sentence(spec.description)}")
    lines.append('Values are strings in double quotes: <<API>>APINAME(key="value")<</API>>.')
    return "\n".join(lines)


def user_prompt(instruction: str, history: list[FeedbackRecord]) -> str:
    text = f"Instruction: {instruction}"
    if history:
        last = history[-1]
        text += f"\nYour last request: {last.request.strip()[:300]}\nFeedback:\n{last.feedback}"
    return text


class ModelRequestGenerator:
    """``generator.for_instruction(text)`` is a ``generate(history)`` for ``FeedbackLoop.run``."""

    def __init__(
        self, llm, specs: Mapping[str, APISpec] = SPECS, *, constrain_names: bool = True, max_tokens: int = 96
    ) -> None:
        self.llm = llm
        self.specs = dict(specs)
        self.system = system_prompt(self.specs)
        self.grammar = request_grammar(self.specs, constrain_names=constrain_names)
        self.react_grammar = request_grammar(self.specs, constrain_names=constrain_names, thought=True)
        self.max_tokens = max_tokens

    def generate(self, instruction: str, history: list[FeedbackRecord]) -> Generation:
        react = bool(history) and history[-1].kind == "dynamic"
        messages = [
            {"role": "system", "content": self.system},
            {"role": "user", "content": user_prompt(instruction, history)},
        ]
        completion = self.llm.chat(
            messages,
            grammar=self.react_grammar if react else self.grammar,
            max_tokens=self.max_tokens + (48 if react else 0),
            temperature=0.0,
        )
        text, thought = completion.text, None
        if react:
            found = re.match(r"Thought: ([^\n]*)\n(.*)", text, re.DOTALL)
            if found:
                thought, text = found.group(1).strip(), found.group(2)
        block = BLOCK.search(text)
        return Generation(
            text=block.group(0) if block else text,
            thought=thought,
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
        )

    def for_instruction(self, instruction: str):
        return lambda history: self.generate(instruction, history)
