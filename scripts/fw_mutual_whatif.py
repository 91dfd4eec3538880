#!/usr/bin/env python3
"""scripts/fw_mutual_whatif.py - what-if: two FW walkers with their mutual bearings lifted.

Measures, before anything is built into the export (docs/verification.md, "FW probes that
stay INCOMPLETE: mutual bearings and the kerb"), whether Flow* completes tests/verify/two_crossing.xml when each walker's
bearings -- to its goal and to the other walker -- are state variables with their exact rates,
as the static obstacles' bearings are (src/export/bearing.c).  Writes a Flow* model directly
(no HyST), with the law of the export (`swerve export --profile exact --format json`):

  tr' = -b tr - kg eT (exp(-c1 dT) + c2) + ko eO exp(-c3 |eO| - c4 dO)
  e'  = heading' - psi',  psi' = (DX DY' - DY DX') / (DX^2 + DY^2)

with (DX, DY) from the walker to the goal (DX' = -x') or to the other walker (DX' = x_o' - x'),
so a bearing to another agent reads the other's velocity (speed cos/sin of its heading).  Both
walkers stay in `steer` for the 8 s horizon (their arrival distances are over 8.6 m at speed 1,
so no arrival guard can be met and the arrival variables are left out).

  python3 scripts/fw_mutual_whatif.py VARIANT OUT.model [--step S] [--orders A-B] [--rem R]
          [--cutoff C] [--horizon T] [--width W] [--check] [--ko K] [--plot VAR,VAR]

then `flowstar < OUT.model` (Flow* prints its progress; stdbuf -oL keeps it when timed out).
--width is the half-width of the initial x and y of both walkers (0: a point; the bearings'
initial intervals are then widened by 1e-3 rad); --ko changes the obstacle gain (0: no mutual
term; diagnosis only, not the law); --plot picks the two variables of Flow*'s interval plot.

Variants:
  sqrt   |e| = sqrt(e^2) for the bearings to the other walker (what the lifting writes);
         each such bearing wrapped by two self-loops at +-pi (as bearing.c does)
  split  as sqrt, but b's bearing to a, which crosses 0 when a passes in front of b, as modes
         of its sign (|e| = -e, |e| = e) with jumps at 0 (a mode split of the export)
  nowrap as split, without the wrap loops (a's bearing to b reaches pi near 7 s; there the
         obstacle term is below 1e-6 rad/s^2: not exact, locates what the wrap costs)
--check integrates the lifted ODE and the native law (atan2 bearings) side by side (rk4,
0.01 s) from the centre of the initial set and prints the largest differences and each
bearing's range (the ranges the variants rely on).
"""
import argparse
import itertools
import math
import sys

B, KG, C1, C2, KO, C3, C4 = 3.25, 7.5, 0.4, 0.4, 198.0, 6.5, 0.8
AG = {"a": dict(x=0.0, y=0.0, h=0.0, goal=(9.0, 0.0)),
      "b": dict(x=4.0, y=-7.0, h=math.pi / 2, goal=(4.0, 3.0))}
OTHER = {"a": "b", "b": "a"}


def wrap(e):
    return math.atan2(math.sin(e), math.cos(e))


def native(s):
    """The simulator's FW right-hand side (bearings by atan2), s = {a: [x, y, h, tr], b: ...}."""
    d = {}
    for n in "ab":
        x, y, h, tr = s[n]
        gx, gy = AG[n]["goal"]
        ox, oy = s[OTHER[n]][0], s[OTHER[n]][1]
        eT = wrap(h - math.atan2(gy - y, gx - x))
        eO = wrap(h - math.atan2(oy - y, ox - x))
        dT, dO = math.hypot(gx - x, gy - y), math.hypot(ox - x, oy - y)
        acc = -B * tr - KG * eT * (math.exp(-C1 * dT) + C2) + \
            KO * eO * math.exp(-C3 * abs(eO) - C4 * dO)
        d[n] = [math.cos(h), math.sin(h), tr, acc]
    return d


def lifted(s):
    """The lifted ODE, s = {a: [x, y, h, tr, eT, eO], ...}: bearings by their rates."""
    d = {}
    for n in "ab":
        x, y, h, tr, eT, eO = s[n]
        o = s[OTHER[n]]
        gx, gy = AG[n]["goal"]
        dT, dO = math.hypot(gx - x, gy - y), math.hypot(o[0] - x, o[1] - y)
        acc = -B * tr - KG * eT * (math.exp(-C1 * dT) + C2) + \
            KO * eO * math.exp(-C3 * abs(eO) - C4 * dO)
        vx, vy = math.cos(h), math.sin(h)
        ovx, ovy = math.cos(o[2]), math.sin(o[2])
        DX, DY = gx - x, gy - y
        rT = tr - (DX * -vy - DY * -vx) / (DX * DX + DY * DY)
        DX, DY = o[0] - x, o[1] - y
        rO = tr - (DX * (ovy - vy) - DY * (ovx - vx)) / (DX * DX + DY * DY)
        d[n] = [vx, vy, tr, acc, rT, rO]
    return d


def rk4(f, s, dt):
    def add(u, k, c):
        return {n: [a + c * b for a, b in zip(u[n], k[n])] for n in u}
    k1 = f(s)
    k2 = f(add(s, k1, dt / 2))
    k3 = f(add(s, k2, dt / 2))
    k4 = f(add(s, k3, dt))
    return {n: [s[n][i] + dt / 6 * (k1[n][i] + 2 * k2[n][i] + 2 * k3[n][i] + k4[n][i])
                for i in range(len(s[n]))] for n in s}


def bearings(p, n, o):
    x, y, h = p[n][0], p[n][1], p[n][2]
    gx, gy = AG[n]["goal"]
    return (wrap(h - math.atan2(gy - y, gx - x)),
            wrap(h - math.atan2(p[o][1] - y, p[o][0] - x)))


def check(horizon):
    s = {n: [AG[n]["x"], AG[n]["y"], AG[n]["h"], 0.0] for n in "ab"}
    t = {n: s[n] + list(bearings(s, n, OTHER[n])) for n in "ab"}
    dt, worst, rng = 0.01, 0.0, {}
    for _ in range(int(round(horizon / dt))):
        s, t = rk4(native, s, dt), rk4(lifted, t, dt)
        for n in "ab":
            eT, eO = bearings(s, n, OTHER[n])
            worst = max(worst, max(abs(a - b) for a, b in zip(s[n], t[n][:4])),
                        abs(wrap(eT - t[n][4])), abs(wrap(eO - t[n][5])))
            for k, v in (("eT", eT), ("eO", eO), ("tr", s[n][3]), ("h", s[n][2])):
                lo, hi = rng.get((n, k), (v, v))
                rng[(n, k)] = (min(lo, v), max(hi, v))
    print("largest difference native vs lifted over %g s (rk4 %g s): %.3g" % (horizon, dt, worst))
    for (n, k), (lo, hi) in sorted(rng.items()):
        print("  %s %-2s in [%.4f, %.4f]" % (n, k, lo, hi))
    print("  distance a-b at the horizon: %.3f m"
          % math.hypot(s["a"][0] - s["b"][0], s["a"][1] - s["b"][1]))


def initial(w):
    """Intervals of the four bearings over the initial box (x, y +- w; a 9^4 grid, widened)."""
    grid = [i / 4 - 1 for i in range(9)]
    lo, hi = {}, {}
    for ax, ay, bx, by in itertools.product(grid, repeat=4):
        p = {"a": [AG["a"]["x"] + w * ax, AG["a"]["y"] + w * ay, AG["a"]["h"]],
             "b": [AG["b"]["x"] + w * bx, AG["b"]["y"] + w * by, AG["b"]["h"]]}
        for n in "ab":
            for k, v in zip(("eT", "eO"), bearings(p, n, OTHER[n])):
                lo[(n, k)] = min(lo.get((n, k), v), v)
                hi[(n, k)] = max(hi.get((n, k), v), v)
    # the grid misses at most a curvature term between points: widen by 1e-3 rad
    return {k: (lo[k] - 1e-3, hi[k] + 1e-3) for k in lo}


def flows(abs_eO):
    """Flow* ODE lines; abs_eO maps an agent to its |eO| expression."""
    out = []
    for n in "ab":
        o = OTHER[n]
        gx, gy = AG[n]["goal"]
        v = lambda k, m=n: "%s_%s" % (m, k)
        dT = "sqrt((%r - %s)^2 + (%r - %s)^2)" % (gx, v("x"), gy, v("y"))
        dxo, dyo = "(%s - %s)" % (v("x", o), v("x")), "(%s - %s)" % (v("y", o), v("y"))
        dO2 = "(%s^2 + %s^2)" % (dxo, dyo)
        acc = ("-%r * %s - %r * %s * (exp(-%r * %s) + %r) + %r * %s * exp(-%r * %s - %r * sqrt(%s))"
               % (B, v("tr"), KG, v("eT"), C1, dT, C2, KO, v("eO"), C3, abs_eO[n], C4, dO2))
        dxt, dyt = "(%r - %s)" % (gx, v("x")), "(%r - %s)" % (gy, v("y"))
        rT = ("%s - (%s * (-sin(%s)) - %s * (-cos(%s))) / (%s^2 + %s^2)"
              % (v("tr"), dxt, v("h"), dyt, v("h"), dxt, dyt))
        rO = ("%s - (%s * (sin(%s) - sin(%s)) - %s * (cos(%s) - cos(%s))) / %s"
              % (v("tr"), dxo, v("h", o), v("h"), dyo, v("h", o), v("h"), dO2))
        out += ["%s' = cos(%s)" % (v("x"), v("h")), "%s' = sin(%s)" % (v("y"), v("h")),
                "%s' = %s" % (v("h"), v("tr")), "%s' = %s" % (v("tr"), acc),
                "%s' = %s" % (v("eT"), rT), "%s' = %s" % (v("eO"), rO)]
    return out


VARS = ["%s_%s" % (n, k) for n in "ab" for k in ("x", "y", "h", "tr", "eT", "eO")]


def model(a, out):
    split = a.variant in ("split", "nowrap")
    wraps = a.variant != "nowrap"
    init = initial(a.width)
    # b's bearing to a starts negative (about -0.52 rad): the initial mode is bneg
    modes = {}
    if split:
        modes["bneg"] = ({"a": "sqrt(a_eO^2)", "b": "(-b_eO)"}, ["b_eO <= 0"])
        modes["bpos"] = ({"a": "sqrt(a_eO^2)", "b": "b_eO"}, ["b_eO >= 0"])
    else:
        modes["steer"] = ({"a": "sqrt(a_eO^2)", "b": "sqrt(b_eO^2)"}, [])
    pi = repr(math.pi)
    L = ["hybrid reachability", "{", "  state var " + ", ".join(VARS), "  setting", "  {",
         "    fixed steps %r" % a.step, "    time %r" % a.horizon,
         "    remainder estimation %r" % a.rem, "    identity precondition",
         "    gnuplot interval %s" % a.plot, "    adaptive orders { min %s, max %s }" % tuple(
             a.orders.split("-")), "    cutoff %r" % a.cutoff, "    precision 53",
         "    output out", "    max jumps 999999999", "    print on", "  }", "  modes", "  {"]
    for m, (absx, inv) in modes.items():
        iv = list(inv)
        if wraps:
            iv += ["%s_eO >= -%s" % (n, pi) for n in "ab"] + ["%s_eO <= %s" % (n, pi) for n in "ab"]
        L += ["    " + m, "    {", "      nonpoly ode", "      {"]
        L += ["        " + f for f in flows(absx)]
        L += ["      }", "      inv", "      {", "        " + "   ".join(iv), "      }", "    }"]
    L += ["  }", "  jumps", "  {"]

    def jump(src, dst, guard, reset):
        res = ["%s' := %s" % (x, reset.get(x, x)) for x in VARS]
        return ["    %s -> %s" % (src, dst), "    guard { %s }" % guard,
                "    reset { %s }" % " ".join(res), "    interval aggregation"]
    if split:
        L += jump("bneg", "bpos", "b_eO >= 0", {}) + jump("bpos", "bneg", "b_eO <= 0", {})
    if wraps:
        for m in modes:
            for n in "ab":
                e, tau = "%s_eO" % n, repr(2 * math.pi)
                L += jump(m, m, "%s >= %s" % (e, pi), {e: "%s - %s" % (e, tau)})
                L += jump(m, m, "%s <= -%s" % (e, pi), {e: "%s + %s" % (e, tau)})
    start = "bneg" if split else "steer"
    L += ["  }", "  init", "  {", "    " + start, "    {"]
    for n in "ab":
        g = AG[n]
        L += ["      %s_x in [%r, %r]" % (n, g["x"] - a.width, g["x"] + a.width),
              "      %s_y in [%r, %r]" % (n, g["y"] - a.width, g["y"] + a.width),
              "      %s_h in [%r, %r]" % (n, g["h"], g["h"]), "      %s_tr in [0, 0]" % n]
        for k in ("eT", "eO"):
            L += ["      %s_%s in [%r, %r]" % ((n, k) + init[(n, k)])]
    L += ["    }", "  }", "}", "unsafe", "{"]
    L += ["  %s { (a_x - b_x)^2 + (a_y - b_y)^2 <= 0.25 }" % m for m in modes]
    L += ["}"]
    out.write("\n".join(L) + "\n")


def main():
    global KO
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("variant", choices=("sqrt", "split", "nowrap"))
    p.add_argument("out")
    p.add_argument("--step", type=float, default=0.05)
    p.add_argument("--orders", default="3-5")
    p.add_argument("--rem", type=float, default=1e-4)
    p.add_argument("--cutoff", type=float, default=1e-10)
    p.add_argument("--horizon", type=float, default=8.0)
    p.add_argument("--width", type=float, default=0.05)
    p.add_argument("--check", action="store_true")
    p.add_argument("--ko", type=float, default=198.0,
                   help="the obstacle gain (diagnosis only: any other value is not the law)")
    p.add_argument("--plot", default="a_x,a_y", help="the two variables Flow* plots")
    a = p.parse_args()
    KO = a.ko
    if a.check:
        check(a.horizon)
    with open(a.out, "w") as f:
        model(a, f)


if __name__ == "__main__":
    sys.exit(main())
