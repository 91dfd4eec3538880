#!/bin/sh
# Runs each model with two swerve binaries and compares their outputs byte for byte: the check
# that a change which should not change results (a refactoring, a speed-up) did not.
# Usage: scripts/same_outputs.sh OLD NEW DURATION MODEL...
#   OLD, NEW   two swerve binaries (e.g. one built from the parent commit)
#   DURATION   simulated seconds per model (passed as -d)
# Each model is run as `swerve run MODEL -o DIR -d DURATION -j 2 -q --no-field-cache`; the exit
# codes and every output file (trajectory, events, summary) must agree.  Prints each model that
# differs, then "N of M same"; exits 1 when any differs.
set -u
if [ $# -lt 4 ]; then
	echo "usage: $0 OLD NEW DURATION MODEL..." >&2
	exit 2
fi
old=$1; new=$2; dur=$3; shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0; n=0
for m in "$@"; do
	b=$(basename "$m" .xml); n=$((n + 1))
	"$old" run "$m" -o "$tmp/old/$b" -d "$dur" -j 2 -q --no-field-cache > /dev/null 2>&1; ro=$?
	"$new" run "$m" -o "$tmp/new/$b" -d "$dur" -j 2 -q --no-field-cache > /dev/null 2>&1; rn=$?
	if [ "$ro" != "$rn" ] || ! diff -r "$tmp/old/$b" "$tmp/new/$b" > /dev/null 2>&1; then
		echo "DIFF $m (exit $ro / $rn)"
		bad=$((bad + 1))
	fi
done
echo "$((n - bad)) of $n same"
[ "$bad" -eq 0 ]
