"""Numbers a move turns on, the same on every machine.

numpy and OpenBLAS sum in another order on another CPU (AVX-512 or not, one BLAS kernel or
another), so a chance's last bits differ from one machine to the next. Where a chance is
only shown, that is invisible; where it decides something (two faces tie in a rollout, two
raises risk the same, a chance sits at a threshold), those bits would decide it one way
here and the other way there. What is ranked or compared is read to :data:`DIGITS`
decimals first; what is shown keeps every bit.
"""

from __future__ import annotations

import numpy as np

DIGITS = 9


def steady(number: float) -> float:
    """``number`` to :data:`DIGITS` decimals: what a ranking or a comparison reads."""
    return round(number, DIGITS)


def steady_array(chances: np.ndarray) -> np.ndarray:
    """:func:`steady` for each of ``chances``."""
    return np.round(chances, DIGITS)
