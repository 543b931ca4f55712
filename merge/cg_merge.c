/* cg_merge.c -- cg_merge: sums several Cachegrind output files into one. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgp.h"
#include "prog.h"

/* The usage and help texts as Python 3.11's argparse prints them for
 * upstream's parser, at 80 columns (tests/cli/help-vs-man.sh compares
 * them with the manual page). */
static const char usage_text[] =
	"usage: cg_merge [-h] [--version] [-o FILE]\n"
	"                cachegrind-out-file [cachegrind-out-file ...]\n";

static const char help_text[] =
	"\n"
	"Merge multiple Cachegrind output files. Deprecated; use `cg_annotate` with\n"
	"multiple Cachegrind output files instead.\n"
	"\n"
	"positional arguments:\n"
	"  cachegrind-out-file  file produced by Cachegrind\n"
	"\n"
	"options:\n"
	"  -h, --help           show this help message and exit\n"
	"  --version            show program's version number and exit\n"
	"  -o FILE              output file (default: stdout)\n";

enum { O_HELP, O_VERSION, O_OUTPUT };

static const struct ap_opt options[] = {
	{ { "-h", "--help", NULL }, 0, O_HELP },
	{ { "--version", NULL, NULL }, 0, O_VERSION },
	{ { "-o", NULL, NULL }, 1, O_OUTPUT },
};

static const struct ap_pos positionals[] = { { "cachegrind-out-file", 1 } };

static const struct ap_spec spec = {
	usage_text, options, sizeof options / sizeof options[0], positionals, 1, 0
};

/* The output file while it is being written; removed if we die. */
static struct cgp_outfile out;

static const char *on_option(void *ctx, int id, const char *optstr,
			     const char *value, int *free_it)
{
	const char **output = ctx;

	switch (id) {
	case O_HELP:
		ap_help(usage_text, help_text);
	case O_VERSION:
		ap_version("cg_merge");
	case O_OUTPUT:
		*output = value;
		break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *output = NULL;
	char **files;
	size_t nfiles, i;
	/* Static, and not released at the end: freeing a big profile's
	 * tables (hundreds of thousands of blocks) takes longer than the
	 * system's freeing it at exit, and a leak checker still finds it
	 * reachable. */
	static struct cgp_profile p;
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_read_opts ro;
	static struct cgp_out sout;
	struct cgp_out *o = &sout;

	prog_init(argv[0]);
	cgp_heap_prefault(CGP_HEAP_MIN_INPUT);
	prog_stdout_init();
	ap_parse(&spec, argc, argv, on_option, &output, &files, &nfiles);

	/* Create the output first, so that a bad path fails before the work
	 * (it only becomes visible under its name when complete). */
	if (output) {
		prog_outfile_open(&out, output);
		o = &out.out;
	} else {
		cgp_out_init(&sout, STDOUT_FILENO, "(stdout)");
	}
	cgp_profile_init(&p, CGP_MODE_MERGE);
	memset(&ro, 0, sizeof ro);
	for (i = 0; i < nfiles; i++)
		if (cgp_profile_read(&p, files[i], &ro, &err))
			die_cgp(&err);
	if (cgp_write_merge(o, &p, &err))
		die_cgp(&err);
	if (output)
		prog_outfile_commit(&out);
	free(files);
	return 0;
}
