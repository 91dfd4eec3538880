#!/bin/sh
# Regenerates the checked-in exports of the example models under export/ (SpaceEx profile,
# plus the exact-profile JSON and DOT).  `make test` regenerates them into a temporary directory
# and compares byte for byte (tests/cli_test.sh).  Usage: scripts/regen_exports.sh [build/swerve]
set -eu
SW="${1:-build/swerve}"
for m in $(cat export/MODELS); do
	rm -rf "export/$m"
	# JSON and DOT first: report.txt is rewritten by each export, and the SpaceEx one (last)
	# lists the profile's approximations.
	"$SW" export -f json -o "export/$m" "models/$m.xml" > /dev/null 2>&1
	"$SW" export -f dot -o "export/$m" "models/$m.xml" > /dev/null 2>&1
	"$SW" export -o "export/$m" "models/$m.xml" > /dev/null 2>&1
done
