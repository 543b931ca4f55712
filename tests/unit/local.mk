# tests/unit/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host unit tests of the tool's plain-C modules (cg_sim, cg_arch,
# cg_branchpred, cg_glob).  Each test is one program: the module's sources compiled
# for the host plus one test file; exit status 0 means pass.  Where the x86
# tool is built, each test is also built with -m32, so that 32-bit
# addresses and x87 arithmetic are exercised on the same code.

UNIT_TESTS = \
	tests/unit/test_sim \
	tests/unit/test_arch \
	tests/unit/test_branchpred \
	tests/unit/test_glob

UNIT_CPPFLAGS = -I$(top_srcdir) -I$(top_srcdir)/tests/unit
UNIT_CFLAGS = $(HOST_WARN_CFLAGS) -O2

tests_unit_test_sim_SOURCES = tests/unit/test_sim.c tests/unit/unit_check.h \
	cg_sim.c cg_sim.h cg_host.h
tests_unit_test_sim_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_sim_CFLAGS = $(UNIT_CFLAGS)

tests_unit_test_arch_SOURCES = tests/unit/test_arch.c tests/unit/unit_check.h \
	cg_arch.c cg_arch.h cg_sim.h cg_host.h cg_fmt.h
tests_unit_test_arch_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_arch_CFLAGS = $(UNIT_CFLAGS)

tests_unit_test_branchpred_SOURCES = tests/unit/test_branchpred.c \
	tests/unit/unit_check.h cg_branchpred.c cg_branchpred.h cg_host.h
tests_unit_test_branchpred_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_branchpred_CFLAGS = $(UNIT_CFLAGS)

tests_unit_test_glob_SOURCES = tests/unit/test_glob.c tests/unit/unit_check.h \
	cg_glob.h
tests_unit_test_glob_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_glob_CFLAGS = $(UNIT_CFLAGS)

if BUILD_X86
UNIT_TESTS += \
	tests/unit/test_sim32 \
	tests/unit/test_arch32 \
	tests/unit/test_branchpred32

tests_unit_test_sim32_SOURCES = $(tests_unit_test_sim_SOURCES)
tests_unit_test_sim32_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_sim32_CFLAGS = $(UNIT_CFLAGS) -m32
tests_unit_test_sim32_LDFLAGS = -m32

tests_unit_test_arch32_SOURCES = $(tests_unit_test_arch_SOURCES)
tests_unit_test_arch32_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_arch32_CFLAGS = $(UNIT_CFLAGS) -m32
tests_unit_test_arch32_LDFLAGS = -m32

tests_unit_test_branchpred32_SOURCES = $(tests_unit_test_branchpred_SOURCES)
tests_unit_test_branchpred32_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_branchpred32_CFLAGS = $(UNIT_CFLAGS) -m32
tests_unit_test_branchpred32_LDFLAGS = -m32
endif

check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
