#!/usr/bin/env python3
"""scripts/glm_whatif.py - what-if edits of a kept Flow* model of a GLM probe (docs/verification.md).

Locates what stops Flow* on the exported GLM flows by editing the Flow* model that
`swerve verify --keep DIR` leaves in DIR/flowstar-SET/flowstar.model.  The edits are NOT sound
models of the scenario in general: each replaces a non-smooth part of the law by its value along
the probe's simulated run (checked there, see docs/verification.md), which is what an exact mode
split of the export would give in the location the run stays in.

  python3 scripts/glm_whatif.py VARIANT IN.model OUT.model [--step S] [--order K] [--rem R]
      [--rem-var VAR=R]... [--qr] [--shrink F] [--min-step M]

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
  window  as fixed, with lw = cos e - cos(2 dpsi + delta) (the window's argument, e the pillar's
          bearing lifted_1, dpsi its half-width lifted_2) lifted into the state and the mode
          split into win (lw >= 0: W = 1 / (1 + exp(z)), z = -2 h1 lw <= 0) and wout (lw <= 0:
          W = exp(-z) / (1 + exp(-z))), jumps at lw = 0: W exact on both sides, its exponential
          at most 1 (1 / (1 + exp(z)) alone divides by a wide range where z is large);
          starts in win
  signs   for any GLM export: sqrt(lifted_K ^ 2) -> +-lifted_K by the sign of lifted_K's initial
          interval (the bearings' |e| of a mode split on each bearing's sign at t = 0)
The settings options rewrite Flow*'s fixed step, use fixed orders K, and the remainder R;
--min-step M makes the step adaptive between M and S (Flow* 2.1 then needs fixed orders: give
--order too).  --rem-var VAR=R gives state variable VAR (walker_ omitted) its own remainder
estimate [-R, R], the others keep R of --rem (or the model's): a way to probe which variable's
remainder stops Flow*.  --qr asks for QR preconditioning
instead of the identity.  --shrink F scales every interval of the initial set by F about its
midpoint (F = 0: the centre alone), to see what the set's width does.
Fails (exit 1) when the model does not hold the expressions a variant edits.
"""
import argparse
import math
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


def two_modes(src, var, modes, init_range, start):
    """Mode steer split in two by the sign of a new state variable: var = (VAR, flow), the
    variable walker_VAR and flow(ode) its derivative built from a mode's edited flows;
    modes = ((name, edit, sign), ...), edit(ode) the flows in that mode, sign -1 for VAR <= 0
    and 1 for VAR >= 0; jumps (identity) at VAR = 0; the initial set in mode `start` with VAR
    in init_range."""
    head, rest = src.split("    modes\n", 1)
    head = replace(head, "walker_lifted_3\n", "walker_lifted_3, walker_%s\n" % var[0], 1)
    m = re.search(r"        steer\n        \{\n            nonpoly ode\n            \{\n(.*?)"
                  r"            \}\n            inv\n            \{\n(.*?)            \}\n", rest, re.S)
    if not m:
        fail("no mode steer")
    ode = m.group(1)
    inv = " ".join(l.strip() for l in m.group(2).split("\n")
                   if l.strip() and not l.strip().startswith("#"))
    names = re.search(r"state var (.*)", head).group(1).split(", ")
    cond = {-1: "walker_%s <= 0.0" % var[0], 1: "walker_%s >= 0.0" % var[0]}
    body = ""
    for name, edit, sgn in modes:
        o = edit(ode)
        o += "                walker_%s' = %s\n" % (var[0], var[1](o))
        body += ("        %s\n        {\n            nonpoly ode\n            {\n%s            }\n"
                 "            inv\n            {\n                %s   %s\n            }\n        }\n"
                 % (name, o, inv, cond[sgn]))
    resets = "\n".join("            %s' := %s" % (v, v) for v in names)
    jumps = "    jumps\n    {\n"
    for (a, _, sa), (b, _, _) in ((modes[0], modes[1]), (modes[1], modes[0])):
        jumps += ("        %s -> %s\n        guard\n        {\n            %s\n        }\n"
                  "        reset\n        {\n%s\n        }\n        interval aggregation\n\n"
                  % (a, b, cond[-sa], resets))
    jumps += "    }\n"
    ib = re.search(r"    init\n    \{\n        steer\n        \{\n(.*?)        \}\n", rest, re.S)
    if not ib:
        fail("no initial set in steer")
    init = ("    init\n    {\n        %s\n        {\n%s            walker_%s in [%.17g, %.17g]\n"
            "        }\n    }\n}\n" % (start, ib.group(1), var[0], init_range[0], init_range[1]))
    unsafe = re.search(r"steer (\{.*\})", rest[rest.index("unsafe"):]).group(1)
    return (head + "    modes\n    {\n" + body + "    }\n\n" + jumps + "\n" + init +
            "\nunsafe\n{\n" + "".join("    %s %s\n" % (n, unsafe) for n, _, _ in modes) + "}\n")


def flow_of(ode, v):
    return [l for l in ode.split("\n") if l.strip().startswith(v + "' =")][0].split("=", 1)[1].strip()


def split(src, start):
    def tmode(sgn):
        return lambda ode: replace(ode, "exp(-2.0 * %s)" % F_TAR,
                                   "exp(%s2.0 * sin(walker_eT))" % ("" if sgn < 0 else "-"), 1)
    # eT' = heading' + sin(eT) / dT; at heading 0 from x, y in the initial box: atan(y / (8 - x))
    var = ("eT", lambda ode: "%s + sin(walker_eT) / %s" % (flow_of(ode, "walker_heading"), DIST_T))
    return two_modes(src, var, (("tneg", tmode(-1), -1), ("tpos", tmode(1), 1)),
                     (-0.0063, 0.0063), start)


def window(src):
    # lw = cos e - cos(2 dpsi + delta): W = 1 / (1 + exp(z)), z = -2 h1 lw, written so that its
    # exponential is at most 1 on each side of lw = 0
    z = ("(-8.0 / (cos(2.0 * walker_lifted_2) - cos(2.0 * walker_lifted_2 + 0.8)) * walker_lw)")
    forms = {1: "(1.0 / (1.0 + exp(%s)))" % z, -1: "(exp(-%s) / (1.0 + exp(-%s)))" % (z, z)}
    var = ("lw", lambda ode: "-sin(walker_lifted_1) * (%s) + 2.0 * sin(2.0 * walker_lifted_2 + "
           "0.8) * (%s)" % (flow_of(ode, "walker_lifted_1"), flow_of(ode, "walker_lifted_2")))
    ib = src[src.index("    init"):]
    l1 = [float(v) for v in re.search(r"walker_lifted_1 in \[([^,]+), ([^\]]+)\]", ib).groups()]
    l2 = [float(v) for v in re.search(r"walker_lifted_2 in \[([^,]+), ([^\]]+)\]", ib).groups()]
    if not (-math.pi / 2 < l1[0] <= l1[1] < 0 and 0 < l2[0] <= l2[1] < (math.pi - 0.8) / 2):
        fail("the initial bearing or half-width is not where cos is monotone")
    # cos(l1) increases with l1 < 0, and -cos(2 l2 + 0.8) increases with l2 there
    lw = (math.cos(l1[0]) - math.cos(2 * l2[0] + 0.8) - 1e-12,
          math.cos(l1[1]) - math.cos(2 * l2[1] + 0.8) + 1e-12)
    if lw[0] <= 0:
        fail("the pillar is not inside the window at the start")

    # W in every flow: heading' and lifted_1' (unbracketed there), and the two copies fixed()
    # put into w_tar'; lw' is built from the edited lifted_1'
    def edit(sgn):
        return lambda o: replace(o, WINDOW[1:-1], "(%s)" % forms[sgn], 4)
    return two_modes(src, var, (("win", edit(1), 1), ("wout", edit(-1), -1)), lw, "win")


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
    if a.shrink is not None:
        def scaled(m):
            lo, hi = float(m.group(2)), float(m.group(3))
            c, r = 0.5 * (lo + hi), 0.5 * (hi - lo) * a.shrink
            return "%s in [%.17g, %.17g]" % (m.group(1), c - r, c + r)
        i = src.index("    init")
        src = src[:i] + re.sub(r"(\w+) in \[([^,]+), ([^\]]+)\]", scaled, src[i:])
    if a.qr:
        src = replace(src, "identity precondition", "QR precondition", 1)
    if a.rem_var:
        names = re.search(r"state var (.*)", src).group(1).split(", ")
        rem = dict((V + k, float(r)) for k, r in (x.split("=", 1) for x in a.rem_var))
        for v in rem:
            if v not in names:
                fail("--rem-var: no state variable %s" % v)
        base = float(re.search(r"remainder estimation (\S+)", src).group(1))
        spec = ", ".join("%s:[%g,%g]" % (v, -rem.get(v, base), rem.get(v, base)) for v in names)
        src = re.sub(r"remainder estimation \S+", "remainder estimation { %s }" % spec, src)
    return src


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("variant", choices=["fixed", "kink", "split", "frozen", "signs", "window"])
    ap.add_argument("model_in")
    ap.add_argument("model_out")
    ap.add_argument("--step", type=float)
    ap.add_argument("--order", type=int)
    ap.add_argument("--rem", type=float)
    ap.add_argument("--min-step", type=float)
    ap.add_argument("--rem-var", action="append", metavar="VAR=R")
    ap.add_argument("--qr", action="store_true")
    ap.add_argument("--shrink", type=float, metavar="F")
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
        elif a.variant == "window":
            src = window(src)
    open(a.model_out, "w").write(settings(src, a))


if __name__ == "__main__":
    main()
