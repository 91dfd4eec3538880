/* cli/field_cache.h - the command-line tool's cache of solved navigation fields (files under
 * --field-cache, $XDG_CACHE_HOME/swerve or ~/.cache/swerve; format in field_cache.c). */
#ifndef SWERVE_CLI_FIELD_CACHE_H
#define SWERVE_CLI_FIELD_CACHE_H

#include "swerve/plan.h"

/** A store (sw_plan_options.store) keeping fields as files in folder dir, which must outlive
 * its use; the folder is created at the first write. */
sw_field_store cli_field_cache(const char *dir);

/** sw_navgrid_solve_stored through the files of folder dir (NULL or "": no cache). */
int cli_navgrid_solve_cached(sw_grid *g, const sw_solver_def *def, const char *dir,
			     sw_solve_stats *stats, sw_diag *diag);

#endif
