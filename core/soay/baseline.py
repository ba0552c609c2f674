"""The step-by-step baseline (DFSDT-like, as ToolLLM runs it): one API call per model turn.

Each turn the model sees the APIs, the question and every call and observation so far, and
chooses the next API or Finish (constrained to those names); a fuzzy search gets the question's
entity span (the same linker SoAy uses, so the comparison is about planning, not linking), any
other API gets an id the model picks from the last observation; at Finish the model picks which
field of the last observation answers. Same model, same backend, same sandbox-free API calls as
SoAy's programs make; it differs in planning turn by turn instead of choosing a solution once.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from scholar_tui.core.soay.titles import find_entity

MAX_TURNS = 4
FINISH = "Finish"
ID_FIELDS = ("person_id", "pub_id")


@dataclass
class BaselineAnswer:
    question: str
    ok: bool = False
    solution: list[str] = field(default_factory=list)
    value: Any = None
    error: str | None = None
    turns: list[dict[str, Any]] = field(default_factory=list)
    llm_calls: int = 0
    seconds: float = 0.0


def _api_menu(specs) -> str:
    return "\n".join(f"- {name}: {spec.description.split('.')[0]}." for name, spec in specs.items())


def _items(observation: Any) -> list[dict]:
    if isinstance(observation, dict):
        nested = [
            item
            for value in observation.values()
            if isinstance(value, list)
            for item in value
            if isinstance(item, dict)
        ]
        return [observation] + nested
    if isinstance(observation, list):
        return [item for item in observation if isinstance(item, dict)]
    return []


def _field_values(observation: Any, name: str) -> Any:
    if isinstance(observation, dict):
        return observation.get(name)
    values = [item.get(name) for item in _items(observation) if name in item]
    return values[0] if len(values) == 1 else values


class StepByStepAgent:
    def __init__(self, api: Any, llm: Any) -> None:
        from scholar_tui.core.library.apis import SPECS

        self.api = api
        self.llm = llm
        self.specs = SPECS
        self.prefix = (
            "You answer questions about scholars and papers by calling one API per step.\n"
            f"APIs:\n{_api_menu(SPECS)}\n- {FINISH}: stop; the last observation holds the answer.\n\n"
        )

    def _choose(self, prompt: str, options: list[str], answer: BaselineAnswer) -> str:
        answer.llm_calls += 1
        if len(options) == 1:
            return options[0]
        # options share first tokens ("get…", "person:…"): greedy decoding under a grammar of
        # exactly these strings picks one whole option
        reply = self.llm.complete(self.prefix + prompt, choices=options, max_tokens=16).text.strip()
        return reply if reply in options else options[0]

    def answer(self, question: str) -> BaselineAnswer:
        started = time.perf_counter()
        result = BaselineAnswer(question)
        mention = find_entity(question, self.api)
        history = f"Question: {question}\n"
        observation: Any = None
        for _turn in range(MAX_TURNS):
            # only actions that can run: a search needs the entity, the others an id in hand
            options = [name for name in self.specs if self._runnable(name, mention, observation)]
            options += [FINISH] if observation is not None else []
            if not options:
                break
            name = self._choose(history + "Next API:", options, result)
            if name == FINISH:
                break
            arguments = self._arguments(name, mention, observation, history, result)
            if arguments is None:
                result.error = f"no argument for {name}"
                break
            try:
                observation = self.api.call(name, **arguments)
            except Exception as error:
                observation = {"error": str(error)}
            result.solution.append(name)
            result.turns.append({"api": name, "arguments": arguments})
            shown = json.dumps(observation, ensure_ascii=False, default=str)[:300]
            history += f"Call: {name}({json.dumps(arguments)})\nObservation: {shown}\n"
        if observation is not None and not (isinstance(observation, dict) and "error" in observation):
            fields = sorted({key for item in _items(observation) for key in item} - set(ID_FIELDS))
            if isinstance(observation, list) and all(isinstance(item, str) for item in observation):
                result.value, result.ok = observation, True
            elif fields:
                picked = self._choose(history + "The answer is the field:", fields, result)
                result.value, result.ok = _field_values(observation, picked), True
        if not result.ok and result.error is None:
            result.error = "no answer"
        result.seconds = time.perf_counter() - started
        return result

    def _runnable(self, name: str, mention, observation: Any) -> bool:
        if name in ("searchPerson", "searchPublication"):
            return mention is not None
        wanted = next((p.name for p in self.specs[name].parameters if p.name in ID_FIELDS), None)
        return wanted is not None and any(item.get(wanted) for item in _items(observation))

    def _arguments(self, name: str, mention, observation: Any, history: str, result: BaselineAnswer) -> dict | None:
        parameters = [p.name for p in self.specs[name].parameters]
        if name == "searchPerson":
            return {"name": mention.text} if mention else None
        if name == "searchPublication":
            return {"publication_info": mention.text} if mention else None
        wanted = next((p for p in parameters if p in ID_FIELDS), None)
        ids = [item[wanted] for item in _items(observation) if item.get(wanted)] if wanted else []
        if not ids:
            return None
        chosen = self._choose(history + f"{name} {wanted}:", list(dict.fromkeys(ids))[:8], result)
        return {wanted: chosen}
