"""QR codes as inline SVG for printed table cards (no image files, no network)."""

from __future__ import annotations

import segno


def qr_svg(url: str) -> str:
    """An inline `<svg>` QR code for `url`, sized by the card's CSS."""
    code = segno.make(url, error="m")
    svg: str = code.svg_inline(scale=3, border=2, omitsize=True, title=url)
    return svg
