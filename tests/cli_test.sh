#!/bin/sh
# CLI tests: help for every command, exit codes (0 ok, 2 bad usage/input), no output files on
# bad input, byte-identical outputs for the same seed.  Usage: tests/cli_test.sh path/to/swerve
set -u
SW="$1"
case "$SW" in /*) SWABS="$SW" ;; *) SWABS="$PWD/$SW" ;; esac
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect() { # expect CODE DESCRIPTION -- command...
	code="$1"; shift; desc="$1"; shift
	"$@" >/tmp/swerve_cli_out.$$ 2>/tmp/swerve_cli_err.$$
	got=$?
	if [ "$got" = "$code" ]; then ok; else bad "$desc: exit $got, expected $code"; cat /tmp/swerve_cli_err.$$ >&2; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" /tmp/swerve_cli_out.$$ /tmp/swerve_cli_err.$$' EXIT

expect 0 "swerve --help" "$SW" --help
expect 0 "swerve run --help" "$SW" run --help
expect 0 "swerve check --help" "$SW" check --help
expect 0 "swerve help run" "$SW" help run
expect 0 "swerve graph --help" "$SW" graph --help
expect 0 "swerve render --help" "$SW" render --help
expect 0 "swerve analyze --help" "$SW" analyze --help
expect 0 "swerve plot --help" "$SW" plot --help
expect 0 "plot an agent" "$SW" plot --agent walker --at 8 -o "$tmp/plot.svg" models/glm_barrier.xml
if grep -q 'class="phidot"' "$tmp/plot.svg"; then ok; else bad "plot lacks the heading-rate curve"; fi
expect 0 "plot time series as PNG" "$SW" plot --agent walker --series -o "$tmp/series.png" models/glm_barrier.xml
if [ "$(head -c 4 "$tmp/series.png" | od -An -tx1 | tr -d ' ')" = "89504e47" ]; then ok; else bad "plot --series -o .png wrote no PNG"; fi
expect 0 "plot time series of an FW agent" "$SW" plot --agent o1deg-3m --series --at 2 -o "$tmp/fw.svg" models/fw_one_obstacle.xml
if grep -q 'class="speed"' "$tmp/fw.svg"; then ok; else bad "time series lacks the speed curve"; fi
expect 2 "plot time series of nobody" "$SW" plot --agent nobody --series models/glm_barrier.xml
expect 2 "plot an FW agent" "$SW" plot --agent o1deg-3m --at 1 -o "$tmp/p2.svg" models/fw_one_obstacle.xml
expect 0 "analyze an agent" "$SW" analyze --agent walker --at 5 models/glm_barrier.xml
if grep -q "a1" /tmp/swerve_cli_out.$$ && grep -qi "stable" /tmp/swerve_cli_out.$$; then ok; else bad "analyze output lacks the competition parameters"; fi
# Design warnings: the default design allows bistability; g21 = 0 rules it out; a1-scale = 0
# leaves both weights off.
if grep -q "warning: design: bistability is possible" /tmp/swerve_cli_out.$$; then ok; else bad "analyze: no design bistability warning for the default design"; fi
sed 's/sigma="0.02"/sigma="0.02" g21="0" a1-scale="0"/' models/glm_barrier.xml > "$tmp/design.xml"
expect 0 "analyze a degenerate design" "$SW" analyze --agent walker --at 5 "$tmp/design.xml"
if grep -q "warning: design: a1-scale = 0" /tmp/swerve_cli_out.$$ && ! grep -q "design: bistability" /tmp/swerve_cli_out.$$; then ok; else bad "analyze: design warnings of a1-scale = 0, g21 = 0"; cat /tmp/swerve_cli_out.$$ >&2; fi
expect 2 "analyze an unknown agent" "$SW" analyze --agent nobody models/glm_barrier.xml
expect 2 "analyze an FW agent" "$SW" analyze --agent o1deg-3m models/fw_one_obstacle.xml
expect 0 "graph of an automaton" "$SW" graph -o "$tmp/seek.dot" automata/seek.xml
if grep -q '^digraph "seek"' "$tmp/seek.dot" && grep -q -- '->' "$tmp/seek.dot"; then ok; else bad "graph output is not a DOT digraph with edges"; fi
expect 2 "graph of a bad file" "$SW" graph tests/data/bad_unknown_element.xml
# The mode graph shows laws, flows, resets, marks and which guards read which signal.
"$SW" graph models/street_crossing.xml >"$tmp/sc.dot" 2>/dev/null
for pat in '"street_crossing.cross" \[label=<<b>cross</b><br/>glm → far_corner<br/>v-max=1.4>' \
	"\"street_crossing.wait\" .*<i>stand still</i><br/>waited' = 1>" \
	'"traffic_light.cars_green" -> "traffic_light.cars_amber" .*<i>c := 0</i>' \
	'"street_crossing.to_corner" .*peripheries=2' '"street_crossing.done" .*arrival.*filled' \
	'label=<<b>street_crossing</b> (6 agents)>' \
	'"traffic_light.cars_red_walk" -> "street_crossing.wait" \[label=<light>, style=dashed'; do
	if grep -q "$pat" "$tmp/sc.dot"; then ok; else bad "graph of street_crossing lacks: $pat"; fi
done
"$SW" graph automata/pedestrian.xml >"$tmp/ped.dot" 2>/dev/null
if grep -q '&hellip;>, tooltip=".*or clearance() < wall_near"' "$tmp/ped.dot"; then ok; else
	bad "graph: a long guard is not cut with its whole text in the tooltip"; fi
if command -v dot >/dev/null 2>&1; then # compact: the widest shipped graphs within 1200 px
	for f in automata/hunter.xml models/pursuit_evasion.xml; do
		"$SW" graph "$f" | dot -Tpng >"$tmp/g.png"
		w=$(od -An -tu1 -j16 -N4 "$tmp/g.png" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
		if [ "$w" -le 1200 ]; then ok; else bad "graph of $f renders $w px wide"; fi
	done
fi
expect 0 "render the demo" "$SW" render -o "$tmp/demo.svg" -a 5 models/demo.xml
if grep -q '<svg' "$tmp/demo.svg"; then ok; else bad "render wrote no SVG"; fi
expect 2 "render with a bad width" "$SW" render -w abc models/demo.xml
expect 0 "render PNG" "$SW" render -q -o "$tmp/demo.png" models/demo.xml
if [ "$(head -c 8 "$tmp/demo.png" | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ]; then ok; else bad "render -o .png wrote no PNG"; fi
expect 2 "render to an unknown format" "$SW" render -o "$tmp/demo.jpg" models/demo.xml
if [ -e "$tmp/demo.jpg" ]; then bad "unknown format left a file"; else ok; fi
cat > "$tmp/tall.xml" <<'EOF2'
<scenario name="tall"><run duration="2" step="0.25" seed="1"/>
<world><target name="goal" x="0" y="200" radius="0.3"/></world>
<agent name="a" x="0" y="0" heading="90deg" radius="0.25" target="goal"><glm/></agent></scenario>
EOF2
expect 2 "PNG taller than cairo allows" "$SW" render -q -w 2000 -o "$tmp/tall.png" "$tmp/tall.xml"
if grep -q "too large for PNG" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/tall.png" ] && [ -z "$(ls "$tmp" | grep 'tall.png.tmp')" ]; then ok; else bad "an oversized PNG: no clear refusal, or a file left"; fi
expect 2 "animate to a PNG" "$SW" render --animate "$tmp/anim.png" models/demo.xml
expect 0 "render an animation and frames" "$SW" render -q -o "$tmp/d2.svg" --animate "$tmp/anim.svg" --frames "$tmp/frames" --fps 1 -d 3 models/demo.xml
if [ "$(grep -c '<animateTransform' "$tmp/anim.svg")" -ge 6 ]; then ok; else bad "animation lacks animateTransform elements"; fi
if [ "$(ls "$tmp/frames" | grep -c '^frame-0000[0-3].png$')" = 4 ] && [ "$(ls "$tmp/frames" | wc -l)" = 4 ]; then ok; else bad "frames: expected 4 (t = 0, 1, 2, 3 s)"; ls "$tmp/frames" >&2; fi
if command -v ffmpeg >/dev/null 2>&1; then
	expect 0 "render a video" "$SW" render -q -o "$tmp/d3.svg" --video "$tmp/demo.mp4" --fps 4 -d 4 models/demo.xml
	if [ -s "$tmp/demo.mp4" ] && [ -z "$(ls /tmp | grep "swerve_frames_" || true)" ]; then ok; else bad "video missing or frames left behind"; fi
else
	echo "cli: ffmpeg not installed: the video itself is not checked"
fi
# Without ffmpeg on the PATH, --video is refused cleanly (exit 2, a message, no file).
expect 2 "render a video without ffmpeg" env PATH=/nonexistent "$SWABS" render -q -o "$tmp/d4.svg" --video "$tmp/none.mp4" -d 1 models/demo.xml
if grep -q "ffmpeg" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/none.mp4" ] && [ ! -e "$tmp/d4.svg" ]; then ok; else bad "--video without ffmpeg: no clear message, or the picture was written"; fi
# Progress: on a terminal (script(1) provides one) a percentage on stderr; silent otherwise.
if command -v script >/dev/null 2>&1; then
	script -qec "\"$SWABS\" run -o \"$tmp/tty\" models/demo.xml" /dev/null > "$tmp/tty.log" 2>&1
	if grep -q "100%" "$tmp/tty.log"; then ok; else bad "no progress on a terminal"; cat "$tmp/tty.log" >&2; fi
fi
expect 0 "run without a terminal" "$SW" run -o "$tmp/notty" models/demo.xml
if grep -q "%" /tmp/swerve_cli_err.$$; then bad "progress printed although stderr is not a terminal"; else ok; fi
expect 0 "render a navigation field" "$SW" render --field nav --field-cache "$tmp/cache" -o "$tmp/nav.svg" models/seek_escape_room.xml
if grep -q 'class="streamlines"' "$tmp/nav.svg" && grep -c '<polyline' "$tmp/nav.svg" | grep -qv '^0$'; then ok; else bad "field picture lacks streamlines"; fi
if ls "$tmp/cache"/navfield-*.bin >/dev/null 2>&1; then ok; else bad "no navigation field cache entry written"; fi
expect 2 "render an unknown field" "$SW" render --field nope --no-field-cache -o "$tmp/nope.svg" models/seek_escape_room.xml
if [ ! -e "$tmp/nope.svg" ]; then ok; else bad "render of an unknown field wrote a picture"; fi
expect 0 "swerve version" "$SW" version
expect 2 "no command" "$SW"
expect 2 "unknown command" "$SW" frobnicate
expect 2 "run without file" "$SW" run
expect 2 "run with bad option" "$SW" run --bogus models/demo.xml
expect 2 "run with bad seed" "$SW" run --seed -3 models/demo.xml

# Bad input: exit 2, a file:line message, and no output directory content.
for f in tests/data/bad_*.xml; do
	[ -e "$f" ] || continue
	out="$tmp/bad_out"
	expect 2 "run $f" "$SW" run -q -o "$out" "$f"
	if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then bad "$f left output files"; else ok; fi
	if grep -q "^$f:[0-9]*" /tmp/swerve_cli_err.$$ || grep -q "^$f:" /tmp/swerve_cli_err.$$; then ok; else
		bad "$f: message does not start with file:line"; cat /tmp/swerve_cli_err.$$ >&2; fi
done
expect 2 "missing file" "$SW" run -q -o "$tmp/missing" tests/data/does_not_exist.xml
expect 2 "check reports bad files" "$SW" check models/demo.xml tests/data/bad_unknown_element.xml
expect 0 "check accepts every example" sh -c "\"$SW\" check -q models/*.xml"

# A numeric failure stops the run (exit 1) naming agent, mode and time, and keeps the outputs
# up to the last good step, marked failed.
expect 1 "blow-up" "$SW" run -q -o "$tmp/blow" tests/data/blowup.xml
if grep -q "agent 'bomb' (mode 'grow') at t = " /tmp/swerve_cli_err.$$ && grep -q "z = " /tmp/swerve_cli_err.$$; then ok; else bad "blow-up message"; cat /tmp/swerve_cli_err.$$ >&2; fi
if grep -q '"status": "failed"' "$tmp/blow/summary.json" && [ "$(wc -l < "$tmp/blow/trajectory.csv")" -gt 5 ]; then ok; else bad "blow-up outputs"; fi

# Hostile files (made here): rejected with exit 2, a one-line file:line message first, nothing
# written, and nothing else on stderr (libxml2 prints nothing of its own).
mkdir -p "$tmp/hostile"
h="$tmp/hostile"
{ printf '<?xml version="1.0"?>\n<!DOCTYPE scenario [\n <!ENTITY a "lololololol">\n'
  for i in 1 2 3 4 5 6 7 8 9; do printf ' <!ENTITY a%s "' "$i"; p=$( [ "$i" = 1 ] && echo a || echo "a$((i - 1))" )
    for k in 1 2 3 4 5 6 7 8 9 10; do printf '&%s;' "$p"; done; printf '">\n'; done
  printf ']>\n<scenario name="&a9;"/>\n'; } > "$h/laughs.xml"
printf '<?xml version="1.0"?>\n<!DOCTYPE scenario SYSTEM "http://127.0.0.1:9/x.dtd">\n<scenario/>\n' > "$h/netdtd.xml"
head -c 700 models/demo.xml > "$h/truncated.xml"
sed '6s/name="/name="\xc3\x28/' models/demo.xml > "$h/utf8.xml"
printf '<?xml version="1.0"?>\n<scenario name="a\000b"/>\n' > "$h/nul.xml"
{ printf '<?xml version="1.0"?>\n'; i=0; while [ $i -lt 2000 ]; do printf '<scenario>'; i=$((i + 1)); done; } > "$h/deep.xml"
{ head -c 300 models/demo.xml; head -c 100000000 /dev/zero | tr '\0' ' '; } > "$h/big.xml"
for f in laughs netdtd truncated utf8 nul deep big; do
	expect 2 "hostile $f" "$SW" run -q -o "$h/out_$f" "$h/$f.xml"
	if [ -e "$h/out_$f" ]; then bad "hostile $f: output written"; else ok; fi
	if head -n 1 /tmp/swerve_cli_err.$$ | grep -Eq "^$h/$f.xml:([0-9]+:)* error: "; then ok; else
		bad "hostile $f: first line is not a file:line error"; cat /tmp/swerve_cli_err.$$ >&2; fi
	if grep -v "^$h/$f.xml:" /tmp/swerve_cli_err.$$ | grep -q .; then
		bad "hostile $f: stray stderr output"; cat /tmp/swerve_cli_err.$$ >&2; else ok; fi
done
rm -f "$h/big.xml"

# The checked-in exports under export/ are what the current code writes, byte for byte.
mkdir -p "$tmp/regen/export"
cp export/MODELS "$tmp/regen/export/"
ln -s "$PWD/models" "$tmp/regen/models"
(cd "$tmp/regen" && sh "$OLDPWD/scripts/regen_exports.sh" "$SWABS")
for m in $(cat export/MODELS); do
	if diff -r "export/$m" "$tmp/regen/export/$m" > /dev/null; then ok; else bad "export/$m differs from a fresh export (run scripts/regen_exports.sh)"; fi
done

# Same seed, same bytes; outputs land atomically (no temporary files left).
expect 0 "run demo 1" "$SW" run -q -o "$tmp/a" models/demo.xml
expect 0 "run demo 2" "$SW" run -q -o "$tmp/b" models/demo.xml
for f in trajectory.csv events.jsonl summary.json; do
	if cmp -s "$tmp/a/$f" "$tmp/b/$f"; then ok; else bad "$f differs between identical runs"; fi
done
if [ -z "$(find "$tmp/a" -name '.*' -type f)" ]; then ok; else bad "temporary files left behind"; fi
expect 0 "run demo with other seed" "$SW" run -q -s 99 -o "$tmp/c" models/demo.xml
if cmp -s "$tmp/a/trajectory.csv" "$tmp/c/trajectory.csv"; then bad "seed has no effect"; else ok; fi

# SteerSuite test cases: `run` recognises them; the scenario `import-steersuite` writes is the
# same run byte for byte; bad cases exit 2 with file:line and write nothing.
expect 0 "import-steersuite --help" "$SW" import-steersuite --help
ss=tests/data/steersuite/mixed.xml
expect 0 "run a SteerSuite case" "$SW" run -q -s 3 -o "$tmp/ss_run" "$ss"
expect 0 "import a SteerSuite case" "$SW" import-steersuite -s 3 -o "$tmp/ss_scenario.xml" "$ss"
expect 0 "check the imported scenario" "$SW" check -q "$tmp/ss_scenario.xml"
expect 0 "check a SteerSuite case" "$SW" check -q "$ss"
expect 0 "run the imported scenario" "$SW" run -q -o "$tmp/ss_imported" "$tmp/ss_scenario.xml"
for f in trajectory.csv events.jsonl summary.json; do
	if cmp -s "$tmp/ss_run/$f" "$tmp/ss_imported/$f"; then ok; else bad "$f differs between the SteerSuite case and its import"; fi
done
if grep -q '"composite01"' "$tmp/ss_run/summary.json" && grep -q '"steerbench": {"unique_collisions"' "$tmp/ss_run/summary.json"; then ok; else bad "summary lacks the SteerBench metrics"; fi
# obstacle-clearances="false" (imported cases): no per-obstacle table; the property needing it is refused
if grep -q '"clearance": {' "$tmp/ss_run/summary.json"; then bad "an imported case's summary keeps per-obstacle clearances"; else ok; fi
sed 's/<run /<run obstacle-clearances="false" /' tests/data/barrier.xml >"$tmp/noclear.xml"
expect 2 "clearance(agent, obstacle) without per-obstacle clearances" "$SW" sweep -q -n 1 -P 'clearance(w1, pillar) > 0' -o "$tmp/noclear.csv" "$tmp/noclear.xml"
if grep -q 'obstacle-clearances="false"' /tmp/swerve_cli_err.$$; then ok; else bad "the refusal does not name obstacle-clearances"; fi
expect 0 "run a SteerSuite case with another seed" "$SW" run -q -s 4 -o "$tmp/ss_run4" "$ss"
if cmp -s "$tmp/ss_run/trajectory.csv" "$tmp/ss_run4/trajectory.csv"; then bad "the seed does not change the random placements"; else ok; fi
# squeezing (the default, also named by --squeeze): every pedestrian goal gets a ghost mode
# `_squeeze` beside its two detours, which keep their turns; --no-squeeze writes none
expect 0 "import with --squeeze" "$SW" import-steersuite -q -s 3 --squeeze -o "$tmp/ss_squeeze.xml" "$ss"
if cmp -s "$tmp/ss_squeeze.xml" "$tmp/ss_scenario.xml"; then ok; else bad "--squeeze imports otherwise than the default"; fi
n_sq=$(grep -c '<mode name="[^"]*_squeeze" ghost="true">' "$tmp/ss_squeeze.xml")
n_dl=$(grep -c '<mode name="[^"]*_detour_left">' "$tmp/ss_squeeze.xml")
if [ "$n_sq" -gt 0 ] && [ "$n_sq" = "$n_dl" ] && grep -q 'bias="60deg"' "$tmp/ss_squeeze.xml" && grep -q 'bias="-60deg"' "$tmp/ss_squeeze.xml" && [ "$(grep -c 'ghost=' "$tmp/ss_squeeze.xml")" = "$n_sq" ]; then ok; else bad "squeezing import: $n_sq ghost squeeze modes for $n_dl left detours, or a detour lost its turn"; fi
expect 0 "import with --no-squeeze" "$SW" import-steersuite -q -s 3 --no-squeeze -o "$tmp/ss_nosqueeze.xml" "$ss"
if grep -q 'ghost=\|_squeeze"' "$tmp/ss_nosqueeze.xml" || ! grep -q '_detour_left"' "$tmp/ss_nosqueeze.xml"; then bad "--no-squeeze writes ghost or squeeze modes, or lost the detours"; else ok; fi
# the last of the two spellings wins
expect 0 "import with --squeeze --no-squeeze" "$SW" import-steersuite -q -s 3 --squeeze --no-squeeze -o "$tmp/ss_sq_nosq.xml" "$ss"
expect 0 "import with --no-squeeze --squeeze" "$SW" import-steersuite -q -s 3 --no-squeeze --squeeze -o "$tmp/ss_nosq_sq.xml" "$ss"
if cmp -s "$tmp/ss_sq_nosq.xml" "$tmp/ss_nosqueeze.xml" && cmp -s "$tmp/ss_nosq_sq.xml" "$tmp/ss_scenario.xml"; then ok; else bad "of --squeeze and --no-squeeze the last one given does not win"; fi
expect 0 "run the squeezing import" "$SW" run -q -o "$tmp/ss_squeeze" "$tmp/ss_squeeze.xml"
expect 2 "export refuses ghost modes of agents that perceive each other" "$SW" export -q -o "$tmp/ss_squeeze_export" tests/data/ghost_pair.xml
if grep -q 'ghost mode' /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/ss_squeeze_export" ]; then ok; else bad "the export's refusal does not name the ghost mode, or wrote something"; fi
expect 2 "import without -o" "$SW" import-steersuite "$ss"
expect 2 "import with a bad step" "$SW" import-steersuite --step 0 -o "$tmp/x.xml" "$ss"
for f in tests/data/steersuite/bad_*.xml; do
	expect 2 "run $f" "$SW" run -q -o "$tmp/ss_bad" "$f"
	if grep -q "^$f:[0-9][0-9]*: error: " /tmp/swerve_cli_err.$$; then ok; else bad "$f: message does not start with file:line"; cat /tmp/swerve_cli_err.$$ >&2; fi
	expect 2 "import $f" "$SW" import-steersuite -o "$tmp/ss_bad.xml" "$f"
	if [ -e "$tmp/ss_bad" ] || [ -n "$(ls "$tmp" | grep '^ss_bad\.xml')" ]; then bad "$f left output"; else ok; fi
done

# Ensembles (docs/ensembles.md).  tests/data/coin.xml is a fair coin: P(pass above) = 1/2.
O=/tmp/swerve_cli_out.$$
expect 0 "smc --help" "$SW" smc --help
expect 0 "sweep --help" "$SW" sweep --help
expect 0 "smc fair coin" "$SW" smc tests/data/coin.xml --reach walker:upper -n 600 -c 0.999 -j 2
if awk '/^interval:/ { found = 1; ok = $2 <= 0.5 && 0.5 <= $3 } END { exit !(found && ok) }' "$O"; then ok; else bad "coin: 99.9% interval misses 1/2"; cat "$O" >&2; fi
expect 0 "smc until narrow" "$SW" smc tests/data/coin.xml --reach walker:upper --width 0.2 -b 7
if grep -q '^stopped: width' "$O" && awk '/^interval:/ { exit !($3 - $2 <= 0.2) }' "$O"; then ok; else bad "smc --width did not stop on width"; cat "$O" >&2; fi
expect 0 "smc sprt" "$SW" smc tests/data/coin.xml --reach walker:upper --sprt 0.25 --indifference 0.05
if grep -q '^sprt: above' "$O"; then ok; else bad "smc --sprt 0.25 on a fair coin did not decide above"; cat "$O" >&2; fi
expect 0 "smc 1 thread" "$SW" smc tests/data/coin.xml --safe -P 'reach(walker, goal) <= 15' --width 0.15 -j 1 --csv "$tmp/smc1.csv"
cp "$O" "$tmp/smc1.out"
expect 0 "smc 2 threads" "$SW" smc tests/data/coin.xml --safe -P 'reach(walker, goal) <= 15' --width 0.15 -j 2 -b 5 --csv "$tmp/smc2.csv"
if cmp -s "$O" "$tmp/smc1.out" && cmp -s "$tmp/smc1.csv" "$tmp/smc2.csv"; then ok; else bad "smc differs between 1 and 2 threads"; fi
expect 2 "smc unknown agent" "$SW" smc tests/data/coin.xml -P 'reach(nobody, goal) < 3'
if grep -q '^property:1:' /tmp/swerve_cli_err.$$; then ok; else bad "property error lacks property:line:col"; fi
expect 2 "smc without property" "$SW" smc tests/data/coin.xml
expect 2 "smc bad sprt" "$SW" smc tests/data/coin.xml --safe --sprt 1.5
expect 2 "sweep unknown parameter" "$SW" sweep tests/data/coin.xml -p walker.glm.nope=1:2:1 -o "$tmp/none.csv"
if grep -q "parameter 'walker.glm.nope'" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/none.csv" ]; then ok; else bad "unknown --param: message or partial output"; cat /tmp/swerve_cli_err.$$ >&2; fi
expect 2 "sweep bad spec" "$SW" sweep tests/data/coin.xml -p d0=3:1:1
expect 2 "sweep bad value at a point" "$SW" sweep tests/data/coin.xml -p walker.radius=0.25,-1 -o "$tmp/none.csv"
if grep -q "grid point 1" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/none.csv" ]; then ok; else bad "bad grid value: message or partial output"; fi
expect 0 "sweep 1 thread" "$SW" sweep tests/data/coin.xml -p d0=1:2:0.5 -p run.duration=12,20 -n 4 -P 'reach(walker, upper) <= t_end' -j 1 -o "$tmp/sw1.csv"
expect 0 "sweep 2 threads" "$SW" sweep tests/data/coin.xml -p d0=1:2:0.5 -p run.duration=12,20 -n 4 -P 'reach(walker, upper) <= t_end' -j 2 -o "$tmp/sw2.csv"
if cmp -s "$tmp/sw1.csv" "$tmp/sw2.csv" && [ "$(wc -l < "$tmp/sw1.csv")" = 25 ]; then ok; else bad "sweep CSV differs between 1 and 2 threads or lacks rows"; fi
if [ "$(awk -F, 'NR > 1 && $4 == 1.5 && $5 == 20 { n++ } END { print n }' "$tmp/sw1.csv")" = 4 ]; then ok; else bad "sweep grid values"; fi
# A run of the sweep is the scenario run with its seed (run 9: d0 = 1.5 as in the file, 12 s,
# seed 2): the same path length.
expect 0 "sweep replay" "$SW" run -q -s 2 -d 12 -o "$tmp/replay" tests/data/coin.xml
len=$(awk -F, '$1 == 9 && $3 == 2 && $4 == 1.5 && $5 == 12 { print $12 }' "$tmp/sw1.csv")
ref=$(sed -n 's/.*"path_length": \([^,]*\),.*/\1/p' "$tmp/replay/summary.json")
if [ -n "$len" ] && awk -v a="$len" -v b="$ref" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }'; then ok; else bad "sweep run 9 ($len) is not swerve run --seed 2 ($ref)"; fi
# Failing runs are rows (status failed, the message), and the exit status says so.
expect 1 "sweep with failing runs" "$SW" sweep tests/data/blowup.xml -p run.duration=1,5 -n 2 -o "$tmp/fail.csv"
if [ "$(grep -c ',failed,' "$tmp/fail.csv")" = 2 ] && [ "$(grep -c ',ok,' "$tmp/fail.csv")" = 2 ] && grep -q "agent 'bomb'" "$tmp/fail.csv"; then ok; else bad "failing runs not reported in the sweep CSV"; cat "$tmp/fail.csv" >&2; fi
expect 1 "smc with failing runs" "$SW" smc tests/data/blowup.xml -P 'visited(bomb, grow)' -n 3
if [ "$(grep -c '^failed-run: ' "$O")" = 3 ] && grep -q '^failed: 3' "$O"; then ok; else bad "smc failing runs"; cat "$O" >&2; fi

# MPI: the same CSV and estimate with 1 and 3 ranks.  Skipped only when mpirun is absent
# (CI installs Open MPI, so CI runs this).
if command -v mpirun >/dev/null 2>&1; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
	# Open MPI does not free all it allocates (reported as leaks in libmpi and its plugins when
	# the CLI runs under `make asan`); leaks of swerve's own code are checked by the runs above.
	MPIRUN="env ASAN_OPTIONS=detect_leaks=0 mpirun --oversubscribe"
	expect 0 "sweep 3 ranks" $MPIRUN -n 3 "$SWABS" sweep tests/data/coin.xml -p d0=1:2:0.5 -p run.duration=12,20 -n 4 -P 'reach(walker, upper) <= t_end' -o "$tmp/sw3.csv"
	if cmp -s "$tmp/sw1.csv" "$tmp/sw3.csv"; then ok; else bad "sweep CSV differs between 1 and 3 ranks"; fi
	expect 0 "smc 3 ranks" $MPIRUN -n 3 "$SWABS" smc tests/data/coin.xml --safe -P 'reach(walker, goal) <= 15' --width 0.15 -b 5 --csv "$tmp/smc3.csv"
	if cmp -s "$O" "$tmp/smc1.out" && cmp -s "$tmp/smc1.csv" "$tmp/smc3.csv"; then ok; else bad "smc differs between 1 and 3 ranks"; diff "$O" "$tmp/smc1.out" >&2; fi
	expect 1 "sweep 3 ranks with failing runs" $MPIRUN -n 3 "$SWABS" sweep tests/data/blowup.xml -p run.duration=1,5 -n 2 -o "$tmp/fail3.csv"
	if cmp -s "$tmp/fail.csv" "$tmp/fail3.csv"; then ok; else bad "failing runs differ between 1 and 3 ranks"; fi
	expect 2 "bad input under mpirun" $MPIRUN -n 2 "$SWABS" sweep tests/data/coin.xml -p nope.x=1
else
	echo "cli: mpirun not found; MPI tests skipped" >&2
fi

# --variables: variables.csv holds every automaton unit's mode and variables at every sample (the
# light's clock c grows with time in mode; a pedestrian's `waited` accumulates while it waits;
# six pedestrians and the light give 7 rows at t = 0), is
# committed with the rest, survives a checkpoint and resume byte for byte, and is not written
# without the option.
expect 0 "run with --variables" "$SW" run -q --variables -o "$tmp/vars" models/street_crossing.xml
if [ "$(head -1 "$tmp/vars/variables.csv")" = "t,unit,mode,variable,value" ] \
	&& grep -q "^0,light,cars_green,c,0$" "$tmp/vars/variables.csv" \
	&& awk -F, '$2 == "n1" && $4 == "waited" && $5 > 1 { found = 1 } END { exit !found }' "$tmp/vars/variables.csv" \
	&& [ "$(awk -F, 'NR > 1 && $1 == 0' "$tmp/vars/variables.csv" | wc -l)" = 7 ]; then ok; else bad "variables.csv content"; head -8 "$tmp/vars/variables.csv" >&2; fi
expect 0 "run without --variables" "$SW" run -q -o "$tmp/novars" models/street_crossing.xml
if [ ! -e "$tmp/novars/variables.csv" ]; then ok; else bad "variables.csv written without --variables"; fi
expect 1 "halt with --variables" "$SW" run -q --variables --checkpoint-every 10 --halt-at 25 -o "$tmp/vars_ck" models/street_crossing.xml
expect 0 "resume with --variables" "$SW" run -q --variables --checkpoint-every 10 --resume -o "$tmp/vars_ck" models/street_crossing.xml
if cmp -s "$tmp/vars/variables.csv" "$tmp/vars_ck/variables.csv"; then ok; else bad "variables.csv of the resumed run differs"; fi
# Numbers as the shortest text that reads back (sw_fmt_num): a variable set to 0.3 reads 0.3 in
# variables.csv (not %.17g's 0.29999999999999999), and so do a sweep's parameter column and
# summary.json's numbers.
cat > "$tmp/tenths.xml" <<'EOF2'
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="tenths">
  <run duration="0.5" step="0.25" integrator="euler"/>
  <behaviours>
    <automaton name="hold">
      <var name="z" kind="real" init="0.3"/>
      <mode name="still"/>
    </automaton>
  </behaviours>
  <world><target name="here" x="5" y="0" radius="0.3"/></world>
  <agent name="a" x="0" y="0" behaviour="hold" radius="0.3"/>
</scenario>
EOF2
expect 0 "run --variables, a variable of 0.3" "$SW" run -q --variables -o "$tmp/tenths" "$tmp/tenths.xml"
if [ "$(sed -n 2p "$tmp/tenths/variables.csv")" = "0,a,still,z,0.3" ] && ! grep -q "99999\|00000" "$tmp/tenths/variables.csv" "$tmp/tenths/summary.json"; then ok; else bad "variables.csv or summary.json: not the shortest number text"; cat "$tmp/tenths/variables.csv" >&2; fi
expect 0 "sweep -p run.duration=0.3" "$SW" sweep tests/data/coin.xml -p run.duration=0.3 -n 1
if awk -F, 'NR == 2 { exit !($4 == "0.3") }' "$O"; then ok; else bad "sweep: the parameter column is not 0.3"; cat "$O" >&2; fi

# Checkpoints: a run halted after a checkpoint and resumed writes the outputs of an uninterrupted
# run, byte for byte (signals, automata, events; progress() histories in the trap; planned
# routes); a damaged or missing checkpoint is refused with exit 2.
for m in models/street_crossing models/seek_escape_trap tests/data/route_walls; do
	n=${m##*/} every=10 halt=25
	# (route_walls: planned routes, halted at 10 s half-way along them; 20 s in all)
	if [ "$n" = route_walls ]; then every=5 halt=10; fi
	expect 0 "run $n whole" "$SW" run -q -o "$tmp/ck_full_$n" "$m.xml"
	expect 1 "run $n halted" "$SW" run -q --checkpoint-every $every --halt-at $halt -o "$tmp/ck_$n" "$m.xml"
	if [ -f "$tmp/ck_$n/checkpoint.swck" ] && [ ! -e "$tmp/ck_$n/trajectory.csv" ]; then ok; else bad "$n: halted run left no checkpoint or left outputs"; fi
	expect 0 "run $n resumed" "$SW" run -q --checkpoint-every $every --resume -o "$tmp/ck_$n" "$m.xml"
	for f in trajectory.csv events.jsonl summary.json; do
		if cmp -s "$tmp/ck_full_$n/$f" "$tmp/ck_$n/$f"; then ok; else bad "$n: $f of the resumed run differs"; fi
	done
	if [ ! -e "$tmp/ck_$n/checkpoint.swck" ]; then ok; else bad "$n: finished run kept its checkpoint"; fi
done
# --sample T: a trajectory row every T seconds instead of the scenario's sample; summary and
# events are those of the run without it (the run is the same), the rows are the whole run's rows
# at multiples of T, a checkpoint made with one interval is not resumed with another, and an
# interval that is not a multiple of the step is refused with exit 2 and nothing written.
expect 0 "street_crossing sampled every 2 s" "$SW" run -q --sample 2 -o "$tmp/sample2" models/street_crossing.xml
for f in events.jsonl summary.json; do
	if cmp -s "$tmp/ck_full_street_crossing/$f" "$tmp/sample2/$f"; then ok; else bad "--sample 2: $f differs from the run without it"; fi
done
awk -F, 'NR == 1 || ($1 * 10) % 20 == 0' "$tmp/ck_full_street_crossing/trajectory.csv" >"$tmp/sample2_expected.csv"
if cmp -s "$tmp/sample2_expected.csv" "$tmp/sample2/trajectory.csv" && [ "$(wc -l <"$tmp/sample2/trajectory.csv")" -lt "$(wc -l <"$tmp/ck_full_street_crossing/trajectory.csv")" ]; then ok; else bad "--sample 2: trajectory.csv is not the run's rows at multiples of 2 s"; fi
expect 1 "halt sampled every 2 s" "$SW" run -q --sample 2 --checkpoint-every 10 --halt-at 25 -o "$tmp/sample_ck" models/street_crossing.xml
expect 2 "resume with another sample interval" "$SW" run -q --checkpoint-every 10 --resume -o "$tmp/sample_ck" models/street_crossing.xml
if grep -q "sample 2 s" /tmp/swerve_cli_err.$$; then ok; else bad "resume with another --sample: no clear message"; fi
expect 0 "resume sampled every 2 s" "$SW" run -q --sample 2 --checkpoint-every 10 --resume -o "$tmp/sample_ck" models/street_crossing.xml
if cmp -s "$tmp/sample2/trajectory.csv" "$tmp/sample_ck/trajectory.csv"; then ok; else bad "--sample 2: the resumed run's trajectory differs"; fi
expect 2 "--sample not a multiple of the step" "$SW" run -q --sample 0.015 -o "$tmp/sample_bad" models/street_crossing.xml
if [ ! -e "$tmp/sample_bad" ] && grep -q "multiple of the run's step" /tmp/swerve_cli_err.$$; then ok; else bad "--sample 0.015: no clear message, or outputs written"; fi
expect 1 "halt for a damaged checkpoint" "$SW" run -q --checkpoint-every 10 --halt-at 25 -o "$tmp/ck_bad" models/street_crossing.xml
printf 'x' | dd of="$tmp/ck_bad/checkpoint.swck" bs=1 seek=200 conv=notrunc 2>/dev/null
expect 2 "resume from a damaged checkpoint" "$SW" run -q --resume -o "$tmp/ck_bad" models/street_crossing.xml
if grep -q "checkpoint" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/ck_bad/trajectory.csv" ]; then ok; else bad "damaged checkpoint: no clear message, or outputs written"; fi
expect 2 "resume without a checkpoint" "$SW" run -q --resume -o "$tmp/ck_none" models/street_crossing.xml
expect 1 "halt the trap" "$SW" run -q --checkpoint-every 10 --halt-at 25 -o "$tmp/ck_seed" models/seek_escape_trap.xml
expect 2 "resume with another seed" "$SW" run -q --resume -s 99 -o "$tmp/ck_seed" models/seek_escape_trap.xml
if grep -q "another scenario, seed" /tmp/swerve_cli_err.$$; then ok; else bad "resume with another seed: no clear message"; fi

# Three dimensions (docs/crowds.md): a 3-D flock writes the same bytes on 1 and 2 threads and
# after a checkpoint and resume, with the z,ux,uy,uz columns; heights in a 2-D scenario and the
# export of a 3-D one are refused at file:line, with no output.
expect 0 "3-D flock, 1 thread" "$SW" run -q -j 1 -d 3 -o "$tmp/f3a" models/crowd_flock3d.xml
expect 0 "3-D flock, 2 threads" "$SW" run -q -j 2 -d 3 -o "$tmp/f3b" models/crowd_flock3d.xml
expect 1 "3-D flock halted" "$SW" run -q -j 2 -d 3 --checkpoint-every 1 --halt-at 2 -o "$tmp/f3c" models/crowd_flock3d.xml
expect 0 "3-D flock resumed" "$SW" run -q -j 2 -d 3 --checkpoint-every 1 --resume -o "$tmp/f3c" models/crowd_flock3d.xml
for f in trajectory.csv events.jsonl summary.json; do
	if cmp -s "$tmp/f3a/$f" "$tmp/f3b/$f" && cmp -s "$tmp/f3a/$f" "$tmp/f3c/$f"; then ok; else bad "3-D flock: $f differs between 1, 2 threads or a resumed run"; fi
done
if head -1 "$tmp/f3a/trajectory.csv" | grep -q ',w_obs,z,ux,uy,uz$' && ! head -1 "$tmp/ck_full_street_crossing/trajectory.csv" | grep -q ',z,'; then ok; else bad "3-D trajectory columns"; fi
printf '<scenario name="z2d">\n<world>\n<target name="t" x="1" y="0"\n z="3"/>\n</world>\n<agent x="0" y="0"/>\n</scenario>\n' > "$tmp/z2d.xml"
expect 2 "z in a 2-D scenario" "$SW" run -q -o "$tmp/z2d_out" "$tmp/z2d.xml"
if grep -q "^$tmp/z2d.xml:[34]: error: attribute z of <target> needs a 3-D scenario" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/z2d_out/trajectory.csv" ]; then ok; else bad "z in a 2-D scenario: message or outputs"; cat /tmp/swerve_cli_err.$$ >&2; fi
expect 2 "export a 3-D scenario" "$SW" export -o "$tmp/f3x" models/crowd_flock3d.xml
if grep -q "^models/crowd_flock3d.xml:[0-9]*: error: a 3-D scenario .* cannot be exported" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/f3x" ]; then ok; else bad "3-D export: no clear refusal, or output"; cat /tmp/swerve_cli_err.$$ >&2; fi
expect 2 "heading plot of a 3-D agent" "$SW" plot --agent b000 --at 1 -o "$tmp/f3p.svg" models/crowd_flock3d.xml
if grep -q "^models/crowd_flock3d.xml:[0-9]*: error: heading plot: a 3-D scenario" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/f3p.svg" ]; then ok; else bad "3-D heading plot: no clear refusal"; fi
expect 2 "analyze a 3-D agent" "$SW" analyze --agent b000 --at 1 models/crowd_flock3d.xml
expect 0 "render a 3-D flock (x-y projection)" "$SW" render -q -d 2 -o "$tmp/f3.svg" models/crowd_flock3d.xml

# No command replaces an input file or writes outside the chosen folder (issue 21).
mkdir -p "$tmp/own" && cp models/glm_barrier.xml "$tmp/own/" && cp "$tmp/own/glm_barrier.xml" "$tmp/own/orig.xml"
expect 2 "export over its own scenario" sh -c "cd '$tmp/own' && '$SWABS' export -o . glm_barrier.xml"
if cmp -s "$tmp/own/glm_barrier.xml" "$tmp/own/orig.xml" && grep -q "refusing to replace it" /tmp/swerve_cli_err.$$; then ok; else bad "export replaced its scenario, or said nothing"; fi
expect 0 "export with the default folder" sh -c "cd '$tmp/own' && '$SWABS' export glm_barrier.xml"
if [ -f "$tmp/own/out/glm_barrier/glm_barrier.xml" ] && cmp -s "$tmp/own/glm_barrier.xml" "$tmp/own/orig.xml"; then ok; else bad "export default folder is not out/NAME"; fi
mkdir -p "$tmp/hostile/a/b"
sed 's/<scenario name="[^"]*"/<scenario name="..\/..\/escaped"/' models/glm_barrier.xml > "$tmp/hostile/a/b/h.xml"
expect 0 "run a scenario named ../../escaped" sh -c "cd '$tmp/hostile/a/b' && '$SWABS' run -q -d 1 h.xml && '$SWABS' render -q -d 1 h.xml && '$SWABS' plot --agent walker --at 0.5 h.xml"
outside=$(find "$tmp" -name '*escaped*' | grep -v "^$tmp/hostile/a/b/" | wc -l)
if [ "$outside" = 0 ] && [ -f "$tmp/hostile/a/b/out/_._.._escaped/summary.json" ] && [ -f "$tmp/hostile/a/b/_._.._escaped.svg" ] && [ -f "$tmp/hostile/a/b/_._.._escaped_walker_plot.svg" ]; then ok; else bad "a hostile scenario name wrote outside the folder"; ls -R "$tmp/hostile" >&2; fi
# A SteerSuite test case is accepted wherever a scenario is.
expect 0 "render a SteerSuite case" "$SW" render -q -o "$tmp/ss.svg" tests/data/steersuite/mixed.xml
# Its pedestrians run the time-to-collision law, which export refuses at the line of the agent
# in the test case (line 48; not the line of the scenario the import generated), writing nothing.
expect 2 "export a SteerSuite case" "$SW" export -f json -o "$tmp/ssx" tests/data/steersuite/mixed.xml
if grep -q "^tests/data/steersuite/mixed.xml:48: error: agent 'leader' .* time-to-collision law" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/ssx" ]; then ok; else bad "export of a SteerSuite case: no line-located refusal, or output written"; cat /tmp/swerve_cli_err.$$ >&2; fi

# The import's own warnings cite the test case's line in every command, once (line 22: a box
# with min and max swapped); `run` prints diagnostics of several stages in between.
sed 's|<xmin>-1</xmin> <xmax>1</xmax> <ymin>0</ymin>|<xmin>1</xmin> <xmax>-1</xmax> <ymin>0</ymin>|' tests/data/steersuite/mixed.xml > "$tmp/ss_inverted.xml"
for c in check "run -q -d 0.1 -o $tmp/ss_inv_run" "render -q -d 0.1 -o $tmp/ss_inv.svg" \
	 "import-steersuite -o $tmp/ss_inv_imported.xml" "export -f json -o $tmp/ss_inv_x"; do
	code=0; case $c in export*) code=2;; esac # (export refuses the law, at :48)
	expect $code "$c: a test case with a warning" "$SW" $c "$tmp/ss_inverted.xml"
	if [ "$(grep -c "ss_inverted.xml:22: warning: <obstacle>: min and max inverted" /tmp/swerve_cli_err.$$)" = 1 ] &&
	   [ "$(grep -c "warning" /tmp/swerve_cli_err.$$)" = 1 ]; then ok; else bad "$c: the import's warning not once at line 22"; cat /tmp/swerve_cli_err.$$ >&2; fi
done

# A scenario that ends before a required element: the element named and the order given, not
# libxml2's "Expecting an element , got nothing".
printf '<?xml version="1.0"?>\n<scenario name="x">\n<run duration="5" step="0.25"/>\n<world/>\n</scenario>\n' > "$tmp/noagent.xml"
expect 2 "check a scenario without agents" "$SW" check "$tmp/noagent.xml"
if grep -q "noagent.xml:2: error: not a valid scenario: <scenario> ends before an element it requires (the children of <scenario> come in the order" /tmp/swerve_cli_err.$$ &&
   ! grep -q "got nothing" /tmp/swerve_cli_err.$$; then ok; else bad "a missing element: message"; cat /tmp/swerve_cli_err.$$ >&2; fi

# CLI conventions (docs/swerve.1, CONVENTIONS): every command accepts -q, -v, -V and -h; a usage
# error prints the message and one "try" line, nothing on stdout; a short option means the same
# in every command; data on stdout, summaries and notes on stderr.
O=/tmp/swerve_cli_out.$$
E=/tmp/swerve_cli_err.$$
cmds="run check graph render export analyze plot import-steersuite smc sweep"
for c in $cmds; do
	expect 0 "$c -V" "$SW" $c -V
	if [ "$(cat "$O")" = "swerve $("$SW" --version | cut -d' ' -f2)" ]; then ok; else bad "$c -V does not print the version"; fi
	expect 0 "$c -q -v -h" "$SW" $c -q -v -h
	if grep -q "^usage: swerve $c" "$O"; then ok; else bad "$c -h: no usage on stdout"; fi
	expect 2 "$c with an unknown option" "$SW" $c --no-such-option models/demo.xml
	if [ "$(wc -l < "$E")" = 2 ] && head -n 1 "$E" | grep -qx "swerve $c: unknown option '--no-such-option'" \
		&& tail -n 1 "$E" | grep -qx "try 'swerve $c --help'" && [ ! -s "$O" ]; then ok; else
		bad "$c: an unknown option gives more than a message and a try line"; cat "$E" >&2; fi
	expect 2 "$c with an unknown short option" "$SW" $c -Z models/demo.xml
	if head -n 1 "$E" | grep -qx "swerve $c: unknown option '-Z'" && [ "$(wc -l < "$E")" = 2 ]; then ok; else bad "$c -Z: message"; cat "$E" >&2; fi
done
expect 2 "run -o without a value" "$SW" run models/demo.xml -o
if head -n 1 "$E" | grep -qx "swerve run: option '-o' needs a value" && [ "$(wc -l < "$E")" = 2 ]; then ok; else bad "missing value: message"; cat "$E" >&2; fi
expect 2 "smc --runs without a value" "$SW" smc tests/data/coin.xml --safe --runs
if head -n 1 "$E" | grep -qx "swerve smc: option '--runs' needs a value"; then ok; else bad "missing long value: message"; cat "$E" >&2; fi
expect 2 "run --quiet=1" "$SW" run --quiet=1 models/demo.xml
if head -n 1 "$E" | grep -qx "swerve run: option '--quiet' takes no value"; then ok; else bad "--quiet=1: message"; cat "$E" >&2; fi
expect 2 "run without file: one try line" "$SW" run
if [ "$(wc -l < "$E")" = 2 ] && tail -n 1 "$E" | grep -qx "try 'swerve run --help'"; then ok; else bad "run without a file: not a message and a try line"; cat "$E" >&2; fi
# The version the same way from every spelling (exit 0, one line on stdout, nothing on stderr);
# version and help take -q, -v, -V and -h as every command does (the last of -V and -h wins).
ver=$("$SW" --version)
for args in "-V" "--version" "version" "help -V" "help --version" "-h -V" "help run -V" \
	"version -q" "version -v" "-V -q"; do
	# shellcheck disable=SC2086
	expect 0 "swerve $args" "$SW" $args
	if [ "$(cat "$O")" = "$ver" ] && grep -q "^swerve [0-9]" "$O" && [ ! -s "$E" ]; then ok; else bad "swerve $args: not the version alone: $(cat "$O" "$E")"; fi
done
for args in "help" "help -q" "help -v" "version -h" "-V -h"; do
	# shellcheck disable=SC2086
	expect 0 "swerve $args" "$SW" $args
	if head -n 1 "$O" | grep -q "^usage: swerve COMMAND" && [ ! -s "$E" ]; then ok; else bad "swerve $args: no usage"; fi
done
expect 0 "swerve help run -v" "$SW" help run -v
if head -n 1 "$O" | grep -q "^usage: swerve run" ; then ok; else bad "swerve help run -v: no run usage"; fi
for args in "version extra" "help run graph" "help --no-such-option" "help no-such-command"; do
	# shellcheck disable=SC2086
	expect 2 "swerve $args" "$SW" $args
	if [ "$(wc -l < "$E")" = 2 ] && tail -n 1 "$E" | grep -q "^try 'swerve .*--help'$" && [ ! -s "$O" ]; then ok; else bad "swerve $args: not a message and a try line"; cat "$E" >&2; fi
done
expect 2 "swerve alone" "$SW"
if [ "$(wc -l < "$E")" = 2 ] && tail -n 1 "$E" | grep -qx "try 'swerve --help'"; then ok; else bad "swerve alone: not a message and a try line"; cat "$E" >&2; fi
# Bad values are usage errors too: a message and the try line, nothing else.
while IFS='|' read -r c args; do
	# shellcheck disable=SC2086
	expect 2 "$c $args" "$SW" $c $args
	if [ "$(wc -l < "$E")" = 2 ] && tail -n 1 "$E" | grep -qx "try 'swerve $c --help'" && [ ! -s "$O" ]; then ok; else bad "$c $args: not a message and a try line"; cat "$E" >&2; fi
done <<'EOF2'
run|--seed -3 models/demo.xml
run|-j 2000 models/demo.xml
render|-w abc models/demo.xml
render|-o x.jpg models/demo.xml
plot|-a 3 models/glm_barrier.xml
analyze|-a -1 models/glm_barrier.xml
export|-f nope models/glm_barrier.xml
import-steersuite|--step 0 -o x.xml tests/data/steersuite/mixed.xml
smc|tests/data/coin.xml --reach bad
smc|tests/data/coin.xml --safe -n 2 --width 0.1
sweep|tests/data/coin.xml -p d0=3:1:1
sweep|tests/data/coin.xml -n 0
smc|tests/data/coin.xml --safe -c 2
smc|tests/data/coin.xml --safe -s x
render|-a 1 -a 2 -a 3 -a 4 -a 5 -a 6 -a 7 -a 8 -a 9 -a 10 -a 11 -a 12 -a 13 -a 14 -a 15 -a 16 -a 17 models/demo.xml
EOF2
# One meaning per short option: the "-x, --long" lines of all the helps pair each letter with
# one long name.
for c in $cmds; do "$SW" $c --help; done | sed -n 's/^ *\(-[A-Za-z]\), \(--[a-z-]*\).*/\1 \2/p' | sort -u > "$tmp/shorts"
if [ -z "$(awk '{ print $1 }' "$tmp/shorts" | uniq -d)" ]; then ok; else bad "short options with two meanings:"; awk '{ print $1 }' "$tmp/shorts" | uniq -d | while read -r s; do grep -- "^$s " "$tmp/shorts" >&2; done; fi
expect 0 "analyze -A NAME -a T" "$SW" analyze -A walker -a 5 models/glm_barrier.xml
expect 0 "plot -A NAME -a T" "$SW" plot -q -A walker -a 8 -o "$tmp/plotA.svg" models/glm_barrier.xml
expect 2 "analyze -j (was --json)" "$SW" analyze -A walker -j models/glm_barrier.xml
expect 2 "plot -n (was --agent)" "$SW" plot -n walker -a 8 -o "$tmp/plotn.svg" models/glm_barrier.xml
expect 2 "smc -w (was --width)" "$SW" smc tests/data/coin.xml --safe -w 0.1
expect 2 "export -p (was --profile)" "$SW" export -p hyst -o "$tmp/expp" models/glm_barrier.xml
expect 0 "sweep --runs and -n" "$SW" sweep tests/data/coin.xml -n 2 -o "$tmp/n.csv"
expect 0 "sweep --runs" "$SW" sweep tests/data/coin.xml --runs 2 -o "$tmp/runs.csv"
if cmp -s "$tmp/n.csv" "$tmp/runs.csv" && [ "$(wc -l < "$tmp/n.csv")" = 3 ]; then ok; else bad "sweep -n and --runs differ"; fi
# Streams: summaries on stderr, nothing on stdout; -q silences them, -v adds notes.
expect 0 "run: summary on stderr" "$SW" run -o "$tmp/streams" models/demo.xml
if [ ! -s "$O" ] && grep -q "outputs in $tmp/streams/" "$E"; then ok; else bad "run: the summary is not on stderr alone"; fi
expect 0 "run -q: nothing" "$SW" run -q -o "$tmp/streams" models/demo.xml
if [ ! -s "$O" ] && [ ! -s "$E" ]; then ok; else bad "run -q printed something"; fi
expect 0 "run -v: notes" "$SW" run -v -o "$tmp/streams" models/demo.xml
if [ ! -s "$O" ] && grep -q "^swerve run: models/demo.xml: scenario 'demo', 3 agents" "$E" && grep -q "^swerve run: stepping on" "$E"; then ok; else bad "run -v: no notes"; cat "$E" >&2; fi
expect 0 "check: report on stderr" "$SW" check models/demo.xml
if [ ! -s "$O" ] && grep -q "models/demo.xml: ok" "$E"; then ok; else bad "check: the ok line is not on stderr"; fi
expect 0 "check -q: nothing" "$SW" check -q models/demo.xml
if [ ! -s "$O" ] && [ ! -s "$E" ]; then ok; else bad "check -q printed something"; fi
expect 0 "render: summary on stderr" "$SW" render -o "$tmp/streams.svg" -d 1 models/demo.xml
if [ ! -s "$O" ] && grep -q "picture of demo" "$E"; then ok; else bad "render: the summary is not on stderr alone"; fi
expect 0 "plot: summary on stderr" "$SW" plot -A walker -a 8 -o "$tmp/streams_plot.svg" models/glm_barrier.xml
if [ ! -s "$O" ] && grep -q "heading plot of walker" "$E"; then ok; else bad "plot: the summary is not on stderr alone"; fi
expect 0 "export: summary on stderr" "$SW" export -o "$tmp/streams_exp" models/glm_barrier.xml
if [ ! -s "$O" ] && grep -q "^swerve export: wrote" "$E"; then ok; else bad "export: the summary is not on stderr alone"; fi
expect 0 "export -q: nothing" "$SW" export -q -o "$tmp/streams_exp2" models/glm_barrier.xml
if [ ! -s "$O" ] && [ ! -s "$E" ]; then ok; else bad "export -q printed something"; fi
expect 0 "analyze: data on stdout" "$SW" analyze -q -A walker -a 5 models/glm_barrier.xml
if grep -q "^agent walker" "$O" && [ ! -s "$E" ]; then ok; else bad "analyze: the report is not on stdout"; fi
# analyze and plot refuse what they cannot show: a time after the run, an agent standing still.
expect 2 "analyze after the end of the run" "$SW" analyze -A walker -a 41 models/glm_barrier.xml
if grep -q "after the end of the run (models/glm_barrier.xml lasts 40 s)" "$E" && [ ! -s "$O" ]; then ok; else bad "analyze after the run: message"; cat "$E" >&2; fi
expect 2 "analyze an agent standing still" "$SW" analyze -A walker -a 30 models/glm_barrier.xml
if grep -q "agent 'walker' stands still at t = 30 s (mode arrived" "$E" && [ ! -s "$O" ]; then ok; else bad "analyze of a still agent: message"; cat "$E" >&2; fi
expect 0 "analyze an agent at rest before it starts" "$SW" analyze -A cy models/demo.xml
expect 2 "heading plot of an agent standing still" "$SW" plot -A walker -a 30 -o "$tmp/still.svg" models/glm_barrier.xml
if grep -q "stands still" "$E" && [ ! -e "$tmp/still.svg" ]; then ok; else bad "plot of a still agent: message or file"; fi
expect 2 "heading plot after the end of the run" "$SW" plot -A walker -a 50 -o "$tmp/late.svg" models/glm_barrier.xml
if grep -q "after the end of the run" "$E" && [ ! -e "$tmp/late.svg" ]; then ok; else bad "plot after the run: message or file"; fi
expect 2 "time series after the end of the run" "$SW" plot -A walker --series -a 50 -o "$tmp/late2.svg" models/glm_barrier.xml
if grep -q "after the end of the run" "$E" && [ ! -e "$tmp/late2.svg" ]; then ok; else bad "series after the run: message or file"; fi
cat > "$tmp/still.xml" <<'EOF2'
<scenario name="still"><run duration="2" step="0.25" seed="1"/>
<world><target name="goal" x="0" y="0" radius="0.5"/></world>
<agent name="a" x="0" y="0" heading="90deg" radius="0.25" target="goal"><glm/></agent></scenario>
EOF2
expect 2 "time series of an agent that never moves" "$SW" plot -A a --series -o "$tmp/never.svg" "$tmp/still.xml"
if grep -q "agent 'a' never moves" "$E" && [ ! -e "$tmp/never.svg" ]; then ok; else bad "series of a still agent: message or file"; cat "$E" >&2; fi
# report.txt lists only the files its export wrote, and no 17-digit numbers.
expect 0 "export JSON only" "$SW" export -f json -o "$tmp/rep" models/glm_barrier.xml
if grep -q "^files:    glm_barrier.json$" "$tmp/rep/report.txt" && ! grep -q "\.cfg" "$tmp/rep/report.txt" && ! grep -qE "[0-9]\.[0-9]{12,}" "$tmp/rep/report.txt"; then ok; else bad "report.txt lists files it did not write or long numbers"; cat "$tmp/rep/report.txt" >&2; fi
# An Euler scenario's report states how far its simulation is from the exported ODE (against
# an adaptive run) and suggests the adaptive stepper; an rk4 scenario's report does not.
if grep -qE "run: the simulator integrates with Euler at a 0.25 s step, .* by up to [0-9.]+ m \(agent 'walker', t = [0-9.]+ s\); for twin runs .*integrator=\"rkf45\"" "$tmp/rep/report.txt"; then ok; else bad "report.txt of an Euler scenario: no integration error"; cat "$tmp/rep/report.txt" >&2; fi
expect 0 "export of an rk4 scenario" "$SW" export -f json -o "$tmp/rep4" models/demo.xml
if ! grep -q "the simulator integrates with" "$tmp/rep4/report.txt"; then ok; else bad "report.txt of an adaptive scenario mentions an integration error"; fi
# A switching law under an adaptive stepper gets a warning at the agent's line (it would crawl);
# under Euler none.
cat > "$tmp/ttc_rk4.xml" <<'EOF2'
<?xml version="1.0"?>
<scenario name="ttc_rk4"><run duration="1" step="0.01" integrator="rk4"/>
<world><target name="goal" x="5" y="0" radius="0.3"/></world>
<agent name="a" x="0" y="0" target="goal">
  <ttc/></agent></scenario>
EOF2
expect 0 "check of ttc under rk4" "$SW" check "$tmp/ttc_rk4.xml"
if grep -q "ttc_rk4.xml:4: warning: agent 'a' steers with <ttc> under the adaptive stepper 'rk4'" "$E"; then ok; else bad "no warning for ttc under rk4"; cat "$E" >&2; fi
sed 's/integrator="rk4"/integrator="euler"/' "$tmp/ttc_rk4.xml" > "$tmp/ttc_euler.xml"
expect 0 "check of ttc under euler" "$SW" check "$tmp/ttc_euler.xml"
if ! grep -q "warning" "$E"; then ok; else bad "a warning for ttc under euler"; cat "$E" >&2; fi
# A write that fails mid-run (here the file-size limit; ENOSPC alike) names the file and the reason.
expect 1 "run past the file-size limit" sh -c "trap '' XFSZ; ulimit -f 2; '$SWABS' run -q -o '$tmp/fsize' models/demo.xml"
if grep -q "^$tmp/fsize/trajectory.csv: error: cannot write the output: File too large" /tmp/swerve_cli_err.$$ && [ ! -e "$tmp/fsize/summary.json" ]; then ok; else bad "a failed write is not named"; cat /tmp/swerve_cli_err.$$ >&2; fi
# -o "" and --resume without a checkpoint: a clear message, exit 2, nothing created.
expect 2 "run -o empty" "$SW" run -q -o "" models/demo.xml
if grep -q "option '-o' is empty" /tmp/swerve_cli_err.$$ && ! grep -q "Success" /tmp/swerve_cli_err.$$; then ok; else bad "-o '' message"; cat /tmp/swerve_cli_err.$$ >&2; fi
expect 2 "resume without a checkpoint" "$SW" run -q --resume -o "$tmp/noresume" models/demo.xml
if [ ! -e "$tmp/noresume" ] && grep -q "checkpoint.swck: error: cannot read the checkpoint" /tmp/swerve_cli_err.$$; then ok; else bad "--resume without a checkpoint left a folder or said nothing"; fi
# Progress on a terminal: simulated time, speed against real time, time left (script gives a tty).
if command -v script > /dev/null 2>&1; then
	script -qc "'$SWABS' run -o '$tmp/prog' models/demo.xml" /dev/null > "$tmp/prog.txt" 2>&1
	if tr '\r' '\n' < "$tmp/prog.txt" | grep -q "t = 40 of 40 s, .* x real time"; then ok; else bad "progress lacks simulated time and rate"; cat "$tmp/prog.txt" >&2; fi
	# sweep and smc: runs done (of the total, or at most --max-runs) and the rate; none with -q.
	script -qc "'$SWABS' sweep tests/data/coin.xml -p run.duration=1:20:1 -o '$tmp/prog.csv'" /dev/null > "$tmp/prog.txt" 2>&1
	if tr '\r' '\n' < "$tmp/prog.txt" | grep -q "^swerve: 100%  20 of 20 runs, .* runs/s in " &&
	   tr '\r' '\n' < "$tmp/prog.txt" | grep -q "^swerve: *[0-9]*%  [0-9]* of 20 runs, .* s left"; then ok; else bad "sweep: no progress on a terminal"; cat "$tmp/prog.txt" >&2; fi
	script -qc "'$SWABS' smc tests/data/coin.xml --reach walker:upper -n 600" /dev/null > "$tmp/prog.txt" 2>&1
	if tr '\r' '\n' < "$tmp/prog.txt" | grep -q "^swerve:  42%  256 of 600 runs, .* runs/s, .* s left" &&
	   tr '\r' '\n' < "$tmp/prog.txt" | grep -q "^swerve: 100%  600 of 600 runs, .* runs/s in "; then ok; else bad "smc -n: no progress on a terminal"; cat "$tmp/prog.txt" >&2; fi
	script -qc "'$SWABS' smc tests/data/coin.xml --reach walker:upper --width 0.2 --max-runs 600" /dev/null > "$tmp/prog.txt" 2>&1
	if tr '\r' '\n' < "$tmp/prog.txt" | grep -q "^swerve: [0-9]* runs (at most 600), .* runs/s in "; then ok; else bad "smc --width: no progress on a terminal"; cat "$tmp/prog.txt" >&2; fi
	script -qc "'$SWABS' smc -q tests/data/coin.xml --reach walker:upper -n 600; '$SWABS' sweep -q tests/data/coin.xml -p run.duration=1:20:1 -o '$tmp/prog.csv'" /dev/null > "$tmp/prog.txt" 2>&1
	if ! grep -q "runs/s" "$tmp/prog.txt"; then ok; else bad "smc/sweep -q: progress printed"; cat "$tmp/prog.txt" >&2; fi
fi
expect 0 "smc, stderr not a terminal" "$SW" smc tests/data/coin.xml --reach walker:upper -n 600
if ! grep -q "runs/s" "$E"; then ok; else bad "smc: progress printed although stderr is not a terminal"; fi

# The social force law: a bad parameter is refused at its line with nothing written; export
# refuses the law at the agent's line and writes nothing.
sed 's|<sf field="auto"/>|<sf field="auto" kappa="-1"/>|' models/crowd_circle_sf.xml > "$tmp/sf_bad.xml"
expect 2 "run with sf kappa < 0" "$SW" run -q -o "$tmp/sfbad" "$tmp/sf_bad.xml"
if [ ! -e "$tmp/sfbad" ] && grep -q "sf_bad.xml:[0-9]*: error: agent 'a0': sf kappa = -1" /tmp/swerve_cli_err.$$; then ok; else bad "bad sf kappa: message or output"; cat /tmp/swerve_cli_err.$$ >&2; fi
expect 2 "export an sf crowd" "$SW" export -o "$tmp/sfexp" models/crowd_circle_sf.xml
if [ ! -e "$tmp/sfexp" ] && grep -q "crowd_circle_sf.xml:[0-9]*: error: .*social force law <sf>" /tmp/swerve_cli_err.$$; then ok; else bad "sf export: message or output"; cat /tmp/swerve_cli_err.$$ >&2; fi

# The man page describes every command, the conventions, the environment and -j.
for c in $cmds; do
	if grep -q "^\.B $(echo "$c" | sed 's/-/\\\\-/g')\$" docs/swerve.1; then ok; else bad "docs/swerve.1 has no section for $c"; fi
done
for h in CONVENTIONS ENVIRONMENT "EXIT STATUS"; do
	if grep -q "^\.SH $h" docs/swerve.1; then ok; else bad "docs/swerve.1 lacks $h"; fi
done
if grep -q '^\.B \\-j, \\-\\-threads' docs/swerve.1; then ok; else bad "docs/swerve.1 does not describe -j"; fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
