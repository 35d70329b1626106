"""What the palette tests measure colours with: WCAG 2.2 contrast, colour-blindness
simulated (Machado, Oliveira and Fernandes 2009, severity 1), and the CIEDE2000 difference
(Sharma, Wu and Dalal 2005), each checked against published values in
``tests/test_colour_for_every_eye.py``."""

from __future__ import annotations

import math
from typing import Literal

Vision = Literal["normal", "protanopia", "deuteranopia", "tritanopia"]
VISIONS: tuple[Vision, ...] = ("normal", "protanopia", "deuteranopia", "tritanopia")

MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
"""Linear-RGB matrices of the full (severity 1.0) dichromacies, from the paper's table."""

SRGB_TO_XYZ = ((0.4124564, 0.3575761, 0.1804375), (0.2126729, 0.7151522, 0.0721750),
               (0.0193339, 0.1191920, 0.9503041))
WHITE_D65 = (0.95047, 1.0, 1.08883)

RGB = tuple[float, float, float]


def rgb(colour: str) -> RGB:
    """``#rrggbb`` as its three channels, 0 to 255."""
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def linear(channels: RGB) -> RGB:
    def one(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return (one(channels[0]), one(channels[1]), one(channels[2]))


def encoded(channels: RGB) -> RGB:
    def one(value: float) -> float:
        c = min(1.0, max(0.0, value))
        return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)
    return (one(channels[0]), one(channels[1]), one(channels[2]))


def _times(matrix: tuple[tuple[float, float, float], ...], vector: RGB) -> RGB:
    x, y, z = (sum(m * v for m, v in zip(row, vector, strict=True)) for row in matrix)
    return (x, y, z)


def luminance(colour: str) -> float:
    """WCAG's relative luminance."""
    r, g, b = linear(rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio, 1 to 21."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def seen(colour: str, vision: Vision) -> RGB:
    """``colour`` as an eye with ``vision`` sees it, in sRGB channels."""
    if vision == "normal":
        return rgb(colour)
    return encoded(_times(MACHADO[vision], linear(rgb(colour))))


def lab(channels: RGB) -> tuple[float, float, float]:
    """CIELAB (D65) of sRGB channels."""
    x, y, z = (value / white for value, white in
               zip(_times(SRGB_TO_XYZ, linear(channels)), WHITE_D65, strict=True))

    def f(t: float) -> float:
        return math.cbrt(t) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def ciede2000(one: tuple[float, float, float], other: tuple[float, float, float]) -> float:
    """The CIEDE2000 difference of two CIELAB colours (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = one, other
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c ** 7 / (mean_c ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    if c1 * c2 == 0:
        dh, mean_h = 0.0, h1 + h2
    else:
        dh = h2 - h1
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
        mean_h = (h1 + h2) / 2
        if abs(h1 - h2) > 180:
            mean_h += 180 if h1 + h2 < 360 else -180
    d_hue = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    mean_l, mean_cp = (l1 + l2) / 2, (c1 + c2) / 2
    t = (1 - 0.17 * math.cos(math.radians(mean_h - 30)) + 0.24 * math.cos(math.radians(2 * mean_h))
         + 0.32 * math.cos(math.radians(3 * mean_h + 6))
         - 0.20 * math.cos(math.radians(4 * mean_h - 63)))
    theta = 30 * math.exp(-(((mean_h - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(mean_cp ** 7 / (mean_cp ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_cp, 1 + 0.015 * mean_cp * t
    r_t = -math.sin(math.radians(2 * theta)) * r_c
    dl, dc, dhh = (l2 - l1) / s_l, (c2 - c1) / s_c, d_hue / s_h
    return math.sqrt(dl ** 2 + dc ** 2 + dhh ** 2 + r_t * dc * dhh)


def difference(one: str, other: str, vision: Vision) -> float:
    """How far apart ``one`` and ``other`` look to an eye with ``vision`` (CIEDE2000)."""
    return ciede2000(lab(seen(one, vision)), lab(seen(other, vision)))
