/* scripts/probe_sleef_avx512.c - links only when the SLEEF library has its AVX-512 functions
 * (the Makefile then defines SW_HAVE_SLEEF_AVX512).  Compiled with -mavx512f, never run. */
#include <immintrin.h>
#include <sleef.h>

int main(void)
{
	__m512d x = _mm512_set1_pd(0.5);
	x = Sleef_expd8_u10avx512f(x);
	x = Sleef_atan2d8_u35avx512f(x, x);
	x = Sleef_asind8_u35avx512f(x);
	return (int)_mm512_reduce_add_pd(x);
}
