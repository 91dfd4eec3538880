#!/usr/bin/env python3
"""A SteerSuite test case shrunk to a smaller world with the same densities, run by swerve: what
happens in a case too large to run often (scenarioSpace: 5 000 walkers among 5 000 trees in
200 m x 200 m) seen in a copy of a sixteenth of its area.

    python3 scripts/steersuite_scaled.py build/swerve PATH/TO/testcases/scenarioSpace.xml \\
        [--factor 0.25] [--duration 100] [--no-squeeze] [--seed N]

The bounds of the case (every xmin, xmax, zmin, zmax: worldBounds, box obstacles, regionBounds)
are multiplied by --factor, and the counts of random obstacles and agents (numObstacles,
numAgents) by its square, so both densities stay; sizes (obstacleSize, radius) stay as they are,
and so do fixed positions and targets (<position>, <targetLocation>): meant for cases that place
everything at random, as scenarioSpace does.  The copy is imported and run by `swerve run` for
--duration simulated seconds (default: the case's own; with --no-squeeze it is imported by
`swerve import-steersuite --no-squeeze` first: stalled walkers turn aside again instead of
squeezing past as they do by default; --squeeze spells the default out); the script prints how
many walkers are done, how many are on each goal of their sequence at the end, and SteerBench's
unique collisions summed over the walkers.  --seed N (default 1, the import's) seeds the random
placements and the run: another seed is another copy of the same densities.  The copy and the
outputs live in a temporary folder that is removed afterwards; --write FILE writes the copy to
FILE instead and runs nothing."""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure_steersuite  # noqa: E402

NS = "{http://www.magix.ucla.edu/steerbench}"
BOUNDS = ("xmin", "xmax", "zmin", "zmax")


def local(tag):
    return tag.split("}", 1)[-1]


def shrink(root, f):
    for el in root.iter():
        name = local(el.tag)
        if name in BOUNDS and el.text and el.text.strip():
            el.text = f"{float(el.text) * f:g}"
        elif name in ("numObstacles", "numAgents") and el.text:
            el.text = str(round(float(el.text) * f * f))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("swerve")
    ap.add_argument("case")
    ap.add_argument("--factor", type=float, default=0.25, help="length scale (< 1 shrinks)")
    ap.add_argument("--duration", type=float, default=0.0, help="simulated seconds")
    ap.add_argument("--seed", type=int, default=1, help="seed of the placements and the run")
    ap.add_argument("--write", metavar="FILE",
                    help="only write the shrunk test case to FILE (for timing it, bench/README.md)")
    measure_steersuite.add_squeeze_options(ap)
    a = ap.parse_args()
    ET.register_namespace("", NS[1:-1])
    ET.register_namespace("xsi", "http://www.w3.org/2001/XMLSchema-instance")
    tree = ET.parse(a.case)
    shrink(tree.getroot(), a.factor)
    if a.write:
        tree.write(a.write, xml_declaration=True, encoding="UTF-8")
        return
    tmp = tempfile.mkdtemp(prefix="swerve-scaled-")
    try:
        case = os.path.join(tmp, "case.xml")
        tree.write(case, xml_declaration=True, encoding="UTF-8")
        if a.import_opt:
            imported = os.path.join(tmp, "imported.xml")
            p = subprocess.run([a.swerve, "import-steersuite", "-q", a.import_opt, "-s",
                                str(a.seed), "-o", imported, case], capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"swerve import-steersuite failed: {p.stderr.strip()}")
            case = imported
        cmd = [a.swerve, "run", "-q", "-s", str(a.seed), "-o", os.path.join(tmp, "out"), case]
        if a.duration > 0:
            cmd += ["-d", f"{a.duration:g}"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        summ = os.path.join(tmp, "out", "summary.json")
        if not os.path.exists(summ):
            sys.exit(f"swerve run failed: {p.stderr.strip()}")
        with open(summ) as fh:
            s = json.load(fh)
        agents = s["agents"]
        done = sum(1 for x in agents if x["final"]["mode"] == "done")
        goals = collections.Counter(x["target"].rsplit("_", 1)[-1] for x in agents
                                    if x["final"]["mode"] != "done")
        coll = sum(x.get("steerbench", {}).get("unique_collisions", 0) for x in agents)
        print(f"factor {a.factor:g}: {len(agents)} walkers, {s['time']:.1f} s simulated: "
              f"{done} done; not done, by current goal: "
              + ", ".join(f"{g} {n}" for g, n in sorted(goals.items()))
              + f"; SteerBench collisions {coll}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
