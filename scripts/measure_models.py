#!/usr/bin/env python3
"""Runs every example scenario with the swerve CLI and prints the measured outcomes as Markdown
(the tables of models/README.md).  Run from the repository root after `make`:
    python3 scripts/measure_models.py [build/swerve] > /tmp/measured.md
Only the standard library is used; the figures come from summary.json and trajectory.csv."""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

SW = sys.argv[1] if len(sys.argv) > 1 else "build/swerve"


def run(model):
    out = tempfile.mkdtemp(prefix="swerve-measure-")
    subprocess.run([SW, "run", "-q", "-o", out, model], check=True)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    traj = {}
    with open(os.path.join(out, "trajectory.csv")) as f:
        for row in csv.DictReader(f):
            traj.setdefault(row["agent"], []).append(
                (float(row["t"]), float(row["x"]), float(row["y"]), float(row["heading"])))
    return summary, traj


def scenario_xml(model):
    import xml.etree.ElementTree as ET
    root = ET.parse(model).getroot()
    discs = {d.get("name"): (float(d.get("x")), float(d.get("y")), float(d.get("radius")))
             for d in root.iter("disc")}
    targets = {t.get("name"): (float(t.get("x")), float(t.get("y"))) for t in root.iter("target")}
    agents = {a.get("name"): (float(a.get("x")), float(a.get("y")), a.get("target"))
              for a in root.iter("agent")}
    return discs, targets, agents


def fmt(v, nd=2):
    return "—" if v is None else f"{v:.{nd}f}"


def side_at_pass(track, ox, oy, ax, ay):
    """Side on which the agent passes point (ox, oy): +1 counter-clockwise (left) of the ray from
    its start through the point, -1 clockwise; taken at the closest approach."""
    best = min(track, key=lambda r: math.hypot(r[1] - ox, r[2] - oy))
    c = (ox - ax) * (best[2] - ay) - (oy - ay) * (best[1] - ax)
    return 1 if c > 0 else -1


def goal_only(model):
    s, tr = run(model)
    _, targets, agents = scenario_xml(model)
    print("| condition | goal direction (deg) | time to heading within 1 deg of it (s) | peak turn rate (deg/s) | reached at (s) |")
    print("|---|---|---|---|---|")
    for a in s["agents"]:
        ax, ay, tg = agents[a["name"]]
        gx, gy = targets[tg]
        track = tr[a["name"]]
        t_align, peak = None, 0.0
        for (t0, x0, y0, h0), (t1, x1, y1, h1) in zip(track, track[1:]):
            dh = math.remainder(h1 - h0, 2 * math.pi) / (t1 - t0)
            peak = max(peak, abs(dh))
            psi = math.atan2(gy - y1, gx - x1)
            if t_align is None and abs(math.remainder(h1 - psi, 2 * math.pi)) < math.radians(1):
                t_align = t1
        print(f"| {a['name']} | {math.degrees(math.atan2(gy - ay, gx - ax)):.0f} | {fmt(t_align)} | "
              f"{math.degrees(peak):.1f} | {fmt(a['t_reached'])} |")


def obstacle_passes(model, label_fn):
    s, tr = run(model)
    discs, targets, agents = scenario_xml(model)
    rows = []
    for a in s["agents"]:
        ax, ay, tg = agents[a["name"]]
        mine = [(n, d) for n, d in discs.items() if n.startswith(f"pole-{a['name']}-")]
        sides = [side_at_pass(tr[a["name"]], d[0], d[1], ax, ay) for _, d in mine]
        rows.append((a, sides, mine, (ax, ay)))
    return s, rows


def one_obstacle(model):
    s, rows = obstacle_passes(model, None)
    print("| condition | side passed | min clearance to the pole (m) | reached at (s) | path length (m) |")
    print("|---|---|---|---|---|")
    for a, sides, mine, _ in rows:
        side = "left" if sides[0] > 0 else "right"
        print(f"| {a['name']} | {side} | {fmt(a['min_clearance'])} | {fmt(a['t_reached'])} | {fmt(a['path_length'])} |")


def route_selection(model):
    s, rows = obstacle_passes(model, None)
    table = {}
    for a, sides, mine, _ in rows:
        gd, off = a["name"][1:].split("m-off")
        # The goal is counter-clockwise of the obstacle: passing on its left is "inside".
        table.setdefault(int(gd), {})[int(off)] = "in" if sides[0] > 0 else "out"
    print("| goal distance | " + " | ".join(f"{o}°" for o in range(1, 16)) + " | outside routes |")
    print("|---|" + "---|" * 16)
    for gd in sorted(table):
        row = table[gd]
        n_out = sum(1 for o in range(1, 16) if row[o] == "out")
        print(f"| {gd} m | " + " | ".join(row[o] for o in range(1, 16)) + f" | {n_out}/15 |")
    reached = sum(1 for a, *_ in rows if a["reached"])
    print(f"\n{reached}/{len(rows)} reached the goal; collisions: {sum(a['collisions'] for a, *_ in rows)}.")


def two_obstacles(model):
    s, rows = obstacle_passes(model, None)
    print("| far obstacle at | route | min clearance (m) | reached at (s) |")
    print("|---|---|---|---|")
    for a, sides, mine, _ in rows:
        route = {(1, 1): "left of both", (-1, -1): "right of both", (-1, 1): "between",
                 (1, -1): "between (crossed)"}[tuple(sides)]
        print(f"| {a['name'][3:].replace('m', '-').replace('deg', '')} deg | {route} | {fmt(a['min_clearance'])} | {fmt(a['t_reached'])} |")


def summary_stats(model, title):
    s, _ = run(model)
    ags = s["agents"]
    n = len(ags)
    reached = [a for a in ags if a["reached"]]
    times = sorted(a["t_reached"] for a in reached)
    clear = sorted(a["min_clearance"] for a in ags)
    coll = sum(a["collisions"] for a in ags)
    print(f"{title}: {len(reached)}/{n} reached the goal; time to goal median {fmt(times[len(times)//2] if times else None)} s "
          f"(min {fmt(times[0] if times else None)}, max {fmt(times[-1] if times else None)}); "
          f"minimum clearance median {fmt(clear[n//2])} m, worst {fmt(clear[0])} m; "
          f"collision episodes {coll}.")


def per_agent(model):
    s, _ = run(model)
    print("| agent | target | reached at (s) | path length (m) | min clearance (m) | collisions |")
    print("|---|---|---|---|---|---|")
    for a in s["agents"]:
        print(f"| {a['name']} | {a['target']} | {fmt(a['t_reached'])} | {fmt(a['path_length'])} | "
              f"{fmt(a['min_clearance'])} | {a['collisions']} |")


if __name__ == "__main__":
    sections = [
        ("models/fw_goal_only.xml", goal_only),
        ("models/fw_one_obstacle.xml", one_obstacle),
        ("models/fw_route_selection.xml", route_selection),
        ("models/fw_two_obstacles.xml", two_obstacles),
        ("models/fw_random_fields.xml", lambda m: summary_stats(m, "100 random fields")),
        ("models/potential_room.xml", per_agent),
        ("models/glm_barrier.xml", per_agent),
        ("models/glm_gaps.xml", per_agent),
        ("models/glm_crossing.xml", per_agent),
        ("models/glm_moving_target.xml", per_agent),
        ("models/glm_several_targets.xml", per_agent),
        ("models/demo.xml", per_agent),
    ]
    only = sys.argv[2:] if len(sys.argv) > 2 else None
    for model, fn in sections:
        if only and not any(o in model for o in only):
            continue
        print(f"\n### {model}\n")
        fn(model)
