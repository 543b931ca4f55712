# help.sed -- keep only the tool's section of --help: from its heading to
# the line before "Extra options read from ...", which the core prints
# after it.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
/^  user options for Cachegrind:$/,/^  Extra options read from /!d
/^  Extra options read from /d
