# short.py -- the benchmark's "short python3 script": a little work with many standard modules, so that
# the interpreter's start and imports, which run once, cost more than the script's own loops.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run by bench/tool/run (workload python) with PYTHONHASHSEED=0 in a fixed
# environment, so that every tool sees the same execution.  Its output is
# compared with the native run's.

import argparse
import collections
import decimal
import fractions
import json
import re
import statistics
import textwrap
import urllib.parse

squares = {str(i): i * i for i in range(3000)}
text = json.dumps(squares)
digit_lengths = collections.Counter(len(d) for d in re.findall(r"\d+", text))
print(len(text), sorted(digit_lengths.items()))
print(statistics.mean(squares.values()), fractions.Fraction(3, 7) + 1)
print(decimal.Decimal(1) / decimal.Decimal(7))
print(urllib.parse.urlparse("http://example.org/a/b?c=d&e=f").query)
print(textwrap.fill("the quick brown fox jumps over the lazy dog " * 3, 30))
parser = argparse.ArgumentParser(prog="short")
parser.add_argument("--n", type=int, default=3)
print(parser.parse_args(["--n", "5"]).n)
