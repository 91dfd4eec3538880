#!/usr/bin/env python3
"""scripts/glm_whatif.py - what-if edits of a kept Flow* model of a GLM probe (docs/verification.md).

Locates what stops Flow* on the exported GLM flows by editing the Flow* model that
`swerve verify --keep DIR` leaves in DIR/flowstar-SET/flowstar.model.  The edits are NOT sound
models of the scenario in general: each replaces a non-smooth part of the law by its value along
the probe's simulated run (checked there, see docs/verification.md), which is what an exact mode
split of the export would give in the location the run stays in.

  python3 scripts/glm_whatif.py VARIANT IN.model OUT.model [--step S] [--order K] [--rem R]
      [--min-step M]

Variants (for tests/verify/pillar_aside.xml, one pillar at (4, 2), target (8, 0)):
  fixed   the input u_competition becomes P_tar P_obs with sgn(df_tar) = sgn(df_obs) = -1,
          |f_obs| = -f_obs, |f_tar| = f_tar (their signs along the run after 0.06 s), and
          |e| = -e for the pillar's bearing (e < 0 along the run)
  kink    as fixed, but |f_tar| = sqrt(f_tar^2) (exact; the run starts at f_tar = 0)
  split   as fixed, with the target bearing eT lifted into the state (eT' = heading' +
          sin(eT) / dT) and the mode split into tneg (eT <= 0: |f_tar| = -sin eT) and tpos
          (eT >= 0), jumps at eT = 0; --start tneg|tpos picks the initial mode (Flow* 2.1 has one)
  frozen  as fixed, with the weights' flows set to 0 (not the law: isolates the heading and
          bearing dynamics)
  signs   for any GLM export: sqrt(lifted_K ^ 2) -> +-lifted_K by the sign of lifted_K's initial
          interval (the bearings' |e| of a mode split on each bearing's sign at t = 0)
The settings options rewrite Flow*'s fixed step, use fixed orders K, and the remainder R;
--min-step M makes the step adaptive between M and S (Flow* 2.1 then needs fixed orders: give
--order too).
Fails (exit 1) when the model does not hold the expressions a variant edits.
"""
import argparse
import re
import sys

V = "walker_"
DIST_T = "sqrt((8.0 - walker_x) * (8.0 - walker_x) + (0.0 - walker_y) * (0.0 - walker_y))"
F_TAR = ("(-1.0 * (sin(walker_heading) * (8.0 - walker_x) - cos(walker_heading) * "
         "(0.0 - walker_y)) / " + DIST_T + ")")
WINDOW = ("(1.0 / (1.0 + exp(-8.0 / (cos(2.0 * walker_lifted_2) - cos(2.0 * walker_lifted_2 + "
          "0.8)) * (cos(walker_lifted_1) - cos(2.0 * walker_lifted_2 + 0.8)))))")
DECAY = ("exp(-(sqrt((4.0 - walker_x) * (4.0 - walker_x) + (2.0 - walker_y) * (2.0 - walker_y))"
         " - 0.3 - 0.25) / 3.0)")
F_OBS = "(walker_lifted_1 / walker_lifted_2 * exp(1.0 + walker_lifted_1 / walker_lifted_2) * %s * %s)" % (WINDOW, DECAY)


def fail(msg):
    sys.stderr.write("glm_whatif: %s\n" % msg)
    sys.exit(1)


def replace(src, old, new, count=None):
    n = src.count(old)
    if n == 0 or (count is not None and n != count):
        fail("expected %s occurrence(s) of %.60s..., found %d" % (count or "some", old, n))
    return src.replace(old, new)


def fixed(src, f_tar_abs):
    p = "exp(-2.0 * %s) * exp(2.0 * %s) * %s" % (f_tar_abs, F_OBS, WINDOW)
    src = replace(src, "[-1.0, 1.0]", "(" + p + ")", 1)
    return replace(src, "sqrt(walker_lifted_1 ^ 2.0)", "(-walker_lifted_1)")


def signs(src):
    init = src[src.index("    init"):]
    for k, lo, hi in re.findall(r"walker_lifted_(\d+) in \[([^,]+), ([^\]]+)\]", init):
        term = "sqrt(walker_lifted_%s ^ 2.0)" % k
        if term not in src:
            continue
        lo, hi = float(lo), float(hi)
        if lo > 0:
            src = src.replace(term, "(walker_lifted_%s)" % k)
        elif hi < 0:
            src = src.replace(term, "(-walker_lifted_%s)" % k)
        else:
            fail("the initial interval of lifted_%s straddles 0" % k)
    return src


def frozen(src):
    src, n = re.subn(r"(walker_w_(tar|obs))' = .*", r"\1' = 0.0", src)
    if n < 2:
        fail("no weight flows")
    return src


def split(src, start):
    head, rest = src.split("    modes\n", 1)
    head = replace(head, "walker_lifted_3\n", "walker_lifted_3, walker_eT\n", 1)
    m = re.search(r"        steer\n        \{\n            nonpoly ode\n            \{\n(.*?)"
                  r"            \}\n            inv\n            \{\n(.*?)            \}\n", rest, re.S)
    if not m:
        fail("no mode steer")
    ode = m.group(1)
    inv = " ".join(l.strip() for l in m.group(2).split("\n")
                   if l.strip() and not l.strip().startswith("#"))
    rate = [l for l in ode.split("\n") if l.strip().startswith("walker_heading' =")][0].split("=", 1)[1]
    names = re.search(r"state var (.*)", head).group(1).split(", ")

    def mode(name, sgn, cond):
        o = replace(ode, "exp(-2.0 * %s)" % F_TAR,
                    "exp(%s2.0 * sin(walker_eT))" % ("" if sgn < 0 else "-"), 1)
        o += "                walker_eT' = %s + sin(walker_eT) / %s\n" % (rate, DIST_T)
        return ("        %s\n        {\n            nonpoly ode\n            {\n%s            }\n"
                "            inv\n            {\n                %s   %s\n            }\n        }\n"
                % (name, o, inv, cond))

    resets = "\n".join("            %s' := %s" % (v, v) for v in names)
    jumps = "    jumps\n    {\n"
    for a, b, g in (("tneg", "tpos", "walker_eT >= 0.0"), ("tpos", "tneg", "walker_eT <= 0.0")):
        jumps += ("        %s -> %s\n        guard\n        {\n            %s\n        }\n"
                  "        reset\n        {\n%s\n        }\n        interval aggregation\n\n"
                  % (a, b, g, resets))
    jumps += "    }\n"
    ib = re.search(r"    init\n    \{\n        steer\n        \{\n(.*?)        \}\n", rest, re.S)
    if not ib:
        fail("no initial set in steer")
    # the target bearing at heading 0 from x, y in the initial box: atan(y / (8 - x))
    init = ("    init\n    {\n        %s\n        {\n%s            walker_eT in [-0.0063, 0.0063]\n"
            "        }\n    }\n}\n" % (start, ib.group(1)))
    unsafe = re.search(r"steer (\{.*\})", rest[rest.index("unsafe"):]).group(1)
    return (head + "    modes\n    {\n" + mode("tneg", -1, "walker_eT <= 0.0") +
            mode("tpos", 1, "walker_eT >= 0.0") + "    }\n\n" + jumps + "\n" + init +
            "\nunsafe\n{\n    tneg %s\n    tpos %s\n}\n" % (unsafe, unsafe))


def settings(src, a):
    if a.step:
        src = re.sub(r"fixed steps \S+", "fixed steps %g" % a.step, src)
    if a.order:
        src = re.sub(r"adaptive orders \{[^}]*\}|fixed orders \d+", "fixed orders %d" % a.order, src)
    if a.rem:
        src = re.sub(r"remainder estimation \S+", "remainder estimation %g" % a.rem, src)
    if a.min_step:
        src = re.sub(r"fixed steps (\S+)", lambda m: "adaptive steps { min %g , max %s }" %
                     (a.min_step, m.group(1)), src)
    return src


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("variant", choices=["fixed", "kink", "split", "frozen", "signs"])
    ap.add_argument("model_in")
    ap.add_argument("model_out")
    ap.add_argument("--step", type=float)
    ap.add_argument("--order", type=int)
    ap.add_argument("--rem", type=float)
    ap.add_argument("--min-step", type=float)
    ap.add_argument("--start", choices=["tneg", "tpos"], default="tneg")
    a = ap.parse_args()
    if a.min_step and not a.order:
        ap.error("--min-step needs --order (Flow* 2.1 takes adaptive steps with fixed orders only)")
    src = open(a.model_in).read()
    if a.variant == "signs":
        src = signs(src)
    elif a.variant == "kink":
        src = fixed(src, "sqrt(%s ^ 2.0)" % F_TAR)
    else:
        src = fixed(src, F_TAR)
        if a.variant == "frozen":
            src = frozen(src)
        elif a.variant == "split":
            src = split(src, a.start)
    open(a.model_out, "w").write(settings(src, a))


if __name__ == "__main__":
    main()
