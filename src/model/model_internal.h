/* model/model_internal.h - what the files of the model module share. */
#ifndef SWERVE_MODEL_INTERNAL_H
#define SWERVE_MODEL_INTERNAL_H

#include "swerve/model.h"

/** Kinds of records with a name index (sw_model.names). */
enum { SW_NAMES_TARGET = 0, SW_NAMES_AGENT = 1, SW_NAMES_OBSTACLE = 2, SW_NAMES_KINDS = 3 };

/** (Re)builds the name index of a kind when its records changed; SW_SUCCESS or SW_ENOMEM. */
int sw__names_build(sw_model *m, int kind);
/** Index of the first record of a kind with that name, or -1 (linear when the index is stale). */
int sw__names_find(const sw_model *m, int kind, const char *name);
void sw__names_free(sw_model *m);

#endif
