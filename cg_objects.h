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
   the object "???", with its run-time address.  The program headers and
   the build-id are read from the mapping in the client's memory, since
   the file at the path may have been replaced since it was mapped; from
   the file only if the mapping cannot be read and the file is the one
   mapped (its device and inode). */

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
   current now; a new object's build-id is read from its mapping the
   first time it is seen at a mapping (none, with a warning, if neither
   the mapping nor the file mapped can be read). */
const CgObject *cg_object_of(Addr a, Addr *addr);

/* Memory [a, a + len) was unmapped: the mappings whose text was there are
   forgotten, so that a file mapped there again (dlclose, a rebuild, dlopen)
   has its build-id read again.  Tracked with --dump-instr=yes only. */
void cg_objects_unmapped(Addr a, SizeT len);

/* Copies what the tool can read of the client's [a, a + n) into buf, up
   to the first byte it cannot: one the address space manager says the
   client may not read, or one whose reading faults (a page of a file
   mapping past the end of the file is mapped readable, but reading it
   raises SIGBUS).  The copy is made under a fault catcher, so a file cut
   short by another process meanwhile is safe too.  Returns the number of
   bytes copied.  A system call or two: for the headers of mapped files,
   and the names of dump requests (cg_parts). */
SizeT cg_client_copy(Addr a, UChar *buf, SizeT n);

/* Order of two objects for the output: by path, then build-id (none
   first). */
Int cg_object_cmp(const CgObject *x, const CgObject *y);

#endif /* CG_OBJECTS_H */
