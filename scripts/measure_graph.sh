#!/bin/sh
# Measures how large `swerve graph` renders: for every shipped automaton and scenario, the width
# and height in pixels of `swerve graph FILE | dot -Tpng` (Graphviz's default 96 dpi).
#   sh scripts/measure_graph.sh [build/swerve]        (needs Graphviz's dot)
# Prints one line per file: width height file; the widest last as "max".  Writes only into a
# temporary directory it removes.
set -eu
SWERVE=${1:-build/swerve}
command -v dot >/dev/null 2>&1 || { echo "measure_graph: needs Graphviz (dot)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
max=0
maxf=""
for f in automata/*.xml models/*.xml; do
	"$SWERVE" graph "$f" >"$tmp/g.dot" 2>/dev/null || { echo "skip $f (graph failed)"; continue; }
	dot -Tpng "$tmp/g.dot" >"$tmp/g.png" 2>/dev/null
	# PNG IHDR: width and height as big-endian 32-bit integers at bytes 16 and 20.
	set -- $(od -An -tu1 -j16 -N8 "$tmp/g.png")
	w=$((($1 << 24) + ($2 << 16) + ($3 << 8) + $4))
	h=$((($5 << 24) + ($6 << 16) + ($7 << 8) + $8))
	printf '%5d %5d %s\n' "$w" "$h" "$f"
	if [ "$w" -gt "$max" ]; then max=$w; maxf=$f; fi
done
printf 'max %d %s\n' "$max" "$maxf"
