/* cg_objects.c -- the object files of instruction cost centres: path, build-id, addresses in the object.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "cg_objects.h"

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

/* Where the program headers of an ELF file are. */
typedef struct {
   Bool is64;
   ULong phoff, phentsize, phnum;
} CgElf;

/* A program header, decoded. */
typedef struct {
   ULong type, offset, vaddr, filesz, align;
} CgPhdr;

/* Where the program headers of the open ELF file fd are: True if it is a
   little-endian ELF file whose headers can be read. */
static Bool cg_elf_phdrs(Int fd, CgElf *e)
{
   UChar eh[64];

   if (!cg_read_at(fd, 0, eh, 52) || VG_(memcmp)(eh, "\177ELF", 4) != 0
       || eh[5] != 1 /* ELFDATA2LSB */ || (eh[4] != 1 && eh[4] != 2))
      return False;
   e->is64 = eh[4] == 2;
   if (e->is64 && !cg_read_at(fd, 0, eh, 64))
      return False;
   e->phoff = e->is64 ? cg_le(eh + 0x20, 8) : cg_le(eh + 0x1c, 4);
   e->phentsize = cg_le(eh + (e->is64 ? 0x36 : 0x2a), 2);
   e->phnum = cg_le(eh + (e->is64 ? 0x38 : 0x2c), 2);
   return e->phentsize >= (ULong)(e->is64 ? 56 : 32) && e->phnum != 0xffff /* PN_XNUM */;
}

/* Program header i of fd into ph: False if it cannot be read. */
static Bool cg_elf_phdr(Int fd, const CgElf *e, ULong i, CgPhdr *ph)
{
   UChar b[56];
   Int w = e->is64 ? 8 : 4;

   if (!cg_read_at(fd, e->phoff + i * e->phentsize, b, e->is64 ? 56 : 32))
      return False;
   ph->type = cg_le(b, 4);
   ph->offset = cg_le(b + (e->is64 ? 8 : 4), w);
   ph->vaddr = cg_le(b + (e->is64 ? 16 : 8), w);
   ph->filesz = cg_le(b + (e->is64 ? 32 : 16), w);
   ph->align = cg_le(b + (e->is64 ? 48 : 28), w);
   return True;
}

/* The build-id in the PT_NOTE segments of the open ELF file fd. */
static Bool cg_read_build_id_fd(Int fd, HChar *out)
{
   CgElf e;
   CgPhdr ph;

   if (!cg_elf_phdrs(fd, &e))
      return False;
   for (ULong i = 0; i < e.phnum; i++) {
      if (!cg_elf_phdr(fd, &e, i, &ph))
         return False;
      if (ph.type != CG_PT_NOTE || ph.filesz == 0 || ph.filesz > CG_NOTES_MAX)
         continue;
      UChar *notes = VG_(malloc)("cg.objects.notes", ph.filesz);
      Bool found = cg_read_at(fd, ph.offset, notes, (Int)ph.filesz)
                   && cg_find_build_id(notes, ph.filesz, ph.align == 8 ? 8 : 4, out);
      VG_(free)(notes);
      if (found)
         return True;
   }
   return False;
}

Bool cg_read_build_id(const HChar *path, HChar *out)
{
   SysRes sres = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(sres))
      return False;
   Int fd = (Int)sr_Res(sres);
   Bool found = cg_read_build_id_fd(fd, out);
   VG_(close)(fd);
   return found;
}

/* The virtual address, in the ELF file at path, of the byte at offset
   off of the file: from the PT_LOAD segment that holds it.  For a file
   mapped without the core's debug information (which Valgrind 3.19
   drops for a file it cannot read, such as one with zstd-compressed
   debug sections). */
static Bool cg_elf_vaddr_of(const HChar *path, ULong off, ULong *vaddr)
{
   SysRes sres = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(sres))
      return False;
   Int fd = (Int)sr_Res(sres);
   Bool found = False;
   CgElf e;
   CgPhdr ph;
   if (cg_elf_phdrs(fd, &e))
      for (ULong i = 0; i < e.phnum && !found && cg_elf_phdr(fd, &e, i, &ph); i++)
         if (ph.type == CG_PT_LOAD && off >= ph.offset && off - ph.offset < ph.filesz) {
            *vaddr = off - ph.offset + ph.vaddr;
            found = True;
         }
   VG_(close)(fd);
   return found;
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
   of one file: the same file (device and inode), each address at the
   same distance from where its file offset 0 would be.  Two copies of a
   library (dlmopen, or dlopen by two names) are two mappings of one
   file, at two distances. */
static Bool cg_same_mapping(const NSegment *seg, Addr t)
{
   const NSegment *ts = VG_(am_find_nsegment)(t);
   return ts != NULL && ts->kind == SkFileC && ts->dev == seg->dev
          && ts->ino == seg->ino
          && ts->start - (Addr)ts->offset == seg->start - (Addr)seg->offset;
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

/* The bias of the known mapping of name whose text is at text. */
static Bool cg_known_bias(const HChar *name, Addr text, PtrdiffT *bias)
{
   for (const CgMapping *m = mappings; m; m = m->next)
      if (m->text_avma == text && VG_(strcmp)(m->filename, name) == 0) {
         *bias = m->bias;
         return True;
      }
   return False;
}

const CgObject *cg_object_of(Addr a, Addr *addr)
{
   const DebugInfo *di = cg_debuginfo_of(a);
   const HChar *name;
   Addr text;
   PtrdiffT bias;
   if (di != NULL) {
      name = VG_(DebugInfo_get_filename)(di);
      text = VG_(DebugInfo_get_text_avma)(di);
      bias = VG_(DebugInfo_get_text_bias)(di);
   } else {
      /* A mapped file the core has no debug information for: its
         segment's start stands for its text, and the bias comes from
         the file's program headers (read once per segment). */
      const NSegment *seg = VG_(am_find_nsegment)(a);
      name = seg && seg->kind == SkFileC ? VG_(am_get_filename)(seg) : NULL;
      if (name == NULL) {
         *addr = a;
         return &cg_unknown_object;
      }
      text = seg->start;
      if (!cg_known_bias(name, text, &bias)) {
         ULong vaddr;
         if (!cg_elf_vaddr_of(name, (ULong)seg->offset + (a - seg->start), &vaddr)) {
            *addr = a;
            return &cg_unknown_object;
         }
         bias = (PtrdiffT)(a - (Addr)vaddr);
      }
   }
   CgMapping **link = &mappings, *m;
   for (; (m = *link) != NULL; link = &m->next)
      if (m->text_avma == text && m->bias == bias
          && VG_(strcmp)(m->filename, name) == 0)
         break;
   if (m) {
      *link = m->next;           /* to the front */
   } else {
      HChar id[2 * CG_BUILD_ID_MAX + 1];
      m = VG_(malloc)("cg.objects.mapping", sizeof *m);
      m->filename = VG_(strdup)("cg.objects.filename", name);
      m->text_avma = text;
      m->bias = bias;
      m->obj = cg_object_named(name, cg_read_build_id(name, id) ? id : NULL);
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
