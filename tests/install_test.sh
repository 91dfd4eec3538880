#!/bin/sh
# `make install` into a temporary DESTDIR, then a program built only from what pkg-config says
# (--static: every private library, OpenMP included) links against the installed static library
# and runs; the installed schemas are complete.  Usage: tests/install_test.sh (from the top folder, after make).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make --no-print-directory install PREFIX=/usr DESTDIR="$tmp" > /dev/null
# The complete schemas (the laws' elements written in by the build) beside the library, and
# they validate a shipped scenario and automaton with xmllint when it is installed.
for f in scenario automaton spaceex; do
	if [ ! -s "$tmp/usr/share/swerve/$f.rng" ]; then
		echo "install: share/swerve/$f.rng is missing" >&2
		exit 1
	fi
done
if ! grep -q '<define name="glm">' "$tmp/usr/share/swerve/scenario.rng"; then
	echo "install: share/swerve/scenario.rng lacks the laws' elements" >&2
	exit 1
fi
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout --relaxng "$tmp/usr/share/swerve/scenario.rng" models/demo.xml 2> /dev/null ||
		{ echo "install: models/demo.xml does not validate against share/swerve/scenario.rng" >&2; exit 1; }
	xmllint --noout --relaxng "$tmp/usr/share/swerve/automaton.rng" automata/pedestrian.xml \
		2> /dev/null ||
		{ echo "install: automata/pedestrian.xml does not validate against automaton.rng" >&2; exit 1; }
fi
rm -f "$tmp"/usr/lib/libswerve.so*   # only the static library is left to link against
pc="$tmp/usr/lib/pkgconfig"
cat > "$tmp/prog.c" <<'EOF2'
#include <stdio.h>
#include <swerve/swerve.h>
int main(void)
{
	sw_model *m = NULL;
	int st = sw_scenario_load("models/demo.xml", &m, NULL);
	sw_world *w = NULL;
	if (st == SW_SUCCESS)
		st = sw_world_create(m, NULL, &w, NULL);
	if (st == SW_SUCCESS)
		st = sw_world_step(w, NULL);
	printf("%s\n", sw_strerror(st));
	sw_world_destroy(w);
	sw_model_free(m);
	return st != SW_SUCCESS;
}
EOF2
# pkg-config reads the prefix from the file; point it at the staging folder.
flags=$(PKG_CONFIG_PATH="$pc" pkg-config --define-variable=prefix="$tmp/usr" --static --cflags --libs swerve)
if ! ${CC:-cc} -o "$tmp/prog" "$tmp/prog.c" $flags; then
	echo "install: a static program does not link with pkg-config --static swerve" >&2
	exit 1
fi
"$tmp/prog" > /dev/null
echo "install: a static program links with pkg-config --static swerve and runs"
