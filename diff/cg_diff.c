/* cg_diff.c -- cg_diff: the difference of two Cachegrind output files, per (file, function). */
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
	"usage: cg_diff [-h] [--version] [--mod-filename REGEX] [--mod-funcname REGEX]\n"
	"               cachegrind-out-file1 cachegrind-out-file2\n";

static const char help_text[] =
	"\n"
	"Diff two Cachegrind output files. Deprecated; use `cg_annotate --diff`\n"
	"instead.\n"
	"\n"
	"positional arguments:\n"
	"  cachegrind-out-file1  file produced by Cachegrind\n"
	"  cachegrind-out-file2  file produced by Cachegrind\n"
	"\n"
	"options:\n"
	"  -h, --help            show this help message and exit\n"
	"  --version             show program's version number and exit\n"
	"  --mod-filename REGEX  a search-and-replace regex applied to filenames, e.g.\n"
	"                        `s/prog[0-9]/progN/`\n"
	"  --mod-funcname REGEX  like --mod-filename, but for function names\n";

enum { O_HELP, O_VERSION, O_MODFL, O_MODFN };

static const struct ap_opt options[] = {
	{ { "-h", "--help", NULL }, 0, O_HELP },
	{ { "--version", NULL, NULL }, 0, O_VERSION },
	{ { "--mod-filename", NULL, NULL }, 1, O_MODFL },
	{ { "--mod-funcname", NULL, NULL }, 1, O_MODFN },
};

static const struct ap_pos positionals[] = {
	{ "cachegrind-out-file1", 0 },
	{ "cachegrind-out-file2", 0 },
};

static const struct ap_spec spec = {
	usage_text, options, sizeof options / sizeof options[0], positionals, 2
};

/* The --mod-* expressions, owned here until exit. */
static struct cgp_subst *mod_fl, *mod_fn;

static const char *on_option(void *ctx, int id, const char *optstr,
			     const char *value, int *free_it)
{
	switch (id) {
	case O_HELP:
		ap_help(usage_text, help_text);
	case O_VERSION:
		ap_version("cg_diff");
	case O_MODFL:
		return ap_subst(&mod_fl, value, free_it);
	case O_MODFN:
		return ap_subst(&mod_fn, value, free_it);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct cgp_out out;
	char **files;
	size_t counts[2];
	struct cgp_profile p1, p2;
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_read_opts ro;

	prog_init(argv[0]);
	prog_stdout_init();
	ap_parse(&spec, argc, argv, on_option, NULL, &files, counts);
	memset(&ro, 0, sizeof ro);
	ro.mod_fl = mod_fl;
	ro.mod_fn = mod_fn;

	cgp_profile_init(&p1, CGP_MODE_DIFF);
	cgp_profile_init(&p2, CGP_MODE_DIFF);
	if (cgp_profile_read(&p1, files[0], &ro, &err) ||
	    cgp_profile_read(&p2, files[1], &ro, &err) || cgp_diff(&p2, &p1, &err))
		die_cgp(&err);
	cgp_out_init(&out, STDOUT_FILENO, NULL);
	if (cgp_write_diff(&out, &p2, files[0], files[1], p1.in[0].cmd, p2.in[0].cmd,
			   &err))
		die_cgp(&err);
	cgp_profile_release(&p1);
	cgp_profile_release(&p2);
	cgp_subst_free(mod_fl);
	cgp_subst_free(mod_fn);
	free(files);
	return 0;
}
