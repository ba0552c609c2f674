"""A two-page paper written as a PDF by hand, numbered or author–year, for the reader's tests."""

from __future__ import annotations

from pathlib import Path

from .pdf_support import write_pdf

BODY = 10


def _paragraph(y: float, lines: list[str]) -> list[tuple]:
    return [(72, y + 13 * number, BODY, text) for number, text in enumerate(lines)]


def numbered_paper(path: Path, reference_size: float = BODY) -> Path:
    """'Graph Networks for Molecules' by Ada Lovelace and Alan Turing, citing [1]–[3]; the reference
    list set in ``reference_size`` points (IEEE sets it smaller than the body)."""
    first = [
        (72, 60, 20, "Graph Networks for Molecules"),
        (72, 90, 12, "Ada Lovelace, Alan Turing"),
        (72, 105, 11, "University of Somewhere"),
        (72, 140, 11, "Abstract", "bold"),
        *_paragraph(
            158,
            [
                "We study graph networks that predict properties of molecules from their",
                "structure, and explain their predictions with counterfactuals.",
            ],
        ),
        (72, 210, 12, "1 Introduction", "bold"),
        *_paragraph(
            228,
            [
                "Deep learning predicts solubility well [1]. Graph networks read molecules as",
                "graphs [2, 3] and attention helps them too [1-3]. We build on these works and",
                "extend them to larger molecules than were studied before in this field.",
            ],
        ),
    ]
    second = [
        (72, 60, 12, "2 Methods", "bold"),
        *_paragraph(
            78,
            [
                "Our model follows the message passing scheme of earlier work [2]. It is trained",
                "on public data and evaluated on held out molecules of every size we could find.",
            ],
        ),
        (72, 140, 12, "References", "bold"),
        (72, 158, reference_size, "[1] A. Smith, B. Jones. Solubility from structure. J. Chem. Inf. 2019."),
        (72, 171, reference_size, "[2] C. Gilmer, D. Schoenholz. Neural message passing for quantum chemistry."),
        (84, 184, reference_size, "In ICML, 2017. arXiv:1704.01212."),
        (72, 197, reference_size, "[3] E. Lee. Attention on graphs. Nature 2020. doi:10.1038/s41586-020-0000-1."),
    ]
    return write_pdf(path, [first, second])


def author_year_paper(path: Path) -> Path:
    """The same paper citing (Smith and Jones, 2019), Gilmer et al. (2017) and (Lee, 2020a, 2020b)."""
    first = [
        (72, 60, 20, "Graph Networks for Molecules Again"),
        (72, 90, 12, "Ada Lovelace, Alan Turing"),
        (72, 105, 11, "University of Somewhere"),
        (72, 140, 11, "Abstract", "bold"),
        *_paragraph(
            158,
            [
                "We study graph networks that predict properties of molecules from their",
                "structure, and explain their predictions with counterfactuals.",
            ],
        ),
        (72, 210, 12, "1 Introduction", "bold"),
        *_paragraph(
            228,
            [
                "Deep learning predicts solubility well (Smith and Jones, 2019). As Gilmer",
                "et al. (2017) showed, graphs help (Lee, 2020a, 2020b; Smith and Jones, 2019). We",
                "extend them to larger molecules than were studied before in this field.",
            ],
        ),
    ]
    second = [
        (72, 60, 12, "References", "bold"),
        (72, 78, BODY, "Justin Gilmer and Samuel Schoenholz. 2017. Neural message passing for"),
        (84, 91, BODY, "quantum chemistry. In ICML."),
        (72, 104, BODY, "Eun Lee. 2020a. Attention on graphs. Nature."),
        (72, 117, BODY, "Eun Lee. 2020b. Attention on trees. Science."),
        (72, 130, BODY, "Alice Smith and Bob Jones. 2019. Solubility from structure. J. Chem. Inf."),
    ]
    return write_pdf(path, [first, second])


def superscript_paper(path: Path, *, parenthesised: bool = False) -> Path:
    """Citations set as raised small digits (¹, ²⁻³), or, with ``parenthesised``, as (1) and (2, 3)."""

    def cite(x: float, y: float, text: str, marks: str) -> list[tuple]:
        if parenthesised:
            return [(x, y, BODY, f"{text} ({marks})")]
        width = len(text) * 4.9  # Helvetica's average advance at 10 pt
        return [(x, y, BODY, text), (x + width + 1, y - 4, 6, marks)]

    first = [
        (72, 60, 20, "Superscripts in Chemistry Papers"),
        (72, 90, 12, "Grace Hopper"),
        (72, 105, 11, "Department of Chemistry"),
        (72, 140, 12, "Introduction", "bold"),
        *cite(72, 160, "Solubility is predicted well by deep learning.", "1"),
        *cite(72, 173, "Graph networks read molecules as graphs of their atoms.", "2,3"),
        (72, 186, BODY, "Their use has grown over the last years in most fields of chemistry that we know of."),
        (72, 220, 12, "References", "bold"),
        (72, 238, BODY, "(1) Smith, A.; Jones, B. Solubility from structure. J. Chem. Inf. 2019, 5, 1-9."),
        (72, 251, BODY, "(2) Gilmer, J.; Schoenholz, S. Neural message passing. ICML 2017, 1, 1-10."),
        (72, 264, BODY, "(3) Lee, E. Attention on graphs. Nature 2020, 7, 1-3."),
    ]
    return write_pdf(path, [first])
