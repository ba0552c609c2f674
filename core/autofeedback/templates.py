"""Feedback texts: the static templates (AutoFeedback §3.2.3) and the dynamic ReAct feedback (§3.3.2).

A static template has five parts, each finer than the one before (Figure 4):

1. an error exists in the request;
2. where it is and what it is (the error type and sub-type);
3. what was ruled out — the sub-types already passed (for E2.3: E2.1 and E2.2);
4. the likely cause and a fix, filled in with what SSC returned (Table 2);
5. regenerate.

Some errors lack a part: E1 is the first check, so it rules nothing out. The texts are short on
purpose: the default model is tiny, and every word costs prompt time.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from scholar_tui.core.autofeedback.retriever import first_sentence
from scholar_tui.core.autofeedback.taxonomy import ERROR_TYPES
from scholar_tui.core.library.apis import APISpec

REGENERATE = "Regenerate the API request between <<API>> and <</API>>."
REWRITE = "Rewrite the program with this call corrected."


def _parameters(spec: APISpec) -> str:
    return "; ".join(
        f"{p.name} ({p.type}, {'required' if p.required else 'optional'}): {first_sentence(p.description).rstrip('.')}"
        for p in spec.parameters
    )


def _label(sub_type: str) -> str:
    kind = ERROR_TYPES[sub_type.split(".")[0]]
    names = {"1": "selection error", "2": "literal error", "3": "semantic error", "other": "other"}
    if "." not in sub_type:
        return f"{sub_type} ({kind})"
    number = sub_type.split(".")[1]
    if sub_type == "E4.1":
        return f"E4.1 ({kind}, type error)"
    if number == "other":
        return f"{sub_type.split('.')[0]} ({kind})"
    return f"{sub_type} ({kind}, {names[number]})"


def _ruled_out(finding, threshold: float) -> str:
    sub = finding.sub_type
    api = finding.api
    if sub == "E1":
        return ""
    if sub == "E2.1":
        return "The request is well formed (not E1)."
    if sub == "E2.2":
        return f"The request is well formed (not E1), and {api} is not another API of the documentation (not E2.1)."
    if sub == "E2.3":
        return (
            f"The request is well formed (not E1); {api} is not another API of the documentation (not E2.1) "
            "nor one written in another case or naming style (not E2.2)."
        )
    if sub == "E2.other":
        return (
            f"The request is well formed (not E1); {api} is not another API (not E2.1), not one in another "
            f"case or naming style (not E2.2), and no API is similar to it above {threshold:g} (not E2.3)."
        )
    name_ok = f"The request is well formed and the API name {api} is right (not E1, not E2)."
    parameter = finding.parameter
    if sub == "E3.1":
        return name_ok
    if sub == "E3.2":
        return name_ok + f" {parameter} is not a parameter of another API (not E3.1)."
    if sub == "E3.3":
        return (
            name_ok
            + f" {parameter} is no other API's parameter (not E3.1) and no parameter in another case or style (not E3.2)."
        )
    if sub == "E3.other":
        return name_ok + (
            f" {parameter} is no other API's parameter (not E3.1), no parameter in another case or style "
            f"(not E3.2), and none is similar to it above {threshold:g} (not E3.3)."
        )
    return (
        f"The request is well formed, the API name {api} is right and every parameter name is valid (not E1, E2, E3)."
    )


def _cause_and_fix(finding, specs: Mapping[str, APISpec]) -> str:
    sub, returns = finding.sub_type, finding.returns
    if sub == "E1":
        return (
            'A request must be exactly one call: <<API>>APINAME(key="value", ...)<</API>>, with string values '
            f"in double quotes and one of these APIs: {', '.join(specs)}."
        )
    if sub in ("E2.1", "E2.other"):
        target = specs[returns[0]]
        cause = "the instruction was misread" if sub == "E2.1" else "the API name was made up"
        return (
            f"The likely cause: {cause}. The API relevant to the instruction is {target.name}: "
            f"{first_sentence(target.description)} Call it as {target.signature()}."
        )
    if sub == "E2.2":
        target = specs[returns[1]]
        return (
            f"The likely cause: another naming style (API names are case-sensitive camelCase). "
            f"Write {target.name} instead of {returns[0]}: {target.signature()}."
        )
    if sub == "E2.3":
        target = specs[returns[1]]
        return (
            f"The likely cause: {returns[0]} was made up for {target.name}. Use {target.name}: "
            f"{first_sentence(target.description)} {target.signature()}."
        )
    spec = specs[finding.api]
    if sub == "E3.1":
        owners = [name for name, other in specs.items() if name != spec.name and other.parameter(returns[0])]
        return (
            f"The likely cause: {returns[0]} belongs to {', '.join(owners)}. {spec.name} takes only: "
            f"{_parameters(spec)}."
        )
    if sub in ("E3.2", "E3.3"):
        documented = spec.parameter(returns[1])
        cause = (
            "another naming style (parameter names are written exactly as documented)"
            if sub == "E3.2"
            else f"{returns[0]} was made up for {returns[1]}"
        )
        if documented is None:  # E3.2 against another API's parameter
            return f"The likely cause: {cause}. {spec.name} takes only: {_parameters(spec)}."
        return f"The likely cause: {cause}. Write {returns[1]}= instead of {returns[0]}=: {first_sentence(documented.description)}"
    if sub == "E3.other":
        return f"The likely cause: the parameter name was made up. {spec.name} takes only: {_parameters(spec)}."
    parameter = spec.parameter(returns[0])
    wanted = parameter.type if parameter is not None else "value of the documented type"
    return (
        f"The likely cause: {returns[0]} was given {finding.value} but must be a {wanted}: {returns[1]} "
        f'Write it as {returns[0]}="{_as_text(finding.value)}".'
    )


def _as_text(source: str | None) -> str:
    """The value a type error most likely meant, as text: 12 → 12, ["paper:1"] → paper:1."""
    try:
        value = ast.literal_eval(source or "")
    except (ValueError, SyntaxError):
        return (source or "").strip("'\"")
    if isinstance(value, (list, tuple, set)) and value:
        value = next(iter(value))
    return "" if value is None else str(value)


def static_feedback(finding, specs: Mapping[str, APISpec], threshold: float = 0.5) -> str:
    """The five-part static feedback for one finding (E1 has no third part)."""
    if finding.sub_type == "E1":
        exists = "There is an error in your output: it holds no API request that can be read."
        where = f"Error {_label('E1')}: {finding.detail}."
    else:
        place = f" at line {finding.line} of the program" if finding.in_program and finding.line else ""
        exists = f"There is an error in the API request {finding.request}{place}."
        where = f"Error {_label(finding.sub_type)} in {finding.location.split(': ')[-1]}: {finding.detail}."
    parts = [
        exists,
        where,
        _ruled_out(finding, threshold),
        _cause_and_fix(finding, specs),
        REWRITE if finding.in_program else REGENERATE,
    ]
    return "\n".join(part for part in parts if part)


def dynamic_feedback(steps, *, program: bool = False) -> str:
    """The ReAct trace of the dynamic rounds so far (thought, action, observation), then the ask.

    §3.3.2: the request is the action; the API response joined with the error message retrieved
    from the documentation is the observation; earlier records are kept for the next round.
    """
    lines = []
    for step in steps:
        if step.thought:
            lines.append(f"Thought: {step.thought}")
        lines.append(f"Action: {step.action}")
        lines.append(f"Observation: {step.observation}")
    ask = "rewrite the program." if program else REGENERATE[0].lower() + REGENERATE[1:]
    lines.append("The response does not meet the instruction. Think about the cause, then " + ask)
    return "\n".join(lines)
