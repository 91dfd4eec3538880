#!/usr/bin/env python3
"""Measures the crowd scenarios of models/ (scripts/gen_crowd_models.py) over seeds 1..5 and
prints the Markdown table of models/README.md ("Crowds").

    python3 scripts/measure_crowds.py build/swerve"""
import json
import os
import subprocess
import sys
import tempfile

MODELS = ["crowd_circle", "crowd_corridor", "crowd_door", "crowd_flock", "crowd_flock3d"]
SEEDS = range(1, 6)


def run(sw, model, seed, out):
    subprocess.run([sw, "run", "-q", "-s", str(seed), "-o", out, f"models/{model}.xml"],
                   check=True)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def main():
    sw = sys.argv[1] if len(sys.argv) > 1 else "build/swerve"
    print("| scenario | agents | reached (mean over seeds 1-5) | mean arrival time, s | agents that"
          " overlapped another | worst agent overlap, m | smallest obstacle clearance, m |")
    print("|---|---|---|---|---|---|---|")
    for m in MODELS:
        reached, times, overl, worst, clear, n = [], [], [], 0.0, float("inf"), 0
        for seed in SEEDS:
            with tempfile.TemporaryDirectory() as d:
                s = run(sw, m, seed, d)
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
        mt = sum(times) / len(times) if times else float("nan")
        cl = "-" if clear == float("inf") else f"{clear:.3f}"
        print(f"| {m} | {n} | {sum(reached) / len(reached):.1f} ({100 * sum(reached) / len(reached) / n:.0f}%)"
              f" | {mt:.1f} | {sum(overl) / len(overl):.1f} | {worst:.3f} | {cl} |")


if __name__ == "__main__":
    main()
