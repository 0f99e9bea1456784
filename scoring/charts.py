"""Server-rendered inline SVG charts (no JavaScript library): a points progression line, a
rating history."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.ratings import DISPLAY_BASE

WIDTH, HEIGHT, PAD = 600, 200, 28


def progression_svg(totals: list[int], *, label: str = "") -> SafeString:
    """Cumulative points after each game, as an accessible inline SVG polyline.

    >>> "points=" in progression_svg([3, 5, 5, 8])
    True
    """
    if not totals:
        return mark_safe("")
    low, high = min(0, *totals), max(0, *totals)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / max(1, len(totals) - 1) if len(totals) > 1 else 0

    def xy(index: int, value: int) -> tuple[float, float]:
        x = PAD + index * step
        y = HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span
        return round(x, 1), round(y, 1)

    points = " ".join(f"{x},{y}" for x, y in (xy(i, v) for i, v in enumerate(totals)))
    zero_y = xy(0, 0)[1]
    last_x, last_y = xy(len(totals) - 1, totals[-1])
    title = escape(
        ngettext(
            "%(label)s: %(points)s points after %(games)s game",
            "%(label)s: %(points)s points after %(games)s games",
            len(totals),
        )
        % {"label": label, "points": totals[-1], "games": len(totals)}
    )
    axis = escape(_("game 1 → %(last)s") % {"last": len(totals)})
    svg = (
        f'<svg class="progression" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{title}</title>"
        f'<line class="axis" x1="{PAD}" y1="{zero_y}" x2="{WIDTH - PAD}" y2="{zero_y}"/>'
        f'<text class="tick" x="2" y="{PAD}">{high}</text>'
        f'<text class="tick" x="2" y="{HEIGHT - PAD + 12}">{low}</text>'
        f'<polyline class="line" fill="none" points="{points}"/>'
        f'<circle class="dot" cx="{last_x}" cy="{last_y}" r="4"/>'
        f'<text class="tick" x="{WIDTH / 2}" y="{HEIGHT - 4}" text-anchor="middle">'
        f"{axis}</text>"
        "</svg>"
    )
    return mark_safe(svg)


def rating_history_svg(ratings: list[int], *, label: str = "") -> SafeString:
    """The displayed rating after each rated game, as an inline SVG polyline, the newcomer's
    1500 drawn as the base line.

    >>> "points=" in rating_history_svg([1480, 1510, 1530])
    True
    """
    if not ratings:
        return mark_safe("")
    base = DISPLAY_BASE
    low, high = min(base, *ratings), max(base, *ratings)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / max(1, len(ratings) - 1)

    def xy(index: int, value: int) -> tuple[float, float]:
        x = PAD + index * step if len(ratings) > 1 else WIDTH / 2
        y = HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span
        return round(x, 1), round(y, 1)

    points = " ".join(f"{x},{y}" for x, y in (xy(i, v) for i, v in enumerate(ratings)))
    base_y = xy(0, base)[1]
    last_x, last_y = xy(len(ratings) - 1, ratings[-1])
    title = escape(
        ngettext(
            "%(label)s: rating %(rating)s after %(games)s rated game",
            "%(label)s: rating %(rating)s after %(games)s rated games",
            len(ratings),
        )
        % {"label": label, "rating": ratings[-1], "games": len(ratings)}
    )
    axis = escape(_("rated game 1 → %(last)s") % {"last": len(ratings)})
    svg = (
        f'<svg class="progression rating-history" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
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
