/* render/table.h - helpers of the CSV table shared within the render module. */
#ifndef SW_RENDER_TABLE_H
#define SW_RENDER_TABLE_H

#include "swerve/render.h"

/** The index of t's column called name; -1 after adding an error to diag citing the header's
 * file:line:column and listing the columns there are. */
int sw__table_require(const sw_table *t, const char *name, sw_diag *diag);

#endif
