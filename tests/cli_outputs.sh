#!/bin/sh
# CLI tests of where and how outputs are written (docs/robustness.md): a full standard output is
# reported ("cannot write the standard output", exit 1) by every command; -o "" is a usage error
# naming the option (exit 2); no output replaces a file the model read (exit 2, both named).
# Usage: tests/cli_outputs.sh path/to/swerve
set -u
SW="$1"
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# exits CODE DESCRIPTION NEEDLE -- command...: exit CODE within 60 s, NEEDLE on stderr.
exits() {
	code="$1"; desc="$2"; needle="$3"; shift 3
	timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != "$code" ]; then
		bad "$desc: exit $got, expected $code"; cat "$tmp/err" >&2
	elif ! grep -q -- "$needle" "$tmp/err"; then
		bad "$desc: no '$needle' in the message"; cat "$tmp/err" >&2
	else
		pass=$((pass + 1))
	fi
}
# full CODE DESCRIPTION -- command...: the command's stdout is /dev/full.
full() {
	desc="$1"; shift
	timeout 60 "$@" >/dev/full 2>"$tmp/err"
	got=$?
	if [ "$got" != 1 ]; then
		bad "$desc > /dev/full: exit $got, expected 1"; cat "$tmp/err" >&2
	elif ! grep -q -- "cannot write the standard output: No space left on device" "$tmp/err"; then
		bad "$desc > /dev/full: no message"; cat "$tmp/err" >&2
	else
		pass=$((pass + 1))
	fi
}

# --- a full standard output ---------------------------------------------------------------
if [ -w /dev/full ]; then
	full "smc" "$SW" smc models/glm_barrier.xml --reach walker:goal:30 -n 4
	full "analyze" "$SW" analyze --agent walker --at 5 models/glm_barrier.xml
	full "sweep" "$SW" sweep tests/data/coin.xml -p run.duration=1 -n 2
	full "graph" "$SW" graph models/glm_barrier.xml
	full "version" "$SW" version
	full "--help" "$SW" run --help
fi

# --- -o "": a usage error naming the option, the same words for every command -------------
empty="is empty; expected a file or directory name"
exits 2 'run -o ""' "option '-o' $empty" "$SW" run -o "" models/glm_barrier.xml
exits 2 'graph -o ""' "option '-o' $empty" "$SW" graph -o "" models/glm_barrier.xml
exits 2 'render -o ""' "option '-o' $empty" "$SW" render -o "" models/glm_barrier.xml
exits 2 'plot -o ""' "option '-o' $empty" "$SW" plot --agent walker --at 8 -o "" models/glm_barrier.xml
exits 2 'export -o ""' "option '-o' $empty" "$SW" export -o "" models/glm_barrier.xml
exits 2 'sweep -o ""' "option '-o' $empty" "$SW" sweep tests/data/coin.xml -p run.duration=1 -o ""
exits 2 'smc --csv ""' "option '--csv' $empty" "$SW" smc tests/data/coin.xml --reach walker:upper -n 4 --csv ""
exits 2 'import-steersuite -o ""' "option '-o' $empty" "$SW" import-steersuite -o "" tests/data/steersuite/mixed.xml
if [ -z "$(ls -A "$tmp")" ] || [ "$(ls -A "$tmp")" = "$(printf 'err\nout')" ]; then pass=$((pass + 1)); else bad "-o \"\" wrote $(ls -A "$tmp")"; fi

# --- a write failure of import-steersuite is a write failure (1), not bad input (2) --------
( ulimit -f 1; trap '' XFSZ; exec "$SW" import-steersuite -o "$tmp/big.xml" tests/data/steersuite/mixed.xml ) >"$tmp/out" 2>"$tmp/err"
got=$?
if [ "$got" = 1 ] && grep -q "cannot write $tmp/big.xml: File too large" "$tmp/err" && [ ! -e "$tmp/big.xml" ]; then
	pass=$((pass + 1))
else
	bad "import-steersuite over a file size limit: exit $got, expected 1: $(cat "$tmp/err")"
fi

# --- an output file that cannot be created is a write failure (1) for every command ---------
nodir="$tmp/no/such/dir"
exits 1 "sweep -o in a missing directory" "cannot write $nodir/x.csv: No such file or directory" "$SW" sweep tests/data/coin.xml -p run.duration=1 -n 2 -o "$nodir/x.csv"
exits 1 "smc --csv in a missing directory" "cannot write $nodir/x.csv: No such file or directory" "$SW" smc tests/data/coin.xml --reach walker:upper -n 4 --csv "$nodir/x.csv"
exits 1 "graph -o in a missing directory" "cannot write $nodir/x.dot: No such file or directory" "$SW" graph -o "$nodir/x.dot" models/glm_barrier.xml
exits 1 "render -o in a missing directory" "$nodir/x.svg: error: cannot write" "$SW" render -o "$nodir/x.svg" models/glm_barrier.xml
if [ ! -e "$tmp/no" ]; then pass=$((pass + 1)); else bad "a failed output created $tmp/no"; fi

# --- no output replaces a file the model read ----------------------------------------------
d="$tmp/in"
mkdir -p "$d"
cp tests/data/vectorfield.xml tests/data/wind_north.txt "$d/"
cp "$d/wind_north.txt" "$tmp/wind.orig"
same="is a file the scenario reads"
exits 2 "sweep -o a vector-field file" "$same" "$SW" sweep "$d/vectorfield.xml" -p run.duration=1 -o "$d/wind_north.txt"
exits 2 "graph -o a vector-field file" "$same" "$SW" graph "$d/vectorfield.xml" -o "$d/wind_north.txt"
exits 2 "smc --csv a vector-field file" "$same" "$SW" smc "$d/vectorfield.xml" --reach a:east -n 2 --csv "$d/wind_north.txt"
exits 2 "graph -o the same file by another name" "$same" "$SW" graph "$d/vectorfield.xml" -o "$d/../in/./wind_north.txt"
if cmp -s "$d/wind_north.txt" "$tmp/wind.orig"; then pass=$((pass + 1)); else bad "the vector-field file was replaced"; fi
if grep -q "wind_north.txt" "$tmp/err" && grep -q "vectorfield.xml" "$tmp/err"; then pass=$((pass + 1)); else bad "the refusal names not both files: $(cat "$tmp/err")"; fi
ln "$d/wind_north.txt" "$d/hardlink.txt"
exits 2 "graph -o a hard link to a vector-field file" "$same" "$SW" graph "$d/vectorfield.xml" -o "$d/hardlink.txt"
mkdir -p "$d/m" "$d/a"
sed 's#\.\./automata/#../a/#' models/crowd_circle.xml > "$d/m/crowd.xml"
cp automata/pedestrian.xml "$d/a/"
cp "$d/a/pedestrian.xml" "$tmp/ped.orig"
printf 'x\n' > "$d/a/copy.txt"
exits 2 "sweep -o a used automaton" "$same" "$SW" sweep "$d/m/crowd.xml" -p run.duration=0.1 -o "$d/a/pedestrian.xml"
if cmp -s "$d/a/pedestrian.xml" "$tmp/ped.orig"; then pass=$((pass + 1)); else bad "the automaton was replaced"; fi

# --- render, plot and run's fixed names in -o DIR refuse an input file as well --------------
cp models/glm_barrier.xml "$d/scen.svg"
cp "$d/scen.svg" "$tmp/scen.orig"
exits 2 "render -o the scenario" "$same" "$SW" render -o "$d/scen.svg" "$d/scen.svg"
exits 2 "render -o the scenario by another name" "$same" "$SW" render -o "$d/../in/scen.svg" "$d/scen.svg"
exits 2 "render --animate the scenario" "$same" "$SW" render -o "$tmp/r.svg" --animate "$d/scen.svg" "$d/scen.svg"
exits 2 "plot -o the scenario" "$same" "$SW" plot --agent walker --at 8 -o "$d/scen.svg" "$d/scen.svg"
exits 2 "plot --series -o the scenario" "$same" "$SW" plot --agent walker --series -o "$d/scen.svg" "$d/scen.svg"
if grep -q "$d/scen.svg" "$tmp/err" && grep -q "the scenario itself" "$tmp/err"; then pass=$((pass + 1)); else bad "plot's refusal names not the scenario: $(cat "$tmp/err")"; fi
ln "$d/wind_north.txt" "$d/wind.png"
exits 2 "render -o a vector-field file (a hard link named .png)" "$same" "$SW" render -o "$d/wind.png" "$d/vectorfield.xml"
rm -f "$d/wind.png"
mkdir -p "$d/run"
cp models/glm_barrier.xml "$d/run/summary.json"
cp "$d/run/summary.json" "$tmp/sum.orig"
exits 2 "run -o DIR with the scenario as DIR/summary.json" "$same" "$SW" run -o "$d/run" "$d/run/summary.json"
cp models/glm_barrier.xml "$d/run/variables.csv"
exits 2 "run --variables -o DIR with an input as DIR/variables.csv" "swerve input file" "$SW" run --variables -o "$d/run" models/glm_barrier.xml
mv "$d/run/summary.json" "$d/run/checkpoint.swck"
rm "$d/run/variables.csv"
exits 2 "run --checkpoint-every, the scenario as DIR/checkpoint.swck" "$same" "$SW" run --checkpoint-every 5 -o "$d/run" "$d/run/checkpoint.swck"
if cmp -s "$d/scen.svg" "$tmp/scen.orig" && cmp -s "$d/run/checkpoint.swck" "$tmp/sum.orig" &&
   [ "$(ls -A "$d/run")" = "checkpoint.swck" ] && [ ! -e "$tmp/r.svg" ]; then
	pass=$((pass + 1))
else
	bad "a refused render/plot/run wrote or replaced something: $(ls -A "$d" "$d/run")"
fi

# --- check applies run's bounds, citing the <run> element -----------------------------------
sed 's/duration="40"/duration="1e9"/' models/glm_barrier.xml > "$tmp/long.xml"
sed 's/step="0.25"/step="0.25" substeps="99999"/' models/glm_barrier.xml > "$tmp/subs.xml"
exits 2 "check duration=1e9" "$tmp/long.xml:6: error: run: duration 1e+09 s" "$SW" check "$tmp/long.xml"
exits 2 "run duration=1e9" "$tmp/long.xml:6: error: run: duration 1e+09 s" "$SW" run -o "$tmp/long" "$tmp/long.xml"
exits 2 "check substeps=99999" "$tmp/subs.xml:6: error: run: substeps = 99999" "$SW" check "$tmp/subs.xml"
exits 0 "check a valid scenario" "ok" "$SW" check models/glm_barrier.xml

# --- picture write errors name the file and the errno text, nothing from libxml2 ----------
for pic in x.svg x.png; do
	( ulimit -f 1; trap '' XFSZ; exec "$SW" render -o "$tmp/$pic" models/glm_barrier.xml ) >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" = 1 ] && grep -q "^$tmp/$pic: error: cannot write the picture: File too large$" "$tmp/err" &&
	   [ "$(wc -l < "$tmp/err")" = 1 ] && [ ! -e "$tmp/$pic" ]; then
		pass=$((pass + 1))
	else
		bad "render -o $pic over a file size limit: exit $got: $(cat "$tmp/err")"
	fi
done
( ulimit -f 1; trap '' XFSZ; exec "$SW" plot --agent walker --at 8 -o "$tmp/p.svg" models/glm_barrier.xml ) >"$tmp/out" 2>"$tmp/err"
got=$?
if [ "$got" = 1 ] && grep -q "cannot write the picture: File too large" "$tmp/err" && ! grep -q "I/O error" "$tmp/err"; then
	pass=$((pass + 1))
else
	bad "plot -o p.svg over a file size limit: exit $got: $(cat "$tmp/err")"
fi

echo "cli_outputs: $pass passed, $fail failed"
[ "$fail" = 0 ]
