/* particles.c -- the array workload's array of structs: binning, sorting by cell, integrating bodies.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdlib.h>
#include <string.h>

#include "arrays.h"

#define CELLS_PER_SIDE 16
#define CELLS (CELLS_PER_SIDE * CELLS_PER_SIDE * CELLS_PER_SIDE)
#define DT 0.01

/* Per-cell totals, indexed by cell number. */
struct cell {
    double mass;
    double cx, cy, cz;
    uint32_t count;
    uint32_t start;
};

static void particles_fill(struct particle *p, size_t count, struct rng *r)
{
    for (size_t i = 0; i < count; i++) {
        p[i].x = rng_real(r);
        p[i].y = rng_real(r);
        p[i].z = rng_real(r);
        p[i].vx = (rng_real(r) - 0.5) * 0.1;
        p[i].vy = (rng_real(r) - 0.5) * 0.1;
        p[i].vz = (rng_real(r) - 0.5) * 0.1;
        p[i].mass = 0.5 + rng_real(r);
        p[i].id = (uint32_t)i;
        p[i].cell = 0;
    }
}

static uint32_t cell_coord(double v)
{
    int c = (int)(v * CELLS_PER_SIDE);

    if (c < 0)
        c = 0;
    if (c >= CELLS_PER_SIDE)
        c = CELLS_PER_SIDE - 1;
    return (uint32_t)c;
}

static void particles_bin(struct particle *p, size_t count, struct cell *cells)
{
    memset(cells, 0, CELLS * sizeof(*cells));
    for (size_t i = 0; i < count; i++) {
        uint32_t c = (cell_coord(p[i].x) * CELLS_PER_SIDE + cell_coord(p[i].y))
                     * CELLS_PER_SIDE + cell_coord(p[i].z);
        struct cell *k = &cells[c];

        p[i].cell = c;
        k->count++;
        k->mass += p[i].mass;
        k->cx += p[i].mass * p[i].x;
        k->cy += p[i].mass * p[i].y;
        k->cz += p[i].mass * p[i].z;
    }
    for (size_t c = 0; c < CELLS; c++)
        if (cells[c].mass > 0) {
            cells[c].cx /= cells[c].mass;
            cells[c].cy /= cells[c].mass;
            cells[c].cz /= cells[c].mass;
        }
}

/* A counting sort of the bodies by cell into out, so that neighbours in
   space become neighbours in memory. */
static void particles_sort(const struct particle *p, size_t count, struct cell *cells,
                           struct particle *out)
{
    uint32_t next = 0;

    for (size_t c = 0; c < CELLS; c++) {
        cells[c].start = next;
        next += cells[c].count;
    }
    for (size_t i = 0; i < count; i++)
        out[cells[p[i].cell].start++] = p[i];
}

/* Every body is pulled towards the centre of mass of its own cell and of
   the six cells around it. */
static void particles_accelerate(struct particle *p, size_t count, const struct cell *cells)
{
    static const int dx[6] = { -1, 1, 0, 0, 0, 0 };
    static const int dy[6] = { 0, 0, -1, 1, 0, 0 };
    static const int dz[6] = { 0, 0, 0, 0, -1, 1 };

    for (size_t i = 0; i < count; i++) {
        uint32_t c = p[i].cell;
        int cx = (int)(c / (CELLS_PER_SIDE * CELLS_PER_SIDE));
        int cy = (int)(c / CELLS_PER_SIDE % CELLS_PER_SIDE);
        int cz = (int)(c % CELLS_PER_SIDE);
        double ax = 0, ay = 0, az = 0;

        for (int k = -1; k < 6; k++) {
            int nx = cx, ny = cy, nz = cz;
            const struct cell *n;
            double rx, ry, rz, d2;

            if (k >= 0) {
                nx += dx[k];
                ny += dy[k];
                nz += dz[k];
            }
            if (nx < 0 || ny < 0 || nz < 0 || nx >= CELLS_PER_SIDE || ny >= CELLS_PER_SIDE
                || nz >= CELLS_PER_SIDE)
                continue;
            n = &cells[(nx * CELLS_PER_SIDE + ny) * CELLS_PER_SIDE + nz];
            if (n->mass == 0)
                continue;
            rx = n->cx - p[i].x;
            ry = n->cy - p[i].y;
            rz = n->cz - p[i].z;
            d2 = rx * rx + ry * ry + rz * rz + 0.01;
            ax += n->mass * rx / d2;
            ay += n->mass * ry / d2;
            az += n->mass * rz / d2;
        }
        p[i].vx += ax * DT * 1e-4;
        p[i].vy += ay * DT * 1e-4;
        p[i].vz += az * DT * 1e-4;
    }
}

static double reflect(double *pos, double *vel)
{
    if (*pos < 0) {
        *pos = -*pos;
        *vel = -*vel;
        return 1;
    }
    if (*pos > 1) {
        *pos = 2 - *pos;
        *vel = -*vel;
        return 1;
    }
    return 0;
}

static double particles_move(struct particle *p, size_t count)
{
    double bounces = 0;

    for (size_t i = 0; i < count; i++) {
        p[i].x += p[i].vx * DT;
        p[i].y += p[i].vy * DT;
        p[i].z += p[i].vz * DT;
        bounces += reflect(&p[i].x, &p[i].vx);
        bounces += reflect(&p[i].y, &p[i].vy);
        bounces += reflect(&p[i].z, &p[i].vz);
    }
    return bounces;
}

static double particles_energy(const struct particle *p, size_t count)
{
    double e = 0;

    for (size_t i = 0; i < count; i++)
        e += 0.5 * p[i].mass * (p[i].vx * p[i].vx + p[i].vy * p[i].vy + p[i].vz * p[i].vz);
    return e;
}

static uint64_t particles_order_check(const struct particle *p, size_t count)
{
    uint64_t h = 0;

    for (size_t i = 0; i < count; i++)
        h = h * 31 + p[i].id;
    return h;
}

double particle_phase(struct rng *r, size_t count, unsigned steps)
{
    struct particle *p = xmalloc(count * sizeof(*p));
    struct particle *q = xmalloc(count * sizeof(*q));
    struct cell *cells = xmalloc(CELLS * sizeof(*cells));
    double sum = 0;

    particles_fill(p, count, r);
    for (unsigned s = 0; s < steps; s++) {
        struct particle *swap;

        particles_bin(p, count, cells);
        particles_sort(p, count, cells, q);
        swap = p;
        p = q;
        q = swap;
        particles_accelerate(p, count, cells);
        sum += particles_move(p, count);
        sum += particles_energy(p, count);
        sum += (double)(particles_order_check(p, count) % 1000);
    }
    free(p);
    free(q);
    free(cells);
    return sum;
}
