/* cg_objects.c -- the object files of instruction cost centres: path, build-id, addresses in the object.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcsetjmp.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_signals.h"
#include "pub_tool_vki.h"

#include "cg_objects.h"

/*------------------------------------------------------------*/
/*--- Reading the client's memory                          ---*/
/*------------------------------------------------------------*/

/* Where a fault while copying client memory returns to. */
static VG_MINIMAL_JMP_BUF(cg_copy_env);

static void cg_copy_fault(Int sig, Addr addr)
{
   (void)addr;
   if (sig == VKI_SIGSEGV || sig == VKI_SIGBUS)
      VG_MINIMAL_LONGJMP(cg_copy_env);
   /* Other signals: the core goes on as without a catcher. */
}

SizeT cg_client_copy(Addr a, UChar *buf, SizeT n)
{
   volatile SizeT got = 0;
   vki_sigset_t mask;
   fault_catcher_t prev;

   /* Only pages the client may read (checked page by page). */
   SizeT ok = 0;
   while (ok < n && a + ok >= a) {
      Addr at = a + ok, end = (at | (VKI_PAGE_SIZE - 1)) + 1;
      SizeT k = end - at < n - ok ? end - at : n - ok;
      if (!VG_(am_is_valid_for_client)(at, k, VKI_PROT_READ))
         break;
      ok += k;
   }
   /* The catcher leaves the core's signal handler by a jump, with the
      signal still blocked: the mask is put back after a fault. */
   VG_(sigprocmask)(VKI_SIG_SETMASK, NULL, &mask);
   prev = VG_(set_fault_catcher)(cg_copy_fault);
   if (VG_MINIMAL_SETJMP(cg_copy_env) == 0) {
      for (; got < ok; got++)
         buf[got] = ((volatile const UChar *)a)[got];
   } else {
      VG_(sigprocmask)(VKI_SIG_SETMASK, &mask, NULL);
   }
   VG_(set_fault_catcher)(prev);
   return got;
}

/*------------------------------------------------------------*/
/*--- Build-ids                                            ---*/
/*------------------------------------------------------------*/

/* Longest build-id read (GNU ld writes 20 bytes by default, 16 with
   --build-id=md5; 64 leaves room for any hash). */
#define CG_BUILD_ID_MAX 64
/* Largest note segment read. */
#define CG_NOTES_MAX 65536
/* The GNU build-id note (<elf.h>'s NT_GNU_BUILD_ID, PT_NOTE), and a
   loadable segment (PT_LOAD). */
#define CG_NT_GNU_BUILD_ID 3
#define CG_PT_NOTE 4
#define CG_PT_LOAD 1

/* The little-endian number of n bytes at p. */
static ULong cg_le(const UChar *p, Int n)
{
   ULong v = 0;
   for (Int i = n - 1; i >= 0; i--)
      v = v << 8 | p[i];
   return v;
}

/* Reads n bytes at offset off of fd into buf: True if all were read. */
static Bool cg_read_at(Int fd, ULong off, void *buf, Int n)
{
   if (VG_(lseek)(fd, (Off64T)off, VKI_SEEK_SET) != (Off64T)off)
      return False;
   for (Int got = 0; got < n; ) {
      Int k = VG_(read)(fd, (UChar *)buf + got, n - got);
      if (k <= 0)
         return False;
      got += k;
   }
   return True;
}

/* The GNU build-id among the notes in buf[0..len), whose fields are
   aligned to align bytes, as hex into out. */
static Bool cg_find_build_id(const UChar *buf, ULong len, ULong align,
                             HChar *out)
{
   static const HChar hex[] = "0123456789abcdef";

   for (ULong off = 0; off + 12 <= len; ) {
      ULong namesz = cg_le(buf + off, 4), descsz = cg_le(buf + off + 4, 4);
      ULong type = cg_le(buf + off + 8, 4);
      ULong name_at = off + 12;
      ULong desc_at = name_at + ((namesz + align - 1) & ~(align - 1));
      if (desc_at + descsz > len)
         return False;           /* a truncated or corrupt note */
      if (type == CG_NT_GNU_BUILD_ID && namesz == 4
          && VG_(memcmp)(buf + name_at, "GNU", 4) == 0
          && descsz >= 1 && descsz <= CG_BUILD_ID_MAX) {
         for (ULong i = 0; i < descsz; i++) {
            out[2 * i] = hex[buf[desc_at + i] >> 4];
            out[2 * i + 1] = hex[buf[desc_at + i] & 15];
         }
         out[2 * descsz] = '\0';
         return True;
      }
      off = desc_at + ((descsz + align - 1) & ~(align - 1));
   }
   return False;
}

/* Whether segment s is a part of the client's mapping of the file of
   device dev and inode ino that puts the file's offset 0 at base (each
   address of a mapping is at the same distance from its file offset). */
static Bool cg_in_mapping(const NSegment *s, ULong dev, ULong ino, Addr base)
{
   return s != NULL && s->kind == SkFileC && s->dev == dev && s->ino == ino
          && s->start - (Addr)s->offset == base;
}

/* Where the bytes of a mapped ELF file are read: the file, or the
   client's memory, where they are what ran (a file replaced or deleted
   since it was mapped is still mapped). */
typedef struct {
   Int fd;                    /* the open file, or -1: the client's memory */
   ULong dev, ino;            /* memory: the mapped file */
   Addr base;                 /* memory: where its offset 0 is mapped */
} CgSrc;

/* Reads n > 0 bytes at offset off of src's file into buf: True if all
   were read.  From memory, only from one segment of src's mapping. */
static Bool cg_src_read(const CgSrc *src, ULong off, void *buf, Int n)
{
   if (src->fd >= 0)
      return cg_read_at(src->fd, off, buf, n);
   Addr at = src->base + (Addr)off;
   const NSegment *s = VG_(am_find_nsegment)(at);
   return n > 0 && at >= src->base
          && cg_in_mapping(s, src->dev, src->ino, src->base)
          && (SizeT)(n - 1) <= s->end - at
          && cg_client_copy(at, buf, n) == (SizeT)n;
}

/* Where the program headers of an ELF file are. */
typedef struct {
   Bool is64;
   ULong phoff, phentsize, phnum;
} CgElf;

/* A program header, decoded. */
typedef struct {
   ULong type, offset, vaddr, filesz, align;
} CgPhdr;

/* Where the program headers of src's file are: True if it is a
   little-endian ELF file whose headers can be read. */
static Bool cg_elf_phdrs(const CgSrc *src, CgElf *e)
{
   UChar eh[64];

   if (!cg_src_read(src, 0, eh, 52) || VG_(memcmp)(eh, "\177ELF", 4) != 0
       || eh[5] != 1 /* ELFDATA2LSB */ || (eh[4] != 1 && eh[4] != 2))
      return False;
   e->is64 = eh[4] == 2;
   if (e->is64 && !cg_src_read(src, 0, eh, 64))
      return False;
   e->phoff = e->is64 ? cg_le(eh + 0x20, 8) : cg_le(eh + 0x1c, 4);
   e->phentsize = cg_le(eh + (e->is64 ? 0x36 : 0x2a), 2);
   e->phnum = cg_le(eh + (e->is64 ? 0x38 : 0x2c), 2);
   return e->phentsize >= (ULong)(e->is64 ? 56 : 32) && e->phnum != 0xffff /* PN_XNUM */;
}

/* Program header i of src's file into ph: False if it cannot be read. */
static Bool cg_elf_phdr(const CgSrc *src, const CgElf *e, ULong i, CgPhdr *ph)
{
   UChar b[56];
   Int w = e->is64 ? 8 : 4;

   if (!cg_src_read(src, e->phoff + i * e->phentsize, b, e->is64 ? 56 : 32))
      return False;
   ph->type = cg_le(b, 4);
   ph->offset = cg_le(b + (e->is64 ? 8 : 4), w);
   ph->vaddr = cg_le(b + (e->is64 ? 16 : 8), w);
   ph->filesz = cg_le(b + (e->is64 ? 32 : 16), w);
   ph->align = cg_le(b + (e->is64 ? 48 : 28), w);
   return True;
}

/* The build-id in the PT_NOTE segments of src's file into out, "" if
   it has none: False if its notes cannot be read. */
static Bool cg_src_build_id(const CgSrc *src, const CgElf *e, HChar *out)
{
   CgPhdr ph;

   out[0] = '\0';
   for (ULong i = 0; i < e->phnum; i++) {
      if (!cg_elf_phdr(src, e, i, &ph))
         return False;
      if (ph.type != CG_PT_NOTE || ph.filesz == 0 || ph.filesz > CG_NOTES_MAX)
         continue;
      UChar *notes = VG_(malloc)("cg.objects.notes", ph.filesz);
      Bool read = cg_src_read(src, ph.offset, notes, (Int)ph.filesz);
      Bool found = read && cg_find_build_id(notes, ph.filesz, ph.align == 8 ? 8 : 4, out);
      VG_(free)(notes);
      if (!read || found)
         return read;
   }
   return True;
}

/* The virtual address, in src's file, of the byte at offset off of the
   file: from the PT_LOAD segment that holds it. */
static Bool cg_src_vaddr(const CgSrc *src, const CgElf *e, ULong off, ULong *vaddr)
{
   CgPhdr ph;

   for (ULong i = 0; i < e->phnum && cg_elf_phdr(src, e, i, &ph); i++)
      if (ph.type == CG_PT_LOAD && off >= ph.offset && off - ph.offset < ph.filesz) {
         *vaddr = off - ph.offset + ph.vaddr;
         return True;
      }
   return False;
}

/* The bias and build-id ("" if none) of the mapped ELF file whose
   segment seg holds the code at a, read from src: False if they cannot
   be read or, from memory, if the headers read are not those of a's
   mapping (their offset 0 is not at a's bias). */
static Bool cg_image_read(const CgSrc *src, const NSegment *seg, Addr a,
                          PtrdiffT *bias, HChar *id)
{
   CgElf e;
   ULong va, va0;

   if (!cg_elf_phdrs(src, &e)
       || !cg_src_vaddr(src, &e, (ULong)seg->offset + (a - seg->start), &va))
      return False;
   *bias = (PtrdiffT)(a - (Addr)va);
   if (src->fd < 0 && (!cg_src_vaddr(src, &e, 0, &va0)
                       || src->base - (Addr)va0 != (Addr)*bias))
      return False;
   return cg_src_build_id(src, &e, id);
}

/* Most segments walked down from code to its file's offset 0. */
#define CG_WALK_MAX 16

/* The bias and build-id ("" if none) of the mapped ELF file whose
   segment seg (of kind SkFileC) holds the code at a, read at the first
   time its code runs: from the client's memory, else from the file at
   name if it is the one mapped (the same device and inode).  False if
   neither can be read.  In memory, the ELF header, the program headers
   and the notes are where the file's offset 0 is mapped, at the start
   of the first PT_LOAD segment (in the layouts of GNU ld, gold, lld and
   mold); that is the nearest segment of the file at or below seg that
   maps offset 0. */
static Bool cg_mapped_image(const NSegment *seg, Addr a, const HChar *name,
                            PtrdiffT *bias, HChar *id)
{
   CgSrc src = { -1, seg->dev, seg->ino, 0 };
   const NSegment *s = seg;
   for (Int k = 0; k < CG_WALK_MAX && s != NULL && s->kind == SkFileC
                   && s->dev == seg->dev && s->ino == seg->ino; k++) {
      if (s->offset == 0) {
         src.base = s->start;
         if (cg_image_read(&src, seg, a, bias, id))
            return True;
         break;
      }
      s = s->start > 0 ? VG_(am_find_nsegment)(s->start - 1) : NULL;
   }
   SysRes sres = VG_(open)(name, VKI_O_RDONLY, 0);
   if (sr_isError(sres))
      return False;
   struct vg_stat st;
   src.fd = (Int)sr_Res(sres);
   Bool ok = VG_(fstat)(src.fd, &st) == 0 && st.dev == seg->dev
             && st.ino == seg->ino && cg_image_read(&src, seg, a, bias, id);
   VG_(close)(src.fd);
   return ok;
}

/*------------------------------------------------------------*/
/*--- Objects and their mappings                           ---*/
/*------------------------------------------------------------*/

/* The object of code outside every object. */
static CgObject cg_unknown_object = { NULL, "???", NULL };

/* Every object seen, newest first.  Key: (path, build-id); owner: this
   list; never freed. */
static CgObject *objects;

/* A mapping of an object: one debug information of the core (a file
   mapped at one place), found by its file name, text address and bias,
   which stay valid after the core discards it (a pointer to it would
   not).  The build-id is read when a mapping is first seen.
   Owner: this list, most recently used first; freed when its text is
   unmapped (cg_objects_unmapped), since a file mapped there again may be
   another build. */
typedef struct CgMapping {
   struct CgMapping *next;
   HChar *filename;
   Addr text_avma;
   PtrdiffT bias;
   const CgObject *obj;
} CgMapping;

static CgMapping *mappings;

/* The object (path, build-id), created if new. */
static const CgObject *cg_object_named(const HChar *path, const HChar *id)
{
   for (CgObject *o = objects; o; o = o->next)
      if (VG_(strcmp)(o->path, path) == 0
          && (o->build_id == NULL ? id == NULL
                                  : id != NULL
                                    && VG_(strcmp)(o->build_id, id) == 0))
         return o;
   CgObject *o = VG_(malloc)("cg.objects.object", sizeof *o);
   o->path = VG_(strdup)("cg.objects.path", path);
   o->build_id = id ? VG_(strdup)("cg.objects.buildid", id) : NULL;
   o->next = objects;
   objects = o;
   return o;
}

/* Whether a's segment seg and the segment at t are parts of one mapping
   of one file.  Two copies of a library (dlmopen, or dlopen by two
   names) are two mappings of one file. */
static Bool cg_same_mapping(const NSegment *seg, Addr t)
{
   return cg_in_mapping(VG_(am_find_nsegment)(t), seg->dev, seg->ino,
                        seg->start - (Addr)seg->offset);
}

/* The core's debug information for the code at a: the one whose text
   holds it or, for code elsewhere in a mapped file (.plt, .init, ...),
   the current one of that file, of the same mapping, whose text is
   nearest. */
static const DebugInfo *cg_debuginfo_of(Addr a)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const DebugInfo *di = VG_(find_DebugInfo)(ep, a);
   if (di)
      return di;
   const NSegment *seg = VG_(am_find_nsegment)(a);
   const HChar *name = seg && seg->kind == SkFileC
                       ? VG_(am_get_filename)(seg) : NULL;
   if (name == NULL)
      return NULL;
   const DebugInfo *best = NULL;
   Addr best_dist = ~(Addr)0;
   for (const DebugInfo *d = VG_(next_DebugInfo)(NULL); d;
        d = VG_(next_DebugInfo)(d)) {
      Addr t = VG_(DebugInfo_get_text_avma)(d);
      if (VG_(DebugInfo_get_text_size)(d) == 0
          || VG_(strcmp)(VG_(DebugInfo_get_filename)(d), name) != 0
          || VG_(find_DebugInfo)(ep, t) != d
          || !cg_same_mapping(seg, t))
         continue;               /* another file or copy, or discarded */
      Addr dist = t > a ? t - a : a - t;
      if (dist < best_dist) {
         best = d;
         best_dist = dist;
      }
   }
   return best;
}

/* A new mapping: of the core's debug information di if not NULL, else
   of the mapped file of segment seg, holding the code at a, named name,
   with its text at text.  Code in no object that can be read (no debug
   information, and the mapped file's headers cannot be read) gets a
   mapping of the object "???" with bias 0: its run-time addresses. */
static CgMapping *cg_mapping_new(const DebugInfo *di, const NSegment *seg,
                                 Addr a, const HChar *name, Addr text)
{
   HChar id[2 * CG_BUILD_ID_MAX + 1];
   PtrdiffT bias;
   Bool read = seg != NULL && seg->kind == SkFileC
               && cg_mapped_image(seg, a, name, &bias, id);

   if (di != NULL) {
      bias = VG_(DebugInfo_get_text_bias)(di);
      if (!read) {
         /* Rather none than a build-id of another file. */
         VG_(umsg)("warning: --dump-instr=yes: no build-id recorded for '%s':"
                   " its mapped headers cannot be read, and the file at that"
                   " path is not the one mapped or cannot be read\n", name);
         id[0] = '\0';
      }
   }
   CgMapping *m = VG_(malloc)("cg.objects.mapping", sizeof *m);
   m->filename = VG_(strdup)("cg.objects.filename", name);
   m->text_avma = text;
   if (di == NULL && !read) {
      /* Remembered too, so that its headers are not looked for again at
         each instruction: code at run-time addresses. */
      m->bias = 0;
      m->obj = &cg_unknown_object;
   } else {
      m->bias = bias;
      m->obj = cg_object_named(name, id[0] != '\0' ? id : NULL);
   }
   return m;
}

const CgObject *cg_object_of(Addr a, Addr *addr)
{
   const DebugInfo *di = cg_debuginfo_of(a);
   const NSegment *seg = NULL;
   const HChar *name;
   Addr text;
   PtrdiffT di_bias = 0;
   if (di != NULL) {
      name = VG_(DebugInfo_get_filename)(di);
      text = VG_(DebugInfo_get_text_avma)(di);
      di_bias = VG_(DebugInfo_get_text_bias)(di);
   } else {
      seg = VG_(am_find_nsegment)(a);
      /* A mapped file the core has no debug information for: its
         segment's start stands for its text, and the bias comes from
         the file's program headers (read once per segment). */
      name = seg && seg->kind == SkFileC ? VG_(am_get_filename)(seg) : NULL;
      text = seg ? seg->start : 0;
   }
   CgMapping **link = &mappings, *m = NULL;
   if (name != NULL) {
      for (; (m = *link) != NULL; link = &m->next)
         if (m->text_avma == text && VG_(strcmp)(m->filename, name) == 0
             && (di == NULL || m->bias == di_bias))
            break;
      if (m)
         *link = m->next;       /* to the front */
      else
         m = cg_mapping_new(di, seg ? seg : VG_(am_find_nsegment)(a), a,
                            name, text);
   }
   if (m == NULL) {
      *addr = a;
      return &cg_unknown_object;
   }
   m->next = mappings;
   mappings = m;
   *addr = a - (Addr)m->bias;
   return m->obj;
}

void cg_objects_unmapped(Addr a, SizeT len)
{
   CgMapping **link = &mappings, *m;
   while ((m = *link) != NULL) {
      if (m->text_avma >= a && m->text_avma - a < len) {
         *link = m->next;
         VG_(free)(m->filename);
         VG_(free)(m);
      } else {
         link = &m->next;
      }
   }
}

Int cg_object_cmp(const CgObject *x, const CgObject *y)
{
   if (x == y)
      return 0;
   Int r = VG_(strcmp)(x->path, y->path);
   if (r != 0 || x->build_id == y->build_id)
      return r;
   if (x->build_id == NULL || y->build_id == NULL)
      return x->build_id == NULL ? -1 : 1;
   return VG_(strcmp)(x->build_id, y->build_id);
}
