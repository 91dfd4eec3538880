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
expect 2 "plot an FW agent" "$SW" plot --agent o1deg-3m --at 1 -o "$tmp/p2.svg" models/fw_one_obstacle.xml
expect 0 "analyze an agent" "$SW" analyze --agent walker --at 5 models/glm_barrier.xml
if grep -q "a1" /tmp/swerve_cli_out.$$ && grep -qi "stable" /tmp/swerve_cli_out.$$; then ok; else bad "analyze output lacks the competition parameters"; fi
expect 2 "analyze an unknown agent" "$SW" analyze --agent nobody models/glm_barrier.xml
expect 2 "analyze an FW agent" "$SW" analyze --agent o1deg-3m models/fw_one_obstacle.xml
expect 0 "graph of an automaton" "$SW" graph -o "$tmp/seek.dot" automata/seek.xml
if grep -q '^digraph "seek"' "$tmp/seek.dot" && grep -q -- '->' "$tmp/seek.dot"; then ok; else bad "graph output is not a DOT digraph with edges"; fi
expect 2 "graph of a bad file" "$SW" graph tests/data/bad_unknown_element.xml
expect 0 "render the demo" "$SW" render -o "$tmp/demo.svg" -a 5 models/demo.xml
if grep -q '<svg' "$tmp/demo.svg"; then ok; else bad "render wrote no SVG"; fi
expect 2 "render with a bad width" "$SW" render -w abc models/demo.xml
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

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
