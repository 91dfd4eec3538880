#!/bin/sh
# README and docs as a newcomer meets them:
#   - README.md rendered by cmark (CommonMark) has its sections as headings, none swallowed by a
#     code block, and every relative link of README.md and docs/*.md names an existing file (and
#     an existing heading anchor in a Markdown file) - tests/doc_check.c;
#   - every default in the parameter tables of docs/models.md is the value of the
#     sw_default_*() function of its struct - tests/models_doc_check.c;
#   - the README's Library program is extracted, compiled against the built library with
#     -Werror, and run: on a scenario, on a missing file, on input it must refuse and on a run
#     whose step fails (it must report and stop, neither crash nor loop).
# Usage: CC=cc CFLAGS="build flags" LIBS="build/libswerve.a libraries" tests/docs_test.sh BUILD
set -u
B="$1"
CC="${CC:-cc}"
CFLAGS="${CFLAGS:-}"
LIBS="${LIBS:-$B/libswerve.a}"
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
out="$B/docs-test"
rm -rf "$out"
mkdir -p "$out"

if ! command -v cmark >/dev/null 2>&1; then
	echo "FAIL: cmark is not installed (Debian package cmark; scripts/deps.sh cmark)" >&2
	exit 1
fi

# 1. Rendering and links.
# shellcheck disable=SC2086 # CFLAGS and LIBS are word lists
if $CC $CFLAGS tests/doc_check.c -o "$out/doc_check" $LIBS; then
	"$out/doc_check" -h "swerve" -h "Set-up: two commands (Debian 12)" -h "Using it" \
		-h "Library" -h "Layout" README.md docs/*.md || bad "README.md or docs/*.md (above)"
else
	bad "tests/doc_check.c does not compile"
fi

# 2. The defaults in the model reference are the library's (src/steer/defaults.c).
# shellcheck disable=SC2086
if $CC $CFLAGS tests/models_doc_check.c -o "$out/models_doc_check" $LIBS; then
	"$out/models_doc_check" docs/models.md || bad "docs/models.md defaults (above)"
else
	bad "tests/models_doc_check.c does not compile"
fi

# 3. The Library program: the first C block after the "## Library" heading.
awk '/^## Library[ \t]*$/ { lib = 1; next }
     lib && /^```c[ \t]*$/ { code = 1; next }
     code && /^```[ \t]*$/ { exit }
     code { print }' README.md > "$out/library.c"
if [ ! -s "$out/library.c" ]; then
	bad "README.md has no \`\`\`c block under \"## Library\""
# shellcheck disable=SC2086
elif ! $CC -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude "$out/library.c" \
	-o "$out/library" $LIBS; then
	bad "the README's Library program does not compile against the built library"
else
	# expect_run CODE DESCRIPTION ARGS...: exit code CODE within 120 s (timeout exits 124).
	expect_run() {
		code="$1"; desc="$2"; shift 2
		timeout 120 "$out/library" "$@" >"$out/stdout" 2>"$out/stderr"
		got=$?
		if [ "$got" != "$code" ]; then
			bad "Library program, $desc: exit $got, expected $code"
			cat "$out/stderr" >&2
			return 1
		fi
	}
	if expect_run 0 "models/demo.xml" models/demo.xml; then
		for a in ann bob cy; do
			grep -q "^$a: reached its target" "$out/stdout" || bad "Library program: no line for agent $a"
		done
	fi
	if expect_run 1 "a missing file" "$out/no-such-file.xml"; then
		grep -q "no-such-file.xml" "$out/stderr" || bad "Library program: a missing file is not named"
	fi
	if expect_run 1 "a malformed scenario" tests/data/bad_dtd.xml; then
		grep -q "^tests/data/bad_dtd.xml:[0-9]*:.*error" "$out/stderr" ||
			bad "Library program: the malformed scenario's error has no file:line"
	fi
	if expect_run 1 "a run whose step fails" tests/data/blowup.xml; then
		grep -q "error" "$out/stderr" || bad "Library program: the failing step is not reported"
	fi
fi

# 4. The headers, the sources' comments and the messages cite the repository's documents
#    (docs/models.md, docs/export.md, ...), not the earlier names (steering-models.md, spaceex.md,
#    DESIGN.md: not in the repository; docs/README.md).
earlier='steering-models\.md\|spaceex\.md\|DESIGN\.md'
for f in $(grep -rl "$earlier" include/ src/); do
	grep -n "$earlier" "$f" | sed "s|^|$f:|" >&2
	bad "$f cites a document that is not in the repository (above)"
done
if grep -rn '"[^"]*\(steering-models\|spaceex\|DESIGN\)\.md' src/ >&2; then
	bad "a message cites a document that is not in the repository (above)"
fi

if [ "$fail" -gt 0 ]; then
	echo "docs_test: $fail failure(s)" >&2
	exit 1
fi
echo "docs_test: all passed"
