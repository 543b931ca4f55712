# cmp-chains.awk -- compares tests/inline/chains' inline chains with those eu-addr2line and addr2line print.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: awk -v label=NAME -f cmp-chains.awk MINE EU BINUTILS
#
# MINE is `chains --symbols` output; EU and BINUTILS are what
# `eu-addr2line -a -i -f` and `addr2line -a -i -f` print for the same
# addresses (of the same code: the caller checks that).  Each address's
# chain must equal what one of the two prints: the same number of frames,
# the same name and file:line in each.  Where they disagree, one of them
# is wrong, and either may be (tests/inline/chains.test says where each
# one fails); an address that neither agrees with is a failure.
#
# The oracles' output is normalised first: eu-addr2line's columns and its
# " inlined at ... in ..." note, binutils' "(discriminator N)" and "??:?".
# Two differences are allowed, both where the oracle, not the DWARF,
# decides:
#   * the toolchain's start-up functions (_start, _init, frame_dummy, ...)
#     have no DWARF: their addresses are not compared;
#   * binutils names a frame after the ELF symbol that holds the address
#     where the DWARF gives no linkage name (a template instance whose
#     arguments include a lambda has only DW_AT_name): such a name is
#     accepted when ours is not a linkage name ("_Z...") and binutils'
#     is that symbol.
# Prints one line with what was compared, or the first differences and
# exits 1.  A comparison of fewer than 20 addresses or with no inlined
# frame fails: it would prove nothing.
function flush_rec() {
	if (cur != "") {
		n[which]++
		addr[which, n[which]] = cur
		sym[which, n[which]] = s
		body[which, n[which]] = b
	}
	cur = ""; b = ""; s = ""; nl = 0
}
function norm(line, k) {
	if (which == 2) {
		if (k % 2 == 1)
			sub(/ inlined at .* in .*$/, "", line)
		else if (line ~ /:[0-9]+:[0-9]+$/)
			sub(/:[0-9]+$/, "", line)
	} else if (which == 3) {
		sub(/ \(discriminator [0-9]+\)$/, "", line)
	}
	if (k % 2 == 0)
		sub(/:\?$/, ":0", line)
	return line
}
# 1 if our record i equals oracle w's.
function same(i, w,    a, c, k, m, t) {
	if (addr[w, i] != addr[1, i])
		return 0
	a = split(body[1, i], m, "\n")
	c = split(body[w, i], t, "\n")
	if (a != c)
		return 0
	for (k = 1; k <= a; k++)
		if (m[k] != t[k] &&
		    !(w == 3 && k % 2 == 1 && m[k] !~ /^_Z/ && t[k] == sym[1, i]))
			return 0
	return 1
}
BEGIN {
	split("_start _init _fini deregister_tm_clones register_tm_clones " \
	      "__do_global_dtors_aux frame_dummy _dl_relocate_static_pie", sk, " ")
	for (k in sk)
		skip[sk[k]]
	oname[2] = "eu-addr2line"; oname[3] = "addr2line"
}
FNR == 1 { if (NR != 1) flush_rec(); which++ }
/^0x[0-9a-f]+$/ { flush_rec(); cur = $0; next }
which == 1 && /^# / { s = substr($0, 3); next }
{ nl++; b = b (nl > 1 ? "\n" : "") norm($0, nl) }
END {
	flush_rec()
	for (w = 2; w <= 3; w++)
		if (n[w] != n[1]) {
			printf "%s: %d addresses, but %s printed %d\n", label, n[1], oname[w], n[w]
			exit 1
		}
	bad = 0; naddr = 0; nframes = 0; ninl = 0; both = 0; only[2] = only[3] = 0
	for (i = 1; i <= n[1]; i++) {
		if (sym[1, i] in skip)
			continue
		naddr++
		e = same(i, 2); g = same(i, 3)
		if (!e && !g) {
			if (++bad <= 5)
				printf "%s: %s (in %s): ours:\n%s\n-- eu-addr2line:\n%s\n-- addr2line:\n%s\n", \
				       label, addr[1, i], sym[1, i], body[1, i], body[2, i], body[3, i]
			continue
		}
		if (e && g)
			both++
		else
			only[e ? 2 : 3]++
		k = split(body[1, i], m, "\n") / 2
		nframes += k
		ninl += k - 1
	}
	if (bad) {
		printf "%s: %d of %d addresses differ from both oracles\n", label, bad, naddr
		exit 1
	}
	if (naddr < 20 || ninl == 0) {
		printf "%s: only %d addresses and %d inlined frames compared: too few to prove anything\n", \
		       label, naddr, ninl
		exit 1
	}
	printf "%s: %d addresses, %d frames (%d inlined): %d as both oracles print them, %d as addr2line only, %d as eu-addr2line only\n", \
	       label, naddr, nframes, ninl, both, only[3], only[2]
}
