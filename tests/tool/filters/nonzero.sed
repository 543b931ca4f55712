# nonzero.sed -- (after basic.sed) replace a non-zero "I refs:" count by
# <nonzero>; a zero count stays visible.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
s/^I refs: +[1-9][0-9,]*$/I refs: <nonzero>/
