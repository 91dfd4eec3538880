#!/usr/bin/env python3
"""Runs every SteerSuite test case under a folder (SteerSuite's public `testcases/`, from a copy
of its repository; nothing of it is kept in this project) and prints the Markdown table of
docs/steersuite.md: accepted, agents done, collisions, composite01 and wall time per case, then
the totals and the 25 everyday cases.

    python3 scripts/measure_steersuite.py build/swerve PATH/TO/testcases [-j 2] [--timeout 600]
        [--everyday] [--only CASE,CASE] [--skip CASE,CASE] [--max-agents N]
        [--runs DIR [--checkpoint-every T]] [--sample T] [--threads N] [--squeeze | --no-squeeze]

A case is *finished* when every agent ends in the generated automaton's `done` mode (its goal
sequence completed; `expired` means the last goal's time budget ran out first).  The agent of an
`<agentEmitter>` (its summary's `final.vars` has `emitted`) is never done: it starts again at the
emitter whenever it finishes, so it is counted apart, with the agents it emitted, and does not
keep its case from finishing.  Collisions are
SteerBench's unique collisions summed over the agents.  Each run writes into a temporary folder
that is removed afterwards.

Cases too long for one sitting (scenarioSpace: 5 000 agents among 5 000 boxes, hours of CPU):
`--runs DIR` keeps each case's outputs in DIR/CASE and has `swerve run` write a checkpoint every
`--checkpoint-every` simulated seconds there.  Run the same command again after an interruption
(or a wall-time limit) and each case resumes from its checkpoint (`swerve run --resume`: the
outputs are those of an uninterrupted run), a case already finished in DIR is read back instead
of run again, and the wall times of the sittings add up (DIR/CASE/wall.txt).  `--sample T`
writes a trajectory row every T seconds instead of every step (summary and events unchanged);
with 5 000 agents at the 0.01 s step the trajectory grows by about 38 MB per simulated second.
`--threads N` steps each case on N threads (outputs identical for every N).  `--no-squeeze`
imports each case with `swerve import-steersuite --no-squeeze` (walkers stalled by others again
after a detour turn aside again instead of squeezing past them as they do by default) and runs
the imported scenario; `--squeeze` does the same with the default spelled out (the same outputs
as a plain run of the case).  `--max-agents N` keeps the cases that place at most N agents
(each `<agent>`, the `numAgents` of each `<agentRegion>`, one per `<agentEmitter>`):
`--max-agents 12` runs the cases of issue 19's no-collision target."""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# The everyday cases of issue 19 (the 20 it names and five more of the same kind).
EVERYDAY = ["EXAMPLE", "simple-1", "polygons1", "maze", "forest", "hallway-twoway-2", "curve1",
            "oncoming-obstacle", "crossing-trick", "overtake-obstacle", "doorway-two-way",
            "fan-in", "frogger", "surprise-2", "wall-squeeze", "oncoming-groups",
            "bottleneck-evacuation", "plane_egress", "urban", "circle-20", "doorway-one-way",
            "hallway-one-way", "hallway-two-way", "crossing-1", "simple-obstacle-1"]


def cases(root):
    out = []
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".xml"):
                out.append(os.path.join(d, f))
    return sorted(out, key=lambda p: os.path.relpath(p, root))


def agents_placed(path):
    """Agents a case places: its <agent>s, its regions' numAgents, one per <agentEmitter>.  Read
    from the text (comments left out), not parsed: SteerSuite's reader accepts files that an
    XML parser refuses (a declaration after a comment)."""
    with open(path, errors="replace") as f:
        text = re.sub(r"<!--.*?-->", "", f.read(), flags=re.S)
    n = len(re.findall(r"<(?:\w+:)?(?:agent|agentEmitter)[\s>]", text))
    return n + sum(int(float(k)) for k in re.findall(r"<(?:\w+:)?numAgents>\s*([0-9.]+)", text))


def first_error(text):
    for line in text.splitlines():
        if ": error: " in line or line.startswith("swerve"):
            return line.split(": error: ", 1)[-1].strip()
    return text.strip().splitlines()[0] if text.strip() else ""


def run_case(sw, path, timeout, keep=None, every=0.0, sample=0.0, threads=1, import_opt=None):
    tmp = None if keep else tempfile.mkdtemp(prefix="swerve-ss-")
    try:
        out = keep or os.path.join(tmp, "out")
        summ = os.path.join(out, "summary.json")
        ckpt = os.path.join(out, "checkpoint.swck")
        wall_file = os.path.join(out, "wall.txt") if keep else None
        before = 0.0
        if wall_file and os.path.exists(wall_file):
            with open(wall_file) as f:
                before = float(f.read())
        if not (keep and os.path.exists(summ) and not os.path.exists(ckpt)):
            if import_opt:  # imported with the option, then the imported scenario is run
                os.makedirs(out, exist_ok=True)
                # one file per option: a folder kept with --runs is not resumed from the
                # other import's scenario
                imported = os.path.join(out, "imported.xml" if import_opt == "--squeeze"
                                        else "imported-no-squeeze.xml")
                if not os.path.exists(imported):
                    p = subprocess.run([sw, "import-steersuite", "-q", import_opt, "-o",
                                        imported, path], capture_output=True, text=True)
                    if p.returncode != 0:
                        return {"status": "refused", "code": p.returncode,
                                "why": first_error(p.stderr), "wall": before}
                path = imported
            cmd = [sw, "run", "-j", str(threads), "-o", out, path]
            if sample > 0:
                cmd += ["--sample", f"{sample:g}"]
            if keep and every > 0:
                cmd += ["--checkpoint-every", f"{every:g}"]
                if os.path.exists(ckpt):
                    cmd.append("--resume")
            t0 = time.monotonic()
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                p = None
            wall = before + time.monotonic() - t0
            if wall_file:
                os.makedirs(out, exist_ok=True)
                with open(wall_file, "w") as f:
                    f.write(f"{wall:.1f}\n")
            if p is None:
                return {"status": "timeout", "wall": wall}
            if not os.path.exists(summ):
                return {"status": "refused", "code": p.returncode, "why": first_error(p.stderr),
                        "wall": wall}
        else:
            wall = before
        with open(summ) as f:
            s = json.load(f)
        agents = s["agents"]
        # an emitter's agent is never done (it starts again): counted apart, with its emissions
        emitters = [a for a in agents if "emitted" in a["final"].get("vars", {})]
        walkers = [a for a in agents if "emitted" not in a["final"].get("vars", {})]
        done = sum(1 for a in walkers if a["final"]["mode"] == "done")
        coll = sum(a.get("steerbench", {}).get("unique_collisions", 0) for a in agents)
        return {"status": s["status"], "error": s.get("error", ""), "n": len(walkers),
                "done": done, "collisions": coll, "time": s["time"],
                "emitters": len(emitters),
                "emitted": sum(int(a["final"]["vars"]["emitted"]) for a in emitters),
                "composite": s.get("steerbench", {}).get("composite01"), "wall": wall}
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def add_squeeze_options(ap):
    """--squeeze | --no-squeeze into a.import_opt: the `swerve import-steersuite` option to import
    with before running (None: run the test case itself, squeezing as the default does)."""
    sq = ap.add_mutually_exclusive_group()
    sq.add_argument("--squeeze", dest="import_opt", action="store_const", const="--squeeze",
                    help="import with `swerve import-steersuite --squeeze` (the default: walkers "
                    "stalled again after a detour squeeze past others) and run that")
    sq.add_argument("--no-squeeze", dest="import_opt", action="store_const",
                    const="--no-squeeze", help="import with `swerve import-steersuite "
                    "--no-squeeze` (stalled walkers turn aside again) and run that")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("swerve")
    ap.add_argument("testcases")
    ap.add_argument("-j", type=int, default=2, help="cases run at once")
    ap.add_argument("--timeout", type=float, default=None,
                    help="wall-time limit per case, s (default: none; with --runs a case stopped "
                         "by it resumes from its checkpoint at the next run)")
    ap.add_argument("--everyday", action="store_true", help="only the 25 everyday cases")
    ap.add_argument("--only", default="", help="only these cases (comma-separated names, "
                    "relative to TESTCASES, without .xml)")
    ap.add_argument("--skip", default="", help="not these cases (as --only)")
    ap.add_argument("--runs", default="", help="keep each case's outputs in RUNS/CASE and "
                    "resume interrupted cases from their checkpoints (module docstring)")
    ap.add_argument("--checkpoint-every", type=float, default=10.0,
                    help="with --runs: simulated seconds between checkpoints")
    ap.add_argument("--sample", type=float, default=0.0,
                    help="trajectory row interval, s (default: the case's, every step)")
    ap.add_argument("--threads", type=int, default=1, help="threads stepping each case")
    add_squeeze_options(ap)
    ap.add_argument("--max-agents", type=int, default=0,
                    help="only the cases that place at most this many agents")
    a = ap.parse_args()
    paths = cases(a.testcases)
    if a.everyday:
        paths = [p for p in paths if os.path.basename(p)[:-4] in EVERYDAY]
    rel = lambda p: os.path.relpath(p, a.testcases)[:-4]
    if a.only:
        paths = [p for p in paths if rel(p) in a.only.split(",")]
    if a.skip:
        paths = [p for p in paths if rel(p) not in a.skip.split(",")]
    if a.max_agents > 0:
        paths = [p for p in paths if agents_placed(p) <= a.max_agents]
    # A private copy of the binary: a rebuild during the (long) measurement must not change it.
    bindir = tempfile.mkdtemp(prefix="swerve-ss-bin-")
    sw = os.path.join(bindir, "swerve")
    shutil.copy2(a.swerve, sw)

    def one(p):
        keep = os.path.join(a.runs, rel(p)) if a.runs else None
        r = run_case(sw, p, a.timeout, keep, a.checkpoint_every, a.sample, a.threads,
                     a.import_opt)
        print(f"{os.path.relpath(p, a.testcases)}: {r['status']} {r.get('done', '')}/"
              f"{r.get('n', '')} {r['wall']:.1f} s", file=sys.stderr, flush=True)
        return r
    try:
        # the largest files (most agents and obstacles, the longest runs) start first
        order = sorted(paths, key=lambda p: -os.path.getsize(p))
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
            done = dict(zip(order, ex.map(one, order)))
        res = [done[p] for p in paths]
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
    print("| case | accepted | agents done | finished | collisions | composite01 | simulated, s |"
          " wall, s |")
    print("|---|---|---|---|---|---|---|---|")
    tot_n = tot_done = acc = fin = numeric = 0
    every, timeouts = {}, []
    for p, r in zip(paths, res):
        name = os.path.relpath(p, a.testcases)[:-4]
        if r["status"] == "timeout":  # loaded and running, stopped by the wall-time limit
            acc += 1
            every[os.path.basename(name)] = False
            timeouts.append(name)
            print(f"| {name} | yes | stopped at the {a.timeout:g} s wall-time limit | no |"
                  f" | | | {r['wall']:.1f} |")
            continue
        if r["status"] == "refused":
            why = r.get("why", "").replace("|", "\\|")
            print(f"| {name} | no: {why} | | | | | | {r['wall']:.1f} |")
            continue
        acc += 1
        tot_n += r["n"]
        tot_done += r["done"]
        finished = r["done"] == r["n"]
        fin += finished
        if r["status"] != "complete":
            numeric += 1
        every[os.path.basename(name)] = finished
        comp = "" if r["composite"] is None else f"{r['composite']:.1f}"
        status = "yes" if r["status"] == "complete" else "failed: " + r["error"][:80]
        cell = f"{r['done']}/{r['n']}"
        if r["emitters"]:  # they run to the time limit, emitting agents as theirs finish
            cell += (f" + {r['emitters']} emitter{'s' if r['emitters'] > 1 else ''}"
                     f" ({r['emitted']} agents emitted)")
        print(f"| {name} | {status} | {cell} | {'yes' if finished else 'no'} |"
              f" {r['collisions']} | {comp} | {r['time']:.1f} | {r['wall']:.1f} |")
    print()
    print(f"Cases: {len(paths)}; accepted {acc}; runs that failed {numeric}; finished {fin}.")
    pct = 100.0 * tot_done / tot_n if tot_n else 0.0
    print(f"Agents done over the accepted cases that ran to their end: {tot_done} of {tot_n} "
          f"({pct:.1f} %); {len(timeouts)} cases stopped at the wall-time limit (their agents "
          f"not counted).")
    ev = [c for c in EVERYDAY if c in every]
    print(f"Everyday cases finished: {sum(every[c] for c in ev)} of {len(ev)} "
          f"(not finished: {', '.join(c for c in ev if not every[c]) or 'none'}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
