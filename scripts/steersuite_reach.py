#!/usr/bin/env python3
"""Which agents of SteerSuite test cases cannot finish by construction: imports each case with
`swerve import-steersuite` and, for every agent whose goals are static targets, compares each
goal's straight-line distance (from the agent's start or the previous target, less the reach
tolerance of the goal's `reached` guard) with what its desired speed covers in the goal's time
budget.  An agent with a goal farther than that cannot complete its goal sequence at its desired
speed, whatever the steering: docs/steersuite.md counts such agents apart.

    python3 scripts/steersuite_reach.py build/swerve PATH/TO/testcases/CASE.xml...

Goals that are not static targets (boxes, chases, flows, idling) count as reachable."""
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

LAWS = ("ttc", "glm", "csm", "sf", "fw", "pf")


def goals(automaton):
    """Per goal index k: (v_pref, budget, reach) of mode goal<k>, or None when not a target."""
    out = {}
    for m in automaton.iter("mode"):
        g = re.fullmatch(r"goal(\d+)", m.get("name", ""))
        if not g:
            continue
        law = next((c for c in m if c.tag in LAWS), None)
        budget = reach = None
        for tr in m.iter("transition"):
            guard = tr.get("guard", "")
            b = re.fullmatch(r"c ge ([0-9.eE+-]+)", guard)
            r = re.fullmatch(r"dist\(g\d+\) le ([0-9.eE+-]+)", guard)
            budget = float(b.group(1)) if b else budget
            reach = float(r.group(1)) if r else reach
        if law is not None and law.get("v-pref") and budget is not None and reach is not None:
            out[int(g.group(1))] = (float(law.get("v-pref")), budget, reach)
    return out


def unreachable(sw, path):
    """(agents, agents with a goal beyond their desired speed times its budget)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "case.xml")
        subprocess.run([sw, "import-steersuite", path, "-o", out], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        root = ET.parse(out).getroot()
    targets = {t.get("name"): (float(t.get("x")), float(t.get("y"))) for t in root.iter("target")}
    auts = {a.get("name"): goals(a) for a in root.iter("automaton")}
    n = bad = 0
    for a in root.iter("agent"):
        n += 1
        gs = auts.get(a.get("behaviour"), {})
        binds = {b.get("param"): b.get("value") for b in a.iter("bind")}
        at = (float(a.get("x")), float(a.get("y")))
        for k in sorted(gs):
            q = targets.get(binds.get(f"g{k}"))
            if q is None:
                break  # not a static target: no bound from here on
            v, budget, reach = gs[k]
            if math.dist(at, q) - reach > v * budget:
                bad += 1
                break
            at = q
    return n, bad


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    for path in sys.argv[2:]:
        n, bad = unreachable(sys.argv[1], path)
        print(f"{os.path.basename(path)[:-4]}: {n} agents, {bad} cannot finish at their "
              f"desired speed within their goals' budgets")


if __name__ == "__main__":
    main()
