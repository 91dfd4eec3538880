#!/usr/bin/env python3
"""Fundamental diagram: mean speed against density in a periodic corridor, for each crowd law,
against Weidmann (1993) (the crowd issue's fundamental-diagram series).

    python3 scripts/measure_fd.py build/swerve [-j 2] [--walkers csm,ttc,sf]
        [--densities 0.5,1,1.5,2,2.5,3,3.5,4] [--length 20] [--width 4] [--seed 1]
        [--duration 60] [--warmup 20] [--step H] [--csv FILE]

Geometry: a corridor `width` m wide (walls along x at y = 0 and y = width) whose ends are
joined (<world periodic-x="length">), so the density stays fixed.  N = density x length x width
agents (radius 0.2 m) start on a jittered grid, all heading east towards a target 10^6 m away
(the same goal direction everywhere).  After `warmup` seconds the mean speed is the agents'
displacement along the corridor per unit time (across the seam: the nearest image), averaged
over agents and the rest of the run; the flow per metre of width is density x speed.
Weidmann: v(rho) = 1.34 (1 - exp(-1.913 (1/rho - 1/5.4))) m/s.  The crowd issue's target: mean
speed within +-20 % of it from 0.5 to 3 per m^2, flow maximum between 1.2 and 2.0 per m^2."""
import argparse
import concurrent.futures
import csv
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_crowd_models as gen  # noqa: E402


def weidmann(rho):
    return 1.34 * (1.0 - math.exp(-1.913 * (1.0 / rho - 1.0 / 5.4)))


def scenario(rho, walker, a, outdir):
    """A periodic corridor at density rho (scripts/gen_crowd_models.py); returns (path, number
    of agents)."""
    name = f"fd-{walker}-{rho:g}.xml"
    n = gen.fd_corridor(walker, outdir, rho, a.length, a.width, a.duration, seed=a.seed,
                        step=a.step, name=name)
    return os.path.join(outdir, name), n


def mean_speed(trajectory, length, warmup):
    """Mean displacement along x per unit time after `warmup`, over agents (nearest image)."""
    last, dist, time = {}, 0.0, 0.0
    with open(trajectory) as f:
        for r in csv.DictReader(f):
            a, t, x = r["agent"], float(r["t"]), float(r["x"])
            if t >= warmup and a in last:
                t0, x0 = last[a]
                dx = x - x0
                dx -= length * round(dx / length)
                dist += dx
                time += t - t0
            last[a] = (t, x)
    return dist / time if time > 0 else float("nan")


def measure(sw, rho, walker, a, tmp):
    d = os.path.join(tmp, f"{walker}-{rho:g}")
    os.makedirs(d)
    path, n = scenario(rho, walker, a, d)
    out = os.path.join(d, "out")
    subprocess.run([sw, "run", "-q", "-j", "1", "-o", out, path], check=True,
                   stdout=subprocess.DEVNULL)
    v = mean_speed(os.path.join(out, "trajectory.csv"), a.length, a.warmup)
    with open(os.path.join(out, "summary.json")) as f:
        import json
        s = json.load(f)
    overlap = max((-ag.get("min_agent_clearance", 0.0) for ag in s.get("agents", [])
                   if ag.get("min_agent_clearance") is not None), default=0.0)
    return {"n": n, "v": v, "overlap": max(0.0, overlap)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("swerve", nargs="?", default="build/swerve")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--walkers", default="csm,ttc,sf")
    ap.add_argument("--densities", default="0.5,1,1.5,2,2.5,3,3.5,4")
    ap.add_argument("--length", type=float, default=20.0)
    ap.add_argument("--width", type=float, default=4.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--warmup", type=float, default=20.0)
    ap.add_argument("--step", type=float, help="integration step, s (default: the walker's, "
                    "scripts/gen_crowd_models.py)")
    ap.add_argument("--csv", help="also write the table as CSV (walker, density, speed, "
                    "weidmann) for swerve plot")
    a = ap.parse_args()
    sw = os.path.abspath(a.swerve)
    rhos = [float(r) for r in a.densities.split(",")]
    walkers = a.walkers.split(",")
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        jobs = {(wk, r): pool.submit(measure, sw, r, wk, a, tmp) for wk in walkers for r in rhos}
        print(f"periodic corridor {a.length:g} m x {a.width:g} m, seed {a.seed}, mean over "
              f"{a.warmup:g}-{a.duration:g} s")
        print()
        print("| walker | density, 1/m² | agents | mean speed, m/s | Weidmann, m/s | ratio | "
              "flow, 1/(m s) | worst agent overlap, m |")
        print("|---|---|---|---|---|---|---|---|")
        rows = []
        for (wk, r), job in jobs.items():
            res = job.result()
            w = weidmann(r)
            rows.append((wk, r, res["v"], w))
            print(f"| {wk} | {r:g} | {res['n']} | {res['v']:.3f} | {w:.3f} | "
                  f"{res['v'] / w:.2f} | {r * res['v']:.2f} | {res['overlap']:.3f} |")
        for wk in walkers:
            pts = [(r, v) for w2, r, v, _ in rows if w2 == wk]
            inside = [r for r, v in pts if 0.5 <= r <= 3 and abs(v / weidmann(r) - 1) <= 0.2]
            band = [r for r, _ in pts if 0.5 <= r <= 3]
            peak = max(pts, key=lambda p: p[0] * p[1])
            print(f"\n{wk}: within ±20 % of Weidmann at {len(inside)} of {len(band)} densities "
                  f"in 0.5-3 per m²; flow maximum {peak[0] * peak[1]:.2f} per m per s at "
                  f"{peak[0]:g} per m²")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(["walker", "density", "speed", "weidmann"])
            for row in rows:
                wr.writerow([row[0], f"{row[1]:g}", f"{row[2]:.4f}", f"{row[3]:.4f}"])


if __name__ == "__main__":
    main()
