/* noaslr-forbidden.c -- runs a command with personality(2) forbidden except for queries, as a container's default seccomp profile does. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: noaslr-forbidden COMMAND [ARG ...]
 * A seccomp filter makes every personality() call of the command and its
 * children fail with EPERM, except personality(0xffffffff), which only
 * reads the persona (Docker's default profile allows that and a few fixed
 * values, not ADDR_NO_RANDOMIZE).  Exit status 77 when the filter cannot
 * be installed, so that the caller can report a skip.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct sock_filter f[] = {
		/* Another architecture's system calls pass. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_personality, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffu, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };

	if (argc < 2) {
		fprintf(stderr, "usage: noaslr-forbidden COMMAND [ARG ...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "noaslr-forbidden: cannot install the filter: %s\n",
			strerror(errno));
		return 77;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "noaslr-forbidden: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
