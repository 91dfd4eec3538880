/* core/rng.c - per-agent random streams and the 64-bit mixer.
 *
 * Streams are seeded from (scenario seed, stream index) so that an agent's random numbers do not
 * depend on thread count or on the order agents are processed in.  The generator itself is GSL's
 * taus2 (SW_RNG_TYPE); only the seed derivation is ours: SplitMix64 (Steele, Lea & Flood 2014)
 * turns the pair into a well-spread 32-bit seed (gsl_rng_set takes an unsigned long; taus2 uses
 * 32 bits of it). */
#include <math.h>

#include "core/core_internal.h"
#include "swerve/core.h"

uint64_t sw_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void sw_rng_stream_seed(gsl_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t h = sw_mix64(sw_mix64(seed) ^ sw_mix64(stream + 0x5157ULL));
	unsigned long s = (unsigned long)(h & 0xffffffffULL);
	/* GSL's taus2 maps seed 0 to its default seed 1; avoid that collision. */
	gsl_rng_set(r, s ? s : 0x6a09e667UL);
}

uint64_t sw_hash_bytes(uint64_t h, const void *data, size_t n)
{
	/* FNV-1a (Fowler, Noll, Vo): a few lines, no library offers it. */
	const unsigned char *p = data;
	for (size_t k = 0; k < n; k++) {
		h ^= p[k];
		h *= 0x100000001b3ULL;
	}
	return h;
}

gsl_rng *sw_rng_stream_alloc(uint64_t seed, uint64_t stream)
{
	gsl_rng *r = gsl_rng_alloc(SW_RNG_TYPE);
	if (r)
		sw_rng_stream_seed(r, seed, stream);
	return r;
}

double sw_wrap_angle(double a)
{
	double w = remainder(a, 2.0 * SW_PI); /* [-pi, pi] */
	return w <= -SW_PI ? w + 2.0 * SW_PI : w;
}
