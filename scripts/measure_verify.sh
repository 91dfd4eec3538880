#!/bin/sh
# scripts/measure_verify.sh - `swerve verify` on scenarios, one at a time, as a table.
# Widens every agent's initial x and y by +-W m (default 0.05) and runs
#   swerve verify FILE -i A.x=[x-W,x+W] -i A.y=[y-W,y+W] ... -o out.json [VERIFY_ARGS]
# printing per scenario: the verdict, the unsafe sets, how many Flow* completed, the flowpipes,
# the wall time, the widest last flowpipe (x and y) and the witness time.  Needs the tools of
# docs/verification.md (SWERVE_HYST_JAR, SWERVE_FLOWSTAR, java); fetches nothing.
#   sh scripts/measure_verify.sh [SWERVE] FILE.xml...
# Environment: W (half-width, m), VERIFY_ARGS (more verify options, e.g. "--step 0.02"),
# KEEP=DIR (keep each summary as DIR/NAME.json).
set -u
SW=${1:?usage: measure_verify.sh SWERVE FILE.xml...}
shift
W=${W:-0.05}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
echo "swerve verify; W = $W m; ${VERIFY_ARGS:-default settings}; HyST $(basename "${SWERVE_HYST_JAR:-?}"), Flow* ${SWERVE_FLOWSTAR:-?}"
printf '%-22s %-10s %5s %9s %10s %8s %14s %s\n' scenario verdict sets completed flowpipes s width witness
for f in "$@"; do
	n=$(basename "$f" .xml)
	args=$(python3 - "$f" "$W" <<'PY'
import sys, xml.etree.ElementTree as ET
w = float(sys.argv[2])
for a in ET.parse(sys.argv[1]).getroot().iter("agent"):
    x, y = float(a.get("x", 0)), float(a.get("y", 0))
    print("-i %s.x=[%.17g,%.17g] -i %s.y=[%.17g,%.17g]" % (a.get("name"), x - w, x + w, a.get("name"), y - w, y + w))
PY
)
	t0=$(date +%s.%N)
	rc=0
	# shellcheck disable=SC2086
	"$SW" verify "$f" $args ${VERIFY_ARGS:-} -q -o "$TMP/$n.json" >"$TMP/$n.out" 2>&1 || rc=$?
	t1=$(date +%s.%N)
	[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$TMP/$n.json" "$KEEP/" 2>/dev/null
	if [ ! -s "$TMP/$n.json" ]; then
		printf '%-22s %-10s %s\n' "$n" "exit $rc" "$(head -c 120 "$TMP/$n.out")"
		continue
	fi
	python3 - "$TMP/$n.json" "$n" "$t0" "$t1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["unsafe_sets"]
done = sum(1 for r in s if r["completed"])
pipes = sum(max(r["flowpipes"], 0) for r in s)
width = max((max(r["last_box"][1] - r["last_box"][0], r["last_box"][3] - r["last_box"][2])
             for r in s if r["last_box"][0] is not None), default=None)
wit = d["witness"]
print("%-22s %-10s %5d %9s %10d %8.1f %14s %s" % (
    sys.argv[2], d["verdict"], len(s), "%d/%d" % (done, len(s)), pipes,
    float(sys.argv[4]) - float(sys.argv[3]), "-" if width is None else "%.3f m" % width,
    "-" if not wit else "t = %g s (%s)" % (wit["time"], wit["with"])))
PY
done
