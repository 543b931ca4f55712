/* cgp_norm.c -- the --normalize presets: function-name suffixes that differ between builds of unchanged code. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Each preset is a list of --mod-funcname expressions, so that it means
 * exactly what the expressions say and composes with the user's own
 * (the presets run first, then --mod-funcname).
 *
 * rust:   the hash that Rust's legacy mangling appends to every path,
 *         demangled ("core::fmt::write::h0123456789abcdef") or not
 *         ("_ZN4core3fmt5write17h0123456789abcdefE"); it changes with the
 *         compiler, the crate's dependencies and flags.
 * clones: the suffixes GCC and Clang give to specialised or split copies
 *         of a function (.constprop.N, .isra.N, .part.N, .cold, .cold.N,
 *         .lto_priv.N, .clone.N, .llvm.N), in any combination
 *         ("f.isra.0.cold", "f.constprop.0.isra.0"); their numbers change
 *         whenever other code changes.
 */
#include <config.h>

#include <string.h>

#include "cgp_model.h"

struct preset {
	const char *name;
	const char *expr[3];   /* NULL-terminated */
};

/* The presets, by name; static, never freed. */
static const struct preset presets[] = {
	/* The mangled hash is the path's last segment: right before its E,
	 * at the end of the name or before a suffix (".llvm.N"); the digit
	 * before "17h" may end the previous segment (from_utf8). */
	{ "rust", { "s/::h[0-9a-f]{16}(?![0-9A-Za-z_])//g",
		    "s/17h[0-9a-f]{16}E(?=$|\\.)/E/", NULL } },
	/* Mangled or C (".constprop.0"), and as the demangler writes them
	 * in C++ names (" [clone .constprop.0]"). */
	{ "clones", { "s/(?:\\.(?:constprop|isra|part|lto_priv|clone|llvm)\\.[0-9]+"
		      "|\\.cold(?:\\.[0-9]+)?)+$//",
		      "s/(?: \\[clone \\.(?:constprop|isra|part|lto_priv|clone|llvm|cold)"
		      "(?:\\.[0-9]+)*\\])+$//", NULL } },
};

int cgp_normalize_add(struct cgp_subst **fn, const char *list, struct cgp_error *err)
{
	const char *p = list;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p), i, k;
		for (i = 0; i < sizeof presets / sizeof presets[0]; i++)
			if (strlen(presets[i].name) == len && !memcmp(presets[i].name, p, len))
				break;
		if (i == sizeof presets / sizeof presets[0])
			return cgp_error_set(err, CGP_EUSAGE,
					     "unknown preset '%.*s' (known: rust, clones)",
					     (int)len, p);
		for (k = 0; presets[i].expr[k]; k++) {
			struct cgp_subst *x = cgp_subst_new(presets[i].expr[k], err);
			if (!x)
				return err->code;
			*fn = cgp_subst_chain(*fn, x);
		}
		if (!comma)
			return 0;
		p = comma + 1;
	}
}
