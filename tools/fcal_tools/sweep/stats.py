"""Mean and 95 % confidence interval over repetitions (Student t), without SciPy."""
from __future__ import annotations

import math
from typing import Sequence


def t_pdf(x: float, df: int) -> float:
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    return c * (1 + x * x / df) ** (-(df + 1) / 2)


def t_cdf(x: float, df: int) -> float:
    """P(T <= x) for x >= 0: 1/2 plus the integral of the density from 0 to x (composite Simpson)."""
    n = 2000
    h = x / n
    s = t_pdf(0, df) + t_pdf(x, df)
    for i in range(1, n):
        s += (4 if i % 2 else 2) * t_pdf(i * h, df)
    return 0.5 + s * h / 3


def t_quantile(p: float, df: int) -> float:
    """x with P(T <= x) = p, for p in (0.5, 1): bisection on t_cdf."""
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(60):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


_T975: dict[int, float] = {}


def t975(df: int) -> float:
    if df not in _T975:
        _T975[df] = t_quantile(0.975, df)
    return _T975[df]


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """(mean, half-width of the 95 % confidence interval of the mean); half-width is nan for one value."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    m = sum(values) / n
    if n == 1:
        return m, math.nan
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, t975(n - 1) * math.sqrt(var / n)
