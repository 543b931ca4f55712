# keptwarnings.sed -- (after basic.sed) drop the cache auto-detection
# warnings that -q keeps ("L2 cache not installed", the defaults used):
# whether they appear depends on the machine.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
/^warning: L2 cache not installed, ignore LL results\.$/d
/^Warning: Cannot auto-detect cache config, using defaults\.$/d
/^ +Run with -v to see\.$/d
