#!/bin/sh
# trajectory.csv is RFC 4180: a name holding a comma or a double quote is enclosed in quotes with
# each quote doubled, so that every row has the header's columns for any CSV reader.
# Usage: tests/csv_test.sh path/to/swerve
set -u
SW="$1"
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/names.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="csv">
  <run duration="0.5" step="0.25" seed="1"/>
  <agent name="a,&quot;b" x="1" y="2"/>
  <agent name="plain" x="1" y="8"/>
</scenario>
EOF
if ! "$SW" run -q -o "$tmp/out" "$tmp/names.xml"; then
	bad "run of the scenario with a comma and a quote in a name failed"
	exit 1
fi
csv="$tmp/out/trajectory.csv"

# Splits each record into fields as RFC 4180 reads them (quoted fields, "" inside quotes is one
# quote; no record of this file spans lines) and prints the number of fields and field 2.
awk '
function split_csv(s, f,    n, i, c, q, cur) {
	n = 0; q = 0; cur = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q) {
			if (c == "\"" && substr(s, i + 1, 1) == "\"") { cur = cur c; i++ }
			else if (c == "\"") q = 0
			else cur = cur c
		} else if (c == "\"") q = 1
		else if (c == ",") { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	return n
}
{ n = split_csv($0, f); print n "|" f[2] }' "$csv" > "$tmp/fields"

cols=$(head -1 "$tmp/fields" | cut -d'|' -f1)
[ "$cols" = 9 ] || bad "header has $cols columns, expected 9"
if awk -F'|' -v c="$cols" 'NR > 1 && $1 != c { exit 1 }' "$tmp/fields"; then :; else
	bad "a row of trajectory.csv does not have the header's $cols columns:"
	cat "$csv" >&2
fi
# Every sample has both agents, the first under its exact name.
n1=$(grep -c '^9|a,"b$' "$tmp/fields")
n2=$(grep -c '^9|plain$' "$tmp/fields")
[ "$n1" = 3 ] && [ "$n2" = 3 ] || bad "names read back: 'a,\"b' $n1 times, 'plain' $n2 times (expected 3 each)"
# The exact form: quoted, the quote doubled; a plain name is not quoted.
grep -q '^0,"a,""b",steer,1,2,' "$csv" || bad "the name a,\"b is not written as \"a,\"\"b\""
grep -q '^0,plain,steer,1,8,' "$csv" || bad "a plain name is quoted or changed"

if [ "$fail" -gt 0 ]; then
	echo "csv_test: $fail failure(s)" >&2
	exit 1
fi
echo "csv_test: all passed"
