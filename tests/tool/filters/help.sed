# help.sed -- keep only the tool's section of --help: from its heading
# through the blank line that ends it.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
/^  user options for Cachegrind:$/,/^$/!d
