"""Small PDFs the tests make themselves, and the check of citation links against a PDF's own links.

``pdf_bytes`` writes a minimal, valid PDF by hand (Helvetica text at given places and sizes, a
correct xref table), so the tests need no file from outside. ``citation_truth`` reads the hyperref
link annotations of a LaTeX PDF: each citation mark links to its bibliography entry, so the label
printed at the link's destination is the right entry for that mark — an answer key the reader
never sees (it links by the printed numbers).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from scholar_tui.indexes.records import PaperRecord, page_at


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


Item = tuple  # (x, y from the top, font size, text) or (…, text, "bold")


def pdf_bytes(pages: list[list[Item]], *, encrypt: bool = False) -> bytes:
    """A PDF whose page i shows each (x, y from the top, font size, text[, "bold"]) of ``pages[i]``."""
    objects: list[bytes] = []
    page_ids = []
    next_id = 5
    bodies = []
    for items in pages:
        content = "".join(
            f"BT /{'F2' if len(item) > 4 else 'F1'} {item[2]} Tf {item[0]} {792 - item[1]} Td "
            f"({_escape(item[3])}) Tj ET\n"
            for item in items
        )
        page_ids.append(next_id)
        bodies.append((next_id, next_id + 1, content.encode("latin-1")))
        next_id += 2
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{page_id} 0 R" for page_id in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(page_ids)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
    for _page_id, content_id, content in bodies:
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> "
            f"/Contents {content_id} 0 R >>".encode()
        )
        objects.append(b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"endstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    trailer = f"<< /Size {len(objects) + 1} /Root 1 0 R"
    if encrypt:  # an /Encrypt dictionary PDFium asks a password for (a standard handler, R4/AES)
        trailer += (
            " /Encrypt << /Filter /Standard /V 4 /R 4 /Length 128 /P -4 /O <"
            + "00" * 32
            + "> /U <"
            + "00" * 32
            + "> >>"
        )
        trailer += " /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]"
    out += f"trailer\n{trailer} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_pdf(path: Path, pages: list[list[Item]], **options) -> Path:
    path.write_bytes(pdf_bytes(pages, **options))
    return path


def citation_truth(path: Path, record: PaperRecord) -> Counter:
    """(page, ordinal) of every citation mark that links into the bibliography, from the PDF's own
    links: the entry printed at a link's destination is found among ``record``'s references by the
    text of its first line (numbered labels and author–year entries alike)."""
    from pdftext.extraction import dictionary_output

    pages = dictionary_output(str(path))
    keys = [(_key(reference.raw or ""), reference.ordinal) for reference in record.references]
    ordinals: dict[tuple[int, int], int] = {}  # (page index, ref idx) -> ordinal of the entry there
    for page in pages:
        lines = [
            (line["bbox"][1], line["bbox"][0], "".join(span["text"] for span in line["spans"]).strip())
            for block in page["blocks"]
            for line in block["lines"]
        ]
        for reference in page["refs"]:
            x, y = reference.coord
            below = sorted((line_y, text) for line_y, line_x, text in lines if line_y >= y - 6 and abs(line_x - x) < 40)
            printed = " ".join(text for _, text in below[:3])
            label = re.match(r"\((\d+)\)|\[(\d+)\]", printed)
            if label:
                ordinals[(reference.page, reference.idx)] = int(label.group(1) or label.group(2))
                continue
            # the entry whose text shares the longest beginning with the three lines printed there
            key = _key(printed)
            shared, ordinal = max((_shared(key, other), ordinal) for other, ordinal in keys)
            if shared >= 20:
                ordinals[(reference.page, reference.idx)] = ordinal
    truth: Counter = Counter()
    for page in pages:
        previous = None  # one citation whose words are split over spans or lines is one mark
        for block in page["blocks"]:
            for line in block["lines"]:
                for span in line["spans"]:
                    url = span.get("url") or ""
                    if not url and not span["text"].strip():
                        continue
                    found = re.fullmatch(r"#page-(\d+)-(\d+)", url)
                    if found and url != previous and (int(found.group(1)), int(found.group(2))) in ordinals:
                        truth[(page["page"] + 1, ordinals[(int(found.group(1)), int(found.group(2)))])] += 1
                    previous = url or None
    return truth


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _shared(first: str, second: str) -> int:
    count = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        count += 1
    return count


def linked_marks(record: PaperRecord) -> Counter:
    """(page, ordinal) of every [n] marker the reader wrote into the sections' text."""
    marks: Counter = Counter()
    for section in record.sections:
        for match in re.finditer(r"\[(\d+)\]", section.text):
            marks[(page_at(section.pages, match.start()), int(match.group(1)))] += 1
    return marks


def agreement(truth: Counter, marks: Counter) -> tuple[int, int, int]:
    """(truth marks, reader marks, marks on the right page linked to the right entry)."""
    right = sum(min(count, marks[key]) for key, count in truth.items())
    return sum(truth.values()), sum(marks.values()), right
