/* arrays.h -- the array workload's shared types and the entry points of its translation units.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The workload is ordinary numeric C spread over several files and many
   small functions, compiled with -g -O2, so that a profile of it has many
   files, functions and lines (debug-info-rich), and loops over a few MB of
   arrays: matrices, arrays of structs, a 2-D grid, a table of records.
   Each phase returns a checksum that main prints. */

#ifndef ARRAYS_H
#define ARRAYS_H

#include <stddef.h>
#include <stdint.h>

/* A deterministic generator shared by every phase (xorshift32). */
struct rng {
    uint32_t s;
};

static inline uint32_t rng_u32(struct rng *r)
{
    uint32_t x = r->s;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->s = x;
    return x;
}

static inline double rng_real(struct rng *r)
{
    return (double)(rng_u32(r) >> 8) / 16777216.0;
}

/* Dense square matrices, row-major. */
struct matrix {
    size_t n;
    double *a;
};

/* One body of the particle phase. */
struct particle {
    double x, y, z;
    double vx, vy, vz;
    double mass;
    uint32_t id;
    uint32_t cell;
};

/* One row of the record table. */
struct record {
    uint32_t key;
    uint32_t group;
    int32_t amount;
    uint16_t flags;
    char tag[10];
};

void *xmalloc(size_t n);

double matrix_phase(struct rng *r, size_t n, unsigned rounds);
double particle_phase(struct rng *r, size_t count, unsigned steps);
double grid_phase(struct rng *r, size_t w, size_t h, unsigned sweeps);
double record_phase(struct rng *r, size_t count, unsigned rounds);

#endif
