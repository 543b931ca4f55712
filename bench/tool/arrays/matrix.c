/* matrix.c -- the array workload's dense linear algebra: fill, multiply, transpose, eliminate.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdlib.h>
#include <string.h>

#include "arrays.h"

static void matrix_init(struct matrix *m, size_t n)
{
    m->n = n;
    m->a = xmalloc(n * n * sizeof(double));
}

static void matrix_release(struct matrix *m)
{
    free(m->a);
    m->a = NULL;
    m->n = 0;
}

static void matrix_fill(struct matrix *m, struct rng *r)
{
    for (size_t i = 0; i < m->n * m->n; i++)
        m->a[i] = rng_real(r) - 0.5;
}

/* Makes m strictly diagonally dominant, so that elimination without
   pivoting is stable. */
static void matrix_dominate(struct matrix *m)
{
    for (size_t i = 0; i < m->n; i++)
        m->a[i * m->n + i] += (double)m->n;
}

/* c = a * b, the textbook i-j-k order: b is walked by columns. */
static void matrix_mul_naive(struct matrix *c, const struct matrix *a, const struct matrix *b)
{
    size_t n = a->n;

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double sum = 0.0;

            for (size_t k = 0; k < n; k++)
                sum += a->a[i * n + k] * b->a[k * n + j];
            c->a[i * n + j] = sum;
        }
}

/* c = a * b in i-k-j order: every inner loop walks rows. */
static void matrix_mul_rows(struct matrix *c, const struct matrix *a, const struct matrix *b)
{
    size_t n = a->n;

    memset(c->a, 0, n * n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++) {
            double aik = a->a[i * n + k];
            const double *brow = &b->a[k * n];
            double *crow = &c->a[i * n];

            for (size_t j = 0; j < n; j++)
                crow[j] += aik * brow[j];
        }
}

static void matrix_transpose(struct matrix *t, const struct matrix *m)
{
    size_t n = m->n;

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            t->a[j * n + i] = m->a[i * n + j];
}

/* In-place LU factorisation without pivoting; returns the product of the
   diagonal of U, the determinant. */
static double matrix_lu(struct matrix *m)
{
    size_t n = m->n;
    double det = 1.0;

    for (size_t k = 0; k < n; k++) {
        double pivot = m->a[k * n + k];

        det *= pivot / (double)n;
        for (size_t i = k + 1; i < n; i++) {
            double f = m->a[i * n + k] / pivot;

            m->a[i * n + k] = f;
            for (size_t j = k + 1; j < n; j++)
                m->a[i * n + j] -= f * m->a[k * n + j];
        }
    }
    return det;
}

static double matrix_trace(const struct matrix *m)
{
    double t = 0.0;

    for (size_t i = 0; i < m->n; i++)
        t += m->a[i * m->n + i];
    return t;
}

static double matrix_max_diff(const struct matrix *a, const struct matrix *b)
{
    double worst = 0.0;

    for (size_t i = 0; i < a->n * a->n; i++) {
        double d = a->a[i] - b->a[i];

        if (d < 0)
            d = -d;
        if (d > worst)
            worst = d;
    }
    return worst;
}

double matrix_phase(struct rng *r, size_t n, unsigned rounds)
{
    struct matrix a, b, c, d, t;
    double sum = 0.0;

    matrix_init(&a, n);
    matrix_init(&b, n);
    matrix_init(&c, n);
    matrix_init(&d, n);
    matrix_init(&t, n);
    for (unsigned round = 0; round < rounds; round++) {
        matrix_fill(&a, r);
        matrix_fill(&b, r);
        matrix_mul_naive(&c, &a, &b);
        matrix_mul_rows(&d, &a, &b);
        sum += matrix_trace(&c) + matrix_max_diff(&c, &d);
        matrix_transpose(&t, &c);
        sum += matrix_trace(&t);
        matrix_dominate(&t);
        sum += matrix_lu(&t);
    }
    matrix_release(&a);
    matrix_release(&b);
    matrix_release(&c);
    matrix_release(&d);
    matrix_release(&t);
    return sum;
}
