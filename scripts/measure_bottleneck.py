#!/usr/bin/env python3
"""Bottleneck flow: a crowd leaves a room through an opening of width b, for several widths, and
the flow through the opening is measured (the crowd issue's bottleneck series).

    python3 scripts/measure_bottleneck.py build/swerve [-j 2] [--walkers pedestrian,ttc]
        [--agents 100] [--density 2.5] [--widths 0.8,1.0,1.2,1.6,2.0,2.4] [--seed 1]
        [--csv FILE]

Geometry: a room 7.2 m wide (walls at y = +-3.6 m) closed at x = 0 by a wall with the opening
|y| < b/2; N agents (radius 0.2 m) start on a jittered grid at the given density, filling the
room from x = -0.5 m backwards; all walk to the exit, a disc of radius 2 m centred 4 m beyond
the opening (the navigation field `nav` leads there round the walls), and leave the world
there.  Each agent's crossing of x = 0 is read from the trajectory (sampled every 0.05 s,
interpolated); the flow J is the number of crossings between the 10th and 90th percentile of
the crossing order divided by the time between them (the start and the tail are transients),
and J/b the specific flow.  For comparison, the experiments of Seyfried et al. (2009) and
Liddle et al. (2011) found specific flows of about 1.6-2.0 per m per s over these widths, with J
growing linearly in b; the crowd issue's target is 1.3-2.1 per m per s at every width."""
import argparse
import concurrent.futures
import csv
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_crowd_models as gen  # noqa: E402

HALF_WIDTH = 3.6


def scenario(b, n, density, walker, seed, outdir):
    rng = random.Random(seed)
    gap = 1.0 / math.sqrt(density)
    rows = int(2 * (HALF_WIDTH - 0.3) / gap) + 1
    lines = []
    for k in range(n):
        col, row = divmod(k, rows)
        x = -0.5 - gap / 2 - col * gap + rng.uniform(-0.1, 0.1) * gap
        y = -HALF_WIDTH + 0.3 + row * gap + rng.uniform(-0.1, 0.1) * gap
        lines.append(gen.agent(f"p{k:03d}", x, y, 0.0, walker, "exit", 2, arrive=2.0))
    depth = 0.5 + gap * (n // rows + 2)
    head = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- bottleneck of width {b} m, {n} agents at {density} per m^2 ({walker});
     written by scripts/measure_bottleneck.py -->
<scenario name="bottleneck">
{gen.run_line(240, walker, outdir, sample=0.05, leave=True)}  <world>
    <segment name="north" x1="{-depth:.3f}" y1="{HALF_WIDTH}" x2="0" y2="{HALF_WIDTH}"/>
    <segment name="south" x1="{-depth:.3f}" y1="{-HALF_WIDTH}" x2="0" y2="{-HALF_WIDTH}"/>
    <segment name="back" x1="{-depth:.3f}" y1="{-HALF_WIDTH}" x2="{-depth:.3f}" y2="{HALF_WIDTH}"/>
    <segment name="upper" x1="0" y1="{b / 2:.4f}" x2="0" y2="{HALF_WIDTH}"/>
    <segment name="lower" x1="0" y1="{-HALF_WIDTH}" x2="0" y2="{-b / 2:.4f}"/>
    <target name="exit" x="4" y="0" radius="2"/>
    <navfield name="nav" target="exit" resolution="0.05"/>
  </world>
"""
    path = os.path.join(outdir, f"bottleneck-{walker}-{b}.xml")
    with open(path, "w") as f:
        f.write(head + "".join(lines) + "</scenario>\n")
    return path


def crossings(trajectory):
    """Per agent: the first time its x passes 0 (linear interpolation between samples)."""
    last, out = {}, {}
    with open(trajectory) as f:
        for r in csv.DictReader(f):
            a, t, x = r["agent"], float(r["t"]), float(r["x"])
            if a in last and a not in out and last[a][1] < 0.0 <= x:
                t0, x0 = last[a]
                out[a] = t0 + (t - t0) * (0.0 - x0) / (x - x0)
            last[a] = (t, x)
    return sorted(out.values())


def measure(sw, b, n, density, walker, seed, tmp):
    d = os.path.join(tmp, f"{walker}-{b}")
    os.makedirs(d)
    path = scenario(b, n, density, walker, seed, d)
    subprocess.run([sw, "run", "-q", "-j", "1", "-o", os.path.join(d, "out"), path],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = crossings(os.path.join(d, "out", "trajectory.csv"))
    if len(t) < 10:
        return {"crossed": len(t), "J": float("nan")}
    lo, hi = int(0.1 * len(t)), int(0.9 * len(t))
    j = (hi - lo) / (t[hi] - t[lo])
    return {"crossed": len(t), "J": j, "last": t[-1]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("swerve", nargs="?", default="build/swerve")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--walkers", default="pedestrian,ttc")
    ap.add_argument("--agents", type=int, default=100)
    ap.add_argument("--density", type=float, default=2.5)
    ap.add_argument("--widths", default="0.8,1.0,1.2,1.6,2.0,2.4")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csv", help="also write the table as CSV (walker, b, J, specific) for "
                    "swerve plot --table")
    a = ap.parse_args()
    sw = os.path.abspath(a.swerve)
    widths = [float(w) for w in a.widths.split(",")]
    walkers = a.walkers.split(",")
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        jobs = {(wk, b): pool.submit(measure, sw, b, a.agents, a.density, wk, a.seed, tmp)
                for wk in walkers for b in widths}
        print(f"{a.agents} agents at {a.density} per m², seed {a.seed}")
        print()
        print("| walker | b, m | crossed | J, 1/s | J/b, 1/(m s) | last crossing, s |")
        print("|---|---|---|---|---|---|")
        for (wk, b), job in jobs.items():
            r = job.result()
            last = f"{r['last']:.1f}" if "last" in r else "-"
            print(f"| {wk} | {b:g} | {r['crossed']} | {r['J']:.2f} | {r['J'] / b:.2f} | {last} |")
        for wk in walkers:
            pts = [(b, jobs[(wk, b)].result()["J"]) for b in widths]
            pts = [(x, y) for x, y in pts if not math.isnan(y)]
            if len(pts) >= 2:
                mx = sum(x for x, _ in pts) / len(pts)
                my = sum(y for _, y in pts) / len(pts)
                sxx = sum((x - mx) ** 2 for x, _ in pts)
                slope = sum((x - mx) * (y - my) for x, y in pts) / sxx
                ss = sum((y - my) ** 2 for _, y in pts)
                res = sum((y - (my + slope * (x - mx))) ** 2 for x, y in pts)
                r2 = 1 - res / ss if ss > 0 else float("nan")
                print(f"\n{wk}: J = {slope:.2f} b {my - slope * mx:+.2f} (least squares, "
                      f"R² = {r2:.3f})")
        if a.csv:
            with open(a.csv, "w", newline="") as f:
                wr = csv.writer(f)
                wr.writerow(["walker", "b", "J", "specific"])
                for (wk, b), job in jobs.items():
                    r = job.result()
                    wr.writerow([wk, f"{b:g}", f"{r['J']:.4f}", f"{r['J'] / b:.4f}"])


if __name__ == "__main__":
    main()
