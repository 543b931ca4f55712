/* inlfn.h -- a static inline function of a header, which gcc -O2 inlines into main of inlfn.c.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

static inline unsigned mix(unsigned x)
{
	x ^= x >> 3;
	x *= 2654435761u;
	return x ^ (x >> 7);
}
