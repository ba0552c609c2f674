"""Answer metrics as ConferenceQA (and SQuAD) compute them: token F1 and exact match.

Both compare normalised answers: lower case, punctuation and the articles a/an/the removed,
whitespace collapsed. The paper's EM is judged by GPT-4 ("EM-GPT4"); ours is the strict,
reproducible string form, so it is lower for long gold answers.
"""

from __future__ import annotations

import re
import string
from collections import Counter

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = set(string.punctuation) | {"“", "”", "‘", "’", "–", "—", "…", "»"}


def normalise_answer(text: str) -> str:
    text = "".join(char for char in text.lower() if char not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def answer_tokens(text: str) -> list[str]:
    return normalise_answer(text).split() if text else []


def token_f1(gold: str, predicted: str) -> float:
    gold_tokens, predicted_tokens = answer_tokens(gold), answer_tokens(predicted)
    if not gold_tokens or not predicted_tokens:
        return float(gold_tokens == predicted_tokens)
    common = sum((Counter(gold_tokens) & Counter(predicted_tokens)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted_tokens), common / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def exact_match(gold: str, predicted: str) -> float:
    return float(normalise_answer(gold) == normalise_answer(predicted))


def scored_answer(gold: str, value: str, answer: str) -> str:
    """The answer in the form its gold is written, for ``token_f1`` and ``exact_match``: a gold no longer than the
    value asked ("No") is scored against the value (a yes/no answer's verdict), a longer one ("No, authors are
    encouraged to submit code …") against the whole answer, its verdict and deciding sentence.

    STAR's golds for yes/no questions are written both ways (ICML and ISWC: 15 bare verdicts, 22 with their
    reason), and scoring a bare "No" against "No, <sentence>" measured the sentence's length, not the verdict.
    For an answer that is its own value (a date, a list) the two are the same."""
    return value if len(answer_tokens(gold)) <= len(answer_tokens(value)) else answer
