#!/bin/sh
# The public surface of the shared library: the names libswerve.so exports (nm -D --defined-only)
# are exactly the functions declared with SW_API in include/swerve/*.h, and every one starts
# with sw_ (never sw__, the prefix of library-internal helpers).  Fails on
#   - an exported name that is not sw_*, is sw__*, or is declared in no public header with SW_API
#     (an internal function leaking out, e.g. one compiled without -fvisibility=hidden);
#   - an SW_API function the library does not export (declared but never defined);
#   - a function declared in a public header without SW_API (it would be silently hidden);
#   - the README's Library program not linking and running against the shared library alone.
# Usage: tests/symbols_test.sh build/libswerve.so (from the top folder).
set -u
so="${1:-build/libswerve.so}"
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: symbols: $*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! nm -D --defined-only "$so" > "$tmp/nm"; then
	echo "FAIL: symbols: nm -D cannot read $so" >&2
	exit 1
fi
# Defined code and data (T/t text, D/d data, B/b bss, R/r read-only, W/V weak, i indirect).
awk 'NF >= 3 && $2 ~ /^[TtDdBbRrWwVvi]$/ { print $3 }' "$tmp/nm" | sed 's/@.*//' | sort -u \
	> "$tmp/exported"

# The API list: "SW_API <type> [*]name(" at the start of a line in the public headers.
grep -hoE '^SW_API [^(]*\(' include/swerve/*.h | sed -E 's/.*[ *]([A-Za-z_0-9]+)\($/\1/' |
	sort -u > "$tmp/api"
n_api=$(wc -l < "$tmp/api")
if [ "$n_api" -lt 100 ] || ! grep -qx sw_world_create "$tmp/api"; then
	bad "only $n_api SW_API declarations found in include/swerve/*.h (expected sw_world_create and the rest)"
fi

while read -r name; do
	case "$name" in
	sw__*) bad "$so exports the internal name $name" ;;
	sw_*) grep -qx "$name" "$tmp/api" ||
		bad "$so exports $name, which no include/swerve/*.h header declares with SW_API" ;;
	*) bad "$so exports $name, which is not an sw_ API name" ;;
	esac
done < "$tmp/exported"

comm -23 "$tmp/api" "$tmp/exported" > "$tmp/missing"
while read -r name; do
	bad "$name is declared SW_API in include/swerve/ but $so does not export it"
done < "$tmp/missing"

# A declaration "<type> [*]sw_name(" at the start of a line lacks SW_API.
if grep -nE '^(const |unsigned |struct )*[A-Za-z_0-9]+ \**sw_[a-z0-9_]+\(' include/swerve/*.h \
	> "$tmp/unmarked"; then
	while read -r line; do
		bad "public function declared without SW_API: $line"
	done < "$tmp/unmarked"
fi

# The exported names suffice for the documented use: the README's Library program (the first C
# block under "## Library") links against the shared library alone and runs on models/demo.xml.
awk '/^## Library[ \t]*$/ { lib = 1; next }
     lib && /^```c[ \t]*$/ { code = 1; next }
     code && /^```[ \t]*$/ { exit }
     code { print }' README.md > "$tmp/library.c"
# The build names the file libswerve.so; the program asks for its soname, libswerve.so.0.
ln -s "$(cd "$(dirname "$so")" && pwd)/$(basename "$so")" "$tmp/libswerve.so.0"
# shellcheck disable=SC2046 # pkg-config prints a word list
if ! ${CC:-cc} -std=c11 -Iinclude $(pkg-config --cflags gsl 2>/dev/null) "$tmp/library.c" \
	-o "$tmp/library" "$tmp/libswerve.so.0" -Wl,-rpath,"$tmp"; then
	bad "the README's Library program does not link against $so alone"
elif ! "$tmp/library" models/demo.xml > "$tmp/out" 2>&1; then
	bad "the README's Library program linked against $so fails on models/demo.xml"
	cat "$tmp/out" >&2
fi

if [ "$fail" -ne 0 ]; then
	echo "symbols: $fail problem(s)" >&2
	exit 1
fi
echo "symbols: $(wc -l < "$tmp/exported") exported names, all SW_API functions of include/swerve/*.h;" \
	"the README's Library program runs against $so"
