/* test_lib.h -- the tiny check macro shared by the profile library's unit tests. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TEST_LIB_H
#define TEST_LIB_H

#include <stdio.h>

static int test_checks, test_failures;

/* Counts a check; prints the message (printf-style) when cond is false. */
#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		test_checks++;                                                \
		if (!(cond)) {                                                \
			test_failures++;                                      \
			fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                         \
			fputc('\n', stderr);                                  \
		}                                                             \
	} while (0)

/* Prints the closing line and returns the exit status. */
static inline int test_report(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, test_checks - test_failures,
	       test_failures);
	return test_failures != 0;
}

#endif
