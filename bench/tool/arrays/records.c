/* records.c -- the array workload's record table: sorting, binary search, grouping, a hash join.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdlib.h>
#include <string.h>

#include "arrays.h"

#define GROUPS 64

static void records_fill(struct record *t, size_t count, struct rng *r)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz";

    for (size_t i = 0; i < count; i++) {
        t[i].key = rng_u32(r) % (uint32_t)(count * 4);
        t[i].group = rng_u32(r) % GROUPS;
        t[i].amount = (int32_t)(rng_u32(r) % 20001) - 10000;
        t[i].flags = (uint16_t)(rng_u32(r) & 0xff);
        for (size_t k = 0; k + 1 < sizeof(t[i].tag); k++)
            t[i].tag[k] = letters[rng_u32(r) % 26];
        t[i].tag[sizeof(t[i].tag) - 1] = '\0';
    }
}

/* A bottom-up merge sort by key, stable, through a scratch table. */
static void records_sort(struct record *t, size_t count, struct record *scratch)
{
    struct record *from = t, *to = scratch;

    for (size_t width = 1; width < count; width *= 2) {
        for (size_t lo = 0; lo < count; lo += 2 * width) {
            size_t mid = lo + width < count ? lo + width : count;
            size_t hi = lo + 2 * width < count ? lo + 2 * width : count;
            size_t i = lo, j = mid, k = lo;

            while (i < mid && j < hi)
                to[k++] = from[j].key < from[i].key ? from[j++] : from[i++];
            while (i < mid)
                to[k++] = from[i++];
            while (j < hi)
                to[k++] = from[j++];
        }
        struct record *swap = from;
        from = to;
        to = swap;
    }
    if (from != t)
        memcpy(t, from, count * sizeof(*t));
}

/* The index of the first record with key >= key. */
static size_t records_lower_bound(const struct record *t, size_t count, uint32_t key)
{
    size_t lo = 0, hi = count;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (t[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static double records_lookups(const struct record *t, size_t count, struct rng *r)
{
    double found = 0;

    for (size_t i = 0; i < count; i++) {
        uint32_t key = rng_u32(r) % (uint32_t)(count * 4);
        size_t at = records_lower_bound(t, count, key);

        if (at < count && t[at].key == key)
            found += t[at].amount;
    }
    return found;
}

static double records_group_totals(const struct record *t, size_t count)
{
    long long total[GROUPS] = { 0 };
    unsigned flagged[GROUPS] = { 0 };
    double sum = 0;

    for (size_t i = 0; i < count; i++) {
        total[t[i].group] += t[i].amount;
        if (t[i].flags & 0x10)
            flagged[t[i].group]++;
    }
    for (size_t g = 0; g < GROUPS; g++)
        sum += (double)total[g] * (double)(flagged[g] % 17);
    return sum;
}

static uint32_t tag_hash(const char *tag)
{
    uint32_t h = 2166136261u;

    for (; *tag != '\0'; tag++)
        h = (h ^ (unsigned char)*tag) * 16777619u;
    return h;
}

/* A hash join of the table with itself on the first three letters of the
   tag, through an open-addressing table of indices. */
static double records_self_join(const struct record *t, size_t count)
{
    size_t slots = 1;
    uint32_t *table;
    double matches = 0;

    while (slots < count * 2)
        slots *= 2;
    table = xmalloc(slots * sizeof(*table));
    memset(table, 0xff, slots * sizeof(*table));
    for (size_t i = 0; i < count; i++) {
        char prefix[4] = { t[i].tag[0], t[i].tag[1], t[i].tag[2], '\0' };
        size_t s = tag_hash(prefix) & (slots - 1);

        while (table[s] != UINT32_MAX)
            s = (s + 1) & (slots - 1);
        table[s] = (uint32_t)i;
    }
    for (size_t i = 0; i < count; i += 3) {
        char prefix[4] = { t[i].tag[0], t[i].tag[1], t[i].tag[2], '\0' };
        size_t s = tag_hash(prefix) & (slots - 1);

        for (; table[s] != UINT32_MAX; s = (s + 1) & (slots - 1)) {
            const struct record *o = &t[table[s]];

            if (memcmp(o->tag, prefix, 3) == 0)
                matches += o->amount > 0 ? 1 : 0.5;
        }
    }
    free(table);
    return matches;
}

double record_phase(struct rng *r, size_t count, unsigned rounds)
{
    struct record *t = xmalloc(count * sizeof(*t));
    struct record *scratch = xmalloc(count * sizeof(*t));
    double sum = 0;

    for (unsigned round = 0; round < rounds; round++) {
        records_fill(t, count, r);
        sum += records_group_totals(t, count);
        records_sort(t, count, scratch);
        sum += records_lookups(t, count, r);
        sum += records_self_join(t, count);
    }
    free(t);
    free(scratch);
    return sum;
}
