"""Server-rendered inline SVG charts (no JavaScript library): a points progression line, a
rating history."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.ratings import DISPLAY_BASE

WIDTH, HEIGHT, PAD = 600, 200, 28


def _line_svg(values: list[int], *, base: int, title: str, axis: str, css: str) -> SafeString:
    """One series as an accessible inline SVG polyline over a horizontal base line (`base`
    always in range), the last value marked; `title` and `axis` are escaped here."""
    low, high = min(base, *values), max(base, *values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / max(1, len(values) - 1)

    def xy(index: int, value: int) -> tuple[float, float]:
        x = PAD + index * step if len(values) > 1 else WIDTH / 2
        y = HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span
        return round(x, 1), round(y, 1)

    points = " ".join(f"{x},{y}" for x, y in (xy(i, v) for i, v in enumerate(values)))
    base_y = xy(0, base)[1]
    last_x, last_y = xy(len(values) - 1, values[-1])
    title, axis = escape(title), escape(axis)
    svg = (
        f'<svg class="{css}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{title}</title>"
        f'<line class="axis" x1="{PAD}" y1="{base_y}" x2="{WIDTH - PAD}" y2="{base_y}"/>'
        f'<text class="tick" x="2" y="{PAD}">{high}</text>'
        f'<text class="tick" x="2" y="{HEIGHT - PAD + 12}">{low}</text>'
        f'<polyline class="line" fill="none" points="{points}"/>'
        f'<circle class="dot" cx="{last_x}" cy="{last_y}" r="4"/>'
        f'<text class="tick" x="{WIDTH / 2}" y="{HEIGHT - 4}" text-anchor="middle">'
        f"{axis}</text>"
        "</svg>"
    )
    return mark_safe(svg)


def progression_svg(totals: list[int], *, label: str = "") -> SafeString:
    """Cumulative points after each game, over the zero line.

    >>> "points=" in progression_svg([3, 5, 5, 8])
    True
    """
    if not totals:
        return mark_safe("")
    title = ngettext(
        "%(label)s: %(points)s points after %(games)s game",
        "%(label)s: %(points)s points after %(games)s games",
        len(totals),
    ) % {"label": label, "points": totals[-1], "games": len(totals)}
    axis = _("game 1 → %(last)s") % {"last": len(totals)}
    return _line_svg(totals, base=0, title=title, axis=axis, css="progression")


def rating_history_svg(ratings: list[int], *, label: str = "") -> SafeString:
    """The displayed rating after each rated game, over the newcomer's 1500.

    >>> "points=" in rating_history_svg([1480, 1510, 1530])
    True
    """
    if not ratings:
        return mark_safe("")
    title = ngettext(
        "%(label)s: rating %(rating)s after %(games)s rated game",
        "%(label)s: rating %(rating)s after %(games)s rated games",
        len(ratings),
    ) % {"label": label, "rating": ratings[-1], "games": len(ratings)}
    axis = _("rated game 1 → %(last)s") % {"last": len(ratings)}
    return _line_svg(
        ratings, base=DISPLAY_BASE, title=title, axis=axis, css="progression rating-history"
    )
