"""Printable ArUco sticker sheets for a game's board profile (``herald stickers``).

The sheet is laid out in millimetres first (``plan_sheet``, pure data) and then written as a
PDF at true physical size (``write_pdf``, with fpdf2): every marker cell is a vector rectangle,
so a printer at 100 % gives 10 mm stickers and 40 mm board-corner markers exactly. The marker →
component mapping is the profile's ``markers`` map (one source of truth, the profile JSON); the
sheet never prints one of the "weak" IDs ``MarkerDetector`` refuses to report. When the chosen
dictionary cannot use the profile's IDs (a weak or missing code), the stickers get the first
usable IDs instead and the caller saves the returned profile next to the sheet.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import BoardProfile
from vision.markers import dictionary_by_name, usable_ids

PAPER_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 12.0
HEADER_MM = 16.0
LABEL_PT = 5.5
CELL_GAP_MM = (12.0, 9.0)


class StickerError(ValueError):
    """The sheet cannot be made; ``code`` and ``params`` name the catalog sentence."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Sticker:
    """One marker on the sheet: ``x``/``y`` is the top-left of its black square (mm)."""

    marker_id: int
    label: str
    size_mm: float
    x: float
    y: float
    quiet_mm: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The cut square (marker plus its white quiet zone): x, y, w, h in mm."""
        q = self.quiet_mm
        return self.x - q, self.y - q, self.size_mm + 2 * q, self.size_mm + 2 * q


@dataclass(frozen=True)
class SheetPlan:
    """The whole kit: pages of stickers, the paper, the dictionary and the profile it encodes."""

    paper: str
    size_mm: tuple[float, float]
    dictionary: str
    profile: BoardProfile
    pages: tuple[tuple[Sticker, ...], ...]

    @property
    def stickers(self) -> list[Sticker]:
        return [s for page in self.pages for s in page]


def kit_profile(profile: BoardProfile, dictionary: str | None = None) -> BoardProfile:
    """The profile the printed kit matches: the given one, re-numbered only when it must be.

    Raises:
        StickerError: a corner ID is weak in the dictionary, or it has too few usable IDs.
    """
    name = dictionary or profile.dictionary
    usable = set(usable_ids(name))
    weak_corners = [i for i in profile.corner_ids if i not in usable]
    if weak_corners:
        raise StickerError("vision/sticker-weak-corner", ids=weak_corners, dictionary=name)
    if all(i in usable for i in profile.markers) and name == profile.dictionary:
        return profile
    if all(i in usable for i in profile.markers):
        return replace(profile, dictionary=name)
    free = [i for i in sorted(usable) if i not in profile.corner_ids]
    if len(free) < len(profile.markers):
        raise StickerError(
            "vision/sticker-too-few-ids", dictionary=name, need=len(profile.markers), have=len(free)
        )
    labels = [profile.markers[i] for i in sorted(profile.markers)]
    return replace(profile, dictionary=name, markers=dict(zip(free, labels, strict=False)))


def plan_sheet(
    profile: BoardProfile,
    dictionary: str | None = None,
    paper: str = "a4",
    copies: int = 1,
    corner_label: Callable[[int], str] = lambda i: f"corner {i}",
) -> SheetPlan:
    """Lay out the board-corner markers, then ``copies`` of every sticker, on pages of ``paper``.

    Raises:
        StickerError: unknown paper, or see ``kit_profile``.
    """
    if paper not in PAPER_MM:
        raise StickerError("vision/sticker-paper", paper=paper, choices=", ".join(PAPER_MM))
    kit = kit_profile(profile, dictionary)
    cells = int(dictionary_by_name(kit.dictionary).markerSize) + 2
    width, height = PAPER_MM[paper]
    wanted: list[tuple[int, str, float]] = [
        (i, corner_label(i), kit.corner_marker_mm) for i in kit.corner_ids
    ]
    for _ in range(max(1, copies)):
        wanted += [(i, label, kit.sticker_mm) for i, label in sorted(kit.markers.items())]
    pages: list[tuple[Sticker, ...]] = []
    page: list[Sticker] = []
    x = y = MARGIN_MM
    y = MARGIN_MM + HEADER_MM
    row_h = 0.0
    last_size: float | None = None
    for marker_id, label, size in wanted:
        quiet = max(2.0, size / cells)
        box = size + 2 * quiet
        pitch_x = max(box + CELL_GAP_MM[0], 26.0)
        pitch_y = box + CELL_GAP_MM[1]
        if last_size is not None and size != last_size:  # a new section starts a new line
            x, y = MARGIN_MM, y + row_h
            row_h = 0.0
        last_size = size
        if x + box > width - MARGIN_MM:
            x, y = MARGIN_MM, y + row_h
            row_h = 0.0
        if y + pitch_y > height - MARGIN_MM:
            pages.append(tuple(page))
            page = []
            x, y = MARGIN_MM, MARGIN_MM + HEADER_MM
            row_h = 0.0
        page.append(Sticker(marker_id, label, size, x + quiet, y + quiet, quiet))
        x += pitch_x
        row_h = max(row_h, pitch_y)
    if page:
        pages.append(tuple(page))
    return SheetPlan(paper, (width, height), kit.dictionary, kit, tuple(pages))


def marker_cells(dictionary: str, marker_id: int) -> np.ndarray:
    """The marker's cells (border included), 1 = black, one entry per cell."""
    d = dictionary_by_name(dictionary)
    cells = int(d.markerSize) + 2
    img = cv2.aruco.generateImageMarker(d, marker_id, cells)
    return np.asarray(img < 128, dtype=np.uint8)


def _runs(row: np.ndarray) -> Iterable[tuple[int, int]]:
    """(start, length) of each run of black cells in one row."""
    start = None
    for i, v in enumerate([*row.tolist(), 0]):
        if v and start is None:
            start = i
        elif not v and start is not None:
            yield start, i - start
            start = None


def write_pdf(
    plan: SheetPlan,
    path: str | Path,
    header: str,
    scale_label: str,
    progress: Callable[[list[Sticker]], Iterable[Sticker]] | None = None,
) -> None:
    """Write ``plan`` as a PDF at true size (1 PDF unit = 1 mm, vector cells).

    ``header`` is printed at the top of every page with a 50 mm scale bar labelled
    ``scale_label``; ``progress`` wraps the sticker list (a progress bar).
    """
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format=plan.size_mm)
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_creator("Herald")
    pdf.set_title(header)
    todo = plan.stickers
    order = iter(progress(todo) if progress else todo)
    overlap = 0.02  # black cells overlap their neighbours a hair: no anti-aliasing seams
    for page in plan.pages:
        pdf.add_page()
        pdf.set_text_color(0, 0, 0)
        pdf.set_font("Helvetica", size=8)
        pdf.set_xy(MARGIN_MM, MARGIN_MM)
        pdf.cell(0, 4, printable(header))
        bar_y = MARGIN_MM + 7
        pdf.set_fill_color(0, 0, 0)
        pdf.rect(MARGIN_MM, bar_y, 50, 1.5, style="F")
        for k in range(6):
            pdf.rect(MARGIN_MM + 10 * k - 0.1, bar_y - 1, 0.2, 3.5, style="F")
        pdf.set_font("Helvetica", size=6)
        pdf.set_xy(MARGIN_MM + 53, bar_y - 1)
        pdf.cell(0, 3.5, printable(scale_label))
        for sticker in page:
            next(order, None)
            cells = marker_cells(plan.dictionary, sticker.marker_id)
            n = cells.shape[0]
            cell = sticker.size_mm / n
            bx, by, bw, bh = sticker.box
            pdf.set_draw_color(170, 170, 170)
            pdf.set_line_width(0.1)
            pdf.rect(bx, by, bw, bh, style="D")
            pdf.set_fill_color(0, 0, 0)
            for r in range(n):
                for c0, length in _runs(cells[r]):
                    pdf.rect(
                        sticker.x + c0 * cell - overlap,
                        sticker.y + r * cell - overlap,
                        length * cell + 2 * overlap,
                        cell + 2 * overlap,
                        style="F",
                    )
            pdf.set_font("Helvetica", size=LABEL_PT)
            pdf.set_xy(bx - 4, by + bh + 0.6)
            pdf.cell(bw + 8, 2.4, printable(sticker.label), align="C")
            pdf.set_xy(bx - 4, by + bh + 2.9)
            pdf.set_text_color(90, 90, 90)
            pdf.cell(bw + 8, 2.4, f"#{sticker.marker_id}", align="C")
            pdf.set_text_color(0, 0, 0)
    for _ in order:  # finish the progress bar
        pass
    pdf.output(str(path))


_UNDECOMPOSED = str.maketrans({"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O"})


def printable(text: str) -> str:
    """``text`` in the PDF core font's Latin-1: accents dropped where Latin-1 lacks the letter
    (a Knight's ``Władysław`` prints as ``Wladyslaw``, a Polish header keeps its meaning), any
    other character as ``?``. The core fonts need no font file on the machine."""
    out = []
    for ch in text.translate(_UNDECOMPOSED):
        try:
            ch.encode("latin-1")
            out.append(ch)
        except UnicodeEncodeError:
            base = unicodedata.normalize("NFKD", ch).encode("latin-1", "ignore").decode("latin-1")
            out.append("".join(c for c in base if not unicodedata.combining(c)) or "?")
    return "".join(out)
