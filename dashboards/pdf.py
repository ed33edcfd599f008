"""A small deterministic PDF writer: text pages plus vector figures, nothing else.

Why hand-written: evidence must rebuild byte-identically, and neither fpdf2 nor reportlab is
in the environment. PDF 1.4 with the standard Type 1 fonts (Helvetica, Courier; WinAnsi
encoding) needs no embedded font, and with no /Info dictionary, no /ID and a fixed zlib level
the bytes depend only on the content.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from dashboards.drawing import Circle, Drawing, Line, Rect, Text

PAGE_W, PAGE_H, MARGIN = 595.0, 842.0, 48.0
#: average glyph width / size, conservative for Helvetica (wrap early rather than overflow)
HELV_W, MONO_W = 0.56, 0.6


def _num(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _pdf_string(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return f"{_num(r)} {_num(g)} {_num(b)}"


def wrap(text: str, size: float, width: float, mono: bool = False) -> list[str]:
    """Greedy word wrap by estimated glyph width; long words are hard-split."""
    per_char = size * (MONO_W if mono else HELV_W)
    limit = max(8, int(width / per_char))
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for token in para.split(" "):
            word = token
            while len(word) > limit:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:limit])
                word = word[limit:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) > limit:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


@dataclass(slots=True)
class PdfDocument:
    """Append headings, paragraphs, monospace blocks and figures; ``to_bytes`` lays out pages."""

    pages: list[list[bytes]] = field(default_factory=list)
    _y: float = 0.0

    def _page(self) -> list[bytes]:
        if not self.pages:
            self._new_page()
        return self.pages[-1]

    def _new_page(self) -> None:
        self.pages.append([])
        self._y = PAGE_H - MARGIN

    def _need(self, height: float) -> None:
        if not self.pages or self._y - height < MARGIN:
            self._new_page()

    def _text_line(self, text: str, size: float, font: str, x: float = MARGIN) -> None:
        self._need(size * 1.35)
        self._y -= size * 1.35
        self._page().append(
            b"BT /" + font.encode() + b" " + _num(size).encode() + b" Tf "
            + f"{_num(x)} {_num(self._y)} Td ".encode() + _pdf_string(text) + b" Tj ET"
        )

    def heading(self, text: str, size: float = 14) -> None:
        self._need(size * 3)
        self._y -= size * 0.6
        for line in wrap(text, size, PAGE_W - 2 * MARGIN):
            self._text_line(line, size, "F2")

    def paragraph(self, text: str, size: float = 10) -> None:
        for line in wrap(text, size, PAGE_W - 2 * MARGIN):
            self._text_line(line, size, "F1")
        self._y -= size * 0.4

    def mono(self, lines: list[str], size: float = 7.5) -> None:
        for raw in lines:
            for line in wrap(raw, size, PAGE_W - 2 * MARGIN, mono=True):
                self._text_line(line, size, "F3")
        self._y -= size * 0.6

    def figure(self, d: Drawing) -> None:
        """Place a drawing scaled to the text width, flipping SVG's y axis."""
        scale = min(1.0, (PAGE_W - 2 * MARGIN) / d.width)
        height = d.height * scale
        self._need(height + 8)
        top = self._y
        ops: list[bytes] = [b"q"]

        def px(x: float) -> float:
            return MARGIN + x * scale

        def py(y: float) -> float:
            return top - y * scale

        for s in d.shapes:
            if isinstance(s, Rect):
                paint = "B" if s.stroke else "f"
                stroke = f"{_rgb(s.stroke)} RG " if s.stroke else ""
                ops.append(
                    f"{_rgb(s.fill)} rg {stroke}{_num(px(s.x))} {_num(py(s.y + s.h))} "
                    f"{_num(s.w * scale)} {_num(s.h * scale)} re {paint}".encode()
                )
            elif isinstance(s, Line):
                ops.append(
                    f"{_rgb(s.stroke)} RG {_num(s.width * scale)} w {_num(px(s.x1))} {_num(py(s.y1))} m "
                    f"{_num(px(s.x2))} {_num(py(s.y2))} l S".encode()
                )
            elif isinstance(s, Circle):
                ops.append(_circle(px(s.cx), py(s.cy), s.r * scale, s.fill, s.stroke))
            elif isinstance(s, Text):
                size = s.size * scale
                est = len(s.text) * size * HELV_W
                x = px(s.x) - (est / 2 if s.anchor == "middle" else est if s.anchor == "end" else 0)
                ops.append(
                    f"{_rgb(s.fill)} rg BT /F1 {_num(size)} Tf {_num(x)} {_num(py(s.y))} Td ".encode()
                    + _pdf_string(s.text) + b" Tj ET"
                )
        ops.append(b"Q")
        self._page().extend(ops)
        self._y = top - height - 8

    def to_bytes(self) -> bytes:
        pages = self.pages or [[]]
        objects: list[bytes] = []  # object n is objects[n - 1]
        objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
        objects.append(b"")  # pages tree, filled below
        fonts = [b"Helvetica", b"Helvetica-Bold", b"Courier"]
        for name in fonts:
            objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /" + name + b" /Encoding /WinAnsiEncoding >>")
        font_res = b"<< /F1 3 0 R /F2 4 0 R /F3 5 0 R >>"
        kids: list[int] = []
        for i, ops in enumerate(pages):
            footer = (
                b"BT /F1 7 Tf " + f"{_num(PAGE_W - MARGIN - 40)} 24 Td ".encode()
                + _pdf_string(f"page {i + 1} / {len(pages)}") + b" Tj ET"
            )
            stream = zlib.compress(b"\n".join([*ops, footer]), 9)
            objects.append(
                b"<< /Length " + str(len(stream)).encode() + b" /Filter /FlateDecode >>\nstream\n"
                + stream + b"\nendstream"
            )
            content_no = len(objects)
            objects.append(
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font "
                + font_res + b" >> /Contents " + str(content_no).encode() + b" 0 R >>"
            )
            kids.append(len(objects))
        objects[1] = (
            b"<< /Type /Pages /Kids [" + b" ".join(f"{k} 0 R".encode() for k in kids)
            + b"] /Count " + str(len(kids)).encode() + b" >>"
        )
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for n, body in enumerate(objects, start=1):
            offsets.append(len(out))
            out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
        for off in offsets:
            out += f"{off:010d} 00000 n \n".encode()
        out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
        return bytes(out)


def _circle(cx: float, cy: float, r: float, fill: str, stroke: str | None) -> bytes:
    """Circle as four Bezier arcs (PDF has no circle operator)."""
    k = 0.5523 * r
    path = (
        f"{_num(cx + r)} {_num(cy)} m "
        f"{_num(cx + r)} {_num(cy + k)} {_num(cx + k)} {_num(cy + r)} {_num(cx)} {_num(cy + r)} c "
        f"{_num(cx - k)} {_num(cy + r)} {_num(cx - r)} {_num(cy + k)} {_num(cx - r)} {_num(cy)} c "
        f"{_num(cx - r)} {_num(cy - k)} {_num(cx - k)} {_num(cy - r)} {_num(cx)} {_num(cy - r)} c "
        f"{_num(cx + k)} {_num(cy - r)} {_num(cx + r)} {_num(cy - k)} {_num(cx + r)} {_num(cy)} c"
    )
    stroke_op = f"{_rgb(stroke)} RG " if stroke else ""
    return f"{_rgb(fill)} rg {stroke_op}{path} {'B' if stroke else 'f'}".encode()
