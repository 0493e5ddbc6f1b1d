"""Smooth and composite minimizers written against ``xp``: L-BFGS and FISTA.

The objective and its gradient are evaluated on the device; the only host traffic per iteration is
one small array (objective value, gradient max-norm) read to decide the line search and convergence,
so X stays where it is for the whole fit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.backend import array_module, to_host

FunGrad = Callable[[Any], tuple[Any, Any]]


def _scalars(*values: Any) -> np.ndarray:
    """Several device scalars to the host in one sync."""
    xp = array_module(*values)
    return to_host(xp.stack([xp.asarray(v, dtype=xp.float64) for v in values]))


def lbfgs(
    fun_grad: FunGrad,
    w0: Any,
    *,
    tol: float,
    max_iter: int,
    m: int = 10,
    ftol: float = 64 * np.finfo(float).eps,
    max_ls: int = 50,
) -> tuple[Any, int, bool]:
    """Minimize a smooth function: (w, iterations, converged).

    Stops like scipy's L-BFGS-B as scikit-learn calls it: max|grad| <= tol, or a relative decrease of
    the objective below ``ftol``. Backtracking (Armijo) line search; curvature pairs with s.y <= 0 are
    skipped, which keeps the inverse-Hessian estimate positive definite."""
    xp = array_module(w0)
    w = w0.copy()
    f, g = fun_grad(w)
    fh, gmax = _scalars(f, xp.abs(g).max())
    S: list[Any] = []
    Y: list[Any] = []
    rho: list[Any] = []
    if gmax <= tol:
        return w, 0, True
    for it in range(1, max_iter + 1):
        d = -_two_loop(g, S, Y, rho, xp)
        slope, gnorm = _scalars(g @ d, xp.sqrt(g @ g))
        if not slope < 0:  # not a descent direction: forget the curvature pairs
            S, Y, rho = [], [], []
            d, slope = -g, -gnorm * gnorm
        step = 1.0 if S else min(1.0, 1.0 / max(gnorm, 1e-12))
        for _ in range(max_ls):
            w_new = w + step * d
            f_new, g_new = fun_grad(w_new)
            vals = _scalars(f_new, xp.abs(g_new).max())
            if np.isfinite(vals[0]) and vals[0] <= fh + 1e-4 * step * slope:
                break
            step *= 0.5
        else:
            return w, it, False
        s, y = w_new - w, g_new - g
        sy = float(_scalars(s @ y)[0])
        if sy > 1e-10 * max(float(_scalars(y @ y)[0]), 1e-300):
            S.append(s)
            Y.append(y)
            rho.append(1.0 / sy)
            if len(S) > m:
                S.pop(0), Y.pop(0), rho.pop(0)
        converged = vals[1] <= tol or (fh - vals[0]) <= ftol * max(abs(fh), abs(vals[0]), 1.0)
        w, g, fh = w_new, g_new, vals[0]
        if converged:
            return w, it, True
    return w, max_iter, False


def _two_loop(g: Any, S: list[Any], Y: list[Any], rho: list[float], xp: Any) -> Any:
    """The L-BFGS inverse-Hessian product H g (two-loop recursion)."""
    q = g.copy()
    alphas = []
    for s, y, r in zip(reversed(S), reversed(Y), reversed(rho), strict=True):
        a = r * (s @ q)
        alphas.append(a)
        q = q - a * y
    if S:
        q = q * ((S[-1] @ Y[-1]) / (Y[-1] @ Y[-1]))
    for (s, y, r), a in zip(zip(S, Y, rho, strict=True), reversed(alphas), strict=True):
        b = r * (y @ q)
        q = q + (a - b) * s
    return q


def fista(
    fun_grad: FunGrad,
    prox: Callable[[Any, float], Any],
    penalty: Callable[[Any], Any],
    w0: Any,
    *,
    tol: float,
    max_iter: int,
) -> tuple[Any, int, bool]:
    """Minimize f(w) + h(w), f smooth, h with proximal map ``prox(v, step)``: (w, iterations, converged).

    Accelerated proximal gradient with backtracking on the Lipschitz estimate and adaptive restart;
    stops when the largest coordinate change of a step is below ``tol`` (relative to max|w|)."""
    xp = array_module(w0)
    w, z, t, L = w0.copy(), w0.copy(), 1.0, 1.0
    for it in range(1, max_iter + 1):
        fz, gz = fun_grad(z)
        while True:
            w_new = prox(z - gz / L, 1.0 / L)
            diff = w_new - z
            f_new, _ = fun_grad(w_new)
            vals = _scalars(
                f_new,
                fz + gz @ diff + 0.5 * L * (diff @ diff),
                xp.abs(w_new - w).max(),
                xp.abs(w_new).max(),
                diff @ (w_new - w),
            )
            if vals[0] <= vals[1] * (1 + 1e-12) + 1e-15:
                break
            L *= 2.0
        t_new = (1 + np.sqrt(1 + 4 * t * t)) / 2
        if vals[4] > 0:  # restart momentum when it points uphill
            t_new, z = 1.0, w_new
        else:
            z = w_new + ((t - 1) / t_new) * (w_new - w)
        w, t = w_new, t_new
        L *= 0.9
        if vals[2] <= tol * max(vals[3], 1.0):
            return w, it, True
    return w, max_iter, False
