/* ann_demangle.c -- C++ and Rust names demangled as Valgrind demangles them (libiberty's cplus_demangle). */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A file of its own: libiberty's headers declare an xmalloc() of their
 * own, which prog.h's would clash with.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "ann_dwarf.h"

/* Valgrind 3.19 demangles with DMGL_PARAMS | DMGL_ANSI, so a name shown
 * here is spelt as the profile's names are: C++ and legacy Rust names
 * (_Z), Rust v0 names (_R; libiberty tries Rust first, in its automatic
 * style). */
char *ann_demangle(const char *name)
{
	char *d = NULL;

	if (name[0] == '_' && (name[1] == 'Z' || name[1] == 'R'))
		d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
	return d ? d : strdup(name);
}
