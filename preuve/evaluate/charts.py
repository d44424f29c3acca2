"""Charts of the evaluation report, drawn as inline SVG text at report time (no library,
no script, nothing fetched): grouped bars, stacked bars and a scatter with threshold
lines. Every function returns one `<svg>` element as a string; labels are escaped."""

from __future__ import annotations

from html import escape

# one colour per series, in order (methods); outcomes have their own
PALETTE = ("#3465a4", "#f57900", "#4e9a06", "#75507b", "#c17d11", "#cc0000", "#555753")
OUTCOME_COLOURS = {"right": "#4e9a06", "partial": "#c4a000", "wrong": "#cc0000",
                   "false_refusal": "#f57900", "unjudged": "#babdb6",
                   "correct_refusal": "#73d216", "answered_unanswerable": "#a40000"}
FONT = 'font-family="system-ui, sans-serif" font-size="12"'


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT} {extra}>'
            f"{escape(str(text))}</text>")


def grouped_bars(groups: list[str], series: dict[str, list[float]], *, title: str,
                 maximum: float = 1.0, notes: list[str] | None = None,
                 highlight: str | None = None) -> str:
    """Horizontal bars: for each group (a question type), one bar per series (a method),
    its value written at its end. `notes` are written under each group's name (e.g.
    "n=12"); the `highlight` series' bars are outlined."""
    names = list(series)
    bar, gap, left, width = 14, 12, 170, 420
    height = 40 + len(groups) * (len(names) * bar + gap) + 24 * ((len(names) + 2) // 3)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{left + width + 70}" '
           f'height="{height}" viewBox="0 0 {left + width + 70} {height}">',
           f"<title>{escape(title)}</title>", _text(0, 16, title, extra='font-weight="bold"')]
    y = 32
    for g, group in enumerate(groups):
        out.append(_text(left - 8, y + 12, group, "end"))
        if notes:
            out.append(_text(left - 8, y + 26, notes[g], "end", 'fill="#666" font-size="10"'))
        for s, name in enumerate(names):
            value = series[name][g]
            length = 0 if value is None else max(0.0, min(1.0, value / maximum)) * width
            stroke = ' stroke="#000" stroke-width="1.5"' if name == highlight else ""
            out.append(f'<rect x="{left}" y="{y}" width="{length:.1f}" height="{bar - 2}" '
                       f'fill="{PALETTE[s % len(PALETTE)]}"{stroke}>'
                       f"<title>{escape(name)} {escape(group)}: "
                       f"{'-' if value is None else f'{value:.3f}'}</title></rect>")
            out.append(_text(left + length + 4, y + bar - 4,
                             "-" if value is None else f"{value:.3f}", extra='font-size="10"'))
            y += bar
        y += gap
    out.append(f'<line x1="{left}" y1="28" x2="{left}" y2="{y - gap + 2}" stroke="#888"/>')
    for s, name in enumerate(names):  # legend, three a row
        lx, ly = left + (s % 3) * 140, y + 8 + (s // 3) * 20
        out.append(f'<rect x="{lx}" y="{ly}" width="12" height="12" '
                   f'fill="{PALETTE[s % len(PALETTE)]}"/>')
        out.append(_text(lx + 16, ly + 10, name + (" (default)" if name == highlight else "")))
    out.append("</svg>")
    return "\n".join(out)


def stacked_bars(groups: list[str], counts: list[dict[str, int]], *, title: str,
                 order: tuple[str, ...]) -> str:
    """One horizontal bar per group, split by outcome (`order`), each part as wide as its
    share of the group; counts written inside the parts wide enough to hold them."""
    left, width, bar = 170, 440, 20
    height = 40 + len(groups) * (bar + 8) + 24 * ((len(order) + 3) // 4)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{left + width + 20}" '
           f'height="{height}" viewBox="0 0 {left + width + 20} {height}">',
           f"<title>{escape(title)}</title>", _text(0, 16, title, extra='font-weight="bold"')]
    y = 30
    for group, row in zip(groups, counts, strict=True):
        total = sum(row.values()) or 1
        out.append(_text(left - 8, y + 14, f"{group} ({sum(row.values())})", "end"))
        x = left
        for name in order:
            n = row.get(name, 0)
            if not n:
                continue
            w = n / total * width
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" '
                       f'fill="{OUTCOME_COLOURS.get(name, "#888")}"><title>{escape(group)}: '
                       f"{escape(name)} {n}</title></rect>")
            if w > 18:
                out.append(_text(x + w / 2, y + 14, str(n), "middle", 'fill="#fff"'))
            x += w
        y += bar + 8
    for i, name in enumerate(order):
        lx, ly = left + (i % 4) * 120 - 160, y + 6 + (i // 4) * 20
        out.append(f'<rect x="{lx + 160}" y="{ly}" width="12" height="12" '
                   f'fill="{OUTCOME_COLOURS.get(name, "#888")}"/>')
        out.append(_text(lx + 176, ly + 10, name.replace("_", " ")))
    out.append("</svg>")
    return "\n".join(out)


def scatter(points: list[dict], *, title: str, x_label: str, y_label: str | None,
            x_lines: dict[str, float], y_lines: dict[str, float],
            x_range: tuple[float, float] = (0.0, 1.0),
            y_range: tuple[float, float] = (0.0, 1.0)) -> str:
    """Points ({x, y (None: drawn on a strip under the plot), colour, filled, label}) with
    dashed threshold lines named by `x_lines`/`y_lines`. A filled point is a refusal."""
    left, top, width, height = 60, 30, 460, 260
    strip = 30
    total = top + height + strip + 60

    def px(v: float) -> float:
        lo, hi = x_range
        return left + (min(max(v, lo), hi) - lo) / ((hi - lo) or 1) * width

    def py(v: float) -> float:
        lo, hi = y_range
        return top + height - (min(max(v, lo), hi) - lo) / ((hi - lo) or 1) * height

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{left + width + 160}" '
           f'height="{total}" viewBox="0 0 {left + width + 160} {total}">',
           f"<title>{escape(title)}</title>", _text(0, 16, title, extra='font-weight="bold"'),
           f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" '
           f'stroke="#888"/>']
    for i in range(6):
        fx = x_range[0] + i * (x_range[1] - x_range[0]) / 5
        out.append(_text(px(fx), top + height + strip + 16, f"{fx:.2f}", "middle",
                         'font-size="10"'))
        if y_label:
            fy = y_range[0] + i * (y_range[1] - y_range[0]) / 5
            out.append(_text(left - 4, py(fy) + 4, f"{fy:.2f}", "end", 'font-size="10"'))
    out.append(_text(left + width / 2, top + height + strip + 34, x_label, "middle"))
    if y_label:
        out.append(_text(14, top + height / 2, y_label, "middle",
                         f'transform="rotate(-90 14 {top + height / 2})"'))
    out.append(_text(left + 4, top + height + strip - 6, "no value:", extra='fill="#666"'))
    for i, (name, value) in enumerate(x_lines.items()):
        x = px(value)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + height + strip}" '
                   f'stroke="#555" stroke-dasharray="4 3"/>')
        out.append(_text(x + 3, top + 12 + 12 * i, f"{name} {value:g}", extra='font-size="10"'))
    for name, value in y_lines.items():
        y = py(value)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + width}" y2="{y:.1f}" '
                   f'stroke="#555" stroke-dasharray="4 3"/>')
        out.append(_text(left + width + 4, y + 4, f"{name} {value:g}", extra='font-size="10"'))
    for i, p in enumerate(points):
        x = px(p["x"])
        y = py(p["y"]) if p.get("y") is not None else top + height + 8 + (i % 4) * 4
        fill = p["colour"] if p.get("filled") else "#fff"
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{fill}" '
                   f'stroke="{p["colour"]}" stroke-width="2"><title>{escape(p["label"])}'
                   f"</title></circle>")
    out.append("</svg>")
    return "\n".join(out)
