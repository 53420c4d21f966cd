/* exported by common */
/* version.h: the release of gorewrite and gostat, printed by --version.
 * Both programs come from one source tree and carry one number. */
#ifndef GR_VERSION_H
#define GR_VERSION_H

#define GR_VERSION "0.10.0"

#endif
