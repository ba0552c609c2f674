"""Search queries a tiny model can choose among: the user query's own key phrases.

SmolLM2-135M cannot write a good search query, but it can pick one from a list. The list is
derived from the user query alone, deterministically: the question frame is dropped ("Could you
provide me some works about …", "Which papers …"), the rest is split into candidate phrases at
stop words and punctuation, and phrases are scored the RAKE way (Rose et al., 2010: a word
scores degree/frequency inside the candidate phrases; a phrase scores the sum of its words).
The candidates are the core of the query itself (its first 32 words), a compact form of a long
query (its two best phrases), then the best phrases. A bigger model is given no list: it writes free queries within the grammar.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    """
a about above after again against all also although am among an and any are as at be because been before being
below between both but by can could did do does doing down during each either else etc even ever every few for
from further had has have having he her here hers him his how however i if in into is it its itself just least
less let like many may me might more most much must my neither no nor not of off often on once one only or other
our ours out over own per please provide rather really same several shall she should since so some such than that
the their theirs them then there these they this those though through thus to too toward towards under until up
upon us very via was we were what when where whether which while who whom whose why will with within without
would yet you your give find show tell list looking look want need regarding respect using used use based
works work papers paper studies study research researches articles article approaches approach methods method
propose proposed proposes recent recently existing related different various new novel specifically particular
especially mainly namely e g i ie eg al general aims aim focused focus focuses
how way ways well kind kinds type types
""".split()
)
FRAME = re.compile(
    r"^\s*(?:(?:could|can|would)\s+you\s+(?:please\s+)?(?:provide|give|show|find|recommend|list)\s+(?:me\s+)?"
    r"(?:with\s+)?(?:some\s+|any\s+)?(?:works?|papers?|studies|research|articles|literature)?\s*"
    r"(?:about|on|that|which|regarding|related\s+to|in)?\s*:?"
    r"|(?:which|what)\s+(?:papers?|studies|works?|research|articles)\s+(?:have\s+been\s+|has\s+been\s+|are\s+|were\s+)?"
    r"|(?:give|show|find|list)\s+(?:me\s+)?(?:some\s+|any\s+)?(?:papers?|works?|studies|articles)\s*(?:about|on|that)?\s*:?"
    r"|(?:any|some)\s+(?:papers?|works?|studies)\s+(?:about|on|that)\s*"
    r"|(?:papers?|works?|studies)\s+(?:about|on)\s*)",
    re.I,
)
TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-+/.']*[A-Za-z0-9+]|[A-Za-z0-9]")
MAX_PHRASE_WORDS = 4
MAX_CORE_WORDS = 32
COMPACT_OVER_WORDS = 12  # a query longer than this also gets its compact form


def query_core(query: str) -> str:
    """The query without its question frame and final punctuation."""
    core = FRAME.sub("", query.strip(), count=1)
    return " ".join(core.strip().rstrip("?.!").split())


def candidate_phrases(text: str) -> list[tuple[str, float]]:
    """RAKE: phrases between stop words and punctuation, best first, with their scores. A slash or dash
    between spaces is punctuation ("a fluid / Bohmian picture": two alternatives, not one term "fluid
    Bohmian picture"); one inside a word is part of it ("input/output", "Runge-Kutta")."""
    phrases: list[list[str]] = []
    for chunk in re.split(r"[,;:!?()\[\]\"“”]|\.\s|\s[/–—-]+\s", text):
        current: list[str] = []
        for token in TOKEN.findall(chunk):
            if token.lower() in STOPWORDS or len(token) < 2 and not token.isdigit():
                if current:
                    phrases.append(current)
                current = []
            else:
                current.append(token)
        if current:
            phrases.append(current)
    # Long runs become windows, so that every candidate is a plausible query.
    windows = []
    for phrase in phrases:
        if len(phrase) <= MAX_PHRASE_WORDS:
            windows.append(phrase)
        else:
            windows += [phrase[start : start + MAX_PHRASE_WORDS] for start in range(0, len(phrase) - 1, 2)]
    frequency: dict[str, int] = {}
    degree: dict[str, int] = {}
    for phrase in windows:
        for word in phrase:
            key = word.lower()
            frequency[key] = frequency.get(key, 0) + 1
            degree[key] = degree.get(key, 0) + len(phrase)
    scored: dict[str, float] = {}
    for phrase in windows:
        text_phrase = " ".join(phrase)
        score = sum(degree[word.lower()] / frequency[word.lower()] for word in phrase)
        key = text_phrase.lower()
        if key not in scored or scored[key] < score:
            scored[key] = score
    originals = {" ".join(phrase).lower(): " ".join(phrase) for phrase in windows}
    ranked = sorted(scored.items(), key=lambda item: (-item[1], list(originals).index(item[0])))
    return [(originals[key], score) for key, score in ranked]


def _worth_searching(phrase: str) -> bool:
    """Several words, or one acronym ('UCB', 'LLM'): a lone common word finds everything and nothing."""
    words = phrase.split()
    return len(words) > 1 or (len(phrase) >= 2 and phrase.isupper())


def search_candidates(query: str, limit: int = 6) -> list[str]:
    """The search queries a [Search] action may carry, best first (see the module doc)."""
    core = query_core(query)
    phrases = [phrase for phrase, _ in candidate_phrases(core) if _worth_searching(phrase)]
    candidates: list[str] = []
    if core:  # the query itself, as a researcher's first search would be (long ones cut)
        candidates.append(" ".join(core.split()[:MAX_CORE_WORDS]))
    if len(core.split()) > COMPACT_OVER_WORDS and len(phrases) >= 2:
        candidates.append(f"{phrases[0]} {phrases[1]}")  # a compact form of a long query
    for phrase in phrases:
        if len(candidates) >= limit:
            break
        if phrase.lower() not in (candidate.lower() for candidate in candidates):
            candidates.append(phrase)
    return candidates


def matched_phrases(query: str, text: str, limit: int = 3) -> list[str]:
    """The query's key phrases (or their words) found in ``text``: evidence for a templated rationale."""
    haystack = " " + " ".join(TOKEN.findall(text.lower())) + " "
    found = []
    for phrase, _ in candidate_phrases(query_core(query)):
        words = [word.lower() for word in TOKEN.findall(phrase)]
        if f" {' '.join(words)} " in haystack:
            found.append(phrase)
        else:
            found += [word for word in words if len(word) > 3 and f" {word} " in haystack and word not in found]
        if len(found) >= limit:
            break
    return list(dict.fromkeys(found))[:limit]
