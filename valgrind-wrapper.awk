# valgrind-wrapper.awk -- makes the installed bin/valgrind from valgrind-wrapper.in.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Each @NAME@ of the template becomes the value of the environment variable
# W_NAME as one single-quoted shell word, whatever the value holds: a prefix
# with a quote, an ampersand or a bar (which a sed substitution took for
# its own syntax) gives a working wrapper.  The values come through the
# environment, not awk's -v, which would read backslashes as escapes.

# 'it'\''s' for it's: the only character a single-quoted word cannot hold.
function shell_word(s,    out, i) {
	out = ""
	while ((i = index(s, "'")) > 0) {
		out = out substr(s, 1, i - 1) "'\\''"
		s = substr(s, i + 1)
	}
	return "'" out s "'"
}

# LINE with every @NAME@ replaced, left to right (a value is never scanned
# again, so a value holding "@NAME@" is taken as it is).
function fill(line, name, value,    out, key, i) {
	key = "@" name "@"
	out = ""
	while ((i = index(line, key)) > 0) {
		out = out substr(line, 1, i - 1) value
		line = substr(line, i + length(key))
	}
	return out line
}

BEGIN {
	n = split("pkglibexecdir VG_LAUNCHER PACKAGE_VERSION", names, " ")
	for (k = 1; k <= n; k++) {
		if (!(("W_" names[k]) in ENVIRON)) {
			print "valgrind-wrapper.awk: W_" names[k] " is not set" > "/dev/stderr"
			exit 1
		}
		word[names[k]] = shell_word(ENVIRON["W_" names[k]])
	}
}
{
	line = $0
	for (k = 1; k <= n; k++)
		line = fill(line, names[k], word[names[k]])
	print line
}
