#!/bin/sh
# tests/verify_cli_test.sh - `swerve verify` without the real tools (runs in `make test`).
# 1. Absent tools: no jar, no Flow*, no java each give a message naming the option or variable
#    and exit status 6, and nothing is written to -o.
# 2. Bad usage: exit 2.
# 3. Reading Flow*'s answer, with stand-ins for java (writes the Flow* model HyST would) and
#    flowstar (prints what FAKE_OUT holds): "Computation not completed" with "SAFE" on the
#    computed flowpipes is INCOMPLETE (exit 5), never SAFE; completed and SAFE is SAFE (exit 0);
#    completed and UNKNOWN is UNKNOWN (exit 4); a crash is ERROR (exit 1); a time-out is
#    INCOMPLETE with the flowpipes printed so far and the last time; the collision probe's
#    simulated witness makes the verdict UNSAFE (exit 3) whatever Flow* says; the JSON summary
#    carries the verdict, the flowpipes and the witness.
#   sh tests/verify_cli_test.sh build/swerve
set -eu
SW=${1:?usage: verify_cli_test.sh SWERVE}
case $SW in /*) ;; *) SW=$(pwd)/$SW ;; esac
cd "$(dirname "$0")/.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
unset SWERVE_HYST_JAR SWERVE_FLOWSTAR SWERVE_JAVA || true
mkdir "$TMP/scratch"
export TMPDIR="$TMP/scratch" # verify's scratch folders go there (checked empty at the end)

expect() { # expect CODE PATTERN -- command...
	code=$1 pat=$2
	shift 3
	rc=0
	"$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" = "$code" ] || fail "$* : exit $rc, expected $code ($(head -c 300 "$TMP/err"))"
	[ -z "$pat" ] || cat "$TMP/out" "$TMP/err" | grep -q -- "$pat" ||
		fail "$* : no '$pat' in: $(cat "$TMP/out" "$TMP/err" | head -c 400)"
}

P=tests/verify/clear_path.xml
C=tests/verify/collision_course.xml
touch "$TMP/Hyst.jar"
printf '#!/bin/sh\nexit 0\n' >"$TMP/noop"
chmod +x "$TMP/noop"

# 1. absent tools
expect 6 "SWERVE_HYST_JAR" -- "$SW" verify "$P" --flowstar "$TMP/noop" -o "$TMP/s.json"
[ ! -e "$TMP/s.json" ] || fail "a summary was written without the tools"
expect 6 "SWERVE_FLOWSTAR" -- "$SW" verify "$P" --hyst-jar "$TMP/Hyst.jar"
expect 6 "cannot read HyST's jar" -- "$SW" verify "$P" --hyst-jar "$TMP/none.jar" --flowstar "$TMP/noop"
expect 6 "not an executable Flow" -- "$SW" verify "$P" --hyst-jar "$TMP/Hyst.jar" --flowstar "$TMP/none"
SWERVE_JAVA=$TMP/nojava expect 6 "HyST needs Java" -- "$SW" verify "$P" --hyst-jar "$TMP/Hyst.jar" --flowstar "$TMP/noop"
expect 6 "" -- env SWERVE_HYST_JAR="$TMP/Hyst.jar" "$SW" verify "$P"

# 2. bad usage
expect 2 "--orders" -- "$SW" verify "$P" --orders 5-3
expect 2 "exactly one scenario" -- "$SW" verify
expect 2 "" -- "$SW" verify "$P" --step -1
expect 0 "Exit status" -- "$SW" verify --help

# 3. stand-ins: java writes the model file named after -o; flowstar prints $FAKE_OUT
cat >"$TMP/java" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -o ] && { echo "hybrid reachability {}" >"$2"; exit 0; }; shift; done
exit 1
EOF
cat >"$TMP/flowstar" <<'EOF'
#!/bin/sh
cat >/dev/null
[ "${FAKE_OUT:-}" = crash ] && kill -SEGV $$
[ "${FAKE_OUT:-}" = slow ] && { printf 'mode: steer,\ttime = 0.05,\tstep = 0.05\nmode: steer,\ttime = 0.1,\tstep = 0.05\n'; sleep 20; }
printf '%b' "$FAKE_OUT"
EOF
chmod +x "$TMP/java" "$TMP/flowstar"
export SWERVE_JAVA="$TMP/java" SWERVE_HYST_JAR="$TMP/Hyst.jar" SWERVE_FLOWSTAR="$TMP/flowstar"
ESC=$(printf '\033')
FAKE_OUT="mode: steer,\ttime = 0.75,\tstep = 0.05\n${ESC}[1m${ESC}[31mComputation not completed: 15 flowpipe(s) computed.\n${ESC}[0mResult of the safety verification on the computed flowpipes: ${ESC}[32mSAFE\n" \
	expect 5 "INCOMPLETE" -- "$SW" verify "$P" --samples 0 -o "$TMP/inc.json"
grep -q '"verdict": "INCOMPLETE"' "$TMP/inc.json" || fail "summary: $(cat "$TMP/inc.json")"
grep -q '"flowpipes": 15' "$TMP/inc.json" || fail "summary flowpipes: $(cat "$TMP/inc.json")"
grep -q 'steer at t = 0.75 s' "$TMP/inc.json" || fail "summary last: $(cat "$TMP/inc.json")"
FAKE_OUT="Computation completed: 120 flowpipe(s) computed.\n\nResult of the safety verification on the computed flowpipes: SAFE\n" \
	expect 0 "verdict: SAFE" -- "$SW" verify "$P" --samples 2
FAKE_OUT="Computation completed: 120 flowpipe(s) computed.\n\nResult of the safety verification on the computed flowpipes: UNKNOWN\n" \
	expect 4 "verdict: UNKNOWN" -- "$SW" verify "$P" --samples 0
FAKE_OUT=crash expect 1 "signal" -- "$SW" verify "$P" --samples 0
FAKE_OUT=slow expect 5 "ran out of time" -- "$SW" verify "$P" --samples 0 --timeout 1 -o "$TMP/slow.json"
grep -q '"flowpipes": 2,' "$TMP/slow.json" && grep -q 'steer at t = 0.1 s' "$TMP/slow.json" ||
	fail "time-out summary: $(cat "$TMP/slow.json")"
FAKE_OUT="Computation completed: 120 flowpipe(s) computed.\n\nResult of the safety verification on the computed flowpipes: UNKNOWN\n" \
	expect 3 "simulated witness: agent 'walker' overlaps an obstacle" -- \
	"$SW" verify "$C" -i walker.y=[-0.05,0.05] --samples 0 -o "$TMP/cc.json"
grep -q '"witness": {"agent": "walker", "with": "obstacle"' "$TMP/cc.json" ||
	fail "witness summary: $(cat "$TMP/cc.json")"
[ ! -e "$TMP/cc.json.tmp" ] || fail "temporary summary left behind"
[ -z "$(find "$TMP/scratch" -mindepth 1 -maxdepth 1)" ] ||
	fail "scratch folder left behind: $(ls "$TMP/scratch")"

[ "$fails" = 0 ] && echo "verify_cli_test: all passed"
[ "$fails" = 0 ]
