/* ann_dwarf.c -- objects for --inline and --asm: opening and checking an ELF file, finding its DWARF, symbols, code bytes, inline chains. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Notes.
 *
 * Inline chains are computed as `addr2line -i -f` does: the innermost
 * function is the deepest DW_TAG_inlined_subroutine whose ranges hold the
 * address (else the DW_TAG_subprogram), its line comes from the line
 * table, and each outer frame's line is the call site (DW_AT_call_file,
 * DW_AT_call_line) of the frame inside it.  libdw's dwarf_getscopes()
 * would find the same DIEs, but it walks the whole unit for every
 * address: a C++ unit has tens of thousands of DIEs, a profile tens of
 * thousands of addresses.  So each unit is indexed once, on first use:
 * the address ranges of its functions, sorted; an address then costs a
 * binary search and a walk down one function's scopes.
 *
 * Debug files are looked for only on this machine (build-id, then
 * .gnu_debuglink), never with debuginfod: a report must not depend on a
 * server, nor wait for one.  A candidate debug file is taken only if it
 * belongs to the object: the same build-id, or, for an object without
 * one, the CRC that the debuglink records.
 *
 * Files are read with ELF_C_READ, not mapped: a file cut short while it
 * is read then gives a read error, not SIGBUS.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "ann_dwarf.h"
#include "prog.h"

/* Deepest nesting of DIEs followed; corrupt DWARF could loop deeper. */
#define MAX_DEPTH 512

/* An address range [lo, hi) of entry idx of some array. */
struct range {
	uint64_t lo, hi;
	size_t idx;
};

/* Ranges sorted by (lo, then longer first); maxhi[i] is the largest hi
 * of r[0..i], which ends the search for ranges holding an address. */
struct ranges {
	struct range *r;
	uint64_t *maxhi;
	size_t n, cap;
};

/* A scope of a function (the function itself first), as descend()
 * walks them: its DIE, the scope around it and whether it is an inlined
 * subroutine. */
struct scope {
	Dwarf_Die die;
	size_t parent;       /* index of the scope around it (0 for 0) */
	int inlined;
};

/* The scopes of one function with their address ranges (struct range's
 * idx: the scope), so that the inlined subroutines holding an address are
 * found by a binary search: descend() walks the siblings of each level,
 * which took addresses * call sites for a function with thousands of
 * inlined calls (8,000: 33 s).  Used only where it gives what descend()
 * gives: when every two ranges that meet are nested, the inner one's
 * scope the outer one's or the scope right inside it (else 'regular' is
 * 0, and descend() is used). */
struct fn_scopes {
	int built, regular;
	struct scope *s;
	size_t ns, cap;
	struct ranges r;
};

/* One compilation unit that has code. */
struct unit {
	Dwarf_Die cu;        /* holds the line table (a skeleton's for split DWARF) */
	Dwarf_Die top;       /* holds the DIEs: the split unit, or cu */
	int indexed;         /* fns and fn are built */
	struct cgp_error index_err; /* the error of indexing, returned again */
	struct ranges fns;   /* ranges of the functions: index into fn */
	Dwarf_Die *fn;
	size_t nfn, fncap;
	struct fn_scopes *fs; /* per function, built when first looked in */
};

struct ann_obj {
	char *path;
	int fd, dfd;          /* the object, its debug file (-1: none) */
	Elf *elf, *delf;
	char *dpath;          /* the debug file, NULL when the DWARF is the object's */
	Dwarf *dw;
	int afd;              /* dwz's alternate debug file when found here (-1: none) */
	Elf *aelf;
	Dwarf *adw;
	char *no_dwarf;       /* why there is no DWARF, or NULL */
	int machine, bits;
	int units_built;
	struct cgp_error units_err; /* the error of build_units, returned again */
	struct unit *u;
	size_t nu, ucap;
	struct ranges units;  /* ranges of the units: index into u */
	struct ann_sym *sym;
	size_t nsym;
	struct ann_ptrmap shown;  /* ann_obj_frame_name()'s names, by DIE */
};

static void ranges_add(struct ranges *x, uint64_t lo, uint64_t hi, size_t idx)
{
	if (lo >= hi)
		return;
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 16;
		x->r = xrealloc(x->r, x->cap, sizeof *x->r);
	}
	x->r[x->n++] = (struct range){ lo, hi, idx };
}

static int cmp_range(const void *p, const void *q)
{
	const struct range *a = p, *b = q;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi > b->hi ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

static void ranges_sort(struct ranges *x)
{
	size_t i;

	if (x->n)
		qsort(x->r, x->n, sizeof *x->r, cmp_range);
	x->maxhi = xmalloc(x->n + 1, sizeof *x->maxhi);
	for (i = 0; i < x->n; i++)
		x->maxhi[i] = i && x->maxhi[i - 1] > x->r[i].hi ? x->maxhi[i - 1] : x->r[i].hi;
}

/* The range holding a that starts last (the innermost of nested ones). */
static const struct range *ranges_find(const struct ranges *x, uint64_t a)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->r[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		if (x->maxhi[lo] <= a)
			return NULL;
		if (x->r[lo].hi > a)
			return &x->r[lo];
	}
	return NULL;
}

static void ranges_release(struct ranges *x)
{
	free(x->r);
	free(x->maxhi);
}

void ann_chain_release(struct ann_chain *c)
{
	free(c->f);
	c->f = NULL;
	c->n = c->cap = 0;
}

static struct ann_frame *chain_push(struct ann_chain *c)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 8;
		c->f = xrealloc(c->f, c->cap, sizeof *c->f);
	}
	memset(&c->f[c->n], 0, sizeof c->f[0]);
	return &c->f[c->n++];
}

/* The object the entry point at work reads (lib_enter), for messages. */
static const char *reading;

/* libdw's last error, which is not of the DWARF when libdw ran out of
 * memory: cg_annotate then stops, as for any allocation that fails. */
static const char *dw_reason(void)
{
	const char *m = dwarf_errmsg(-1);

	if (m && !strcmp(m, "out of memory"))
		die(1, "out of memory while reading the debug information of %s",
		    reading ? reading : "an object");
	return m ? m : "unknown error";
}

static int corrupt(struct cgp_error *err)
{
	return cgp_error_set(err, CGP_EPARSE, "corrupt DWARF: %s", dw_reason());
}

/* ---- ELF files ---------------------------------------------------------- */

/* Every section header can be read, and every section with contents lies
 * within the file's size: a file cut short is said to be, rather than
 * seen as a file without this or that section. */
static int check_sections(Elf *elf, uint64_t size, struct cgp_error *err)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	size_t n, i;

	/* libelf gives a file whose section headers lie past its end none. */
	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &n))
		return -1;
	if (eh.e_shoff && (eh.e_shoff > size ||
			   (uint64_t)eh.e_shnum * eh.e_shentsize > size - eh.e_shoff))
		return cgp_error_set(err, CGP_EPARSE,
				     "cut short: its section headers end at byte %llu, "
				     "the file has %llu",
				     (unsigned long long)(eh.e_shoff +
							  (uint64_t)eh.e_shnum * eh.e_shentsize),
				     (unsigned long long)size);
	for (i = 1; i < n; i++) {
		if (!(scn = elf_getscn(elf, i)) || !gelf_getshdr(scn, &sh))
			return -1;
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset))
			return cgp_error_set(err, CGP_EPARSE,
					     "cut short: its section %zu ends at byte %llu, "
					     "the file has %llu", i,
					     (unsigned long long)(sh.sh_offset + sh.sh_size),
					     (unsigned long long)size);
	}
	return 0;
}

/* Opens path as an ELF file, read on demand. */
static int elf_open(const char *path, int *fd, Elf **elf, struct cgp_error *err)
{
	struct stat st;
	GElf_Ehdr eh;
	size_t shstrndx;

	*elf = NULL;
	/* Non-blocking, so that a FIFO is refused below instead of waiting
	 * for a writer (no effect on a regular file). */
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0)
		return cgp_error_sys(err, CGP_EIO, errno, "cannot open");
	if (fstat(*fd, &st)) {
		int e = cgp_error_sys(err, CGP_EIO, errno, "cannot read");
		close(*fd);
		*fd = -1;
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(*fd);
		*fd = -1;
		return cgp_error_set(err, CGP_EPARSE, "not a regular file");
	}
	*elf = elf_begin(*fd, ELF_C_READ, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
		int e = cgp_error_set(err, CGP_EPARSE, "not an ELF file");
		if (*elf)
			elf_end(*elf);
		*elf = NULL;
		close(*fd);
		*fd = -1;
		return e;
	}
	if (!gelf_getehdr(*elf, &eh) || elf_getshdrstrndx(*elf, &shstrndx) ||
	    check_sections(*elf, (uint64_t)st.st_size, err)) {
		int e = err->msg ? err->code
				 : cgp_error_set(err, CGP_EPARSE, "cannot read its ELF: %s",
						 elf_errmsg(-1));
		elf_end(*elf);
		*elf = NULL;
		close(*fd);
		*fd = -1;
		return e;
	}
	return 0;
}

static void elf_close(int fd, Elf *elf)
{
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/* 1 if the file has a .debug_info with contents. */
static int has_debug_info(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || !sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
			return 1;
	}
	return 0;
}

static void hex(struct cgp_buf *b, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cgp_buf_addf(b, "%02x", p[i]);
}

/* The next folder of the colon-separated list *list: its start (NULL
 * after the last) and, in *len, its length (0 for an empty one); *list
 * moves past it. */
static const char *next_dir(const char **list, size_t *len)
{
	const char *d = *list, *end;

	if (!d)
		return NULL;
	end = strchr(d, ':');
	*len = end ? (size_t)(end - d) : strlen(d);
	*list = end ? end + 1 : NULL;
	return d;
}

/* p = DIR/.build-id/xx/yyyy.debug, DIR the dirlen bytes at dir, xx and
 * yyyy the hex of the n-byte build-id id. */
static void build_id_path(struct cgp_buf *p, const char *dir, size_t dirlen, const void *id,
			  size_t n)
{
	cgp_buf_reset(p);
	cgp_buf_addf(p, "%.*s/.build-id/", (int)dirlen, dir);
	hex(p, id, 1);
	cgp_buf_adds(p, "/");
	hex(p, (const unsigned char *)id + 1, n - 1);
	cgp_buf_adds(p, ".debug");
}

/* CRC-32 of a file as .gnu_debuglink records it (the zlib polynomial):
 * 0, or -1 on a read error. */
static int file_crc(int fd, uint32_t *out)
{
	unsigned char buf[65536];
	uint32_t crc = 0xffffffffu;
	ssize_t n;
	int k;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		ssize_t i;
		for (i = 0; i < n; i++) {
			crc ^= buf[i];
			for (k = 0; k < 8; k++)
				crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
		}
	}
	if (n < 0)
		return -1;
	*out = ~crc;
	return 0;
}

/* What a candidate debug file must match: the object's build-id, or
 * without one the debuglink's CRC. */
struct want {
	const void *id;
	ssize_t idlen;
	int check_crc;
	uint32_t crc;
	char *other;          /* the first file found of another build, or NULL */
	char *unread;         /* "'path': why" of the first file found that
				 could not be opened (too many open files,
				 say), or NULL */
};

/* Opens the ELF file path, if there is one (0), else -1 (a candidate
 * debug file that is missing or unreadable is no error: the next one is
 * tried).  A file that is there but cannot be opened sets *unread (if
 * unread and not set yet) to "'path': why", for the message that no debug
 * file was found. */
static int elf_open_candidate(const char *path, int *fd, Elf **elf, char **unread)
{
	struct cgp_error e = CGP_ERROR_INIT;
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);

	if (access(path, F_OK))
		return -1;
	if (elf_open(path, fd, elf, &e)) {
		if (unread && !*unread &&
		    !cgp_buf_addf(&b, "'%s': %s", path, e.msg ? e.msg : "cannot open"))
			*unread = b.s;
		else
			cgp_buf_release(&b);
		cgp_error_release(&e);
		return -1;
	}
	return 0;
}

/* Whether elf's build-id is the len bytes at id. */
static int has_build_id(Elf *elf, const void *id, ssize_t len)
{
	const void *got;

	return dwelf_elf_gnu_build_id(elf, &got) == len && !memcmp(got, id, (size_t)len);
}

/* Takes path as o's debug file if it is one (1), else 0. */
static int try_debug_file(struct ann_obj *o, const char *path, struct want *w)
{
	uint32_t crc;
	int fd;
	Elf *elf;

	if (elf_open_candidate(path, &fd, &elf, &w->unread))
		return 0;
	if (w->idlen > 0) {
		if (!has_build_id(elf, w->id, w->idlen))
			goto other;
	} else if (w->check_crc && (file_crc(fd, &crc) || crc != w->crc)) {
		goto other;
	}
	if (!has_debug_info(elf))
		goto no;
	o->dfd = fd;
	o->delf = elf;
	o->dpath = strdup(path);
	return 1;
other:
	if (!w->other)
		w->other = strdup(path);
no:
	elf_close(fd, elf);
	return 0;
}

/* The folder of o->path (resolved), for debuglink look-ups; malloc'd. */
static char *object_dir(const char *path)
{
	char *real = realpath(path, NULL), *slash;

	if (!real)
		real = strdup(path);
	if (!real)
		return NULL;
	slash = strrchr(real, '/');
	if (!slash) {
		free(real);
		return strdup(".");
	}
	if (slash == real)
		slash[1] = '\0';
	else
		*slash = '\0';
	return real;
}

/* Looks for o's debug file: by build-id in each debug folder, then by
 * .gnu_debuglink beside the object, in its .debug/, and under each debug
 * folder.  1 found, 0 not (why appended to b). */
static int find_debug_file(struct ann_obj *o, const char *dirs, struct cgp_buf *why)
{
	struct want w = { NULL, 0, 0, 0, NULL, NULL };
	struct cgp_buf p = CGP_BUF_INIT(PATH_MAX * 4);
	const char *link, *d, *it = dirs;
	char *odir;
	size_t dl;
	int found = 0;

	w.idlen = dwelf_elf_gnu_build_id(o->elf, &w.id);
	while (w.idlen > 0 && !found && (d = next_dir(&it, &dl))) {
		if (!dl)
			continue;
		build_id_path(&p, d, dl, w.id, (size_t)w.idlen);
		found = p.s && try_debug_file(o, p.s, &w);
	}
	link = dwelf_elf_gnu_debuglink(o->elf, &w.crc);
	w.check_crc = w.idlen <= 0;
	odir = link && !found ? object_dir(o->path) : NULL;
	if (odir) {
		const char *sep = strcmp(odir, "/") ? "/" : "";
		cgp_buf_reset(&p);
		cgp_buf_addf(&p, "%s%s%s", odir, sep, link);
		found = p.s && try_debug_file(o, p.s, &w);
		cgp_buf_reset(&p);
		cgp_buf_addf(&p, "%s%s.debug/%s", odir, sep, link);
		found = found || (p.s && try_debug_file(o, p.s, &w));
		for (it = dirs; !found && (d = next_dir(&it, &dl));) {
			if (!dl)
				continue;
			cgp_buf_reset(&p);
			cgp_buf_addf(&p, "%.*s%s/%s", (int)dl, d, odir, link);
			found = p.s && try_debug_file(o, p.s, &w);
		}
	}
	free(odir);
	cgp_buf_release(&p);
	if (!found) {
		cgp_buf_adds(why, "no debug information: none in the object, ");
		if (w.idlen > 0 && *dirs)
			cgp_buf_addf(why, "no debug file for its build-id in %s", dirs);
		else if (w.idlen > 0)
			cgp_buf_adds(why, "no folder to find a debug file by its build-id in "
				     "(--debug-file-directory is empty)");
		else
			cgp_buf_adds(why, "no build-id to find a debug file by");
		if (link)
			cgp_buf_addf(why, ", no debug file '%s' of its .gnu_debuglink", link);
		else
			cgp_buf_adds(why, ", no .gnu_debuglink");
		if (w.other)
			cgp_buf_addf(why, "; '%s' is there but of another build (%s)", w.other,
				     w.idlen > 0 ? "its build-id differs" : "its CRC differs");
		if (w.unread)
			cgp_buf_addf(why, "; %s", w.unread);
	}
	free(w.other);
	free(w.unread);
	return found;
}

/* Why libdw may find no DWARF in e although it has debug sections: they
 * are compressed in a way this libelf cannot read (elfutils 0.188 reads
 * zlib only; binutils 2.40 writes zstd too); NULL if not. */
static const char *unreadable_compression(Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Chdr ch;
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED) ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)) || strncmp(name, ".debug", 6))
			continue;
		if (!gelf_getchdr(scn, &ch))
			return "its debug sections are compressed in a way this libelf "
			       "cannot read";
		if (ch.ch_type == 2 /* ELFCOMPRESS_ZSTD */)
			return "its debug sections are compressed with zstd, which this "
			       "libelf cannot read (zlib only; objcopy "
			       "--decompress-debug-sections makes a copy it can)";
		if (ch.ch_type != ELFCOMPRESS_ZLIB)
			return "its debug sections are compressed in a way this libelf "
			       "cannot read";
	}
	return NULL;
}

/* The alternate debug file that dwz's .gnu_debugaltlink names (shared
 * DWARF: names of inlined functions among it): libdw finds it beside
 * the debug file or under /usr/lib/debug/.build-id; else it is looked
 * for by its build-id in the debug folders.  Without it, libdw gives
 * no name for what refers to it, and those inlined functions would be
 * lost silently: 0 when there is none to find or it was found, else -1
 * with why. */
static int find_alt(struct ann_obj *o, const char *dirs, struct cgp_buf *why)
{
	struct cgp_buf p = CGP_BUF_INIT(PATH_MAX * 4);
	const char *name, *d, *it = dirs;
	const void *id;
	size_t dl;
	ssize_t n = dwelf_dwarf_gnu_debugaltlink(o->dw, &name, &id);

	if (n <= 0 || dwarf_getalt(o->dw))
		return 0;
	while (!o->adw && (d = next_dir(&it, &dl))) {
		if (!dl)
			continue;
		build_id_path(&p, d, dl, id, (size_t)n);
		if (!p.s || elf_open_candidate(p.s, &o->afd, &o->aelf, NULL))
			continue;
		if (has_build_id(o->aelf, id, n) &&
		    (o->adw = dwarf_begin_elf(o->aelf, DWARF_C_READ, NULL))) {
			dwarf_setalt(o->dw, o->adw);
			break;
		}
		elf_close(o->afd, o->aelf);
		o->afd = -1, o->aelf = NULL;
	}
	cgp_buf_release(&p);
	if (o->adw)
		return 0;
	if (o->dpath)
		cgp_buf_addf(why, "%s: ", o->dpath);
	cgp_buf_addf(why, "no alternate debug file '%s' of its .gnu_debugaltlink (dwz's shared "
		     "DWARF, build-id ", name);
	cgp_buf_reset(&p);
	hex(&p, id, (size_t)n);
	cgp_buf_addf(why, "%s), beside it or in %s: the names of inlined functions would be "
		     "lost", p.s ? p.s : "", dirs);
	cgp_buf_release(&p);
	return -1;
}

/* Reads the DWARF of o, from itself or a debug file; sets o->no_dwarf
 * when there is none. */
static void open_dwarf(struct ann_obj *o, const char *dirs)
{
	struct cgp_buf why = CGP_BUF_INIT(1 << 16);
	Elf *src = o->elf;

	if (!has_debug_info(o->elf)) {
		if (!find_debug_file(o, dirs, &why)) {
			o->no_dwarf = why.s ? why.s : strdup("no debug information");
			return;
		}
		src = o->delf;
	}
	/* Checked first: libdw opens an object some of whose debug sections
	 * it cannot read (objcopy leaves small sections uncompressed), and
	 * fails later ("corrupt DWARF: no error"). */
	const char *c = unreadable_compression(src);
	o->dw = c ? NULL : dwarf_begin_elf(src, DWARF_C_READ, NULL);
	if (!o->dw) {
		if (o->dpath)
			cgp_buf_addf(&why, "%s: ", o->dpath);
		if (c)
			cgp_buf_adds(&why, c);
		else
			cgp_buf_addf(&why, "corrupt DWARF: %s", dw_reason());
		o->no_dwarf = why.s;
		return;
	}
	if (find_alt(o, dirs, &why)) {
		dwarf_end(o->dw);
		o->dw = NULL;
		o->no_dwarf = why.s;
		return;
	}
	cgp_buf_release(&why);
}

/* ---- symbols -------------------------------------------------------------- */

static int cmp_sym(const void *p, const void *q)
{
	const struct ann_sym *a = p, *b = q;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi > b->hi ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The function symbols of the first symbol table of type in elf. */
static int read_symtab(struct ann_obj *o, Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			break;
	if (!scn || !sh.sh_entsize)
		return 0;
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = data ? data->d_size / sh.sh_entsize : 0;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		if (!gelf_getsym(data, (int)i, &s) || !s.st_size || s.st_shndx == SHN_UNDEF ||
		    (GELF_ST_TYPE(s.st_info) != STT_FUNC &&
		     GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC))
			continue;
		name = elf_strptr(elf, sh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		if (o->nsym == cap) {
			cap = cap ? 2 * cap : 256;
			o->sym = xrealloc(o->sym, cap, sizeof *o->sym);
		}
		o->sym[o->nsym++] = (struct ann_sym){ name, s.st_value, s.st_value + s.st_size };
	}
	return o->nsym > 0;
}

static void read_symbols(struct ann_obj *o)
{
	size_t i, k = 0;

	if (!read_symtab(o, o->elf, SHT_SYMTAB) &&
	    !(o->delf && read_symtab(o, o->delf, SHT_SYMTAB)))
		read_symtab(o, o->elf, SHT_DYNSYM);
	if (o->nsym)  /* (qsort of a NULL array, even empty, is undefined) */
		qsort(o->sym, o->nsym, sizeof *o->sym, cmp_sym);
	/* Aliases (same start) keep the first name in that order. */
	for (i = 0; i < o->nsym; i++)
		if (!k || o->sym[i].lo != o->sym[k - 1].lo)
			o->sym[k++] = o->sym[i];
	o->nsym = k;
}

int ann_obj_symbol(const struct ann_obj *o, uint64_t addr, struct ann_sym *s)
{
	size_t lo = 0, hi = o->nsym;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->sym[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < o->sym[lo - 1].hi) {
		*s = o->sym[lo - 1];
		return 1;
	}
	return 0;
}

const struct ann_sym *ann_obj_symbols(const struct ann_obj *o, size_t *n)
{
	*n = o->nsym;
	return o->sym;
}

/* ---- opening ------------------------------------------------------------- */

/* Checks that the file is the object of the run. */
static int check_identity(struct ann_obj *o, const struct ann_obj_opts *opts,
			  struct cgp_error *err)
{
	struct cgp_buf a = CGP_BUF_INIT(1024), b = CGP_BUF_INIT(1024);
	const void *id;
	ssize_t len = dwelf_elf_gnu_build_id(o->elf, &id);
	struct stat st;
	int rc = 0;

	if (opts->build_id && opts->build_id_len) {
		if (len == (ssize_t)opts->build_id_len &&
		    !memcmp(id, opts->build_id, opts->build_id_len))
			return 0;
		hex(&a, opts->build_id, opts->build_id_len);
		if (len > 0) {
			hex(&b, id, (size_t)len);
			rc = cgp_error_set(err, CGP_EPARSE,
					   "changed since the run: build-id %s, the profile's is %s",
					   b.s ? b.s : "?", a.s ? a.s : "?");
		} else {
			rc = cgp_error_set(err, CGP_EPARSE,
					   "changed since the run: no build-id, the profile's is %s",
					   a.s ? a.s : "?");
		}
	} else if (opts->run_time_ns && fstat(o->fd, &st) == 0 &&
		   (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec >
			   opts->run_time_ns) {
		rc = cgp_error_set(err, CGP_EPARSE,
				   "changed since the run: modified after the profile was written "
				   "(and it has no build-id to tell)");
	}
	cgp_buf_release(&a);
	cgp_buf_release(&b);
	return rc;
}

static void obj_close(struct ann_obj *o);

static int obj_open(struct ann_obj **out, const char *path,
		    const struct ann_obj_opts *opts, struct cgp_error *err)
{
	struct ann_obj *o = xcalloc(1, sizeof *o);
	const char *dirs = opts->debug_dirs ? opts->debug_dirs : "/usr/lib/debug";
	GElf_Ehdr eh;
	int rc;

	*out = NULL;
	elf_version(EV_CURRENT);
	o->dfd = o->afd = -1;
	o->path = strdup(path);
	if (!o->path) {
		free(o);
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	}
	if ((rc = elf_open(path, &o->fd, &o->elf, err)) ||
	    (rc = check_identity(o, opts, err))) {
		obj_close(o);
		return rc;
	}
	gelf_getehdr(o->elf, &eh);
	o->machine = eh.e_machine;
	o->bits = eh.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	open_dwarf(o, dirs);
	read_symbols(o);
	*out = o;
	return 0;
}

static void obj_close(struct ann_obj *o)
{
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->nu; i++) {
		size_t k;
		for (k = 0; o->u[i].fs && k < o->u[i].nfn; k++) {
			free(o->u[i].fs[k].s);
			ranges_release(&o->u[i].fs[k].r);
		}
		free(o->u[i].fs);
		ranges_release(&o->u[i].fns);
		free(o->u[i].fn);
		cgp_error_release(&o->u[i].index_err);
	}
	free(o->u);
	cgp_error_release(&o->units_err);
	ann_ptrmap_release(&o->shown);
	ranges_release(&o->units);
	free(o->sym);
	if (o->dw)
		dwarf_end(o->dw);
	if (o->adw)
		dwarf_end(o->adw);
	elf_close(o->afd, o->aelf);
	elf_close(o->dfd, o->delf);
	elf_close(o->fd, o->elf);
	free(o->dpath);
	free(o->no_dwarf);
	free(o->path);
	free(o);
}

const char *ann_obj_no_dwarf(const struct ann_obj *o)
{
	return o->no_dwarf;
}

const char *ann_obj_debug_file(const struct ann_obj *o)
{
	return !o->dw ? NULL : o->dpath ? o->dpath : o->path;
}

int ann_obj_machine(const struct ann_obj *o, int *bits)
{
	*bits = o->bits;
	return o->machine;
}

/* ---- code bytes ------------------------------------------------------------ */

static int obj_code(struct ann_obj *o, uint64_t addr, const unsigned char **p,
		    size_t *len, struct cgp_error *err)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(o->elf, scn))) {
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS || addr < sh.sh_addr ||
		    addr - sh.sh_addr >= sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr >= d->d_size)
			return cgp_error_set(err, CGP_EPARSE,
					     "cannot read the code at 0x%llx: %s",
					     (unsigned long long)addr, elf_errmsg(-1));
		*p = (const unsigned char *)d->d_buf + (addr - sh.sh_addr);
		*len = d->d_size - (size_t)(addr - sh.sh_addr);
		return 0;
	}
	return cgp_error_set(err, CGP_EPARSE, "no code at 0x%llx in its sections",
			     (unsigned long long)addr);
}

/* ---- units and functions ------------------------------------------------- */

/* Adds the address ranges of die to x as entry idx: 0, or an error. */
static int add_die_ranges(struct ranges *x, Dwarf_Die *die, size_t idx,
			  struct cgp_error *err)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		ranges_add(x, lo, hi, idx);
	if (off < 0)
		return corrupt(err);
	return 0;
}

/* The .dwo file name of a skeleton unit, or NULL. */
static const char *dwo_name(Dwarf_Die *cudie)
{
	Dwarf_Attribute a;
	const char *dwo = dwarf_formstring(dwarf_attr(cudie, DW_AT_dwo_name, &a));

	return dwo ? dwo : dwarf_formstring(dwarf_attr(cudie, DW_AT_GNU_dwo_name, &a));
}

/* What the places libdw looks for a skeleton unit's .dwo file hold: 'p'
 * if one is a FIFO or socket (libdw's own open would wait for a writer),
 * else 'f' if one is a file, else 0.  libdw looks in the folder of the
 * DWARF's file, links resolved: there, and under the unit's folder
 * (DW_AT_comp_dir), or at the name itself if absolute. */
static int dwo_places(const struct ann_obj *o, Dwarf_Die *cudie, const char *dwo)
{
	Dwarf_Attribute a;
	const char *dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &a));
	char *real = realpath(o->dpath ? o->dpath : o->path, NULL);
	const char *file = real ? real : (o->dpath ? o->dpath : o->path);
	const char *slash = strrchr(file, '/');
	int flen = slash ? (int)(slash - file + 1) : 0, pipe = 0, found = 0, i;
	struct cgp_buf p = CGP_BUF_INIT(PATH_MAX * 4);
	struct stat st;

	for (i = 0; i < 4 && !pipe; i++) {
		cgp_buf_reset(&p);
		if (dwo[0] == '/') {
			if (i > 0)
				break;
			cgp_buf_adds(&p, dwo);
		} else if (i == 0) {
			cgp_buf_addf(&p, "%.*s%s", flen, file, dwo);
		} else if (!dir || (i == 1 && dir[0] != '/') || (i == 2 && dir[0] == '/') || i == 3) {
			continue;
		} else if (i == 1) {
			cgp_buf_addf(&p, "%s/%s", dir, dwo);
		} else {
			cgp_buf_addf(&p, "%.*s%s/%s", flen, file, dir, dwo);
		}
		if (p.s && stat(p.s, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
			pipe = 'p';
		else if (p.s && stat(p.s, &st) == 0 && S_ISREG(st.st_mode))
			found = 'f';
	}
	cgp_buf_release(&p);
	free(real);
	return pipe ? pipe : found;
}

/* Whether a DWARF package (.dwp) lies beside the object: libdw 0.188
 * does not read one. */
static int has_dwp(const struct ann_obj *o)
{
	struct cgp_buf p = CGP_BUF_INIT(PATH_MAX * 4);
	int there;

	cgp_buf_addf(&p, "%s.dwp", o->path);
	there = p.s && access(p.s, F_OK) == 0;
	cgp_buf_release(&p);
	return there;
}

/* Indexes the units that have code.  A split unit whose .dwo file is
 * missing is an error: its inlined functions would be lost silently. */
static int build_units(struct ann_obj *o, struct cgp_error *err)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half version;
	uint8_t type;
	Dwarf_Die cudie, sub;
	int rc;

	o->units_built = 1;
	while ((rc = dwarf_get_units(o->dw, cu, &next, &version, &type, &cudie, NULL)) == 0) {
		struct unit *u;
		cu = next;
		if (type != DW_UT_compile && type != DW_UT_skeleton && type != DW_UT_partial)
			continue;
		if (o->nu == o->ucap) {
			o->ucap = o->ucap ? 2 * o->ucap : 16;
			o->u = xrealloc(o->u, o->ucap, sizeof *o->u);
		}
		u = &o->u[o->nu];
		memset(u, 0, sizeof *u);
		u->cu = u->top = cudie;
		if (type == DW_UT_skeleton) {
			const char *dwo = dwo_name(&cudie);
			int where = dwo ? dwo_places(o, &cudie, dwo) : 0, missing;
			if (where == 'p')
				return cgp_error_set(err, CGP_EPARSE,
						     "split DWARF unit '%s' is not a regular file",
						     dwo);
			memset(&sub, 0, sizeof sub);
			missing = dwarf_cu_info(cu, NULL, NULL, NULL, &sub, NULL, NULL, NULL) ||
				  !sub.addr;
			if (missing && where == 'f')
				return cgp_error_set(err, CGP_EPARSE,
						     "split DWARF unit '%s' is of another build "
						     "(its DWO id is not the object's)", dwo);
			if (missing)
				return cgp_error_set(err, CGP_EPARSE,
						     "split DWARF unit '%s' not found%s",
						     dwo ? dwo : "?",
						     has_dwp(o) ? " (the .dwp package beside "
						     "the object is not read: libdw 0.188 reads "
						     ".dwo files only)" : "");
			u->top = sub;
		}
		if ((rc = add_die_ranges(&o->units, &cudie, o->nu, err)))
			return rc;
		o->nu++;
	}
	if (rc < 0)
		return corrupt(err);
	ranges_sort(&o->units);
	return 0;
}

/* Adds the functions with code below die to u. */
static int index_dies(struct unit *u, Dwarf_Die *die, int depth, struct cgp_error *err)
{
	Dwarf_Die d;
	int rc;

	if (depth > MAX_DEPTH)
		return cgp_error_set(err, CGP_EPARSE, "DIEs nested more than %d deep, deeper "
				     "than this report follows (corrupt DWARF, or very deep "
				     "inlining)", MAX_DEPTH);
	rc = dwarf_child(die, &d);
	if (rc < 0)
		return corrupt(err);
	if (rc > 0)
		return 0;
	do {
		if (dwarf_tag(&d) == DW_TAG_subprogram) {
			if (u->nfn == u->fncap) {
				u->fncap = u->fncap ? 2 * u->fncap : 64;
				u->fn = xrealloc(u->fn, u->fncap, sizeof *u->fn);
			}
			u->fn[u->nfn] = d;
			if ((rc = add_die_ranges(&u->fns, &d, u->nfn++, err)))
				return rc;
		}
		if (dwarf_haschildren(&d) > 0 && (rc = index_dies(u, &d, depth + 1, err)))
			return rc;
	} while ((rc = dwarf_siblingof(&d, &d)) == 0);
	return rc < 0 ? corrupt(err) : 0;
}

/* The name a frame shows: the linkage name where there is one (as
 * addr2line prints it), else the name, through abstract origins and
 * specifications. */
static const char *die_name(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	const char *s;

	if ((s = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_linkage_name, &a))))
		return s;
	if ((s = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_MIPS_linkage_name, &a))))
		return s;
	return dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
}

/* Tags of scopes that may hold inlined code. */
static int is_scope(int tag)
{
	return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block ||
	       tag == DW_TAG_try_block || tag == DW_TAG_catch_block ||
	       tag == DW_TAG_with_stmt || tag == DW_TAG_entry_point;
}

/* Appends to *inl the inlined subroutines below die that hold addr,
 * outermost first. */
static int descend(Dwarf_Die *die, uint64_t addr, Dwarf_Die **inl, size_t *n,
		   size_t *cap, struct cgp_error *err)
{
	Dwarf_Die d, cur = *die;
	int rc, depth;

	for (depth = 0; depth <= MAX_DEPTH; depth++) {
		int found = 0;
		rc = dwarf_child(&cur, &d);
		if (rc < 0)
			return corrupt(err);
		if (rc > 0)
			return 0;
		do {
			int tag = dwarf_tag(&d), h;
			if (!is_scope(tag))
				continue;
			h = dwarf_haspc(&d, addr);
			if (h < 0)
				return corrupt(err);
			if (h <= 0)
				continue;
			if (tag == DW_TAG_inlined_subroutine) {
				if (*n == *cap) {
					*cap = *cap ? 2 * *cap : 8;
					*inl = xrealloc(*inl, *cap, sizeof **inl);
				}
				(*inl)[(*n)++] = d;
			}
			found = 1;
			break;
		} while ((rc = dwarf_siblingof(&d, &d)) == 0);
		if (rc < 0)
			return corrupt(err);
		if (!found)
			return 0;
		cur = d;
	}
	return cgp_error_set(err, CGP_EPARSE, "scopes nested more than %d deep, deeper "
			     "than this report follows (corrupt DWARF, or very deep inlining)",
			     MAX_DEPTH);
}

/* The call site of an inlined subroutine into f. */
static void call_site(struct unit *u, Dwarf_Die *inl, struct ann_frame *f)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Files *files;
	size_t nfiles;

	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &a), &w) == 0 &&
	    dwarf_getsrcfiles(&u->top, &files, &nfiles) == 0 && w < nfiles)
		f->file = dwarf_filesrc(files, w, NULL, NULL);
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &a), &w) == 0)
		f->line = (int64_t)w;
}

/* Copies error from (code rc) into to; returns rc. */
static int again(struct cgp_error *to, const struct cgp_error *from, int rc)
{
	cgp_error_set(to, rc, "%s", from->msg ? from->msg : "corrupt DWARF");
	return rc;
}

static int obj_units(struct ann_obj *o, struct cgp_error *err)
{
	int rc;

	if (!o->dw)
		return 0;
	if (!o->units_built && (rc = build_units(o, err)))
		return again(&o->units_err, err, rc);
	if (o->units_err.code)
		return again(err, &o->units_err, o->units_err.code);
	return 0;
}

/* Adds the scopes below scope p (its DIE die) to f, with their ranges;
 * 0, or -1 where descend() must do the work (an error of libdw, DIEs
 * nested too deep: descend() then reports it as before). */
static int add_scopes_below(struct fn_scopes *f, Dwarf_Die *die, size_t p, int depth)
{
	Dwarf_Die d;
	int rc;

	if (depth > MAX_DEPTH)
		return -1;
	rc = dwarf_child(die, &d);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return 0;
	do {
		int tag = dwarf_tag(&d);
		struct cgp_error e = CGP_ERROR_INIT;
		size_t k, before;

		if (!is_scope(tag))
			continue;
		if (f->ns == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 16;
			f->s = xrealloc(f->s, f->cap, sizeof *f->s);
		}
		k = f->ns++;
		f->s[k] = (struct scope){ d, p, tag == DW_TAG_inlined_subroutine };
		before = f->r.n;
		if (add_die_ranges(&f->r, &d, k, &e)) {
			cgp_error_release(&e);
			return -1;
		}
		/* descend() does not go into a scope without code. */
		if (f->r.n > before && (rc = add_scopes_below(f, &d, k, depth + 1)))
			return rc;
	} while ((rc = dwarf_siblingof(&d, &d)) == 0);
	return rc < 0 ? -1 : 0;
}

/* Builds f for function fn: every scope, and whether the ranges nest as
 * the scopes do (checked on the ranges sorted by start, longer first,
 * with a stack of the ranges still open: a range must lie in one of its
 * own scope's or of the scope right around it, not only of one further
 * out, where descend() would stop at the scope between that does not
 * hold the address). */
static void build_scopes(struct fn_scopes *f, Dwarf_Die *fn)
{
	struct cgp_error e = CGP_ERROR_INIT;
	size_t *open = NULL, nopen = 0, i;
	int bad;

	f->built = 1;
	f->cap = 16;
	f->s = xmalloc(f->cap, sizeof *f->s);
	f->s[0] = (struct scope){ *fn, 0, 0 };
	f->ns = 1;
	bad = add_die_ranges(&f->r, fn, 0, &e) || add_scopes_below(f, fn, 0, 0);
	cgp_error_release(&e);
	if (bad) {
		ranges_sort(&f->r);
		return;
	}
	ranges_sort(&f->r);
	open = xmalloc(f->r.n + 1, sizeof *open);
	f->regular = 1;
	for (i = 0; i < f->r.n && f->regular; i++) {
		const struct range *c = &f->r.r[i];
		while (nopen && f->r.r[open[nopen - 1]].hi <= c->lo)
			nopen--;
		if (nopen) {
			const struct range *t = &f->r.r[open[nopen - 1]];
			f->regular = c->hi <= t->hi &&
				     (c->idx == t->idx || f->s[c->idx].parent == t->idx);
		} else {
			f->regular = c->idx == 0;   /* no code of a scope outside the function */
		}
		open[nopen++] = i;
	}
	free(open);
}

/* The inlined subroutines of function fi of u that hold addr, outermost
 * first, into *inl, as descend() finds them. */
static int inlined_at(struct unit *u, size_t fi, uint64_t addr, Dwarf_Die **inl,
		      size_t *n, size_t *cap, struct cgp_error *err)
{
	struct fn_scopes *f;
	const struct range *r;
	size_t k, depth, i;

	if (!u->fs)
		u->fs = xcalloc(u->nfn, sizeof *u->fs);
	f = &u->fs[fi];
	if (!f->built)
		build_scopes(f, &u->fn[fi]);
	if (!f->regular)
		return descend(&u->fn[fi], addr, inl, n, cap, err);
	if (!(r = ranges_find(&f->r, addr)))
		return 0;
	for (depth = 0, k = r->idx; k != 0; k = f->s[k].parent)
		depth += f->s[k].inlined;
	if (*cap < depth) {
		*cap = depth;
		*inl = xrealloc(*inl, *cap, sizeof **inl);
	}
	*n = depth;
	for (i = depth, k = r->idx; k != 0; k = f->s[k].parent)
		if (f->s[k].inlined)
			(*inl)[--i] = f->s[k].die;
	return 0;
}

static int obj_chain(struct ann_obj *o, uint64_t addr, struct ann_chain *c,
		     struct cgp_error *err)
{
	const struct range *r;
	struct unit *u;
	Dwarf_Line *line;
	Dwarf_Die *inl = NULL;
	size_t ninl = 0, cap = 0, i;
	struct ann_frame *f;
	int rc, lineno;

	c->n = 0;
	if (!o->dw)
		return 0;
	/* A table left half built by an error is never searched: the error
	 * is returned again instead. */
	if ((rc = obj_units(o, err)))
		return rc;
	if (!(r = ranges_find(&o->units, addr)))
		return 0;
	u = &o->u[r->idx];
	if (!u->indexed) {
		u->indexed = 1;
		if ((rc = index_dies(u, &u->top, 0, err)))
			return again(&u->index_err, err, rc);
		ranges_sort(&u->fns);
	}
	if (u->index_err.code)
		return again(err, &u->index_err, u->index_err.code);
	f = chain_push(c);
	line = dwarf_getsrc_die(&u->cu, addr);
	if (line) {
		f->file = dwarf_linesrc(line, NULL, NULL);
		if (dwarf_lineno(line, &lineno) == 0)
			f->line = lineno;
	}
	if (!(r = ranges_find(&u->fns, addr)))
		return 1;
	if ((rc = inlined_at(u, r->idx, addr, &inl, &ninl, &cap, err))) {
		free(inl);
		return rc;
	}
	/* Innermost first: each inlined subroutine names its function; the
	 * frame outside it gets its call site. */
	for (i = ninl; i-- > 0;) {
		f->fn = die_name(&inl[i]);
		f->die = inl[i];
		f->inlined = 1;
		f = chain_push(c);
		call_site(u, &inl[i], f);
	}
	f->fn = die_name(&u->fn[r->idx]);
	f->die = u->fn[r->idx];
	free(inl);
	return 1;
}

/* ---- names as a report shows them ---------------------------------------- */

/* The DIE that holds d's DW_AT_name: d, its abstract origin or its
 * specification (a bounded walk: corrupt DWARF could loop). */
static void name_holder(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Die next;
	int k;

	for (k = 0; k < 8 && !dwarf_hasattr(d, DW_AT_name); k++) {
		if (!dwarf_formref_die(dwarf_attr(d, DW_AT_abstract_origin, &a), &next) &&
		    !dwarf_formref_die(dwarf_attr(d, DW_AT_specification, &a), &next))
			return;
		*d = next;
	}
}

static char *shown_name(struct ann_obj *o, Dwarf_Die *die, int depth);

/* "A::B::" for the scopes around d (namespaces, classes, and the function
 * it is local to), appended to b.  GCC names no closure type: the class
 * without a name around an operator() is shown as "<lambda>", any other
 * as "<unnamed>". */
static void add_scopes(struct ann_obj *o, Dwarf_Die *d, const char *base,
		       struct cgp_buf *b, int depth)
{
	Dwarf_Die *sc = NULL;
	int n = dwarf_getscopes_die(d, &sc), i, top = n;
	char *fn;

	/* sc[0] is d, sc[n - 1] its unit; find the outermost scope that
	 * still names d: the first function going out, else the unit. */
	for (i = 1; i < n; i++) {
		int tag = dwarf_tag(&sc[i]);
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			top = i;
			break;
		}
	}
	for (i = top < n ? top : n - 1; i >= 1; i--) {
		int tag = dwarf_tag(&sc[i]);
		const char *name = dwarf_diename(&sc[i]);
		if (i == top) {
			if ((fn = shown_name(o, &sc[i], depth + 1))) {
				cgp_buf_addf(b, "%s::", fn);
				free(fn);
			}
		} else if (tag == DW_TAG_namespace) {
			cgp_buf_addf(b, "%s::", name ? name : "(anonymous namespace)");
		} else if (tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
			   tag == DW_TAG_union_type) {
			if (!name)
				name = i == 1 && !strncmp(base, "operator()", 10) ? "<lambda>"
										 : "<unnamed>";
			cgp_buf_addf(b, "%s::", name);
		}
	}
	free(sc);
}

/* The name of die as a report shows it; malloc'd, NULL if it has none. */
static char *shown_name(struct ann_obj *o, Dwarf_Die *die, int depth)
{
	struct cgp_buf b = CGP_BUF_INIT(1 << 20);
	Dwarf_Attribute a;
	Dwarf_Die d = *die;
	const char *name;

	if ((name = dwarf_formstring(dwarf_attr_integrate(&d, DW_AT_linkage_name, &a))) ||
	    (name = dwarf_formstring(dwarf_attr_integrate(&d, DW_AT_MIPS_linkage_name, &a))))
		return ann_demangle(name);
	name_holder(&d);
	if (!(name = dwarf_diename(&d)))
		return NULL;
	if (depth < 8)
		add_scopes(o, &d, name, &b, depth);
	cgp_buf_adds(&b, name);
	return b.s;
}

static const char *obj_frame_name(struct ann_obj *o, const struct ann_frame *f)
{
	Dwarf_Attribute a;
	Dwarf_Die key = f->die;
	struct ann_ptrmap_slot *sl;

	if (!f->fn)
		return NULL;
	/* Every inlined instance of a function has the same abstract origin:
	 * one name, and one walk of its unit, per function. */
	dwarf_formref_die(dwarf_attr(&key, DW_AT_abstract_origin, &a), &key);
	sl = ann_ptrmap_get(&o->shown, key.addr);
	if (!sl->val)
		sl->val = shown_name(o, &key, 0);
	if (!sl->val)
		sl->val = strdup(f->fn);
	if (!sl->val)
		die(1, "out of memory");
	return sl->val;
}

struct ann_ptrmap_slot *ann_ptrmap_get(struct ann_ptrmap *m, const void *key)
{
	size_t h, i;

	if (2 * (m->n + 1) > (m->slot ? m->mask + 1 : 0)) {
		/* Grown to twice the size, the keys placed again. */
		size_t cap = m->slot ? 2 * (m->mask + 1) : 64;
		struct ann_ptrmap_slot *t = xcalloc(cap, sizeof *t);
		for (i = 0; m->slot && i <= m->mask; i++) {
			if (!m->slot[i].key)
				continue;
			for (h = ((uintptr_t)m->slot[i].key >> 3) & (cap - 1); t[h].key;
			     h = (h + 1) & (cap - 1))
				;
			t[h] = m->slot[i];
		}
		free(m->slot);
		m->slot = t;
		m->mask = cap - 1;
	}
	for (h = ((uintptr_t)key >> 3) & m->mask; m->slot[h].key; h = (h + 1) & m->mask)
		if (m->slot[h].key == key)
			return &m->slot[h];
	m->slot[h].key = key;
	m->n++;
	return &m->slot[h];
}

void ann_ptrmap_release(struct ann_ptrmap *m)
{
	size_t i;

	for (i = 0; m->slot && i <= m->mask; i++)
		free(m->slot[i].val);
	free(m->slot);
	m->slot = NULL;
	m->n = m->mask = 0;
}

/* ---- the entry points: libdw and libelf at work ------------------------------ */

/*
 * libdw 0.188 does not check every allocation: when memory runs out (a
 * ulimit -v) it can dereference a null table (SIGSEGV) or fail its own
 * assertion (SIGABRT) instead of calling its out-of-memory handler.  So
 * every entry point that lets libdw or libelf work names the object for a
 * fault, which then ends cg_annotate with a message and status 1.  (Where
 * libdw does check, dw_reason() stops cg_annotate with "out of memory".)
 */
static const char lib_what[] = "reading the debug information of";
static const char lib_why[] = "libdw, the DWARF library, fails this way when memory runs "
			      "out (ulimit -v) or on a corrupt file";

static void lib_enter(const char *path)
{
	reading = path;
	prog_fault_enter(lib_what, path, lib_why);
}

static void lib_leave(void)
{
	prog_fault_leave();
	reading = NULL;
}

int ann_obj_open(struct ann_obj **out, const char *path,
		 const struct ann_obj_opts *opts, struct cgp_error *err)
{
	int rc;

	lib_enter(path);
	rc = obj_open(out, path, opts, err);
	lib_leave();
	return rc;
}

void ann_obj_close(struct ann_obj *o)
{
	/* The name for a fault's message, alive until the leave (obj_close
	 * frees o->path). */
	static const char closing[] = "an object being closed";

	if (!o)
		return;
	lib_enter(closing);
	obj_close(o);
	lib_leave();
}

int ann_obj_code(struct ann_obj *o, uint64_t addr, const unsigned char **p,
		 size_t *len, struct cgp_error *err)
{
	int rc;

	lib_enter(o->path);
	rc = obj_code(o, addr, p, len, err);
	lib_leave();
	return rc;
}

int ann_obj_units(struct ann_obj *o, struct cgp_error *err)
{
	int rc;

	lib_enter(o->path);
	rc = obj_units(o, err);
	lib_leave();
	return rc;
}

int ann_obj_chain(struct ann_obj *o, uint64_t addr, struct ann_chain *c,
		  struct cgp_error *err)
{
	int rc;

	lib_enter(o->path);
	rc = obj_chain(o, addr, c, err);
	lib_leave();
	return rc;
}

const char *ann_obj_frame_name(struct ann_obj *o, const struct ann_frame *f)
{
	const char *name;

	lib_enter(o->path);
	name = obj_frame_name(o, f);
	lib_leave();
	return name;
}
