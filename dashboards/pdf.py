"""The evidence PDF: text, tables and vector figures through fpdf2, in an embedded Unicode font.

Why fpdf2 and Noto Sans CJK: player names at Asian sites ("身轻如燕" in the PokerMaster sample)
must be real text in the report, searchable and copyable, which the standard Type 1 fonts'
WinAnsi encoding cannot carry. Noto Sans CJK (from the ``noto-cjk-sans-otc`` package) covers
Latin, Greek, Cyrillic, Chinese, Japanese and Korean; fpdf2 embeds only the glyphs used. One face
only: each face of the 65,000-glyph collection costs about a second to load and subset, so the
verbatim blocks (replays, raw text) are set in the same face, smaller, on a grey ground. A
character the font lacks (Arabic, Thai, U+FFFD) is printed as "?" and counted in ``missing``,
never dropped silently.

Why deterministic: evidence must rebuild byte-identically. The creation date is the caller's
(the case's own timestamp, never the clock), fpdf2's /ID is an MD5 of the content, the font
subset depends only on the glyphs used, and nothing else varies between runs (checked across
hash seeds by the tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import noto_cjk_sans_otc
from fpdf import FPDF
from fpdf.enums import Align, TableBordersLayout, WrapMode, XPos, YPos
from fpdf.fonts import FontFace, TTFFont

from dashboards.drawing import Circle, Drawing, Line, Rect, Text

#: face 2 of NotoSansCJK-Regular.ttc: Noto Sans CJK SC
SANS_FACE = 2
SANS = "noto-sans"
VERBATIM_FILL = (244, 244, 244)
MARGIN = 48.0
HEAD_FILL = (235, 235, 235)
INK = (0, 0, 0)
HEAD_INK = (25, 45, 90)


def font_path() -> Path:
    """The Noto Sans CJK collection file the PDF embeds (installed with the package)."""
    path = Path(str(noto_cjk_sans_otc.FONT_PATH))
    if not path.is_file():
        raise FileNotFoundError(f"Noto Sans CJK font missing at {path}: reinstall noto-cjk-sans-otc")
    return path


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


class _Pdf(FPDF):
    """FPDF with a page footer ("page n / N") in the embedded font."""

    def footer(self) -> None:
        self.set_y(-30)
        self.set_font(SANS, size=7)
        self.set_text_color(*INK)
        self.cell(0, 10, f"page {self.page_no()} / {{nb}}", align=Align.R)


class PdfDocument:
    """Append headings, paragraphs, tables, monospace blocks and figures; ``to_bytes`` writes."""

    def __init__(self, title: str, created: datetime, creator: str = "Floorman") -> None:
        pdf = _Pdf(unit="pt", format="A4")
        pdf.set_margins(MARGIN, MARGIN, MARGIN)
        pdf.set_auto_page_break(True, margin=MARGIN)
        when = created if created.tzinfo else created.replace(tzinfo=UTC)
        pdf.set_creation_date(when.astimezone(UTC))
        pdf.set_title(title)
        pdf.set_creator(creator)
        pdf.add_font(SANS, "", str(font_path()), collection_font_number=SANS_FACE)
        pdf.add_page()
        self.pdf = pdf
        font = pdf.fonts[SANS]
        assert isinstance(font, TTFFont)
        self._cmap: set[int] = set(font.cmap)
        #: characters printed as "?" because the font has no glyph for them
        self.missing: set[str] = set()

    def _printable(self, text: str) -> str:
        if all(ord(c) in self._cmap or c in "\n\t" for c in text):
            return text
        out = []
        for c in text:
            if ord(c) in self._cmap or c in "\n\t":
                out.append(c)
            else:
                self.missing.add(c)
                out.append("?")
        return "".join(out)

    @property
    def width(self) -> float:
        """Usable text width in points."""
        return float(self.pdf.epw)

    def _write(self, text: str, size: float, colour: tuple[int, int, int] = INK, line: float = 1.3,
               verbatim: bool = False) -> None:
        p = self.pdf
        p.set_font(SANS, size=size)
        p.set_text_color(*colour)
        if verbatim:
            p.set_fill_color(*VERBATIM_FILL)
        p.multi_cell(0, size * line, self._printable(text), new_x=XPos.LMARGIN, new_y=YPos.NEXT, align=Align.L,
                     wrapmode=WrapMode.CHAR if verbatim else WrapMode.WORD, fill=verbatim,
                     padding=(0, 4) if verbatim else 0)

    def heading(self, text: str, size: float = 14, keep: float = 0.0) -> None:
        """A section title, moved to a new page when it and ``keep`` points after it would not fit."""
        p = self.pdf
        if p.get_y() + size * 4 + keep > p.page_break_trigger:
            p.add_page()
        p.ln(size * 0.6)
        self._write(text, size, colour=HEAD_INK, line=1.25)
        p.ln(size * 0.2)

    def paragraph(self, text: str, size: float = 10) -> None:
        self._write(text, size)
        self.pdf.ln(size * 0.4)

    def verbatim(self, lines: Sequence[str], size: float = 7.5) -> None:
        """Lines as written (a replay, a raw hand): kept line for line, wrapped at any character."""
        self._write("\n".join(lines), size, line=1.3, verbatim=True)
        self.pdf.ln(size * 0.6)

    def table(self, rows: Sequence[Sequence[str]], header: Sequence[str] | None = None,
              widths: Sequence[float] | None = None, size: float = 8.5) -> None:
        """A bordered table; ``header`` is repeated on each page it spans."""
        p = self.pdf
        p.set_font(SANS, size=size)
        p.set_text_color(*INK)
        style = FontFace(family=SANS, emphasis="", size_pt=size, color=HEAD_INK, fill_color=HEAD_FILL)
        with p.table(
            col_widths=tuple(widths) if widths else None, first_row_as_headings=header is not None,
            headings_style=style, text_align="LEFT", line_height=size * 1.35, padding=2,
            borders_layout=TableBordersLayout.ALL, align="LEFT", width=self.width,
        ) as t:
            for r in ([list(header)] if header is not None else []) + [list(r) for r in rows]:
                row = t.row()
                for v in r:
                    row.cell(self._printable(v))
        p.ln(size * 0.8)

    def figure(self, d: Drawing) -> None:
        """Place a drawing scaled to the text width (SVG and PDF-in-fpdf2 share a top-left origin)."""
        p = self.pdf
        scale = min(1.0, self.width / d.width)
        height = d.height * scale
        if p.get_y() + height > p.page_break_trigger:
            p.add_page()
        x0, y0 = p.l_margin, p.get_y()
        for s in d.shapes:
            if isinstance(s, Rect):
                p.set_fill_color(*_rgb(s.fill))
                if s.stroke:
                    p.set_draw_color(*_rgb(s.stroke))
                p.rect(x0 + s.x * scale, y0 + s.y * scale, s.w * scale, s.h * scale, style="DF" if s.stroke else "F")
            elif isinstance(s, Line):
                p.set_draw_color(*_rgb(s.stroke))
                p.set_line_width(s.width * scale)
                p.line(x0 + s.x1 * scale, y0 + s.y1 * scale, x0 + s.x2 * scale, y0 + s.y2 * scale)
            elif isinstance(s, Circle):
                p.set_fill_color(*_rgb(s.fill))
                if s.stroke:
                    p.set_draw_color(*_rgb(s.stroke))
                p.circle(x0 + s.cx * scale, y0 + s.cy * scale, s.r * scale, style="DF" if s.stroke else "F")
            elif isinstance(s, Text):
                p.set_font(SANS, size=s.size * scale)
                p.set_text_color(*_rgb(s.fill))
                text = self._printable(s.text)
                w = p.get_string_width(text)
                shift = w / 2 if s.anchor == "middle" else w if s.anchor == "end" else 0.0
                p.text(x0 + s.x * scale - shift, y0 + s.y * scale, text)
        p.set_line_width(0.567)  # fpdf2's default (0.2 mm), for the table borders after a figure
        p.set_draw_color(*INK)
        p.set_text_color(*INK)
        p.set_y(y0 + height + 8)

    def to_bytes(self) -> bytes:
        return bytes(self.pdf.output())
