/* core/core_internal.h - helpers of the core module shared by the other modules (not public). */
#ifndef SWERVE_CORE_INTERNAL_H
#define SWERVE_CORE_INTERNAL_H

#include <stddef.h>

/** Opens path for reading when it names a regular file (symbolic links followed).  A FIFO is
 * opened without blocking and, like a device, socket or directory, refused: reading one could
 * wait or run forever.  Returns a file descriptor (the caller closes it); -1 when the file cannot
 * be opened (errno set); -2 when it is not a regular file.  On failure why (n bytes, may be NULL
 * when n is 0) receives the reason: errno's text, or "a FIFO, not a regular file". */
int sw__file_open_regular(const char *path, char *why, size_t n);

#endif
