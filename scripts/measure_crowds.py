#!/usr/bin/env python3
"""Measures the crowd scenarios of models/ and prints the Markdown tables of models/README.md
("Crowds").

    python3 scripts/measure_crowds.py build/swerve [-j 2] [--walkers pedestrian,glm,ttc]
        [--scenes crowd_circle,...] [--circle-agents N] [--step H] [--no-flocks]

Pedestrian scenes (scripts/gen_crowd_models.py: circle, ring, corridor, plaza, door) are written
once per walker -- the recommended behaviour automata/pedestrian.xml and each plain law -- into a
temporary directory and run once (they have no noise: every seed gives the same run).  Per scene
and walker: agents that reached their goal; the worst and the mean ratio of arrival time to the
free-walking time (straight-line distance from start to goal, less the arrival radius, at
1.3 m/s, the time-to-collision law's preferred speed); the mean arrival time; the largest
agent-agent overlap; the smallest obstacle clearance (negative: overlap); for the corridor, the
lane order parameter.  `--step H` runs every scene at step H instead of the walker's (its
output interval, 0.5 s, must stay a multiple of H).  Flocks (crowd_flock, crowd_flock3d) are
measured over seeds 1..5 as before."""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_crowd_models as gen  # noqa: E402

FREE_SPEED = 1.3
FLOCKS = ["crowd_flock", "crowd_flock3d"]


def run(sw, path, out, seed=None):
    cmd = [sw, "run", "-q", "-j", "1", "-o", out, path]
    if seed is not None:
        cmd[2:2] = ["-s", str(seed)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def free_times(path):
    """Per agent name: straight-line distance to its goal less the arrival radius, / 1.3 m/s."""
    root = ET.parse(path).getroot()
    targets = {t.get("name"): (float(t.get("x")), float(t.get("y")), float(t.get("radius")))
               for t in root.iter("target")}
    out = {}
    for a in root.iter("agent"):
        goal, radius = a.get("target"), None
        for b in a.iter("bind"):
            if b.get("param") == "goal":
                goal = b.get("value")
            if b.get("param") == "radius":
                radius = float(b.get("value"))
        tx, ty, tr = targets[goal]
        if radius is None:
            radius = 0.3 if a.get("behaviour") else tr
        d = math.hypot(tx - float(a.get("x")), ty - float(a.get("y"))) - radius
        out[a.get("name")] = max(d, 0.0) / FREE_SPEED
    return out


def lane_order(trajectory):
    """Lane order parameter of a two-way flow, averaged over samples while the groups overlap:
    for each agent, with n_same and n_opp the agents walking its way and the other way within
    0.5 m of its lateral position (y), phi_i = ((n_same - n_opp) / (n_same + n_opp))^2 (agents
    with no one in their band count 1); phi = mean over agents.  1: clean lanes; about 0:
    mixed.  Direction from the name's first letter (e: east, w: west)."""
    frames = {}
    with open(trajectory) as f:
        for r in csv.DictReader(f):
            frames.setdefault(float(r["t"]), []).append((r["agent"][0], float(r["x"]),
                                                         float(r["y"])))
    values = []
    for rows in frames.values():
        east = [x for d, x, _ in rows if d == "e"]
        west = [x for d, x, _ in rows if d == "w"]
        if not east or not west or max(east) < min(west) - 1.0:
            continue  # the groups have not met yet, or have passed each other
        if min(east) > max(west) + 1.0:
            continue
        phi = []
        for d, x, y in rows:
            same = sum(1 for e, _, v in rows if e == d and abs(v - y) < 0.5) - 1
            opp = sum(1 for e, _, v in rows if e != d and abs(v - y) < 0.5)
            phi.append(1.0 if same + opp == 0 else ((same - opp) / (same + opp)) ** 2)
        values.append(sum(phi) / len(phi))
    return sum(values) / len(values) if values else float("nan")


def measure_scene(sw, scene, walker, tmp, circle_agents=None, step=None):
    d = os.path.join(tmp, f"{scene}-{walker}")
    os.makedirs(d)
    if scene == "crowd_circle" and circle_agents:
        gen.circle(walker, d, n=circle_agents)  # the bench's rings (bench/bench_crowd.c)
    else:
        gen.PEDESTRIAN_SCENES[scene](walker, d)
    path = os.path.join(d, gen.model_name(scene, walker))
    if step:
        with open(path) as f:
            text = f.read()
        text, n = re.subn(r'(<run [^>]*\bstep=")[^"]*"', rf'\g<1>{step:g}"', text, count=1)
        if n != 1:
            sys.exit(f"{path}: no <run step=...> to replace")
        with open(path, "w") as f:
            f.write(text)
    s = run(sw, path, os.path.join(d, "out"))
    free = free_times(path)
    a = s["agents"]
    reached = [x for x in a if x["reached"]]
    ratios = [x["t_reached"] / free[x["name"]] for x in reached if free[x["name"]] > 0]
    worst = max([0.0] + [-x["min_agent_clearance"] for x in a
                         if x["min_agent_clearance"] is not None])
    clear = [x["min_clearance"] for x in a if x["min_clearance"] is not None]
    lane = lane_order(os.path.join(d, "out", "trajectory.csv")) if scene == "crowd_corridor" \
        else None
    return {"n": len(a), "reached": len(reached),
            "worst_ratio": max(ratios) if ratios else float("nan"),
            "mean_ratio": sum(ratios) / len(ratios) if ratios else float("nan"),
            "mean_t": sum(x["t_reached"] for x in reached) / len(reached) if reached
            else float("nan"),
            "overlap": worst, "clearance": min(clear) if clear else None, "lane": lane,
            "all_within_2x": len(reached) == len(a) and all(r <= 2.0 for r in ratios)}


def measure_flock(sw, model, tmp):
    reached, times, overl, worst, clear, n = [], [], [], 0.0, float("inf"), 0
    for seed in range(1, 6):
        d = os.path.join(tmp, f"{model}-{seed}")
        s = run(sw, f"models/{model}.xml", d, seed)
        a = s["agents"]
        n = len(a)
        reached.append(sum(1 for x in a if x["reached"]))
        times += [x["t_reached"] for x in a if x["reached"]]
        overl.append(sum(1 for x in a if x["agent_collisions"] > 0))
        for x in a:
            if x["min_agent_clearance"] is not None:
                worst = max(worst, -x["min_agent_clearance"])
            if x["min_clearance"] is not None:
                clear = min(clear, x["min_clearance"])
    return n, reached, times, overl, worst, clear


def fmt(v, spec=".2f"):
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("swerve", nargs="?", default="build/swerve")
    ap.add_argument("-j", type=int, default=2, help="runs at once")
    ap.add_argument("--walkers", default=",".join(gen.WALKERS),
                    help="comma-separated: " + ", ".join(gen.WALKERS))
    ap.add_argument("--no-flocks", action="store_true")
    ap.add_argument("--scenes", help="comma-separated subset of " +
                    ", ".join(gen.PEDESTRIAN_SCENES))
    ap.add_argument("--circle-agents", type=int,
                    help="agents of the circle swap (default 200, the model's; 1000: the dense "
                    "rings of bench/bench_crowd.c)")
    ap.add_argument("--step", type=float,
                    help="integration step of every scene, s (default: the walker's, "
                    "scripts/gen_crowd_models.py)")
    args = ap.parse_args()
    sw = os.path.abspath(args.swerve)
    walkers = args.walkers.split(",")
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        scenes = args.scenes.split(",") if args.scenes else list(gen.PEDESTRIAN_SCENES)
        jobs = {(sc, wk): pool.submit(measure_scene, sw, sc, wk, tmp,
                                      args.circle_agents, args.step)
                for sc in scenes for wk in walkers}
        flocks = {} if args.no_flocks else {m: pool.submit(measure_flock, sw, m, tmp)
                                            for m in FLOCKS}
        print("| scene | walker | agents | reached | worst / mean arrival ÷ free time |"
              " mean arrival, s | worst agent overlap, m | smallest obstacle clearance, m |"
              " lane order |")
        print("|---|---|---|---|---|---|---|---|---|")
        for (sc, wk), job in jobs.items():
            r = job.result()
            print(f"| {sc} | {wk} | {r['n']} | {r['reached']} ({100 * r['reached'] / r['n']:.0f}%)"
                  f" | {fmt(r['worst_ratio'])} / {fmt(r['mean_ratio'])} | {fmt(r['mean_t'], '.1f')}"
                  f" | {r['overlap']:.3f} | {fmt(r['clearance'], '.4f')} | {fmt(r['lane'])} |")
        if flocks:
            print()
            print("| flock | agents | reached (mean over seeds 1-5) | mean arrival time, s |"
                  " agents that overlapped another | worst agent overlap, m |"
                  " smallest obstacle clearance, m |")
            print("|---|---|---|---|---|---|---|")
            for m, job in flocks.items():
                n, reached, times, overl, worst, clear = job.result()
                mt = sum(times) / len(times) if times else float("nan")
                cl = "-" if clear == float("inf") else f"{clear:.3f}"
                mean = sum(reached) / len(reached)
                print(f"| {m} | {n} | {mean:.1f} ({100 * mean / n:.0f}%) | {mt:.1f} |"
                      f" {sum(overl) / len(overl):.1f} | {worst:.3f} | {cl} |")


if __name__ == "__main__":
    main()
