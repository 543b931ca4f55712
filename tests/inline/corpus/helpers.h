/* helpers.h -- header helpers inlined into helpers.c: costs in a header, as in a C library of inline functions. */
/* Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef HELPERS_H
#define HELPERS_H

static inline unsigned rotl(unsigned x, int k)
{
	return (x << k) | (x >> (32 - k));
}

static inline unsigned hash_step(unsigned h, unsigned v)
{
	h ^= v * 0x9e3779b9u;
	return rotl(h, 13) * 5u + 0xe6546b64u;
}

static inline unsigned clamp(unsigned x, unsigned lo, unsigned hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

#endif
