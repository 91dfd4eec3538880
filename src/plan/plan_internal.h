/* plan/plan_internal.h - helpers shared by the files of the plan module. */
#ifndef SWERVE_PLAN_INTERNAL_H
#define SWERVE_PLAN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/** 64-bit FNV-1a of n doubles (cache file checksum). */
uint64_t sw__plan_checksum(const double *v, size_t n);

#endif
