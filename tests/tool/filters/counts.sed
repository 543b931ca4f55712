# counts.sed -- for tests of messages, not counts (run after basic.sed):
# drop the numbers of the summary lines, keeping the labels, and the
# cache auto-detection warnings, which depend on the machine (as upstream's
# cachegrind/tests/filter_stderr does).
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
s/^((I|D|LL) +refs:)[ 0-9,()+rdw]*$/\1/
s/^((I1|D1|LL|LLi|LLd) +misses:)[ 0-9,()+rdw]*$/\1/
s/^((I1|D1|LL|LLi|LLd) +miss rate:)[ 0-9,()+rdw%.]*$/\1/
s/^(Branches:|Mispredicts:)[ 0-9,()+condi]*$/\1/
s/^(Mispred rate:)[ 0-9,()+.%]*$/\1/
/^warning: L[0-9] cache found, using its data for the LL simulation\.$/d
/^warning: (specified|simulated) LL cache: line_size /d
/^warning: Pentium 4 with [0-9]+ KB micro-op instruction trace cache$/d
/^ +Simulating a [0-9]+ KB I-cache with 32 B lines$/d
/^Warning: Cannot auto-detect cache config, using defaults\.$/d
/^ +Run with -v to see\.$/d
