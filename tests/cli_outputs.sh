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

echo "cli_outputs: $pass passed, $fail failed"
[ "$fail" = 0 ]
