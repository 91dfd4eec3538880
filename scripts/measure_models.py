#!/usr/bin/env python3
"""Runs every example scenario with the swerve CLI and prints the measured outcomes as Markdown
(the tables of models/README.md).  Run from the repository root after `make`:
    python3 scripts/measure_models.py [build/swerve] > /tmp/measured.md
Only the standard library is used; the figures come from summary.json, trajectory.csv and
(for behaviour scenarios) events.jsonl.  Arguments after the binary filter the scenarios by
substring, e.g. `python3 scripts/measure_models.py build/swerve seek_ flock`."""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

SW = sys.argv[1] if len(sys.argv) > 1 else "build/swerve"


def run_outputs(model, fourth, seed=None):
    """Runs a scenario (optionally with another seed) in a temporary folder, removed afterwards;
    returns the summary, the trajectories per agent as lists of (t, x, y, fourth(row)) and the
    transitions as dicts with keys t, agent, from, to and label (the label when the log gives
    one, else the guard text)."""
    with tempfile.TemporaryDirectory(prefix="swerve-measure-") as out:
        cmd = [SW, "run", "-q", "-o", out] + (["-s", str(seed)] if seed is not None else [])
        subprocess.run(cmd + [model], check=True)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        traj = {}
        with open(os.path.join(out, "trajectory.csv")) as f:
            for row in csv.DictReader(f):
                traj.setdefault(row["agent"], []).append(
                    (float(row["t"]), float(row["x"]), float(row["y"]), fourth(row)))
        events = []
        with open(os.path.join(out, "events.jsonl")) as f:
            for line in f:
                if line.strip():
                    e = json.loads(line)
                    events.append({"t": float(e.get("t", 0.0)), "agent": e.get("agent"),
                                   "from": e.get("from"), "to": e.get("to"),
                                   "label": e.get("label") or e.get("guard")})
    events.sort(key=lambda e: e["t"])
    return summary, traj, events


def run(model):
    summary, traj, _ = run_outputs(model, lambda row: float(row["heading"]))
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


# ---------------------------------------------------------------------------------------------
# Behaviour scenarios: read the transition log as well.


def run_full(model, seed=None):
    """run_outputs() with each trajectory point's mode."""
    return run_outputs(model, lambda row: row.get("mode", ""), seed)


def bindings(model):
    """{agent name: {param: value}} with group bindings inherited, as the reader does."""
    import xml.etree.ElementTree as ET
    root = ET.parse(model).getroot()
    out = {}
    def own(el):
        return {b.get("param"): b.get("value") for b in el.findall("bind")}
    for el in root:
        if el.tag == "agent":
            out[el.get("name")] = own(el)
        elif el.tag == "group":
            g = own(el)
            for a in el.findall("agent"):
                b = dict(g) if a.get("behaviour") in (None, el.get("behaviour")) else {}
                b.update(own(a))
                out[a.get("name")] = b
    return out


def regions(model):
    """{region name: list of (x, y) vertices}."""
    import xml.etree.ElementTree as ET
    out = {}
    for r in ET.parse(model).getroot().iter("region"):
        if r.get("x1") is not None:
            x1, y1, x2, y2 = (float(r.get(k)) for k in ("x1", "y1", "x2", "y2"))
            out[r.get("name")] = [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]
        else:
            out[r.get("name")] = [(float(v.get("x")), float(v.get("y"))) for v in r.findall("vertex")]
    return out


def inside(poly, x, y):
    c = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            c = not c
    return c


def first(events, agent, **kw):
    """Time of the first transition of `agent` matching all of kw (keys to, from, label)."""
    for e in events:
        if e["agent"] == agent and all(e.get(k) == v for k, v in kw.items()):
            return e["t"]
    return None


def median(v):
    v = sorted(v)
    n = len(v)
    if not n:
        return None
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def fmt_agent_clearance(a):
    return fmt(a.get("min_agent_clearance"))


def seek_room(model):
    s, _, ev = run_full(model)
    bind = bindings(model)
    print("| agent | goal | arrived at (s) | path length (m) | min clearance to obstacles (m) | min clearance to agents (m) | collisions (obstacles / agents) |")
    print("|---|---|---|---|---|---|---|")
    for a in s["agents"]:
        t = first(ev, a["name"], to="arrived")
        print(f"| {a['name']} | {bind[a['name']].get('goal')} | {fmt(t)} | {fmt(a['path_length'])} | "
              f"{fmt(a['min_clearance'])} | {fmt_agent_clearance(a)} | {a['collisions']} / {a.get('agent_collisions', 0)} |")


def patrol(model):
    s, _, ev = run_full(model)
    print("| agent | laps completed | lap completed at (s) | mean lap time (s) | waypoints reached | path length (m) | min clearance (m) | collisions |")
    print("|---|---|---|---|---|---|---|---|")
    for a in s["agents"]:
        mine = [e for e in ev if e["agent"] == a["name"]]
        laps = [e["t"] for e in mine if e["label"] == "reach_wp4"]
        # Lap times between successive completions; the first lap also includes the walk from
        # the start position to wp1, so it is left out of the mean when there are later laps.
        gaps = [b - c for c, b in zip(laps, laps[1:])]
        mean = sum(gaps) / len(gaps) if gaps else (laps[0] if laps else None)
        print(f"| {a['name']} | {len(laps)} | {', '.join(fmt(t, 1) for t in laps) or '—'} | {fmt(mean)} | "
              f"{sum(1 for e in mine if str(e['label']).startswith('reach_wp'))} | {fmt(a['path_length'])} | "
              f"{fmt(a['min_clearance'])} | {a['collisions']} |")


def street_crossing(model):
    s, tr, ev = run_full(model)
    reg = regions(model)
    names = {a["name"] for a in s["agents"]}
    # The light's mode over time, from its transitions (a signal is logged like an agent).
    light = [e for e in ev if e["agent"] not in names]
    mode0 = light[0]["from"] if light else "cars_green"
    def light_mode(t):
        m = mode0
        for e in light:
            if e["t"] <= t:
                m = e["to"]
        return m
    walk = [(e["t"], None) for e in light if e["to"] == "cars_red_walk"]
    walk = [(t0, next((e["t"] for e in light if e["t"] > t0 and e["from"] == "cars_red_walk"), None))
            for t0, _ in walk]
    print("walk phases: " + ", ".join(f"{fmt(a, 1)}–{fmt(b, 1)} s" for a, b in walk) + "\n")
    print("| pedestrian | at the kerb (s) | waited (s) | started crossing (s) | crossed (s) | arrived (s) | time in the street while not walk (s) | min clearance to agents (m) | collisions (obstacles / agents) |")
    print("|---|---|---|---|---|---|---|---|---|")
    total_bad = 0.0
    for a in s["agents"]:
        n = a["name"]
        kerb = first(ev, n, to="wait")
        go = first(ev, n, **{"from": "wait"})
        crossed = first(ev, n, label="crossed")
        arrived = first(ev, n, to="done")
        waited = None if kerb is None or go is None else go - kerb
        track = tr[n]
        bad = 0.0
        for (t0, x, y, _), (t1, *_rest) in zip(track, track[1:]):
            if inside(reg["street"], x, y) and light_mode(t0) != "cars_red_walk":
                bad += t1 - t0
        total_bad += bad
        print(f"| {n} | {fmt(kerb, 1)} | {fmt(waited, 1)} | {fmt(go, 1)} | {fmt(crossed, 1)} | {fmt(arrived, 1)} | "
              f"{fmt(bad, 2)} | {fmt_agent_clearance(a)} | {a['collisions']} / {a.get('agent_collisions', 0)} |")
    print(f"\nTime any pedestrian's centre was inside the street while the light did not show walk: "
          f"{fmt(total_bad, 2)} s (sampled every {fmt(track[1][0] - track[0][0])} s).")


def seek_escape(model, seeds=range(1, 101)):
    """Plain seek versus seek-escape (navigation field) on one map over many seeds: how often
    each reaches the goal within the scenario's duration, mean (and median, range) time to the
    goal and mean path length of the runs that reach it."""
    per = {}
    for seed in seeds:
        s, _, ev = run_full(model, seed)
        for a in s["agents"]:
            r = per.setdefault(a["name"], {"times": [], "paths": [], "escapes": [], "clear": [], "coll": 0, "n": 0})
            r["n"] += 1
            t = first(ev, a["name"], to="arrived")
            if t is not None:
                r["times"].append(t)
                r["paths"].append(a["path_length"])
            r["escapes"].append(sum(1 for e in ev if e["agent"] == a["name"] and e["to"] == "escape"))
            r["clear"].append(a["min_clearance"])
            r["coll"] += a["collisions"]
    print(f"Seeds {seeds[0]}..{seeds[-1]} (heading noise differs per seed), time limit {s['time']:.0f} s:\n")
    print("| agent (behaviour) | reached the goal | mean time to goal (s) | median (min–max) (s) | mean path length (m) | escape episodes per run (mean) | worst min clearance (m) | collisions |")
    print("|---|---|---|---|---|---|---|---|")
    for n, r in per.items():
        t = r["times"]
        mean_t = fmt(sum(t) / len(t)) if t else "—"
        mean_p = fmt(sum(r["paths"]) / len(r["paths"])) if t else "—"
        span = f"{fmt(median(t))} ({fmt(min(t))}–{fmt(max(t))})" if t else "—"
        print(f"| {n} | {len(t)}/{r['n']} | {mean_t} | {span} | {mean_p} | {sum(r['escapes']) / r['n']:.1f} | {fmt(min(r['clear']))} | {r['coll']} |")


def pursuit_evasion(model, seeds=range(1, 11)):
    s, _, ev = run_full(model)
    print("Scenario seed:\n")
    print("| agent | caught at (s) | hunter's tag (s) | flee episodes | hide episodes | path length (m) | min clearance (m) | collisions (obstacles / agents) |")
    print("|---|---|---|---|---|---|---|---|")
    bind = bindings(model)
    hunter = next(n for n, b in bind.items() if "prey1" in b)
    for a in s["agents"]:
        n = a["name"]
        mine = [e for e in ev if e["agent"] == n]
        if n == hunter:
            tags = ", ".join(f"{e['label']} {fmt(e['t'], 1)}" for e in mine if e["to"] == "feed")
            print(f"| {n} | — | {tags or '—'} | — | — | {fmt(a['path_length'])} | {fmt(a['min_clearance'])} | "
                  f"{a['collisions']} / {a.get('agent_collisions', 0)} |")
            continue
        k = "1" if bind[hunter]["prey1"] == n else "2"
        print(f"| {n} | {fmt(first(ev, n, to='caught'), 1)} | {fmt(first(ev, hunter, label='catch' + k), 1)} | "
              f"{sum(1 for e in mine if e['to'] == 'flee')} | {sum(1 for e in mine if e['to'] == 'hidden')} | "
              f"{fmt(a['path_length'])} | {fmt(a['min_clearance'])} | {a['collisions']} / {a.get('agent_collisions', 0)} |")
    caught, hides, coll = {}, {}, 0
    for seed in seeds:
        s, _, ev = run_full(model, seed)
        coll += sum(a["collisions"] for a in s["agents"])
        for a in s["agents"]:
            if a["name"] == hunter:
                continue
            t = first(ev, a["name"], to="caught")
            caught.setdefault(a["name"], []).append(t)
            hides.setdefault(a["name"], []).append(
                sum(1 for e in ev if e["agent"] == a["name"] and e["to"] == "hidden"))
    print(f"\nSeeds {seeds[0]}..{seeds[-1]}: " + "; ".join(
        f"{n} caught in {sum(1 for t in ts if t is not None)}/{len(ts)} runs "
        f"(median {fmt(median([t for t in ts if t is not None]), 1)} s), survived {sum(1 for t in ts if t is None)}, "
        f"hid {sum(hides[n]) / len(ts):.1f} times per run"
        for n, ts in caught.items()) + f"; obstacle collisions {coll}.")


def flock(model):
    s, _, ev = run_full(model)
    n = len(s["agents"])
    arr = {}
    for e in ev:
        if e["to"] == "settled" and e["agent"] not in arr:
            arr[e["agent"]] = (e["t"], e["label"])
    t = sorted(v[0] for v in arr.values())
    mac = [a.get("min_agent_clearance") for a in s["agents"] if a.get("min_agent_clearance") is not None]
    print("| agents | settled | at the goal / joined the group | first arrival (s) | median (s) | last (s) | spread (s) | min agent–agent clearance (m) | agent–agent overlaps | min clearance to obstacles (m) | obstacle collisions |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {n} | {len(arr)}/{n} | {sum(1 for v in arr.values() if v[1] == 'arrive')} / "
          f"{sum(1 for v in arr.values() if v[1] == 'join')} | {fmt(t[0] if t else None)} | {fmt(median(t))} | "
          f"{fmt(t[-1] if t else None)} | {fmt(t[-1] - t[0] if t else None)} | {fmt(min(mac) if mac else None)} | "
          f"{sum(a.get('agent_collisions', 0) for a in s['agents'])} | "
          f"{fmt(min(a['min_clearance'] for a in s['agents']))} | {sum(a['collisions'] for a in s['agents'])} |")


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
        ("models/seek_room.xml", seek_room),
        ("models/patrol.xml", patrol),
        ("models/street_crossing.xml", street_crossing),
        ("models/seek_escape_trap.xml", seek_escape),
        ("models/seek_escape_maze.xml", seek_escape),
        ("models/seek_escape_room.xml", seek_escape),
        ("models/pursuit_evasion.xml", pursuit_evasion),
        ("models/flock.xml", flock),
    ]
    only = sys.argv[2:] if len(sys.argv) > 2 else None
    for model, fn in sections:
        if only and not any(o in model for o in only):
            continue
        print(f"\n### {model}\n")
        fn(model)
