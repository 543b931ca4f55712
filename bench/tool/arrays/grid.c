/* grid.c -- the array workload's 2-D grid: Jacobi sweeps of a heat equation and a few reductions.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdlib.h>

#include "arrays.h"

struct grid {
    size_t w, h;
    float *v;               /* w * h values, row-major */
};

static void grid_init(struct grid *g, size_t w, size_t h)
{
    g->w = w;
    g->h = h;
    g->v = xmalloc(w * h * sizeof(float));
}

static float *cell(struct grid *g, size_t x, size_t y)
{
    return &g->v[y * g->w + x];
}

static void grid_seed(struct grid *g, struct rng *r)
{
    for (size_t y = 0; y < g->h; y++)
        for (size_t x = 0; x < g->w; x++)
            *cell(g, x, y) = (float)rng_real(r);
    /* Hot and cold edges. */
    for (size_t x = 0; x < g->w; x++) {
        *cell(g, x, 0) = 100.0f;
        *cell(g, x, g->h - 1) = 0.0f;
    }
}

/* One Jacobi sweep of the interior from src into dst; returns the largest
   change. */
static float grid_sweep(struct grid *dst, struct grid *src)
{
    float worst = 0.0f;

    for (size_t y = 1; y + 1 < src->h; y++) {
        const float *up = &src->v[(y - 1) * src->w];
        const float *row = &src->v[y * src->w];
        const float *down = &src->v[(y + 1) * src->w];
        float *out = &dst->v[y * dst->w];

        for (size_t x = 1; x + 1 < src->w; x++) {
            float n = 0.25f * (up[x] + down[x] + row[x - 1] + row[x + 1]);
            float d = n > row[x] ? n - row[x] : row[x] - n;

            out[x] = n;
            if (d > worst)
                worst = d;
        }
    }
    return worst;
}

static void grid_copy_edges(struct grid *dst, const struct grid *src)
{
    for (size_t x = 0; x < src->w; x++) {
        dst->v[x] = src->v[x];
        dst->v[(src->h - 1) * src->w + x] = src->v[(src->h - 1) * src->w + x];
    }
    for (size_t y = 0; y < src->h; y++) {
        dst->v[y * src->w] = src->v[y * src->w];
        dst->v[y * src->w + src->w - 1] = src->v[y * src->w + src->w - 1];
    }
}

static double grid_column_sums(const struct grid *g)
{
    double total = 0;

    for (size_t x = 0; x < g->w; x++) {
        double col = 0;

        for (size_t y = 0; y < g->h; y++)
            col += g->v[y * g->w + x];
        total += col * (double)(x % 7);
    }
    return total;
}

double grid_phase(struct rng *r, size_t w, size_t h, unsigned sweeps)
{
    struct grid a, b;
    double sum = 0;

    grid_init(&a, w, h);
    grid_init(&b, w, h);
    grid_seed(&a, r);
    grid_copy_edges(&b, &a);
    for (unsigned s = 0; s < sweeps; s++) {
        sum += grid_sweep(&b, &a);
        sum += grid_sweep(&a, &b);
    }
    sum += grid_column_sums(&a);
    free(a.v);
    free(b.v);
    return sum;
}
