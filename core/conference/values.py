"""Values inside a conference's texts: dates, amounts of money, e-mail addresses, links, sentences.

Small parsers for what conference sites write ("Jul 23rd", "June 17, 2023", "Feb 16 '23",
"2023-05-01", "$1,200", "USD 75.00", "75 €"), used by the answer operators to compute
earliest/latest, sums and comparisons, and to cut a span out of a long value.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date
from functools import cache

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s*(?P<year>(?:19|20)\d\d)|\s*'(?P<short>\d\d))?"
MONTH_FIRST = re.compile(rf"\b{_MONTH}\s+{_DAY}\b{_YEAR}", re.IGNORECASE)
DAY_FIRST = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b{_YEAR}", re.IGNORECASE)
ISO = re.compile(r"\b(?P<year>(?:19|20)\d\d)-(?P<month>\d\d)-(?P<day>\d\d)\b")
AMOUNT = re.compile(
    r"(?P<before>US\$|USD|EUR|GBP|CNY|RMB|\$|€|£|¥)\s?(?P<number>\d[\d,]*(?:\.\d+)?)(?P<code>\s?(?:USD|EUR|GBP)\b)?"
    r"|(?P<number2>\d[\d,]*(?:\.\d+)?)\s?(?P<after>USD|EUR|GBP|CNY|RMB|dollars|euros|€)",
    re.IGNORECASE,
)
CODED_AMOUNT = re.compile(
    r"\b(?P<before>[A-Z]{3})\s?(?P<number>\d[\d,]*(?:\.\d+)?)\b|\b(?P<number2>\d[\d,]*(?:\.\d+)?)\s?(?P<after>[A-Z]{3})\b"
)
"""An amount in any currency by its ISO 4217 code ("NOK 2,900", "1,200 CHF"); ``AMOUNT`` reads the symbols."""


@cache
def currency_codes() -> frozenset[str]:
    """The ISO 4217 codes (Babel's CLDR data), less those that are English words written in capitals ("ALL")."""
    from babel.numbers import list_currencies

    from scholar_tui.core.conference.lexical import STOPWORDS

    return frozenset(code for code in list_currencies() if code.lower() not in STOPWORDS)


EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
URL = re.compile(r"(?:https?://|www\.)[^\s)\"'<>]+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
# What kind of value a question asks for (general English question words).
WHEN = re.compile(r"\b(when|what date|which date|what day|deadline|due)\b", re.IGNORECASE)
HOW_MUCH = re.compile(r"\b(how much|cost|price|fee|fees|pay)\b", re.IGNORECASE)
ASKS_EMAIL = re.compile(r"\b(e-?mail|contact)\b", re.IGNORECASE)
ASKS_LINK = re.compile(
    r"\b(link|url|website|web page|webpage|homepage|home page|site|download|learn more)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class DateFound:
    day: date
    text: str
    """The words that said it, as written."""
    year_given: bool


def _date(year: int | None, month: int, day: int, default_year: int) -> date | None:
    try:
        return date(year or default_year, month, day)
    except ValueError:
        return None


def find_dates(text: str, default_year: int = 2000) -> list[DateFound]:
    """Every date written in ``text``; a date without a year takes ``default_year`` (for ordering only)."""
    found: list[tuple[int, DateFound]] = []
    for pattern in (MONTH_FIRST, DAY_FIRST):
        for match in pattern.finditer(text):
            month = MONTHS[match.group("month").lower().rstrip(".")]
            year = match.group("year")
            short = match.group("short")
            year_number = int(year) if year else (2000 + int(short) if short else None)
            parsed = _date(year_number, month, int(match.group("day")), default_year)
            if parsed:
                found.append((match.start(), DateFound(parsed, match.group(0).strip(" ,"), year_number is not None)))
    for match in ISO.finditer(text):
        parsed = _date(int(match.group("year")), int(match.group("month")), int(match.group("day")), default_year)
        if parsed:
            found.append((match.start(), DateFound(parsed, match.group(0), True)))
    found.sort(key=lambda item: item[0])
    return [item for _, item in found]


@dataclass(frozen=True)
class Amount:
    value: float
    currency: str
    text: str
    decimals: int = 0
    """Digits after the point as written ("$75.00" → 2), so a computed amount is written alike."""
    code: str = ""
    """A currency code written after the amount ("$75.00 USD" → "USD")."""


def find_amounts(text: str) -> list[Amount]:
    """Every amount written in ``text``, in the order written: by a symbol or a common code (``AMOUNT``), or by
    any ISO 4217 code (``CODED_AMOUNT``)."""
    found: list[tuple[int, Amount]] = []
    for match in AMOUNT.finditer(text):
        number = match.group("number") or match.group("number2")
        currency = (match.group("before") or match.group("after") or "").upper()
        currency = {"US$": "$", "USD": "$", "DOLLARS": "$", "EUROS": "€", "EUR": "€"}.get(currency, currency)
        decimals = len(number.split(".", 1)[1]) if "." in number else 0
        try:
            amount = Amount(
                float(number.replace(",", "")),
                currency,
                match.group(0).strip(),
                decimals,
                (match.group("code") or "").strip().upper(),
            )
        except ValueError:
            continue
        found.append((match.start(), amount))
    read = [(start, start + len(amount.text)) for start, amount in found]
    for match in CODED_AMOUNT.finditer(text):
        code = match.group("before") or match.group("after")
        number = match.group("number") or match.group("number2")
        if code not in currency_codes() or any(start < match.end() and match.start() < end for start, end in read):
            continue  # not a currency, or read above by its symbol ("EUR 500", "$75.00 USD")
        decimals = len(number.split(".", 1)[1]) if "." in number else 0
        found.append((match.start(), Amount(float(number.replace(",", "")), code, match.group(0).strip(), decimals)))
    return [amount for _, amount in sorted(found, key=lambda entry: entry[0])]


def format_amount(value: float, like: Amount) -> str:
    """``value`` written the way ``like`` was (symbol, decimals, trailing code)."""
    number = f"{value:,.{like.decimals}f}"
    text = f"{like.currency}{number}" if like.currency in ("$", "€", "£", "¥") else f"{number} {like.currency}".strip()
    return f"{text} {like.code}" if like.code else text


def sentences(text: str) -> list[str]:
    return [part.strip() for part in SENTENCE_END.split(text) if part.strip()]


def holds_asked_value(question: str, text: str) -> bool:
    """Whether ``text`` holds a value of the kind ``question`` asks for (a date for "when", an
    amount for "how much", an address for "e-mail", a link for "website")."""
    return any(
        pattern.search(question) and finder(text)
        for pattern, finder in (
            (WHEN, find_dates),
            (HOW_MUCH, find_amounts),
            (ASKS_EMAIL, EMAIL.search),
            (ASKS_LINK, URL.search),
        )
    )


# -- measures: a number of a unit ("15 pages", "100MB", "a 5 min video") -----------------------------------------
UNIT_FORMS = {
    "pages": r"pages?",
    "words": r"words?",
    "characters": r"characters?",
    "seconds": r"seconds?|secs?",
    "minutes": r"minutes?|mins?",
    "hours": r"hours?|hrs?",
    "MB": r"MB|megabytes?",
    "GB": r"GB|gigabytes?",
    "KB": r"KB|kilobytes?",
}
"""The units a limit on a document, a file or a slot is written in, each by the spellings sites use."""
SPELLED = "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty".split()
_AMOUNT_OF = r"\d[\d,]*(?:\.\d+)?|" + "|".join(SPELLED)
MEASURE = re.compile(
    rf"\b(?P<low>{_AMOUNT_OF})(?:\s*(?:-|–|to|and)\s*(?P<high>{_AMOUNT_OF}))?[\s-]*"
    rf"(?P<unit>{'|'.join(UNIT_FORMS.values())})\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Measure:
    """A number of a unit as written ("8 and 15 pages": low 8, high 15), with its unit's name."""

    text: str
    low: str
    high: str | None
    unit: str

    def bound(self, which: str | None) -> str:
        """The range's end asked ("min" → "8 pages", "max" → "15 pages"), else the whole as written."""
        if self.high is None or which is None:
            return self.text
        return f"{self.low if which == 'min' else self.high} {self.unit}"


def unit_name(written: str) -> str:
    return next(name for name, form in UNIT_FORMS.items() if re.fullmatch(form, written, re.IGNORECASE))


def find_measures(text: str, units: Collection[str]) -> list[Measure]:
    """Every number of one of ``units`` written in ``text`` ("no longer than 15 pages", "5 min video")."""
    found = []
    for match in MEASURE.finditer(text):
        unit = unit_name(match.group("unit"))
        if unit in units:
            found.append(Measure(match.group(0).strip(" -"), match.group("low"), match.group("high"), unit))
    return found
