/* lto-mix.c -- the functions that -flto inlines into lto-main.c's loop. */
/* Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */
static unsigned rot(unsigned x, int k)
{
	return (x << k) | (x >> (32 - k));
}

unsigned mix(unsigned h, unsigned v)
{
	h ^= v * 0x9e3779b9u;
	return rot(h, 13) * 5u + 0xe6546b64u;
}

unsigned finish(unsigned h, unsigned n)
{
	h ^= n;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= rot(h, 19) >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}
