"""Draw the home-screen icons in ``static/``: a white die showing five on the app's red.

Run ``.venv/bin/python -m scripts.make_icons`` after changing the design; the PNGs are
committed, so neither the app nor a deployment runs this. The die fills the middle 60 % of
the square, inside the safe zone of Android's "maskable" icons (a circle of 80 %), so one
drawing serves as the iOS ``apple-touch-icon`` (iOS rounds the corners itself) and as the
manifest's ``any maskable`` icons.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parents[1] / "static"
RED = "#b3261e"  # theme.primaryColor in .streamlit/config.toml
WHITE = "#ffffff"
INK = "#1f1d1a"  # theme.textColor
SIZES = {"apple-touch-icon.png": 180, "icon-192.png": 192, "icon-512.png": 512}
SUPERSAMPLE = 4


def draw(size: int) -> Image.Image:
    """The icon at ``size`` × ``size`` pixels, opaque (iOS fills transparency with black)."""
    big = size * SUPERSAMPLE
    image = Image.new("RGB", (big, big), RED)
    pen = ImageDraw.Draw(image)
    side = big * 0.60
    left = (big - side) / 2
    pen.rounded_rectangle(
        (left, left, left + side, left + side), radius=side * 0.18, fill=WHITE
    )
    radius = side * 0.095
    for dx, dy in ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)):
        cx, cy = left + dx * side, left + dy * side
        pen.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=INK)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    STATIC.mkdir(exist_ok=True)
    for name, size in SIZES.items():
        draw(size).save(STATIC / name, optimize=True)
        print(STATIC / name)


if __name__ == "__main__":
    main()
