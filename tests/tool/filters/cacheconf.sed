# cacheconf.sed -- (after basic.sed) keep only the "Cache configuration
# used" block that -v prints.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
/^(Cache configuration used:|  (I1|D1|LL): .*)$/!d
