# version.sed -- the project's version becomes VERSION (tests/tool/version.test
# checks the version itself).
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
s/cachegrind-ng [0-9][0-9a-z.~+-]*[0-9a-z]/cachegrind-ng VERSION/g
