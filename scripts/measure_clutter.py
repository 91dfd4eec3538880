#!/usr/bin/env python3
"""Measures goal seeking in random clutter and prints the Markdown table of models/README.md
("Goal seeking in clutter").

    python3 scripts/measure_clutter.py build/swerve [-j 2] [--fields 1000] [--first 1]
        [--discs 10,20,30] [--near-goal] [--walkers behaviour,glm,fw,ttc,sf,pedestrian]
        [--check] [--keep DIR]

Fields come from scripts/gen_clutter.py (seeds --first .. --first + --fields - 1 for each
count of discs; --near-goal adds the 10-disc fields with a disc next to the goal).  Each field
and walker is one `swerve run` of at most 60 s.  Per set and walker:
  reached      the agent's centre came within 0.1 m of the goal (summary.json "reached");
  overlap      fields where the agent's disc overlapped an obstacle at any sample or step
               (summary.json "collisions" > 0 or "min_clearance" < 0);
  path ratio   mean over reached fields of the agent's path length divided by the shortest
               collision-free path (below), and its worst value;
  time         mean time to the goal over reached fields.
The shortest path is computed here, independently of swerve: the exact shortest path from the
start to the goal among the obstacles grown by the agent's radius (tangent graph of the grown
discs: bitangents, tangents from start and goal, arcs; Dijkstra), less the 0.1 m arrival radius.
--check exits 1 unless the behaviour meets the issue's targets (reached >= 99 % of 10-disc and
>= 95 % of 20-disc fields, no overlap, mean path ratio <= 1.15); `make test` runs a small set
of fields this way.
"""
import argparse
import concurrent.futures
import heapq
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_clutter as gen  # noqa: E402

R = gen.AGENT + gen.DISC   # obstacles grown by the agent's radius: the centre's free space


def seg_clear(p, q, centres, skip=()):
    """True when segment pq stays at least R (less 1e-9) from every centre not in skip."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    L2 = dx * dx + dy * dy
    for k, (cx, cy) in enumerate(centres):
        if k in skip:
            continue
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((cx - p[0]) * dx + (cy - p[1]) * dy) / L2))
        ex, ey = p[0] + t * dx - cx, p[1] + t * dy - cy
        if ex * ex + ey * ey < (R - 1e-9) ** 2:
            return False
    return True


def inside_other(pt, centres, i):
    return any(k != i and (pt[0] - cx) ** 2 + (pt[1] - cy) ** 2 < (R - 1e-9) ** 2
               for k, (cx, cy) in enumerate(centres))


def shortest_path(start, goal, centres):
    """Length of the shortest path from start to goal avoiding the open discs of radius R."""
    nodes = [start, goal]          # node coordinates
    circle_of = [-1, -1]           # circle index (-1: start/goal)
    angle_of = [0.0, 0.0]
    edges = {0: [], 1: []}

    def add_node(i, a):
        c = centres[i]
        pt = (c[0] + R * math.cos(a), c[1] + R * math.sin(a))
        if inside_other(pt, centres, i):
            return None
        nodes.append(pt)
        circle_of.append(i)
        angle_of.append(a % (2 * math.pi))
        edges[len(nodes) - 1] = []
        return len(nodes) - 1

    def link(u, v, skip):
        if u is None or v is None:
            return
        p, q = nodes[u], nodes[v]
        if seg_clear(p, q, centres, skip):
            d = math.dist(p, q)
            edges[u].append((v, d))
            edges[v].append((u, d))

    link(0, 1, ())
    for e, pnt in ((0, start), (1, goal)):       # tangents from the start and the goal
        for i, c in enumerate(centres):
            d = math.dist(pnt, c)
            if d <= R:
                continue
            th, al = math.atan2(pnt[1] - c[1], pnt[0] - c[0]), math.acos(R / d)
            for s in (1, -1):
                link(e, add_node(i, th + s * al), (i,))
    for i in range(len(centres)):                # bitangents of each pair
        for j in range(i + 1, len(centres)):
            ci, cj = centres[i], centres[j]
            d = math.dist(ci, cj)
            if d == 0:
                continue
            th = math.atan2(cj[1] - ci[1], cj[0] - ci[0])
            for s in (1, -1):                    # outer: both points at th +- 90 deg
                a = th + s * math.pi / 2
                link(add_node(i, a), add_node(j, a), (i, j))
            if d > 2 * R:                        # inner: point symmetric about the midpoint
                be = math.acos(2 * R / d)
                for s in (1, -1):
                    link(add_node(i, th + s * be), add_node(j, th + s * be + math.pi), (i, j))
    by_circle = {}
    for n, i in enumerate(circle_of):
        if i >= 0:
            by_circle.setdefault(i, []).append(n)
    for i, ns in by_circle.items():              # arcs between neighbouring points
        ns.sort(key=lambda n: angle_of[n])
        c = centres[i]
        for k in range(len(ns)):
            u, v = ns[k], ns[(k + 1) % len(ns)]
            if u == v:
                continue
            da = (angle_of[v] - angle_of[u]) % (2 * math.pi)
            m = max(2, int(da / 0.02))
            ok = all(not inside_other((c[0] + R * math.cos(angle_of[u] + da * t / m),
                                       c[1] + R * math.sin(angle_of[u] + da * t / m)), centres, i)
                     for t in range(1, m))
            if ok:
                edges[u].append((v, R * da))
                edges[v].append((u, R * da))
    dist = {0: 0.0}
    heap = [(0.0, 0)]
    while heap:
        d, u = heapq.heappop(heap)
        if u == 1:
            return d
        if d > dist.get(u, math.inf):
            continue
        for v, w in edges[u]:
            nd = d + w
            if nd < dist.get(v, math.inf):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return math.inf


def run_one(sw, tmp, walker, variant, discs, seed, automata):
    obs = gen.field(seed, discs, variant)
    tag = f"{walker}-{variant}-{discs}-{seed}"
    path = os.path.join(tmp, tag + ".xml")
    with open(path, "w") as f:
        f.write(gen.scenario(obs, walker, automata))
    out = os.path.join(tmp, tag)
    subprocess.run([sw, "run", "-q", "-j", "1", "--no-field-cache", "-o", out, path],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        a = json.load(f)["agents"][0]
    return {"reached": bool(a["reached"]), "t": a["t_reached"], "path": a["path_length"],
            "overlap": a["collisions"] > 0 or a["min_clearance"] < 0,
            "min_clearance": a["min_clearance"]}


def picture(sw, tmp, out, sets, seeds, automata):
    """Draws the fields `seeds` of each set (one row per set) walked by the behaviour into
    `out`, and checks that each walker of the picture walks as in its own scenario (the runs
    the tables measure): same arrival and path length within 1 mm."""
    keys = [(v, n, s) for v, n in sets for s in seeds]
    path = os.path.join(tmp, "mosaic.xml")
    with open(path, "w") as f:
        f.write(gen.mosaic([gen.field(s, n, v) for v, n, s in keys], automata,
                           cols=len(seeds)))
    subprocess.run([sw, "render", "-q", "--no-field-cache", "-t", "0", "-w", "1400", "-o",
                    os.path.abspath(out), path], check=True)
    res = os.path.join(tmp, "mosaic")
    subprocess.run([sw, "run", "-q", "--no-field-cache", "-o", res, path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(res, "summary.json")) as f:
        drawn = json.load(f)["agents"]
    ok = True
    for k, (v, n, s) in enumerate(keys):
        alone = run_one(sw, tmp, "behaviour", v, n, s, automata)
        same = (bool(drawn[k]["reached"]) == alone["reached"]
                and abs(drawn[k]["path_length"] - alone["path"]) < 1e-3)
        ok = ok and same
        print(f"field{k} ({n} discs, {v}, field {s}): reached {bool(drawn[k]['reached'])}, "
              f"path {drawn[k]['path_length']:.3f} m; alone {alone['path']:.3f} m"
              + ("" if same else "  <- differs"))
    if not ok:
        print("measure_clutter: a walker of the picture differs from its own run",
              file=sys.stderr)
    return ok


def scenes(sw, tmp, automata, jobs):
    """The trap, maze and room of models/seek_escape_*.xml walked by the recommended behaviour:
    the seek-escape agent (its start, goal and field) runs automata/navigate.xml with the same
    arrival radius as the goal's, at the law's step (Euler, 0.01 s); the plain seek agent is
    left out.  Seeds 1..100, as scripts/measure_models.py runs the originals."""
    import xml.etree.ElementTree as ET
    root_dir = os.path.dirname(HERE)
    print("| Scene | Reached | Mean time to goal (s) | Mean path (m) | Worst min clearance (m) "
          "| Collisions |")
    print("|---|---|---|---|---|---|")
    for scene in ("trap", "maze", "room"):
        tree = ET.parse(os.path.join(root_dir, "models", f"seek_escape_{scene}.xml"))
        root = tree.getroot()
        run = root.find("run")
        run.set("step", "0.01")
        run.set("integrator", "euler")
        beh = root.find("behaviours")
        for u in list(beh):
            beh.remove(u)
        ET.SubElement(beh, "use", file=os.path.join(automata, "navigate.xml"))
        targets = {t.get("name"): t for t in root.iter("target")}
        for ag in list(root.findall("agent")):
            if ag.get("behaviour") != "seek_escape":
                root.remove(ag)
                continue
            ag.set("behaviour", "navigate")
            goal = [b.get("value") for b in ag.findall("bind") if b.get("param") == "goal"][0]
            ET.SubElement(ag, "bind", param="radius", value=targets[goal].get("radius"))
        path = os.path.join(tmp, f"navigate_{scene}.xml")
        tree.write(path, encoding="UTF-8", xml_declaration=True)

        def one(seed, path=path, scene=scene):
            out = os.path.join(tmp, f"{scene}-{seed}")
            subprocess.run([sw, "run", "-q", "-j", "1", "--no-field-cache", "-s", str(seed),
                            "-o", out, path], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            with open(os.path.join(out, "summary.json")) as f:
                return json.load(f)["agents"][0]
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            rs = list(ex.map(one, range(1, 101)))
        ok = [r for r in rs if r["reached"]]
        mt = sum(r["t_reached"] for r in ok) / len(ok) if ok else math.nan
        mp = sum(r["path_length"] for r in ok) / len(ok) if ok else math.nan
        print(f"| {scene} | {len(ok)}/{len(rs)} | {mt:.2f} | {mp:.2f} "
              f"| {min(r['min_clearance'] for r in rs):.2f} "
              f"| {sum(r['collisions'] for r in rs)} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("swerve")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--fields", type=int, default=1000)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--discs", default="10,20,30")
    ap.add_argument("--near-goal", action="store_true")
    ap.add_argument("--walkers", default=",".join(gen.WALKERS))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--check-ratio", type=float, default=1.15,
                    help="with --check: the largest mean path ratio allowed (default 1.15)")
    ap.add_argument("--keep", help="keep the scenarios and outputs in this directory")
    ap.add_argument("--list-failures", action="store_true")
    ap.add_argument("--automata", help="directory of the automata (default: the repository's)")
    ap.add_argument("--nav", default="", help="extra <navfield> attributes for the behaviour, "
                    "e.g. 'method=\"distance\" clearance=\"0.3\"'")
    ap.add_argument("--grid-offset", type=float, default=None,
                    help="move the behaviour's navigation grid by this much (m) against the "
                    "discs (towards -x and -y); fields alone otherwise")
    ap.add_argument("--scenes", action="store_true",
                    help="instead, run the behaviour in the trap, maze and room scenes of "
                    "models/seek_escape_*.xml (seeds 1..100)")
    ap.add_argument("--picture", help="instead, draw the first three fields of each set (12 with "
                    "--discs 10,20,30 --near-goal) walked by the behaviour into this .png/.svg")
    a = ap.parse_args()
    sw = os.path.abspath(a.swerve)
    automata = os.path.abspath(a.automata or os.path.join(os.path.dirname(HERE), "automata"))
    walkers = a.walkers.split(",")
    gen.BEHAVIOUR_FIELD = " " + a.nav if a.nav else ""
    gen.GRID_OFFSET = a.grid_offset
    sets = [("uniform", int(n)) for n in a.discs.split(",") if n]
    if a.near_goal:
        sets.append(("near-goal", 10))
    seeds = range(a.first, a.first + a.fields)
    tmp = a.keep or tempfile.mkdtemp(prefix="swerve-clutter-")
    os.makedirs(tmp, exist_ok=True)
    try:
        return measure(a, sw, tmp, automata, walkers, sets, seeds)
    finally:  # the scratch folder goes also when a run fails or the user interrupts
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)


def measure(a, sw, tmp, automata, walkers, sets, seeds):
    """The part of main() that runs in the scratch folder tmp."""
    if a.scenes:
        scenes(sw, tmp, automata, a.j)
        return 0
    if a.picture:
        ok = picture(sw, tmp, a.picture, sets, list(seeds)[:3], automata)
        return 0 if ok else 1
    shortest = {}
    for variant, n in sets:
        for s in seeds:
            shortest[(variant, n, s)] = shortest_path(
                (0.0, 0.0), gen.GOAL, gen.field(s, n, variant)) - gen.ARRIVE
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for variant, n in sets:
            for w in walkers:
                for s in seeds:
                    jobs[(w, variant, n, s)] = ex.submit(run_one, sw, tmp, w, variant, n, s,
                                                         automata)
        res = {k: f.result() for k, f in jobs.items()}
    print(f"Fields {a.first}..{a.first + a.fields - 1} of each set "
          f"(scripts/measure_clutter.py --fields {a.fields} --first {a.first}).\n")
    print("| Field set | Walker | Reached | Fields with overlap | Path / shortest (mean, worst) "
          "| Time to goal, mean |")
    print("|---|---|---|---|---|---|")
    ok = True
    for variant, n in sets:
        label = f"{n} discs" + (", one next to the goal" if variant == "near-goal" else "")
        for w in walkers:
            rs = [(s, res[(w, variant, n, s)]) for s in seeds]
            reached = [(s, r) for s, r in rs if r["reached"]]
            over = sum(r["overlap"] for _, r in rs)
            ratios = [r["path"] / shortest[(variant, n, s)] for s, r in reached]
            mean_r = sum(ratios) / len(ratios) if ratios else math.nan
            worst = max(ratios) if ratios else math.nan
            tm = sum(r["t"] for _, r in reached) / len(reached) if reached else math.nan
            pct = 100.0 * len(reached) / len(rs)
            print(f"| {label} | {w} | {len(reached)}/{len(rs)} ({pct:.1f} %) | {over} "
                  f"| {mean_r:.3f}, {worst:.2f} | {tm:.1f} s |")
            if a.list_failures:
                bad = [s for s, r in rs if not r["reached"] or r["overlap"]]
                print(f"<!-- {label} {w} failures: {bad} -->")
            if w == "behaviour" and variant == "uniform" and n in (10, 20):
                need = 99.0 if n == 10 else 95.0
                if pct < need or over or mean_r > a.check_ratio:
                    ok = False
    if a.check and not ok:
        print("measure_clutter: the behaviour misses its targets", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
