#!/bin/sh
# tests/clutter_test.sh - goal seeking in clutter, a cheap subset of scripts/measure_clutter.py:
# the recommended behaviour (automata/navigate.xml) on 10 random fields each of 10 and 20
# discs and of 10 discs with one next to the goal (seeds the published figures do not use)
# must reach every goal without touching an obstacle, with a mean path within 1.2 times the
# shortest collision-free path (--check; the target, 1.15, is for the mean over 1000 fields:
# over 10 fields the mean varies by about +-0.03; the figures of models/README.md are the
# 1000-field run of the same script).
#   sh tests/clutter_test.sh build/swerve
set -eu
SW=${1:?usage: clutter_test.sh SWERVE}
cd "$(dirname "$0")/.."
python3 scripts/measure_clutter.py "$SW" -j 2 --fields 10 --first 900001 --discs 10,20 \
	--near-goal --walkers behaviour --check --check-ratio 1.2
echo "clutter: passed"
