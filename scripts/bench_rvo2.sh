#!/bin/sh
# scripts/bench_rvo2.sh - RVO2 (ORCA) on the rings of bench/bench_crowd.c, for the crowd issue's
# side-by-side figure: CPU time per agent-step and per agent per simulated second.
#
#     sh scripts/bench_rvo2.sh RVO2_DIR [N [STEPS [THREADS]]]
#
# RVO2_DIR is a checkout of RVO2 v2.0.2 (github.com/snape/RVO2, tag v2.0.2; its src/ folder is
# compiled here, nothing of it is kept in this project).  The driver below is swerve's own: N
# agents (default 10 000) on concentric rings 1 m apart from radius 5 m, 1 m apart along each
# ring, staggered as bench_crowd.c staggers them, each walking to the antipode of its start;
# radius 0.2 m, neighbour distance 1.25 m, at most 16 neighbours, time horizons 5 s, maximum
# speed 1.3 m/s (the time-to-collision law's preferred speed), preferred velocity towards the
# goal at that speed (slowing within 1 m), time step 0.1 s.  It times STEPS steps (default 100,
# i.e. 10 simulated seconds) with the process CPU clock, and with THREADS > 1 (default 1) builds
# RVO2 with OpenMP and runs that many threads (wall clock then).  Compare over the same
# simulated time, run alternately on the same machine (bench/README.md, "RVO2 side by side"):
# `sh scripts/bench_rvo2.sh RVO2_DIR 10000 100 1` against
# `build-bench/bench_swerve crowd-csm 10000 1 0.05` (200 steps of 0.05 s).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 RVO2_DIR [N [STEPS [THREADS]]]" >&2; exit 2; }
rvo=$1
n=${2:-10000}
steps=${3:-100}
threads=${4:-1}
[ -f "$rvo/src/RVOSimulator.cpp" ] || { echo "$0: $rvo/src/RVOSimulator.cpp not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/rings.cpp" <<'EOF'
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "RVO.h"

static double clock_s(clockid_t id)
{
	timespec ts;
	clock_gettime(id, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = std::atoi(argv[1]), steps = std::atoi(argv[2]);
	const float speed = 1.3f, dt = 0.1f;
	RVO::RVOSimulator sim;
	sim.setTimeStep(dt);
	sim.setAgentDefaults(1.25f, 16, 5.0f, 5.0f, 0.2f, speed);
	std::vector<RVO::Vector2> goal;
	int placed = 0;
	for (double r = 5.0; placed < n; r += 1.0) {
		int k = (int)std::floor(2 * M_PI * r / 1.0);
		if (k > n - placed)
			k = n - placed;
		for (int j = 0; j < k; j++, placed++) {
			double a = 2 * M_PI * j / k + 0.5 * r; /* staggered as bench_crowd.c */
			sim.addAgent(RVO::Vector2((float)(r * std::cos(a)), (float)(r * std::sin(a))));
			goal.push_back(RVO::Vector2((float)(-r * std::cos(a)), (float)(-r * std::sin(a))));
		}
	}
	double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
	for (int s = 0; s < steps; s++) {
		for (int i = 0; i < n; i++) {
			RVO::Vector2 d = goal[i] - sim.getAgentPosition(i);
			float len = RVO::abs(d);
			sim.setAgentPrefVelocity(i, len > 1.0f ? d * (speed / len) : d * speed);
		}
		sim.doStep();
	}
	double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0, wall = clock_s(CLOCK_MONOTONIC) - w0;
	double per = 1e9 / ((double)n * steps);
	std::printf("rvo2 N=%d steps=%d dt=%.2f: cpu %.1f ns per agent-step, wall %.1f ns; "
		    "%.2f us (cpu) per agent per simulated second\n",
		    n, steps, dt, cpu * per, wall * per, cpu * per / dt / 1000.0);
	return 0;
}
EOF
omp=
[ "$threads" -gt 1 ] && omp=-fopenmp
# RVO2's own sources, built as the issue measured them: -O3 -march=native
${CXX:-g++} -O3 -march=native $omp -w -I"$rvo/src" "$tmp/rings.cpp" "$rvo"/src/*.cpp \
	-o "$tmp/rings"
OMP_NUM_THREADS=$threads "$tmp/rings" "$n" "$steps"
