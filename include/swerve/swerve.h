/* swerve/swerve.h - the whole public API of libswerve. */
#ifndef SWERVE_SWERVE_H
#define SWERVE_SWERVE_H

#define SWERVE_VERSION "0.1.0"

#include "swerve/core.h"
#include "swerve/expr.h"
#include "swerve/export.h"
#include "swerve/ensemble.h"
#include "swerve/geom.h"
#include "swerve/io.h"
#include "swerve/model.h"
#include "swerve/plan.h"
#include "swerve/render.h"
#include "swerve/sim.h"
#include "swerve/steer.h"

#endif
