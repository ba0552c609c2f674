"""The title inside a raw bibliography entry, by the citation styles that real papers use.

unarXive keeps each reference as the raw string the author's bibliography printed, with linked
ids but no title. The crawl needs titles (the Selector reads them, search matches them), so they
are read back out of the string, style by style:

- quoted titles: ``J. Doe, “A title,” IEEE Trans. …`` (IEEE, APS, AIP);
- ``Authors: Title. In: Venue`` (Springer LNCS);
- ``Authors (2014). Title. Venue`` and ``Authors 2007, Title (Publisher)`` (APA, astronomy);
- ``Authors. Title. Venue, year.`` (ACM, NeurIPS, natbib's plain styles);
- ``A. Author and B. Author, Title, Journal 79 (2019) 253`` (physics and mathematics).

An entry that names no title (``E. Turov, J. Exp. Theor. Phys. 9, 890 (1959)``, the astronomy
``2016, , 593, A129``) gives None: better no record than a journal name passed off as a title.
"""

from __future__ import annotations

import functools
import re

QUOTED = re.compile(r"(?:[“\"]|``)\s*(?P<title>[^”\"`']{8,300}?)\s*[,.]?\s*(?:[”\"]|'')")
MARKER = re.compile(r"\{\{(formula|cite|figure|table):[^{}]*\}\}")
INITIAL = re.compile(r"^(?:[A-Z]\.)(?:-?[A-Z]\.)*,?$")  # J.  C.B.  J.-P.
YEAR = re.compile(r"\b(?:19|20)\d\d[a-z]?\b")
# A venue, a publisher or a note where a title should be. Abbreviations need their period so that
# titles starting "Transformers …", "Adversarial …", "Process …" or "Physics-informed …" survive.
VENUE_START = re.compile(
    r"^(?:the (?:astrophysical|astronomical|journal|annals|european|physical|review)|in[: ]|proc\.|proceedings\b|"
    r"phys\.|physical review\b|j\.|journal\b|nucl\.|ann\.|annals\b|comm\.|commun\.|communications (?:in|of)\b|"
    r"trans\.|transactions\b|adv\.|advances in\b|int\.|international journal\b|ieee\b|acm\b|math\.|"
    r"astrophys|astron\.|mon\. not|nature(?:\s+\w+)?\s*(?:[,\d]|$)|science\s*(?:[,\d]|$)|rev\.|lett\.|arxiv|"
    r"preprint|available|doi|https?:|springer|cambridge university|oxford university|elsevier|wiley|mem\.|bull\.|"
    r"ph\.?d\b|thesis\b|master'?s thesis|lecture notes\b|vol\.|pp\.|chem\.|eur\.|mnras\b|apj\b|a&a\b|jhep\b|"
    r"siam\b|sci\.|z\.|acta\b|invent\.|duke math|geom\.|pacific j|amer\.|technical report|tech\. rep|in press|"
    r"submitted\b|to appear|unpublished|private communication)",
    re.I,
)
ABBREVIATION = re.compile(r"\b[A-Z][a-z]{0,5}\.")
PARTICLES = {
    "van",
    "von",
    "der",
    "de",
    "den",
    "des",
    "da",
    "di",
    "du",
    "la",
    "le",
    "del",
    "dos",
    "y",
    "bin",
    "ter",
    "van't",
    "jr",
    "jr.",
    "ii",
    "iii",
    "iv",
}
# Compiled once: an import reads hundreds of thousands of entries (555 k at 100 k papers), and
# re's per-call cache lookup was a tenth of the time spent here.
WORD = re.compile(r"[^\W\d_][\w'’-]*")
VOLUME_YEAR = re.compile(r"\((?:19|20)\d\d\)|^(?:19|20)\d\d\b")
NAME_LIST_MARK = re.compile(r"[,;&]|\band\b|\b[A-Z]\.")
NAME_JOINER = re.compile(r"\s*(?:[,;]\s*)?(?:\band\b|&)\s*")
YEAR_IN_PARENTHESES = re.compile(r"\s*\((?:19|20)\d\d\)$")
COLON_AUTHORS = re.compile(r"^(?P<authors>.{3,400}?(?:[A-Z]\.|et al\.))\s*:\s+(?P<rest>.+)$")
COLON_VENUE = re.compile(r"\.\s+(?:In[: ]|Proc|arXiv|Preprint|Springer|IEEE|ACM|pp\.|vol\.|Vol\.)")
SENTENCE_END = re.compile(r"\.\s+(?=[A-Z])")
YEAR_AUTHORS = re.compile(r"^(?P<authors>[^()]{3,400}?)[\s,]*\(?(?:19|20)\d\d[a-z]?\)?[.,]\s+(?P<rest>.+)$")
YEAR_HEAD_END = re.compile(r"\.\s+|,\s+(?=(?:[A-Z][a-z]*\.|\d|vol|pp|in\b))|\s+\(")
JOURNAL_NUMBER = re.compile(r"\s*,\s*[A-Z]?\d")
PERIOD = re.compile(r"\.\s+")
DIGIT = re.compile(r"\d")
SURNAME_NEXT = re.compile(
    r"(?:(?:van|von|de|der|den|des|da|di|du|la|le|del|dos)\s+)*[^\W\d_][\w'’-]*"
    r"(?:\s+(?:Jr\.?|II|III|IV))?(?:,|\s+and\b|\s+et al|\s+&)"
)


def _clean(text: str) -> str:
    text = MARKER.sub(" ", text).replace("~", " ")
    return " ".join(text.replace("{", "").replace("}", "").split())


def _words(text: str) -> list[str]:
    return WORD.findall(text)


def looks_like_title(text: str) -> bool:
    """Words, mostly letters, not a venue, not a page range: what a title looks like."""
    text = text.strip()
    words = _words(text)
    if len(words) < 2 or len(words) > 45 or len(text) < 10:
        return False
    if VENUE_START.match(text) or "doi" in text.lower() or "http" in text.lower():
        return False
    if VOLUME_YEAR.search(text):  # '14 (1997), A83': volume and year
        return False
    if "et al" in text or (_names_only(text) and NAME_LIST_MARK.search(text)):
        return False  # 'R., Bergner', 'Chekanov et al. [ZEUS]': a piece of the author list
    letters = sum(map(str.isalpha, text))
    if letters / max(len(text), 1) < 0.6:
        return False
    # "Phys. Rev. D" / "J. Exp. Theor. Phys.": several abbreviations and few real words.
    if len(ABBREVIATION.findall(text)) >= 2 and len([w for w in words if len(w) > 4]) < 3:
        return False
    return True


@functools.lru_cache(maxsize=1 << 16)  # the same names recur entry after entry (Zipf's authors)
def _is_name(segment: str) -> bool:
    """'Q. H. Nguyen', 'J.-P. Serre', 'Yann Ollivier', 'van der Waals', a lone 'R.' of 'Surname, R.'."""
    segment = segment.strip()
    if not segment:
        return False
    if segment.rstrip(".").lower() in ("et al", "and others", "others"):
        return True
    tokens = segment.replace("~", " ").split()
    if not 1 <= len(tokens) <= 5:
        return False
    if sum(not INITIAL.match(token.strip(",;")) for token in tokens) > 3:
        return False  # 'Re-Evaluating Chemical Synthesis Planning Algorithms' is a title
    for token in tokens:
        bare = token.strip(",;")
        if INITIAL.match(bare) or INITIAL.match(bare + ".") or bare.lower() in PARTICLES:
            continue
        if bare[:1].isupper() and not any(char.isdigit() for char in bare) and not bare.endswith(":"):
            continue
        return False
    return True


@functools.lru_cache(maxsize=1 << 16)  # a comma-separated entry is split segment by segment: names recur
def _split_names(text: str) -> tuple[str, ...]:
    """An author list's parts: 'A. B, C. D, and E. F' -> ('A. B', 'C. D', 'E. F') (';' too)."""
    text = NAME_JOINER.sub(", ", text.replace(";", ","))
    return tuple(part for part in (piece.strip() for piece in text.split(",")) if part)


def _names_only(text: str) -> bool:
    parts = _split_names(text.strip().rstrip(".:,"))
    return bool(parts) and all(_is_name(part) for part in parts)


TAIL = re.compile(
    r",\s*(?:volume|vol\.|pages|pp\.|in\b|In\b|arXiv|edited|eds?\.|(?:19|20)\d\d\b)|\s+\([^)]*$|\.\s+|\?\s+(?=[A-Z])"
    r"|,\s+(?=(?:SIAM|IEEE|ACM|Journal|Proceedings|Proc\.|Phys\.|Nature|Science|Springer|Annals|Trans)\b)"
)


def _trim(title: str) -> str:
    """Cut what follows the title inside its segment (', volume 51 of …', ' (Prentice Hall, …')."""
    title = TAIL.split(title.strip(), maxsplit=1)[0]
    title = title.strip().strip(",.;: ")
    return YEAR_IN_PARENTHESES.sub("", title)


def _quoted(text: str) -> str | None:
    match = QUOTED.search(text)
    if match and looks_like_title(match["title"]):
        return _trim(match["title"])
    return None


def _colon_style(text: str) -> str | None:
    """Springer: 'Zhang, X., Zhou, X., Sun, J.: Shufflenet: An extremely … In: Proceedings …'."""
    match = COLON_AUTHORS.match(text)
    if not match or not _names_only(match["authors"]):
        return None
    rest = COLON_VENUE.split(match["rest"])[0]
    title = _trim(SENTENCE_END.split(rest)[0] if not looks_like_title(rest) else rest.split(". ")[0])
    return title if looks_like_title(title) else None


def _year_style(text: str) -> str | None:
    """'Dixon, M. J., et al. (2014). The allure …' and 'Press, W. H., … 2007, Numerical Recipes (CUP)'."""
    match = YEAR_AUTHORS.match(text)
    if not match or not _names_only(match["authors"].rstrip(" ,.")):
        return None
    rest = match["rest"]
    head = YEAR_HEAD_END.split(rest)[0]
    if JOURNAL_NUMBER.match(rest, len(head)):  # ``rest`` starts with ``head``: what follows it
        return None  # astronomy style: '2020, Scientific Reports, 10, 10907' is a journal, no title
    title = _trim(head)
    return title if looks_like_title(title) else None


def _period_style(text: str) -> str | None:
    """ACM/NeurIPS: 'T. Alazard, O. Lazar, and Q. H. Nguyen. On the dynamics of …. Journal …'.

    The author list is the longest prefix ending at '. ' that is names only (initials end with
    periods too, so the first '. ' is often inside the list)."""
    best = None
    for match in PERIOD.finditer(text):
        prefix, rest = text[: match.start() + 1], text[match.end() :]
        last = prefix.split()[-1]
        # 'H. Neven, Characterizing …': the period ends an initial and a surname follows.
        if INITIAL.match(last) and SURNAME_NEXT.match(rest):
            continue
        if _names_only(prefix):
            best = match.end()
        elif best is not None:
            break
    if best is None:
        return None
    title = _trim(text[best:])
    return title if looks_like_title(title) else None


def _comma_style(text: str) -> str | None:
    """Physics: 'M. Diehl, P. Plößl and A. Schäfer, Proof of sum rules …, Eur. Phys. J. C 79 (2019) 253'."""
    segments = [segment.strip() for segment in text.split(",")]
    index = 0
    with_initials = None  # 'R. Beig and P.T. Chruściel, Killing Initial Data': names here carry initials
    while index < len(segments):
        names = _split_names(segments[index])
        if names and all(_is_name(name) for name in names):
            has_initial = any(INITIAL.match(token) for name in names for token in name.split())
            if with_initials is None:
                with_initials = has_initial
            elif with_initials and not has_initial:
                break
            index += 1
            continue
        break
    if index == 0 or index >= len(segments):
        return None
    title_parts: list[str] = []
    for segment in segments[index:]:
        if title_parts and (
            VENUE_START.match(segment)
            or YEAR.search(segment)
            or DIGIT.search(segment)
            or len(ABBREVIATION.findall(segment)) >= 1
        ):
            break
        title_parts.append(segment)
        if DIGIT.search(segment) or VENUE_START.match(segment):
            return None
    title = _trim(", ".join(title_parts))
    return title if looks_like_title(title) else None


def extract_title(raw: str | None) -> str | None:
    """The title of the work a raw bibliography entry names, or None when it names none."""
    if not raw:
        return None
    text = _clean(raw)
    for style in (_quoted, _colon_style, _year_style, _period_style, _comma_style):
        title = style(text)
        if title:
            return title
    return None
