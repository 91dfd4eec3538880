#!/bin/sh
# CLI tests of the bounds on requested work and on input files (docs/robustness.md, "Bounds"):
# each refusal exits with status 2, names what was asked and the limit, writes nothing, and
# comes at once (every command runs under `timeout`, so a hang fails instead of stalling).
# Usage: tests/cli_bounds.sh path/to/swerve
set -u
SW="$1"
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# refused DESCRIPTION NEEDLE -- command...: exit 2 within 20 s, NEEDLE on stderr.
refused() {
	desc="$1"; needle="$2"; shift 2
	timeout 20 "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != 2 ]; then
		bad "$desc: exit $got, expected 2"; cat "$tmp/err" >&2
	elif ! grep -q -- "$needle" "$tmp/err"; then
		bad "$desc: no '$needle' in the message"; cat "$tmp/err" >&2
	else
		pass=$((pass + 1))
	fi
}
# no_output DESCRIPTION PATH: the refused command created nothing at PATH.
no_output() {
	if [ -e "$2" ]; then bad "$1: $2 was created"; else pass=$((pass + 1)); fi
}

scenario() { # scenario FILE RUN-ATTRIBUTES
	cat > "$1" <<EOF
<scenario name="b"><run $2/>
<world><target name="goal" x="10" y="0"/></world>
<agent name="a" x="0" y="0" target="goal"/></scenario>
EOF
}

# Step counts: these once overflowed to 0 steps and a "complete" run.
scenario "$tmp/huge.xml" 'duration="1e308"'
refused "duration 1e308" "SW_RUN_MAX_STEPS" "$SW" run -o "$tmp/o1" "$tmp/huge.xml"
no_output "duration 1e308" "$tmp/o1"
scenario "$tmp/tiny.xml" 'step="1e-300"'
refused "step 1e-300" "SW_RUN_MAX_STEPS" "$SW" run -o "$tmp/o2" "$tmp/tiny.xml"
no_output "step 1e-300" "$tmp/o2"
refused "run -d 1e18" "SW_RUN_MAX_STEPS" "$SW" run -d 1e18 -o "$tmp/o3" models/demo.xml
no_output "run -d 1e18" "$tmp/o3"
refused "render -d 1e18" "SW_RUN_MAX_STEPS" "$SW" render -d 1e18 -o "$tmp/r.svg" models/demo.xml
no_output "render -d 1e18" "$tmp/r.svg"
refused "plot --at 1e299" "after the end of the run" "$SW" plot --agent walker --at 1e299 -o "$tmp/p.svg" models/glm_barrier.xml
no_output "plot --at 1e299" "$tmp/p.svg"
refused "run --checkpoint-every 1e-9" "expected a longer interval" "$SW" run --checkpoint-every 1e-9 -o "$tmp/o4" models/demo.xml
no_output "run --checkpoint-every 1e-9" "$tmp/o4"
scenario "$tmp/sub.xml" 'integrator="rk4" fixed="true" substeps="100000"'
refused "substeps 100000" "SW_RUN_MAX_SUBSTEPS" "$SW" run -o "$tmp/o5" "$tmp/sub.xml"

# Runs of smc and sweep.
refused "smc -n 1e9" "1..100000000" "$SW" smc -n 1e9 --reach walker:goal models/glm_barrier.xml
refused "smc --batch 1e9" "1..65536" "$SW" smc -b 1e9 --reach walker:goal models/glm_barrier.xml
refused "sweep 200 points x 10^6 seeds" "at most 100000000" "$SW" sweep -n 1000000 -p walker.glm.d0=1:200:1 -o "$tmp/s.csv" models/glm_barrier.xml
no_output "sweep" "$tmp/s.csv"

# SteerSuite: 30 regions of 100 000 agents, each region within bounds, the case over the cap.
{
	echo '<SteerBenchTestCase xmlns="http://www.magix.ucla.edu/steerbench"><header><version>1.0</version><name>many</name>'
	echo '<worldBounds><xmin>-1000</xmin><xmax>1000</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-1000</zmin><zmax>1000</zmax></worldBounds></header>'
	i=0
	while [ $i -lt 30 ]; do
		echo '<agentRegion><numAgents>100000</numAgents><regionBounds><xmin>-1000</xmin><xmax>1000</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-1000</zmin><zmax>1000</zmax></regionBounds>'
		echo '<initialConditions><direction><random>true</random></direction><radius>0.2</radius><speed>0</speed></initialConditions>'
		echo '<goalSequence><seekStaticTarget><targetLocation><x>0</x><y>0</y><z>0</z></targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>10</timeDuration></seekStaticTarget></goalSequence></agentRegion>'
		i=$((i + 1))
	done
	echo '</SteerBenchTestCase>'
} > "$tmp/many.xml"
refused "import 30 x 100000 agents" "at most 100000 of each" "$SW" import-steersuite -o "$tmp/many_out.xml" "$tmp/many.xml"
no_output "import 30 x 100000 agents" "$tmp/many_out.xml"
refused "run 30 x 100000 agents" "at most 100000 of each" "$SW" run -o "$tmp/o6" "$tmp/many.xml"
no_output "run 30 x 100000 agents" "$tmp/o6"

# Input files that are not regular files: refused at once, the file named.
mkfifo "$tmp/fifo.xml"
refused "run of a FIFO" "fifo.xml: a FIFO, not a regular file" "$SW" run -o "$tmp/o7" "$tmp/fifo.xml"
no_output "run of a FIFO" "$tmp/o7"
refused "check of a FIFO" "a FIFO, not a regular file" "$SW" check "$tmp/fifo.xml"
refused "graph of a FIFO" "a FIFO, not a regular file" "$SW" graph "$tmp/fifo.xml"
refused "run of /dev/zero" "a character device, not a regular file" "$SW" run -o "$tmp/o8" /dev/zero
sed 's#file="wind_north.txt"#file="/dev/zero"#' tests/data/vectorfield.xml > "$tmp/zero_field.xml"
refused "/dev/zero as a vector field" "/dev/zero: error: cannot read the vector field file: a character device" "$SW" run -o "$tmp/o9" "$tmp/zero_field.xml"
no_output "/dev/zero as a vector field" "$tmp/o9"
mkdir -p "$tmp/ck"
mkfifo "$tmp/ck/checkpoint.swck"
refused "--resume from a FIFO" "checkpoint.swck: error: cannot read the checkpoint: a FIFO" "$SW" run -q --resume -o "$tmp/ck" models/demo.xml
# A FIFO in the field cache is a miss: the field is solved and the entry replaced.
mkdir -p "$tmp/cache"
timeout 60 "$SW" run -q --field-cache "$tmp/cache" -o "$tmp/o10" models/seek_escape_room.xml 2>"$tmp/err" || bad "seek_escape_room with a cache: $(cat "$tmp/err")"
entry=$(ls "$tmp/cache")
rm -f "$tmp/cache/$entry" && mkfifo "$tmp/cache/$entry"
if timeout 60 "$SW" run -q --field-cache "$tmp/cache" -o "$tmp/o11" models/seek_escape_room.xml 2>"$tmp/err" &&
	[ -f "$tmp/cache/$entry" ] && cmp -s "$tmp/o10/trajectory.csv" "$tmp/o11/trajectory.csv"; then
	pass=$((pass + 1))
else
	bad "a FIFO as a cache entry: $(cat "$tmp/err")"
fi

echo "cli_bounds: $pass passed, $fail failed"
[ "$fail" = 0 ]
