/* cgp_heap.c -- the heap of a program that reads a large profile into memory, faulted in a step at a time. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * cg_annotate and cg_merge hold a whole profile in tables on the heap:
 * about 150 MB for the 4-million-line profile of bench/, filled in small
 * allocations as the profile is read.  Touching that memory a page at a
 * time costs a page fault per 4 KiB page, each a trap into the kernel:
 * about a sixth of cg_annotate's time.  MADV_POPULATE_WRITE (Linux 5.14)
 * makes the same pages present in one call per range, without the traps.
 *
 * How: malloc is told to grow its heap (with brk) a step beyond each
 * request, and cgp_heap_check(), which the reader calls each time it maps
 * the next window of a file (every 128 KiB of input), populates whatever
 * the heap has grown by since the last call.  The step is small, 1 MiB,
 * so that the pages made present ahead of their use are at most that at
 * any time; larger steps measured no faster.  Allocations of 128 KiB and
 * more get mappings of their own from malloc (its default threshold, which
 * setting the step also keeps from rising) and are not populated.
 * Nothing changes for small inputs: population starts with the first
 * mapped input of at least the size the program named, and only in the
 * programs that opt in; cg_diff, which streams and whose peak memory is
 * about 30 MB, does not.  Where the kernel does not know the advice, the
 * call fails and the pages fault in as before.
 *
 * Tried and dropped (docs/companions.md): transparent huge pages for the
 * heap (MADV_HUGEPAGE on the same ranges).  Alone, cg_annotate took 0.30 s
 * instead of 0.38 s, but run right after another large program it took
 * 0.42-0.48 s: on the benchmark's virtual machine free memory in large
 * blocks is given back to the host (free page reporting), and huge pages
 * come from exactly those blocks.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cgp.h"

#define HEAP_STEP ((size_t)1 << 20)

static size_t heap_min;          /* 0: the program did not opt in */
static int heap_on;
static uintptr_t heap_done;      /* the heap is populated below this */

void cgp_heap_prefault(size_t min_input)
{
	heap_min = min_input ? min_input : 1;
}

int cgp_heap_prefaulting(void)
{
	return heap_on;
}

void cgp_heap_input(uint64_t size)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t top;
	void *p;

	if (heap_on || !heap_min || size < heap_min)
		return;
#ifdef M_TOP_PAD
	mallopt(M_TOP_PAD, (int)HEAP_STEP);
#endif
	/* The heap exists once something was allocated from it. */
	p = malloc(1);
	free(p);
	top = (uintptr_t)sbrk(0);
	if (top == (uintptr_t)-1)
		return;
	heap_done = top;
	heap_on = 1;
#else
	(void)size;
#endif
}

void cgp_heap_check(void)
{
#ifdef MADV_POPULATE_WRITE
	size_t page;
	uintptr_t top, from;

	if (!heap_on)
		return;
	top = (uintptr_t)sbrk(0);
	if (top == (uintptr_t)-1 || top == heap_done)
		return;
	page = (size_t)sysconf(_SC_PAGESIZE);
	from = heap_done & ~(uintptr_t)(page - 1);
	/* When the heap shrank (malloc gave its top back), nothing is
	 * populated and the next growth starts from the new top. */
	if (top > from &&
	    madvise((void *)from, top - from, MADV_POPULATE_WRITE) != 0 &&
	    errno == EINVAL) {
		heap_on = 0;    /* a kernel without the advice: stop asking */
		return;
	}
	heap_done = top;
#endif
}
