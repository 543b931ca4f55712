/* cg_objects.h -- the object files of instruction cost centres: path, build-id, addresses in the object.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   Only --dump-instr=yes uses this.  An instruction's address in its
   object is the virtual address the object's ELF file gives it (what
   objdump -d and addr2line -e show): its run-time address less the load
   bias of the object, which Valgrind's debug information knows (the
   bias of its text, VG_(DebugInfo_get_text_bias); all segments of an ELF
   object are loaded with one bias), or, for a mapped file it keeps no
   debug information for, the file's PT_LOAD program headers.  Code
   outside every mapped ELF file (generated at run time, say) belongs to
   the object "???", with its run-time address. */

#ifndef CG_OBJECTS_H
#define CG_OBJECTS_H

#include "pub_tool_basics.h"

/* An object file: a program or shared library, as it was mapped.  Key:
   (path, build-id); owner: this module's list; never freed. */
typedef struct CgObject {
   struct CgObject *next;     /* all objects, newest first */
   const HChar *path;         /* as the core's debug information names it */
   const HChar *build_id;     /* lower-case hex, NULL if none was read */
} CgObject;

/* The object of the instruction at the run-time address a and, in
   *addr, its address in that object.  Found from the debug information
   current now; a new object's build-id is read from its file the first
   time it is seen at a mapping. */
const CgObject *cg_object_of(Addr a, Addr *addr);

/* Memory [a, a + len) was unmapped: the mappings whose text was there are
   forgotten, so that a file mapped there again (dlclose, a rebuild, dlopen)
   has its build-id read again.  Tracked with --dump-instr=yes only. */
void cg_objects_unmapped(Addr a, SizeT len);

/* Order of two objects for the output: by path, then build-id (none
   first). */
Int cg_object_cmp(const CgObject *x, const CgObject *y);

/* The build-id of an ELF file, as lower-case hex, into out[0..2 * 64]
   (NUL-terminated); False if the file cannot be read, is not a
   little-endian ELF file, or has no GNU build-id note. */
Bool cg_read_build_id(const HChar *path, HChar *out);

#endif /* CG_OBJECTS_H */
