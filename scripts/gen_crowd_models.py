#!/usr/bin/env python3
"""Writes the crowd scenarios of models/ (the crowd issue's scenario list).

    python3 scripts/gen_crowd_models.py            # models/crowd_circle.xml, crowd_corridor.xml,
                                                   # crowd_door.xml, crowd_flock.xml,
                                                   # crowd_flock3d.xml
    python3 scripts/gen_crowd_models.py --large    # also models/crowd_100k.xml (10^5 agents,
                                                   # about 20 MB; not kept in the repository)

Every scenario is plain swerve XML (docs/scenario-format.md); this script only spares writing
hundreds of <agent> lines by hand.  The GLM settings for dense crowds (d0 = 0.5 m, d1 = 0.2 m,
t2c = 0.5 s) are explained in models/README.md ("Crowds")."""
import math
import random
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "models")
CROWD_GLM = '<glm d0="0.5" d1="0.2" t2c="0.5"/>'
# How an agent walks to its target, by name: the recommended pedestrian behaviour
# (automata/pedestrian.xml) or a plain law.  Each entry: (step in s, agent attributes and
# children for target T).  The time-to-collision law needs steps of about 0.01 s to keep agents
# apart (docs/models.md); GLM runs at 0.1 s.
WALKERS = {
    "pedestrian": (0.01, lambda t: f'behaviour="pedestrian"><bind param="goal" value="{t}"/>'),
    "glm": (0.1, lambda t: f'target="{t}">{CROWD_GLM[:-2]} field="auto"/>'),
    "ttc": (0.01, lambda t: f'target="{t}"><ttc field="auto"/>'),
    # Social force: its body force is stiff (k / m = 1500 s^-2) and its heading turns fast at low
    # speed; at 0.01 s the circle's crush overlaps by 0.38 m, at 0.002 s by 5 cm (docs/models.md).
    "sf": (0.002, lambda t: f'target="{t}"><sf field="auto"/>'),
    # Collision-free speed model: first order; its speed law keeps the spacing ahead positive at
    # any step below the time gap; 0.01 s as JuPedSim runs it.
    "csm": (0.01, lambda t: f'target="{t}"><csm field="auto"/>'),
    "csm-fit": (0.01, lambda t: f'target="{t}"><csm time-gap="0.5" field="auto"/>'),
}
# Measured figures written into a circle model's header (command and result; docs/models.md).
CIRCLE_NOTES = {
    "sf": ("\n     Measured (swerve run -j 2 models/crowd_circle_sf.xml -o out/sf; summary.json): 167"
           " of 200\n     agents reached their target within 120 s (mean arrival 36.0 s, last"
           " 61.5 s); worst\n     agent-agent overlap 0.052 m.  31 of the 33 others stand still"
           " 0.18 m in front of an\n     agent that has arrived and stays on its target (the force"
           " balance A exp(-c/B) = m v0 / tau)."),
}
AUTOMATA = os.path.join(HERE, "..", "automata")


def uses(walker, outdir):
    """The <behaviours> block a walker needs (after <run>), for a file written to outdir."""
    if walker != "pedestrian":
        return ""
    rel = os.path.relpath(os.path.join(AUTOMATA, "pedestrian.xml"), outdir)
    return f'  <behaviours>\n    <use file="{rel}"/>\n  </behaviours>\n'


def model_name(base, walker):
    """crowd_circle.xml walks with the pedestrian behaviour, crowd_circle_glm.xml with GLM..."""
    return f"{base}.xml" if walker == "pedestrian" else f"{base}_{walker}.xml"


def rings(n, r0=5.0, spacing=1.0):
    """n points on concentric rings from radius r0, `spacing` apart radially and along rings."""
    pts, r = [], r0
    while len(pts) < n:
        k = min(int(2 * math.pi * r / spacing), n - len(pts))
        pts += [(r, 2 * math.pi * j / k + 0.5 * r) for j in range(k)]
        r += spacing
    return pts


def write(name, head, body, outdir=MODELS):
    path = os.path.join(outdir, name)
    with open(path, "w") as f:
        f.write(head)
        f.write(body)
        f.write("</scenario>\n")
    if outdir == MODELS:
        print("wrote", os.path.relpath(path))


def agent(name, x, y, heading, walker, target, perception, arrive=None):
    """One <agent> line: radius 0.2 m, walking to `target` as `walker` says; `arrive`: the
    pedestrian's arrival radius when it is not the behaviour's default (0.3 m)."""
    extra = (f'<bind param="radius" value="{arrive:g}"/>'
             if arrive is not None and walker == "pedestrian" else "")
    return (f'  <agent name="{name}" x="{x:.4f}" y="{y:.4f}" heading="{heading:.5f}" '
            f'radius="0.2" perception="{perception}" {WALKERS[walker][1](target)}{extra}'
            f'</agent>\n')


def run_line(duration, walker, outdir, sample=0.5, leave=False):
    """The run ends when every agent has arrived (stop-when-done); with `leave`, arrived agents
    leave the world."""
    done = (' leave-when-done="true"' if leave else "") + ' stop-when-done="true"'
    return (f'  <run duration="{duration:.0f}" step="{WALKERS[walker][0]}" sample="{sample}" '
            f'seed="1"{done}/>\n{uses(walker, outdir)}')


def circle(walker="pedestrian", outdir=MODELS, n=200, name=None):
    """n agents on concentric rings from radius 5 m, 1 m apart, each to its antipode."""
    pts = rings(n)
    rmax = max(r for r, _ in pts)
    name = name or model_name("crowd_circle", walker)
    head = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- models/{name} - {n} agents swap places across concentric rings ({walker}).
     Generated by scripts/gen_crowd_models.py; see models/README.md ("Crowds").{CIRCLE_NOTES.get(walker, "")} -->
<scenario name="{name[:-4]}">
  <description>Circle swap: {n} agents on concentric rings 1 m apart walk to the antipode of
    their start on their own ring.</description>
{run_line(max(120, 4 * rmax + 20), walker, outdir)}  <world>
"""
    t = "".join(f'    <target name="t{i}" x="{-r * math.cos(a):.4f}" y="{-r * math.sin(a):.4f}" '
                f'radius="0.3"/>\n' for i, (r, a) in enumerate(pts))
    a = "".join(agent(f"a{i}", r * math.cos(a), r * math.sin(a), a + math.pi, walker, f"t{i}",
                      1.55) for i, (r, a) in enumerate(pts))
    write(name, head, t + "  </world>\n" + a, outdir)


def ring(walker="pedestrian", outdir=MODELS, n=250, radius=50.0):
    """The classic single ring: n agents evenly on a circle, each to its antipode."""
    name = model_name("crowd_ring", walker)
    head = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- models/{name} - the classic circle swap: {n} agents evenly spaced on a circle of radius
     {radius:g} m walk to the antipode of their start ({walker}).
     Generated by scripts/gen_crowd_models.py; see models/README.md ("Crowds"). -->
<scenario name="{name[:-4]}">
  <description>{n} agents on a circle of radius {radius:g} m walk to their antipodes.</description>
{run_line(4 * radius, walker, outdir, 1)}  <world>
"""
    ang = [2 * math.pi * i / n for i in range(n)]
    t = "".join(f'    <target name="t{i}" x="{-radius * math.cos(a):.4f}" '
                f'y="{-radius * math.sin(a):.4f}" radius="0.3"/>\n' for i, a in enumerate(ang))
    a = "".join(agent(f"a{i}", radius * math.cos(a), radius * math.sin(a), a + math.pi, walker,
                      f"t{i}", 3) for i, a in enumerate(ang))
    write(name, head, t + "  </world>\n" + a, outdir)


def corridor(walker="pedestrian", outdir=MODELS):
    """Two groups of 30 cross a corridor 30 m long and 6 m wide from opposite ends."""
    name = model_name("crowd_corridor", walker)
    head = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- models/{name} - two groups cross in a corridor ({walker}).
     30 agents start at the west end in a 6 x 5 block heading east, 30 at the east end heading
     west; each walks to its own point 31 m ahead, beyond the far end of the corridor (the
     block keeps its formation; walls 30 m long, 6 m apart) and leaves the world there.  Generated by
     scripts/gen_crowd_models.py; see models/README.md ("Crowds"). -->
<scenario name="{name[:-4]}">
  <description>Two groups of 30 walk through a 6 m corridor in opposite directions.</description>
{run_line(90, walker, outdir, leave=True)}  <world>
    <segment name="north" x1="0" y1="3" x2="30" y2="3"/>
    <segment name="south" x1="0" y1="-3" x2="30" y2="-3"/>
"""
    t, a = "", ""
    for g, (x0, dx, head_rad) in enumerate([(1.0, 1.0, 0.0), (29.0, -1.0, math.pi)]):
        for k in range(30):
            col, row = divmod(k, 6)
            x, y = x0 + dx * col * 0.9, -2.25 + row * 0.9
            nm = f"{'ew'[g]}{k:02d}"
            t += f'    <target name="goal-{nm}" x="{x + 31 * dx:.2f}" y="{y:.2f}" radius="0.4"/>\n'
            a += agent(nm, x, y, head_rad, walker, f"goal-{nm}", 2, arrive=0.4)
    write(name, head, t + "  </world>\n" + a, outdir)


def plaza(walker="pedestrian", outdir=MODELS, per_group=50):
    """Four groups cross a 20 m square plaza, each to the opposite side."""
    name = model_name("crowd_plaza", walker)
    head = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- models/{name} - four groups of {per_group} cross a plaza ({walker}).
     The groups start in 10 x 5 blocks (0.9 m apart) outside the four sides of a 20 m x 20 m
     plaza centred on the origin and each agent walks to the mirror point of its start on the
     far side.  Generated by scripts/gen_crowd_models.py; see models/README.md ("Crowds"). -->
<scenario name="{name[:-4]}">
  <description>Four groups of {per_group} cross a 20 m plaza from its four sides.</description>
{run_line(120, walker, outdir)}  <world>
"""
    t, a = "", ""
    for g, deg in enumerate((0, 90, 180, 270)):
        c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
        for k in range(per_group):
            row, col = divmod(k, 10)
            u, v = -10.0 - 0.45 - 0.9 * row, -4.05 + 0.9 * col   # west group, then rotated
            x, y = c * u - s * v, s * u + c * v
            nm = f"{'wsen'[g]}{k:02d}"
            t += f'    <target name="goal-{nm}" x="{-x:.4f}" y="{-y:.4f}" radius="0.3"/>\n'
            a += agent(nm, x, y, math.radians(deg), walker, f"goal-{nm}", 2)
    write(name, head, t + "  </world>\n" + a, outdir)


def door(walker="pedestrian", outdir=MODELS):
    """40 agents leave a 10 m x 10 m room through a 1.6 m door in its east wall."""
    name = model_name("crowd_door", walker)
    head = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- models/{name} - a room empties through one door ({walker}).
     40 agents stand in a 10 m x 10 m room (x 0..10, y -5..5) whose only door, 1.6 m wide, is
     in the middle of the east wall; all walk to the exit, a disc of radius 1.5 m centred 4 m
     east of the door, and leave the world there (leave-when-done; the run stops when all have
     left).  The navigation field `nav` leads to the exit round the walls (laws with
     field="auto" follow it while the exit is out of sight).  Generated by
     scripts/gen_crowd_models.py; see models/README.md ("Crowds"). -->
<scenario name="{name[:-4]}">
  <description>40 agents leave a room through a 1.6 m door.</description>
{run_line(120, walker, outdir, leave=True)}  <world>
    <polygon name="room" closed="false">
      <vertex x="10" y="0.8"/>
      <vertex x="10" y="5"/>
      <vertex x="0" y="5"/>
      <vertex x="0" y="-5"/>
      <vertex x="10" y="-5"/>
      <vertex x="10" y="-0.8"/>
    </polygon>
    <target name="exit" x="14" y="0" radius="1.5"/>
    <navfield name="nav" target="exit" resolution="0.1"/>
"""
    a = ""
    for k in range(40):
        col, row = divmod(k, 8)
        x, y = 1.5 + col * 1.6, -3.85 + row * 1.1
        a += agent(f"p{k:02d}", x, y, 0.0, walker, "exit", 2, arrive=1.5)
    write(name, head, "  </world>\n" + a, outdir)


def fd_corridor(walker="pedestrian", outdir=MODELS, rho=2.0, length=20.0, width=4.0,
                duration=40.0, seed=1, step=None, name=None):
    """A periodic corridor (<world periodic-x>) `length` x `width` m at density rho per m^2, all
    walking east; the fundamental-diagram scene of scripts/measure_fd.py.  Returns the number of
    agents."""
    rng = random.Random(seed)
    n = int(round(rho * length * width))
    # A grid of n cells over the strip (margin 0.25 m from the walls), jittered in its cells.
    inner = width - 0.5
    rows = max(1, int(round(math.sqrt(n * inner / length))))
    cols = math.ceil(n / rows)
    gx, gy = length / cols, inner / rows
    # Jitter that keeps every start clear of the others (discs of 0.2 m, 1 cm to spare).
    jx, jy = max(0.0, min(0.15 * gx, (gx - 0.41) / 2)), max(0.0, min(0.15 * gy, (gy - 0.41) / 2))
    lines = []
    for k in range(n):
        c, r = divmod(k, rows)
        x = (c + 0.5) * gx + rng.uniform(-jx, jx)
        y = 0.25 + (r + 0.5) * gy + rng.uniform(-jy, jy)
        lines.append(agent(f"p{k:03d}", x % length, y, 0.0, walker, "east", 2))
    name = name or model_name("crowd_fd", walker)
    head = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- models/{name} - a crowd walks round a ring corridor at a fixed density ({walker}).
     A corridor {length:g} m x {width:g} m whose ends are joined (periodic-x): {n} agents
     ({rho:g} per m^2) walk east towards a target 10^6 m away, so the density stays the same
     for the whole run.  Generated by scripts/gen_crowd_models.py; scripts/measure_fd.py
     measures the mean speed at each density against Weidmann; see models/README.md
     ("Fundamental diagram"). -->
<scenario name="{name[:-4]}">
  <run duration="{duration:g}" step="{step or WALKERS[walker][0]}" sample="0.5" seed="{seed}"/>
{uses(walker, outdir)}  <world periodic-x="{length:g}">
    <segment name="north" x1="0" y1="{width:g}" x2="{length:g}" y2="{width:g}"/>
    <segment name="south" x1="0" y1="0" x2="{length:g}" y2="0"/>
    <target name="east" x="1000000" y="{width / 2:g}" radius="1"/>
  </world>
"""
    write(name, head, "".join(lines), outdir)
    return n


PEDESTRIAN_SCENES = {"crowd_circle": circle, "crowd_ring": ring, "crowd_corridor": corridor,
                     "crowd_plaza": plaza, "crowd_door": door}


def flock():
    # A 2-D flock with cohesion and alignment flying round pillars to a shared target.
    head = """<?xml version="1.0" encoding="UTF-8"?>
<!-- models/crowd_flock.xml - a flock with cohesion and alignment passes pillars.
     60 agents start in a loose 10 x 6 block with scattered headings and fly to one shared
     target 60 m east, past a row of pillars; GLM with neighbours as repellers, cohesion 0.3 and
     alignment 0.6 (steering-models.md section 6), personality drawn per agent (agility and
     courage vary).  Generated by scripts/gen_crowd_models.py; see models/README.md. -->
<scenario name="crowd_flock">
  <description>A flock of 60 with cohesion and alignment flies past pillars to a shared
    target.</description>
  <run duration="120" step="0.1" sample="0.5" seed="3"/>
  <world>
    <target name="roost" x="60" y="0" radius="3"/>
"""
    w = "".join(f'    <disc name="pillar{k}" x="{25 + 4 * k}" y="{(-1) ** k * 2.5:.1f}" '
                f'radius="0.8"/>\n' for k in range(5))
    a = ""
    for k in range(60):
        col, row = divmod(k, 6)
        x, y = -10 + col * 1.2 + 0.3 * (row % 2), -3.0 + row * 1.2
        h = (k * 137.5) % 90 - 45
        ag = 0.3 + 0.6 * ((k * 0.618) % 1.0)
        co = 0.2 + 0.6 * ((k * 0.414) % 1.0)
        a += (f'  <agent name="b{k:02d}" x="{x:.2f}" y="{y:.2f}" heading="{h:.1f}deg" '
              f'radius="0.2" perception="3" target="roost" stop-at-target="false">'
              f'<glm d0="0.5" d1="0.2" t2c="0.5" cohesion="0.3" alignment="0.6"/>'
              f'<personality agility="{ag:.2f}" courage="{co:.2f}"/></agent>\n')
    write("crowd_flock.xml", head, w + "  </world>\n" + a)


def flock3d():
    # A 3-D flock of 500 (steering-models.md section 1.5) past vertical pillars to a roost.
    head = """<?xml version="1.0" encoding="UTF-8"?>
<!-- models/crowd_flock3d.xml - a 3-D flock of 500 flies round pillars to a roost.
     500 agents (spheres of radius 0.2 m) start in a 10 x 10 x 5 block 1.2 m apart, 4 to 8.8 m up,
     with scattered headings (azimuth within 30 degrees of east, pitch within 10 degrees), and
     fly to one roost 70 m east and 14 m up, through a field of twelve vertical pillars (infinite
     cylinders); GLM in 3-D with neighbours as repellers inside a 3 m perception sphere, cohesion
     0.3 and alignment 0.6, agility and courage drawn per agent (uniform and normal
     distributions).  Generated by scripts/gen_crowd_models.py; see models/README.md and
     docs/crowds.md ("Three dimensions"). -->
<scenario name="crowd_flock3d">
  <description>A 3-D flock of 500 with cohesion and alignment flies round pillars to a
    roost.</description>
  <run duration="90" step="0.1" sample="1" seed="3"/>
  <world dimensions="3">
    <target name="roost" x="50" y="0" z="12" radius="4"/>
"""
    w = ""
    for k in range(12):
        col, row = divmod(k, 4)
        x, y = 8 + 8 * col + 4 * (row % 2), -9 + 6 * row
        w += f'    <disc name="pillar{k:02d}" x="{x}" y="{y}" radius="1"/>\n'
    a = ('  <group>\n    <glm d0="0.5" d1="0.2" t2c="0.5" cohesion="0.3" alignment="0.6"/>\n'
         '    <personality agility="uniform(0.3, 0.9)"/>\n')
    for k in range(500):
        layer, rest = divmod(k, 100)
        col, row = divmod(rest, 10)
        x, y, z = -20 + col * 1.2 + 0.3 * (row % 2), -5.4 + row * 1.2, 4 + layer * 1.2
        h = (k * 137.5) % 60 - 30
        p = (k * 61.8) % 20 - 10
        a += (f'    <agent name="b{k:03d}" x="{x:.2f}" y="{y:.2f}" z="{z:.2f}" heading="{h:.1f}deg" '
              f'pitch="{p:.1f}deg" radius="0.2" perception="3" target="roost" '
              f'stop-at-target="false"/>\n')
    a += "  </group>\n"
    write("crowd_flock3d.xml", head, w + "  </world>\n" + a)


def main():
    for scene in PEDESTRIAN_SCENES.values():
        scene("pedestrian")
    circle("glm")   # the GLM circle swap of docs/crowds.md's timings
    circle("ttc")   # the plain time-to-collision law (docs/models.md)
    circle("sf")    # the plain social force law (docs/models.md)
    fd_corridor()   # the fundamental diagram's corridor at 2 per m^2 (periodic)
    flock()
    flock3d()
    if "--large" in sys.argv:
        circle("glm", n=100000, name="crowd_100k.xml")


if __name__ == "__main__":
    main()
