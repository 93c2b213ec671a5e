#!/usr/bin/env python3
"""The two per-circle wind fits of circling_wind.py (Python 3.11 standard library only; pure functions on metres
and seconds, no I/O).  Written from the geometry of a turn in a moving air mass, without reading cockpitd's code.

A glider turning at constant airspeed v and turn rate omega in a wind w (a vector) moves over the ground as
    p(t) = c + w t + r (sin(omega t + a), cos(omega t + a))       (east, north; r = v / omega)
so over one circle the position is a centre drifting with the wind plus one harmonic of the turn.

DRIFT (method "drift")
    Per axis, least squares of  x(tau) = c + w tau + sum_k (A_k cos k omega tau + B_k sin k omega tau),
    tau = t - mean(t), k = 1..K (K = 2 with 16 or more fixes, else 1: the second harmonic takes up an oval
    circle flown with changing bank).  The model is linear once omega is fixed; the period 2 pi / omega is
    searched (golden section, 0.8 to 1.25 times the detected period) for the least sum of squared residuals of
    both axes together.  The wind is w.  Uncertainty: the 1-sigma standard error of |w| from the fit,
    sqrt(var(w_east) + var(w_north)), var from s^2 (X^T X)^-1 with s^2 = SSR / (2n - 2p).

GROUND-SPEED EXTREMES (method "gs_extremes")
    Velocity samples from positions m fix intervals apart (m such that m dt is about a quarter of the circle):
    (p[j+m] - p[j]) / (t[j+m] - t[j]) at the middle time.  Over a constant-rate arc that mean velocity is exactly
    w + v' e(heading at the middle) with v' = v sin(omega h) / (omega h), h half the span: a shorter air vector,
    the same wind.  So the ground speed swings between v' + |w| (downwind) and v' - |w| (upwind), and
        |w| = (max - min) / 2,   the wind blows FROM the track at the minimum (heading into wind)
                                 and TOWARD the track at the maximum.
    The squared ground speed v'^2 + |w|^2 + 2 v' |w| cos(omega t - a) is one harmonic of the turn (a sharp dip
    in the speed itself is not), so the squared speeds are fitted with a Fourier series of the circle's period
    (searched as for the drift, on these residuals), K = 2 harmonics with 10 or more samples (the second takes up
    a turn flown unevenly), else 1; the maximum and minimum are the square roots of the fitted curve's.  The
    velocity components are fitted on the same series for the track there.  Direction: the circular mean of the
    fitted track at the minimum and the fitted track at the maximum + 180, weighted by the squared ground speed
    there (a track's noise falls as 1 / ground speed).  The method needs v' > |w|: a wind stronger than the
    shortened air vector would make (max - min) / 2 the airspeed.  Uncertainty: the RMS difference between the
    measured speeds and the fitted curve times sqrt(p / n), the standard error of one fitted value (approximate:
    overlapping samples are not independent).
"""
import math

GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def solve_normal(rows):
    """(X^T X)^-1 for the design rows, by Gauss-Jordan elimination with partial pivoting; None if singular."""
    p = len(rows[0])
    ata = [[0.0] * p for _ in range(p)]
    for row in rows:
        for i in range(p):
            ri = row[i]
            for j in range(i, p):
                ata[i][j] += ri * row[j]
    for i in range(p):
        for j in range(i):
            ata[i][j] = ata[j][i]
    aug = [ata[i] + [1.0 if i == j else 0.0 for j in range(p)] for i in range(p)]
    for col in range(p):
        pivot = max(range(col, p), key=lambda r: abs(aug[r][col]))
        if abs(aug[pivot][col]) < 1e-12 * max(1.0, abs(ata[col][col])):
            return None
        aug[col], aug[pivot] = aug[pivot], aug[col]
        scale = aug[col][col]
        aug[col] = [value / scale for value in aug[col]]
        for r in range(p):
            if r != col and aug[r][col] != 0.0:
                factor = aug[r][col]
                aug[r] = [a - factor * b for a, b in zip(aug[r], aug[col])]
    return [row[p:] for row in aug]


def fit(rows, inverse, ys):
    """Coefficients and sum of squared residuals of ys on rows, given (X^T X)^-1."""
    p = len(rows[0])
    xty = [sum(row[i] * y for row, y in zip(rows, ys)) for i in range(p)]
    coef = [sum(inverse[i][j] * xty[j] for j in range(p)) for i in range(p)]
    ssr = sum((y - sum(c * x for c, x in zip(coef, row))) ** 2 for row, y in zip(rows, ys))
    return coef, ssr


def design(taus, period_s, harmonics, with_trend):
    omega = 2.0 * math.pi / period_s
    rows = []
    for tau in taus:
        row = [1.0, tau] if with_trend else [1.0]
        for k in range(1, harmonics + 1):
            row += [math.cos(k * omega * tau), math.sin(k * omega * tau)]
        rows.append(row)
    return rows


def golden_search(cost, low, high, iterations=30):
    a, b = low, high
    c, d = b - GOLDEN * (b - a), a + GOLDEN * (b - a)
    fc, fd = cost(c), cost(d)
    for _ in range(iterations):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - GOLDEN * (b - a)
            fc = cost(c)
        else:
            a, c, fc = c, d, fd
            d = a + GOLDEN * (b - a)
            fd = cost(d)
    return c if fc <= fd else d


def multi_fit(taus, series, period_s, harmonics, with_trend):
    """Fit every series on the same design; (coefficient lists, total SSR, inverse) or None if singular."""
    rows = design(taus, period_s, harmonics, with_trend)
    inverse = solve_normal(rows)
    if inverse is None:
        return None
    coefs, total = [], 0.0
    for ys in series:
        coef, ssr = fit(rows, inverse, ys)
        coefs.append(coef)
        total += ssr
    return coefs, total, inverse


def search_period(taus, series, period_guess_s, harmonics, with_trend):
    def cost(period):
        result = multi_fit(taus, series, period, harmonics, with_trend)
        return math.inf if result is None else result[1]
    return golden_search(cost, 0.8 * period_guess_s, 1.25 * period_guess_s)


def centred_times(times_s, needed, what):
    """(times about their mean, None), or (None, a rejection) when the circle has fewer than `needed` samples."""
    if len(times_s) < needed:
        return None, {"rejected": f"{len(times_s)} {what} in the circle, {needed} needed"}
    mean_t = sum(times_s) / len(times_s)
    return [t - mean_t for t in times_s], None


def drift_fit(times_s, east_m, north_m, period_guess_s):
    """Wind (east, north) m/s from one circle's positions; dict with wind, uncertainty, period, radius, rms."""
    n, harmonics = len(times_s), 1
    p = 2 + 2 * harmonics
    taus, rejected = centred_times(times_s, p + 2, "fixes")
    if rejected:
        return rejected
    period = search_period(taus, [east_m, north_m], period_guess_s, harmonics, True)
    result = multi_fit(taus, [east_m, north_m], period, harmonics, True)
    if result is None:
        return {"rejected": "singular fit"}
    (ce, cn), ssr, inverse = result
    s2 = ssr / max(1, 2 * n - 2 * p)
    radius = 0.5 * (math.hypot(ce[2], ce[3]) + math.hypot(cn[2], cn[3]))
    return {"wind": (ce[1], cn[1]), "uncertainty_mps": math.sqrt(2.0 * s2 * inverse[1][1]),
            "period_s": period, "radius_m": radius, "rms_m": math.sqrt(ssr / (2 * n)), "samples": n}


def circular_mean_deg(pairs):
    """Weighted circular mean of (angle degrees, weight) pairs."""
    x = sum(w * math.cos(math.radians(a)) for a, w in pairs)
    y = sum(w * math.sin(math.radians(a)) for a, w in pairs)
    return math.degrees(math.atan2(y, x)) % 360.0


def angle_difference_deg(a, b):
    """Smallest absolute difference of two directions, 0..180."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


def gs_extremes_fit(mid_times_s, vel_east_mps, vel_north_mps, period_guess_s):
    """Wind from the ground-speed maximum and minimum of one circle's velocity samples."""
    n, harmonics = len(mid_times_s), 1
    p = 1 + 2 * harmonics
    taus, rejected = centred_times(mid_times_s, p + 2, "velocity samples")
    if rejected:
        return rejected
    squares = [e * e + nn * nn for e, nn in zip(vel_east_mps, vel_north_mps)]
    period = search_period(taus, [squares], period_guess_s, harmonics, False)
    result = multi_fit(taus, [squares, vel_east_mps, vel_north_mps], period, harmonics, False)
    if result is None:
        return {"rejected": "singular fit"}
    (cs, ce, cn), _, _ = result
    fitted_at = [math.sqrt(max(0.0, sum(c * x for c, x in zip(cs, row))))
                 for row in design(taus, period, harmonics, False)]
    rms = math.sqrt(sum((math.sqrt(q) - f) ** 2 for q, f in zip(squares, fitted_at)) / n)

    def value(coef, phase):
        total = coef[0]
        for k in range(1, harmonics + 1):
            total += coef[2 * k - 1] * math.cos(k * phase) + coef[2 * k] * math.sin(k * phase)
        return total

    phases = [2.0 * math.pi * i / 720 for i in range(720)]
    fitted = [math.sqrt(max(0.0, value(cs, ph))) for ph in phases]
    i_max = max(range(720), key=fitted.__getitem__)
    i_min = min(range(720), key=fitted.__getitem__)
    s_max, s_min = fitted[i_max], fitted[i_min]
    separation = angle_difference_deg(math.degrees(phases[i_max]), math.degrees(phases[i_min]))
    track_at = [math.degrees(math.atan2(value(ce, phases[i]), value(cn, phases[i]))) % 360.0 for i in (i_min, i_max)]
    from_deg = circular_mean_deg([(track_at[0], s_min * s_min), ((track_at[1] + 180.0) % 360.0, s_max * s_max)])
    out = {"speed_mps": (s_max - s_min) / 2.0, "from_deg": from_deg, "uncertainty_mps": rms * math.sqrt(p / n),
           "period_s": period, "gs_max_mps": s_max, "gs_min_mps": s_min, "extremes_apart_deg": separation,
           "track_at_min_deg": track_at[0], "track_at_max_deg": track_at[1], "rms_mps": rms, "samples": n}
    if separation < 120.0:
        out["rejected"] = f"maximum and minimum {separation:.0f} deg of the turn apart (a steady turn: 180)"
    return out
