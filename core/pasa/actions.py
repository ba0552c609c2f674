"""The Crawler's action grammar: what a session's response may be, as GBNF.

A response has the form of PaSa Table 8: ``[Search] q1 [Search] q2 [Stop]`` for a search session
(S_q) and ``[Expand] 2 Related Work [Stop]`` for an expand session (S_q+p), at most
``actions_per_session`` actions and exactly one final ``[Stop]``.

- [Expand] carries exactly one of the current paper's real section names: an [Expand] of a
  section that does not exist cannot be sampled.
- [Search] carries one of the candidate queries (``phrases.search_candidates``) for a tiny model,
  or, for a bigger model, free text without brackets or newlines (``free=True``).
- A search session holds at least one [Search] (a search session that searches nothing finds
  nothing); an expand session may stop at once (nothing worth expanding).

The engine checks the parsed actions again (``validate``): an endpoint that ignores grammars, or
a scripted test model, cannot smuggle an action past it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scholar_tui.core.pasa.prompts import CrawlerAction, parse_actions
from scholar_tui.models.grammars import gbnf_literal

FREE_QUERY_MAX_CHARS = 80


def _alternatives(options: Sequence[str]) -> str:
    if not options:
        raise ValueError("a grammar needs at least one option")
    return " | ".join(gbnf_literal(option) for option in options)


def _ordered_picks(marker: str, options: Sequence[str], actions: int, *, at_least_one: bool) -> str:
    """Rules for 1..``actions`` distinct options in list order, each after ``marker``, then [Stop].

    Greedy decoding of a tiny model repeats itself ("[Search] x [Search] x …"); asking for the
    options in their list order makes every pick a new one, without listing permutations:
    rule ``ti-c`` is what may follow the c-th pick when it was option i.
    """
    if not options:
        raise ValueError("a grammar needs at least one option")
    literals = [gbnf_literal(option) for option in options]
    lines = []

    def picks(after: int, count: int) -> str:
        return " | ".join(f"{literals[j]} t{j}-{count}" for j in range(after + 1, len(options)))

    first = f'"{marker} " ({picks(-1, 1)})'
    lines.append(f"root ::= {first}" + ("" if at_least_one else ' | "[Stop]"'))
    for count in range(1, actions + 1):
        for index in range(count - 1, len(options)):  # the c-th pick is at least option c-1
            more = picks(index, count + 1) if count < actions else ""
            tail = f'" [Stop]" | " {marker} " ({more})' if more else '" [Stop]"'
            lines.append(f"t{index}-{count} ::= {tail}")
    return "\n".join(lines) + "\n"


def search_grammar(candidates: Sequence[str] | None, actions: int) -> str:
    """Search session: 1..actions [Search] actions, then [Stop]; ``candidates=None`` means free text."""
    if candidates is not None:
        return _ordered_picks("[Search]", candidates, actions, at_least_one=True)
    query = f"[^\\[\\]\\n ] [^\\[\\]\\n]{{0,{FREE_QUERY_MAX_CHARS - 1}}}"
    body = "search"
    for _ in range(actions - 1):
        body = f'search (" " {body})?'
    return f'root ::= {body} " [Stop]"\nsearch ::= "[Search] " query\nquery ::= {query}\n'


def expand_grammar(sections: Sequence[str], actions: int, *, at_least_one: bool = True) -> str:
    """Expand session: distinct [Expand]s of the given section names in paper order, then [Stop]."""
    return _ordered_picks("[Expand]", sections, actions, at_least_one=at_least_one)


@dataclass
class CheckedActions:
    kept: list[CrawlerAction]
    refused: list[str]
    outside: list[CrawlerAction] = field(default_factory=list)
    """Refused only because the argument is not one the grammar offers (a model that ignores
    grammars wrote it): new, non-empty and within the limit. AutoFeedback can send these and
    let the tool's error tell the model what it got wrong."""


def validate(text: str, kind: str, allowed: Sequence[str] | None, actions: int) -> CheckedActions:
    """The actions of a response that the session may run; the rest, rendered, as refused.

    ``kind`` is "Search" or "Expand"; ``allowed`` the arguments that action may carry (None: any
    non-empty text). Actions after the first [Stop], repeats, and actions beyond the
    per-session limit are refused too.
    """
    kept: list[CrawlerAction] = []
    refused: list[str] = []
    outside: list[CrawlerAction] = []
    seen: set[str] = set()
    allowed_set = set(allowed) if allowed is not None else None
    for action in parse_actions(text):
        if action.kind == "Stop":
            break
        argument = action.argument.strip()
        well_formed = action.kind == kind and argument and argument.lower() not in seen
        if well_formed and len(kept) < actions and (allowed_set is None or argument in allowed_set):
            kept.append(CrawlerAction(action.kind, argument, action.start, action.end))
            seen.add(argument.lower())
        else:
            refused.append(action.render())
            if (
                well_formed
                and allowed_set is not None
                and argument not in allowed_set
                and len(kept) + len(outside) < actions
            ):
                outside.append(CrawlerAction(action.kind, argument, action.start, action.end))
                seen.add(argument.lower())
    return CheckedActions(kept, refused, outside)
