# basic.sed -- remove what differs from run to run in Valgrind's stderr:
# the ==PID==/--PID--/**PID** prefixes and the banner (tool name and
# copyright, "Using Valgrind", "Command:", "Parent PID:").  Numbers stay.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
s/^(==|--)[0-9]+(==|--) ?//
s/^\*\*[0-9]+\*\* ?//
/^Cachegrind, a /{N;d;}
/^Using Valgrind-.* and LibVEX; rerun with -h for copyright info$/d
/^Command: /d
/^Parent PID: [0-9]+$/d
