#!/bin/sh
# swerve plot --table (docs/pictures.md, "Charts of tables"): a valid table gives an SVG with one
# series per --by value, the --line column and the --curve, all named in the legend, and a PNG;
# every bad input exits 2 with FILE:LINE:COLUMN (or the usage message) and writes nothing, and the
# table itself is never replaced.
# Usage: tests/plot_table_test.sh path/to/swerve
set -u
SW="$1"
fail=0
n=0
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
E="$tmp/stderr"

# expect CODE DESCRIPTION ARGS...: swerve exits with CODE.
expect() {
	code="$1"; desc="$2"; shift 2
	n=$((n + 1))
	"$SW" "$@" >"$tmp/stdout" 2>"$E"
	got=$?
	[ "$got" = "$code" ] || { bad "$desc: exit $got, expected $code"; cat "$E" >&2; return 1; }
}

# The table measure_fd.py --csv writes (rows in its order: walker, then density).
cat > "$tmp/fd.csv" <<'EOF'
walker,density,speed,weidmann
csm,0.5,1.2400,1.2637
csm,1,1.0200,0.9620
csm,2,0.6100,0.6064
ttc,0.5,1.3000,1.2637
ttc,2,0.6600,0.6064
ttc,1,0.9800,0.9620
"s,f",0.5,1.2000,1.2637
"s,f",1,0.9000,0.9620
"s,f",2,0.5000,0.6064
EOF

# 1. A valid table: three series, the weidmann line, the Weidmann curve, a legend.
if expect 0 "chart of the FD table" plot --table "$tmp/fd.csv" --x density --y speed \
	--by walker --line weidmann --curve weidmann -o "$tmp/fd.svg"; then
	svg="$tmp/fd.svg"
	for name in csm ttc s,f weidmann "Weidmann (1993)"; do
		grep -q "<text class=\"legend\"[^>]*>$name</text>" "$svg" ||
			bad "the legend does not name '$name'"
	done
	[ "$(grep -c 'class="series"' "$svg")" = 3 ] || bad "not 3 series polylines"
	[ "$(grep -c 'class="marker"' "$svg")" = 9 ] || bad "not 9 markers (one per row)"
	[ "$(grep -c 'class="line"' "$svg")" = 1 ] || bad "the weidmann column is not one line"
	grep -q 'class="curve"' "$svg" || bad "no curve"
	grep -q '<text class="title"[^>]*>speed against density</text>' "$svg" || bad "default title"
	grep -q "^swerve: chart of" "$E" || bad "no summary line on stderr"
	[ ! -s "$tmp/stdout" ] || bad "the chart printed on stdout"
	# ttc's rows are out of order in the file: every polyline runs in the order of density.
	grep -o '<polyline class="series" points="[^"]*"' "$svg" | sed 's/.*points="//; s/"$//' |
		awk '{ for (i = 2; i <= NF; i++) { split($(i - 1), p, ","); split($i, q, ",");
			if (q[1] + 0 <= p[1] + 0) bad = 1 } } END { exit bad }' ||
		bad "a series is not joined in the order of x"
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$svg" || bad "the SVG does not parse"
	fi
fi
# The same as PNG; several y columns without --by; labels and an expression curve.
expect 0 "chart as PNG" plot -q --table "$tmp/fd.csv" --x density --y speed --by walker \
	--line weidmann -o "$tmp/fd.png" &&
	{ [ "$(head -c 4 "$tmp/fd.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] || bad "no PNG"; }
printf 'walker,b,J\ncsm,1.2,2.1\ncsm,0.8,1.5\ncsm,1.6,2.9\n' > "$tmp/bn.csv"
# The default title names the columns, not the labels.
expect 0 "default title with a y label" plot -q --table "$tmp/bn.csv" --x b --y J \
	--ylabel "J (1/s)" -o "$tmp/bn0.svg" &&
	{ grep -q '<text class="title"[^>]*>J against b</text>' "$tmp/bn0.svg" || bad "default title"; }
if expect 0 "bottleneck chart" plot -q --table "$tmp/bn.csv" --x b --y J,b --curve '1.8 * x' \
	--title "flow through a bottleneck" --xlabel "width b (m)" --ylabel "J (1/s)" \
	-o "$tmp/bn.svg"; then
	for t in 'title"[^>]*>flow through a bottleneck' 'axis-label"[^>]*>width b (m)' \
		'axis-label"[^>]*>J (1/s)' 'legend"[^>]*>J<' 'legend"[^>]*>b<' \
		'legend"[^>]*>y = 1.8 \* x<'; do
		grep -q "class=\"$t" "$tmp/bn.svg" || bad "bottleneck chart lacks $t"
	done
fi

# 2. Bad input: exit 2, the place in the file, no output.
# bad_table NAME CONTENT PATTERN [OPTIONS]: the table NAME.csv holding CONTENT is refused with a
# message matching PATTERN.
bad_table() {
	name="$1"; content="$2"; pattern="$3"; shift 3
	printf '%b' "$content" > "$tmp/$name.csv"
	rm -f "$tmp/out.svg"
	if expect 2 "$name" plot --table "$tmp/$name.csv" "$@" -o "$tmp/out.svg"; then
		grep -q "$pattern" "$E" || { bad "$name: message"; cat "$E" >&2; }
		[ ! -e "$tmp/out.svg" ] || bad "$name: an output was written"
	fi
}
XY="--x a --y b"
# shellcheck disable=SC2086 # XY is a word list
{
bad_table empty '' "empty.csv:1:1: error: empty table: expected a header row" $XY
bad_table header_only 'a,b\n' "header_only.csv:2:1: error: empty table: no data rows" $XY
bad_table non_numeric 'a,b\n1,2\n3,fast\n' "non_numeric.csv:3:3: error: column 'b': 'fast' is not a finite number" $XY
bad_table infinite 'a,b\n1,inf\n' "infinite.csv:2:3: error: column 'b': 'inf' is not a finite" $XY
bad_table unknown_y 'a,b\n1,2\n' "unknown_y.csv:1:1: error: no column 'c' in the header (columns: a, b)" --x a --y c
bad_table unknown_by 'a,b\n1,2\n' "unknown_by.csv:1:1: error: no column 'w'" $XY --by w
bad_table unknown_line 'a,b\n1,2\n' "unknown_line.csv:1:1: error: no column 'v'" $XY --line v
bad_table short_row 'a,b\n1,2\n3\n' "short_row.csv:3:1: error: this row has 1 field; the header has 2" $XY
bad_table long_row 'a,b\n1,2,3\n' "long_row.csv:2:5: error: this row has 3 fields" $XY
bad_table open_quote 'a,b\n1,"2\n' "open_quote.csv:2:3: error: unterminated quoted field" $XY
bad_table twice 'a,b,a\n1,2,3\n' "twice.csv:1:5: error: column 'a' is named twice" $XY
bad_table bad_curve 'a,b\n1,2\n' "^--curve:1:5: error:" $XY --curve 'x + '
}
rm -f "$tmp/out.svg"
expect 2 "a missing table" plot --table "$tmp/none.csv" --x a --y b -o "$tmp/out.svg" &&
	{ grep -q "none.csv.*cannot read" "$E" && [ ! -e "$tmp/out.svg" ] || bad "missing table: message or output"; }
expect 2 "a folder as table" plot --table "$tmp" --x a --y b -o "$tmp/out.svg" &&
	{ grep -q "not a regular file" "$E" || bad "folder as table: message"; }

# 3. The table is never replaced by its chart (here a table that happens to be named .svg).
cp "$tmp/bn.csv" "$tmp/table.svg"
expect 2 "chart over its own table" plot --table "$tmp/table.svg" --x b --y J -o "$tmp/table.svg" &&
	{ cmp -s "$tmp/bn.csv" "$tmp/table.svg" && grep -q "refusing to replace" "$E" ||
		bad "the table was replaced or no message"; }

# 4. Usage: --table options without --table, --table with scenario options, missing -o.
for args in "--x a --y b -o $tmp/u.svg models/demo.xml" \
	"--table $tmp/bn.csv --x b --y J -o $tmp/u.svg models/demo.xml" \
	"--table $tmp/bn.csv --x b --y J --agent a -o $tmp/u.svg" \
	"--table $tmp/bn.csv --x b --y J" "--table $tmp/bn.csv --y J -o $tmp/u.svg" \
	"--table $tmp/bn.csv --x b --y J, -o $tmp/u.svg" \
	"--table $tmp/bn.csv --x b --y J -o $tmp/u.jpg"; do
	# shellcheck disable=SC2086
	if expect 2 "plot $args" plot $args; then
		[ "$(wc -l < "$E")" = 2 ] && tail -n 1 "$E" | grep -qx "try 'swerve plot --help'" ||
			{ bad "plot $args: not a message and a try line"; cat "$E" >&2; }
	fi
	[ ! -e "$tmp/u.svg" ] || bad "plot $args wrote an output"
done

if [ "$fail" -eq 0 ]; then
	echo "plot_table_test: $n commands, all passed"
	exit 0
fi
echo "plot_table_test: $fail failure(s)" >&2
exit 1
