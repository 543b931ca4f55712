# lib/local.mk -- included by the top-level Makefile.am.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libcgp.a: the profile-format library (never prints or exits).
# libcgprog.a: what the three programs share besides it (messages, options).

noinst_LIBRARIES += lib/libcgp.a lib/libcgprog.a

lib_libcgp_a_SOURCES = \
	lib/cgp.h \
	lib/cgp_int.h \
	lib/cgp_buf.c \
	lib/cgp_utf8.c \
	lib/cgp_num.c \
	lib/cgp_reader.c \
	lib/cgp_heap.c \
	lib/cgp_table.c \
	lib/cgp_read.c \
	lib/cgp_write.c \
	lib/cgp_subst.c \
	lib/cgp_cmp.c \
	lib/cgp_model.h \
	lib/cgp_model.c \
	lib/cgp_expr.c \
	lib/cgp_norm.c \
	lib/cgp_gate.c \
	lib/cgp_json.c \
	lib/cgp_side.c
lib_libcgp_a_CPPFLAGS = -I$(top_srcdir)/lib $(PCRE2_CFLAGS)
lib_libcgp_a_CFLAGS = $(HOST_WARN_CFLAGS)

lib_libcgprog_a_SOURCES = \
	lib/prog.h \
	lib/prog_die.c \
	lib/prog_args.c \
	lib/prog_outfile.c \
	lib/prog_report.h \
	lib/prog_report.c
lib_libcgprog_a_CPPFLAGS = -I$(top_srcdir)/lib $(PCRE2_CFLAGS)
lib_libcgprog_a_CFLAGS = $(HOST_WARN_CFLAGS)

# What a companion program links with.
CGP_LDADD = lib/libcgprog.a lib/libcgp.a $(PCRE2_LIBS) -lm

# Unit tests of the library (host C).
check_PROGRAMS += tests/unit/test_lib_num tests/unit/test_lib_read \
	tests/unit/test_lib_model tests/unit/test_lib_heap
TESTS += tests/unit/test_lib_num tests/unit/test_lib_read \
	tests/unit/test_lib_model tests/unit/test_lib_heap
tests_unit_test_lib_num_SOURCES = tests/unit/test_lib_num.c tests/unit/unit_check.h
tests_unit_test_lib_num_CPPFLAGS = -I$(top_srcdir)/lib
tests_unit_test_lib_num_CFLAGS = $(HOST_WARN_CFLAGS)
tests_unit_test_lib_num_LDADD = lib/libcgp.a $(PCRE2_LIBS) -lm
tests_unit_test_lib_read_SOURCES = tests/unit/test_lib_read.c tests/unit/unit_check.h \
	tests/unit/prof_same.h
tests_unit_test_lib_read_CPPFLAGS = -I$(top_srcdir)/lib
tests_unit_test_lib_read_CFLAGS = $(HOST_WARN_CFLAGS)
tests_unit_test_lib_read_LDADD = lib/libcgp.a $(PCRE2_LIBS) -lm
tests_unit_test_lib_model_SOURCES = tests/unit/test_lib_model.c tests/unit/unit_check.h
tests_unit_test_lib_model_CPPFLAGS = -I$(top_srcdir)/lib
tests_unit_test_lib_model_CFLAGS = $(HOST_WARN_CFLAGS)
tests_unit_test_lib_model_LDADD = lib/libcgp.a $(PCRE2_LIBS) -lm

tests_unit_test_lib_heap_SOURCES = tests/unit/test_lib_heap.c tests/unit/unit_check.h
tests_unit_test_lib_heap_CPPFLAGS = -I$(top_srcdir)/lib
tests_unit_test_lib_heap_CFLAGS = $(HOST_WARN_CFLAGS)
tests_unit_test_lib_heap_LDADD = lib/libcgp.a $(PCRE2_LIBS) -lm

# The companions' documentation (design, decisions, benchmark figures).
EXTRA_DIST += docs/companions.md
