#!/bin/sh
# tests/verify_test.sh - `make verify-test`: the round trip export -> HyST -> Flow* -> verdict
# with the real tools, when they are present (SWERVE_HYST_JAR: src/Hyst.jar of verivital/hyst;
# SWERVE_FLOWSTAR: a Flow* 2.1.0 binary; java on the PATH; docs/verification.md); otherwise it
# says it skipped and exits 0.  Checks: the clear-path probe with a +-0.05 m initial set is SAFE
# with Flow* completing (exit 0, last flowpipe narrower than 1 m), and the collision-course probe
# is UNSAFE with a simulated witness (exit 3).
#   sh tests/verify_test.sh build/swerve
set -eu
SW=${1:?usage: verify_test.sh SWERVE}
case $SW in /*) ;; *) SW=$(pwd)/$SW ;; esac
cd "$(dirname "$0")/.."
if [ -z "${SWERVE_HYST_JAR:-}" ] || [ ! -r "$SWERVE_HYST_JAR" ] || [ -z "${SWERVE_FLOWSTAR:-}" ] ||
	[ ! -x "$SWERVE_FLOWSTAR" ] || ! command -v "${SWERVE_JAVA:-java}" >/dev/null 2>&1; then
	echo "verify-test: skipped (set SWERVE_HYST_JAR and SWERVE_FLOWSTAR, and put java on the PATH; docs/verification.md)"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

rc=0
"$SW" verify tests/verify/clear_path.xml -i walker.x=[-0.05,0.05] -i walker.y=[0.45,0.55] \
	-o "$TMP/clear.json" >"$TMP/clear.out" 2>&1 || rc=$?
cat "$TMP/clear.out"
[ "$rc" = 0 ] || fail "clear_path: exit $rc, expected 0 (SAFE)"
grep -q '"completed": true' "$TMP/clear.json" || fail "clear_path: Flow* did not complete"
python3 - "$TMP/clear.json" <<'PY' || fail "clear_path: last flowpipe 1 m wide or more"
import json, sys
b = json.load(open(sys.argv[1]))["unsafe_sets"][0]["last_box"]
sys.exit(0 if b[0] is not None and b[1] - b[0] < 1 and b[3] - b[2] < 1 else 1)
PY

rc=0
"$SW" verify tests/verify/collision_course.xml -i walker.y=[-0.05,0.05] -o "$TMP/cc.json" \
	>"$TMP/cc.out" 2>&1 || rc=$?
cat "$TMP/cc.out"
[ "$rc" = 3 ] || fail "collision_course: exit $rc, expected 3 (UNSAFE)"
grep -q '"witness": {"agent": "walker"' "$TMP/cc.json" || fail "collision_course: no witness"

[ "$fails" = 0 ] && echo "verify-test: all passed"
[ "$fails" = 0 ]
