#!/bin/sh
# scripts/measure_hyst.sh - does HyST convert every shipped model's export to Flow*?
# Exports every models/*.xml with `swerve export --profile hyst` (plus --linear when LINEAR=1)
# and converts it with HyST (`java -jar Hyst.jar -t flowstar '-ode "nonpoly ode"'`), printing
# per model: the export's status and time, HyST's status and time, the size of the Flow* model
# and whether its jump guards are polynomial (no sqrt outside comments).  Fetches nothing: give
# it the jar (src/Hyst.jar of verivital/hyst, "Hyst v1.6", runs on Java 17); never commit it.
#   sh scripts/measure_hyst.sh /path/to/Hyst.jar [SWERVE] [MODEL.xml...]
# Environment: LINEAR=1 (export --linear), TIMEOUT (seconds per export and per conversion,
# default 120), KEEP=DIR (keep the exports and Flow* models there instead of a scratch folder).
# Exit code: 0 when every exportable model converted with polynomial jump guards, 1 otherwise,
# 2 on a usage error.
set -u
JAR=${1:-}
if [ -z "$JAR" ] || [ ! -f "$JAR" ]; then
	echo "usage: measure_hyst.sh /path/to/Hyst.jar [SWERVE] [MODEL.xml...]" >&2
	exit 2
fi
command -v java >/dev/null 2>&1 || { echo "measure_hyst: java not found" >&2; exit 2; }
case $JAR in /*) ;; *) JAR=$(pwd)/$JAR ;; esac
SW=${2:-build/swerve}
[ -x "$SW" ] || { echo "measure_hyst: $SW is not an executable swerve" >&2; exit 2; }
case $SW in /*) ;; *) SW=$(pwd)/$SW ;; esac
[ $# -ge 2 ] && shift 2 || shift $#
TIMEOUT=${TIMEOUT:-120}
LIN=""
[ "${LINEAR:-0}" = 1 ] && LIN="--linear"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP" || exit 2
	TMP=$KEEP
else
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT INT TERM
fi
cd "$(dirname "$0")/.." || exit 2
[ $# -gt 0 ] || set -- models/*.xml

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "HyST: $(basename "$JAR"), java: $(java -version 2>&1 | head -1)"
echo "swerve export --profile hyst${LIN:+ $LIN}; timeout ${TIMEOUT} s per export and per conversion"
printf '%-22s %-10s %8s %-10s %8s %10s %s\n' model export s hyst s lines guards
fails=0
for f in "$@"; do
	n=$(basename "$f" .xml)
	d="$TMP/$n"
	rm -rf "$d"
	t0=$(now)
	rc=0
	timeout "$TIMEOUT" "$SW" export "$f" --profile hyst $LIN -q -o "$d" \
		>"$TMP/$n.export.log" 2>&1 || rc=$?
	t1=$(now)
	if [ "$rc" = 2 ] && grep -Eq "cannot be exported|no symbolic form" "$TMP/$n.export.log"; then
		printf '%-22s %-10s %8s\n' "$n" refused "$(secs "$t0" "$t1")"
		continue
	fi
	if [ "$rc" != 0 ]; then
		what=FAIL
		[ "$rc" = 124 ] && what=TIMEOUT
		printf '%-22s %-10s %8s\n' "$n" "$what" "$(secs "$t0" "$t1")"
		fails=$((fails + 1))
		continue
	fi
	rc=0
	timeout "$TIMEOUT" java -jar "$JAR" -t flowstar '-ode "nonpoly ode"' \
		-i "$d/$n.xml" "$d/$n.cfg" -o "$d/$n.model" >"$TMP/$n.hyst.log" 2>&1 || rc=$?
	t2=$(now)
	if [ "$rc" = 0 ] && [ -s "$d/$n.model" ]; then
		lines=$(wc -l <"$d/$n.model")
		guards=polynomial
		if sed -n '/^ *jumps/,$p' "$d/$n.model" | grep -v '^ *#' | grep -q sqrt; then
			guards="sqrt (Flow* cannot read it)"
			fails=$((fails + 1))
		fi
		printf '%-22s %-10s %8s %-10s %8s %10s %s\n' "$n" OK "$(secs "$t0" "$t1")" OK \
			"$(secs "$t1" "$t2")" "$lines" "$guards"
	else
		what=FAIL
		[ "$rc" = 124 ] && what=TIMEOUT
		why=$(grep -m1 -iE "exception|error" "$TMP/$n.hyst.log" | cut -c1-60)
		printf '%-22s %-10s %8s %-10s %8s %10s %s\n' "$n" OK "$(secs "$t0" "$t1")" "$what" \
			"$(secs "$t1" "$t2")" - "$why"
		fails=$((fails + 1))
	fi
done
[ "$fails" = 0 ]
