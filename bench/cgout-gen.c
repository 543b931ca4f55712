/* cgout-gen.c -- writes a large synthetic Cachegrind output file (13 events) for the companions' benchmark. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Usage: cgout-gen LINES SEED > file
 * LINES (at least 1) and SEED (0 to ULONG_MAX) are whole numbers in
 * decimal; anything else is a usage error (exit 2), and a failed write
 * is reported with its reason (exit 1).
 * Shape of a real --cache-sim=yes --branch-sim=yes profile: desc: lines,
 * files of 10 to 60 functions, functions of 5 to 94 consecutive source
 * lines with small counts, most miss counts zero, an occasional hot line.  The same
 * SEED gives the same file; another SEED gives the same files and
 * functions with other counts (for cg_diff and cg_merge).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

/* xorshift64*: fast, deterministic, good enough for test data. */
static uint64_t rnd(void)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545f4914f6cdd1dull;
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* Reads S, digits only (no sign, no blank, no exponent), into *V; returns
 * -1 when S is not such a number or it exceeds MAX. */
static int parse_number(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno != 0 || *end != '\0' || *v > max ? -1 : 0;
}

/* Says why the output could not be written; exit status 1. */
static int write_error(int err)
{
	fprintf(stderr, "cgout-gen: error: writing the output: %s\n", strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long long lines, done = 0, sum[13] = { 0 }, seed_arg;
	unsigned long seed;
	unsigned file = 0, k;
	static char buf[1 << 20];

	if (argc != 3) {
		fprintf(stderr, "usage: cgout-gen LINES SEED > file\n");
		return 2;
	}
	if (parse_number(argv[1], ULLONG_MAX, &lines) != 0 || lines == 0) {
		fprintf(stderr, "cgout-gen: error: LINES must be a whole number of at least 1: '%s'\n", argv[1]);
		return 2;
	}
	if (parse_number(argv[2], ULONG_MAX, &seed_arg) != 0) {
		fprintf(stderr, "cgout-gen: error: SEED must be a whole number from 0 to %lu: '%s'\n",
			ULONG_MAX, argv[2]);
		return 2;
	}
	seed = (unsigned long)seed_arg;
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	printf("desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
	       "desc: D1 cache:         32768 B, 64 B, 8-way associative\n"
	       "desc: LL cache:         8388608 B, 64 B, 16-way associative\n"
	       "cmd: ./synthetic --seed %lu\n"
	       "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n", seed);
	while (done < lines) {
		/* The layout depends on the file number only, the counts on
		 * the seed too.  As in real output, files and functions come
		 * in name order, so function bodies are not in line order. */
		unsigned nfn, fn, i, start[64], len[64], order[64];
		uint64_t layout;
		state = 0x9e3779b97f4a7c15ull * (file + 1);
		nfn = 10 + below(51);
		for (fn = 0, k = 1; fn < nfn; fn++) {
			len[fn] = 5 + below(90);
			start[fn] = k + 2 + below(10);
			k = start[fn] + len[fn];
			order[fn] = fn;
		}
		for (fn = nfn - 1; fn > 0; fn--) {
			unsigned j = below(fn + 1), t = order[fn];
			order[fn] = order[j];
			order[j] = t;
		}
		layout = state;
		printf("fl=/home/dev/project/src/file%05u/module%02u.c\n", file, file % 97);
		for (fn = 0; fn < nfn && done < lines; fn++) {
			unsigned b = order[fn], line = start[b];
			printf("fn=f%02u_%s\n", fn, fn % 4 ? "impl" : "helper_with_a_longer_name");
			state = layout ^ (0xd1b54a32d192ed03ull * (seed + 1)) ^ (fn + 1);
			for (i = 0; i < len[b] && done < lines; i++, line++, done++) {
				unsigned long long c[13];
				unsigned hot = below(50) == 0 ? 1000 : 1;
				c[0] = (1 + below(40)) * hot;             /* Ir */
				c[1] = below(30) == 0;                   /* I1mr */
				c[2] = c[1] && below(4) == 0;            /* ILmr */
				c[3] = below(3) ? below(12) * hot : 0;   /* Dr */
				c[4] = c[3] && below(10) == 0 ? 1 + below(3) : 0;
				c[5] = c[4] && below(5) == 0;
				c[6] = below(3) == 0 ? below(8) * hot : 0; /* Dw */
				c[7] = c[6] && below(12) == 0;
				c[8] = c[7] && below(4) == 0;
				c[9] = below(5) == 0 ? (1 + below(4)) * hot : 0; /* Bc */
				c[10] = c[9] && below(6) == 0 ? 1 + below(2) : 0;
				c[11] = below(60) == 0;
				c[12] = c[11] && below(3) == 0;
				printf("%u", line);
				for (k = 0; k < 13; k++) {
					printf(" %llu", c[k]);
					sum[k] += c[k];
				}
				putchar('\n');
			}
		}
		file++;
		/* A failed write (a full disk) stops the output at once. */
		if (ferror(stdout))
			return write_error(errno);
	}
	printf("summary:");
	for (k = 0; k < 13; k++)
		printf(" %llu", sum[k]);
	putchar('\n');
	if (fflush(stdout) != 0 || ferror(stdout))
		return write_error(errno);
	return 0;
}
