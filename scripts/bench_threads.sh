#!/bin/sh
# scripts/bench_threads.sh - the crowd laws' two-thread speed-up, measured in adjacent pairs.
#
#     sh scripts/bench_threads.sh BENCH [PAIRS [N]]
#
# BENCH is build-bench/bench_swerve (`make bench`, or `make OPT="-O3 -g -march=native"
# BUILD=build-bench build-bench/bench_swerve`).  For each crowd law (ttc, csm, sf) it runs
# `BENCH crowd-LAW N 1` and `BENCH crowd-LAW N 2` (default N = 10 000) one right after the
# other, PAIRS times (default 20), the order alternating from pair to pair, and prints each
# pair's wall-clock ns per agent-step and their ratio (one thread over two), then per law the
# median ratio and its quartiles and the median ns per agent-step of each thread count (each
# pair also goes to standard error as it is measured).  Exit status 1 when a bench run fails or
# prints no figure.
#
# Why pairs: on a shared virtual machine the same binary's speed drifts by a factor of two over
# minutes (bench/README.md), far more than the difference between one and two threads is to be
# read to; two runs a second apart see about the same machine, so the ratio of a pair is steadier
# than the ratio of separately taken medians.  Run it with nothing else on the machine.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BENCH [PAIRS [N]]" >&2; exit 2; }
bench=$1
pairs=${2:-20}
n=${3:-10000}
[ -x "$bench" ] || { echo "$0: $bench is not an executable" >&2; exit 2; }

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ns() { # ns LAW THREADS: the bench's wall-clock ns per agent-step; fails without one
	out=$("$bench" "crowd-$1" "$n" "$2") || { echo "$0: $bench crowd-$1 $n $2 failed" >&2; exit 1; }
	v=$(printf '%s\n' "$out" | sed -n 's/.*agent-steps\/s *\([0-9.]*\) ns\/agent-step.*/\1/p')
	[ -n "$v" ] || { echo "$0: no ns per agent-step from $bench crowd-$1 $n $2" >&2; exit 1; }
	echo "$v"
}

for law in ttc csm sf; do
	k=1
	while [ "$k" -le "$pairs" ]; do
		if [ $((k % 2)) = 1 ]; then
			one=$(ns "$law" 1)
			two=$(ns "$law" 2)
		else
			two=$(ns "$law" 2)
			one=$(ns "$law" 1)
		fi
		echo "$law $k $one $two" >>"$tmp"
		echo "$law pair $k: 1 thread $one ns, 2 threads $two ns" >&2 # progress
		k=$((k + 1))
	done
done
awk '
function median(a, m,   t, i, j) { # a[1..m], sorted in place
	for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
function quart(a, m, q,   x) { x = 1 + q * (m - 1); return a[int(x)] + (x - int(x)) * (a[int(x) + 1] - a[int(x)]) }
function report(law,   r, s1, s2, i, mr) {
	for (i = 1; i <= cnt; i++) { r[i] = one[i] / two[i]; s1[i] = one[i]; s2[i] = two[i] }
	mr = median(r, cnt) # (sorts r for the quartiles)
	printf "%s: speed-up median %.2f (quartiles %.2f, %.2f) over %d pairs; ns per agent-step, median: 1 thread %.0f, 2 threads %.0f\n",
	       law, mr, quart(r, cnt, 0.25), quart(r, cnt, 0.75), cnt, median(s1, cnt), median(s2, cnt)
}
{
	if ($1 != law && cnt) { report(law); cnt = 0 }
	law = $1; cnt++; one[cnt] = $3; two[cnt] = $4
	printf "%s pair %d: 1 thread %s ns, 2 threads %s ns, ratio %.3f\n", $1, $2, $3, $4, $3 / $4
}
END { if (cnt) report(law) }' "$tmp"
