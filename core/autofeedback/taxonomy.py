"""The error taxonomy of AutoFeedback (§1 and §2.2): four error types and their sub-types.

Errors are named by where they sit in a request — the format, the API name, a parameter name, a
parameter value — and are checked in that order, E1 → E2 → E3 → E4, and within a type in
ascending order (E2.1 → E2.2 → E2.3 → other). "Other" is what is left once every sub-type was
ruled out; E4's "other" is only seen at run time (the request looked right but failed, or its
response did not meet the instruction), which is the Dynamic Analysis Component's part.
"""

from __future__ import annotations

ERROR_TYPES: dict[str, str] = {
    "E1": "NO_API",
    "E2": "API_NAME_MISMATCH",
    "E3": "PARAMETER_INVALID",
    "E4": "INPUT_MISMATCH",
}

SUB_TYPES: dict[str, str] = {
    "E1": "no API request generated, or it cannot be parsed",
    "E2.1": "selection error: another API of the documentation",
    "E2.2": "literal error: an API's name in another case or naming style",
    "E2.3": "semantic error: a made-up name semantically similar to a real API",
    "E2.other": "an API name matching nothing in the documentation",
    "E3.1": "selection error: a parameter of another API",
    "E3.2": "literal error: a parameter's name in another case or naming style",
    "E3.3": "semantic error: a made-up parameter semantically similar to a real one",
    "E3.other": "a parameter name matching nothing in the documentation",
    "E4.1": "type error: a value of another type than the documentation's",
    "E4.other": "the request failed when it ran, or its response does not meet the instruction",
}

STATIC_SUB_TYPES = tuple(sub for sub in SUB_TYPES if sub != "E4.other")


def error_type(sub_type: str) -> str:
    """ "E2.3" → "E2"; "E1" → "E1"."""
    return sub_type.split(".")[0]


def literal_key(name: str) -> str:
    """The paper's E2.2 / E3.2 normalisation: lower-case, drop everything but letters (r'[^a-zA-Z]')."""
    import re

    return re.sub(r"[^a-zA-Z]", "", name).lower()
