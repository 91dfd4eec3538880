#!/bin/sh
# scripts/event_passes.sh - the random-pass property tests of tests/test_events.c at 10^4 passes
# each (make test runs 300): straight passes (random speeds, offsets, moving marks) and circular
# arcs (random mark angles and offsets inside and outside the circle), steps 0.01-1 s and
# steppers, against closed forms; fails on any miss, false event or instant off the closed form.
# Usage: sh scripts/event_passes.sh [PASSES]   (run from the repository root; needs
# `make build/check_swerve`)
set -e
SWERVE_EVENT_PASSES=${1:-10000} SWERVE_EVENT_ARCS=${1:-10000} CK_RUN_SUITE=events CK_RUN_CASE=events \
	CK_DEFAULT_TIMEOUT=3600 ./build/check_swerve
