/* cg_stubs.c -- the amd64 data-access stubs: host code that supplies a helper's counter.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_mallocfree.h"

#include "cg_stubs.h"

/* Data-access stubs (amd64 hosts).  The emitted code passes a data helper
   only the address: the helper's other argument, the misses counter of
   the access's line, is loaded by a stub, a few bytes of host code that
   put it in the second argument register and jump to the helper.  Call
   sites then set up one argument instead of two, which matters because a
   conditional call's arguments are set up whether it happens or not (for
   every data access: 2.4 G times on sqlite), and their code is 13 bytes
   shorter.  One stub serves every access with the same counter and
   helper; stubs live until exit, in chunks of their own (code must not
   share cache lines with data that is written).  They need executable
   memory: the core's own mappings are, which cg_stub_code checks; where
   they are not, and on other hosts, the counter is passed as an
   argument.  Key: the counter and the helper, read from the stub's own
   code; owner: stub_slots; never freed. */
#if defined(VGA_amd64)
#define CG_STUB_BYTES 24
#define CG_STUB_CHUNK 65536
#define CG_STUB_MISSES_AT 2     /* where the stub's two immediates are */
#define CG_STUB_HELPER_AT 12

/* The stubs, found by their code: open addressing, at most half full.
   Unlike the chained tables of cg_cc.c, an entry here is only a pointer:
   the key (counter, helper) is read back from the stub's immediates, so
   the table costs no memory per stub beyond its slot. */
static UChar **stub_slots;
static UInt stub_slots_size;    /* a power of two, or 0 */
static UInt stub_count;
static UChar *stub_next;
static SizeT stub_left;
static Bool stubs_off;          /* the core's memory is not executable */

/* Storage for one stub, or NULL if stubs cannot be used. */
static UChar *cg_stub_code(void)
{
   if (stubs_off)
      return NULL;
   if (stub_left < CG_STUB_BYTES) {
      UChar *chunk = VG_(am_shadow_alloc)(CG_STUB_CHUNK);
      const NSegment *seg = chunk ? VG_(am_find_nsegment)((Addr)chunk) : NULL;
      if (seg == NULL || !seg->hasX) {
         stubs_off = True;
         return NULL;
      }
      stub_next = chunk;
      stub_left = CG_STUB_CHUNK;
   }
   UChar *code = stub_next;
   stub_next += CG_STUB_BYTES;
   stub_left -= CG_STUB_BYTES;
   return code;
}

static void cg_put_imm64(UChar *p, UWord v)
{
   for (Int i = 0; i < 8; i++)
      p[i] = (UChar)(v >> (8 * i));
}

static UWord cg_get_imm64(const UChar *p)
{
   UWord v = 0;
   for (Int i = 7; i >= 0; i--)
      v = v << 8 | p[i];
   return v;
}

/* Where the stub for (misses, helper) is or would go in stub_slots. */
static UInt cg_stub_slot(UWord misses, UWord helper)
{
   UInt mask = stub_slots_size - 1;
   UInt h = (UInt)((misses >> 3) ^ (misses >> 17) ^ helper) * 2654435761u;
   for (UInt k = h & mask; ; k = (k + 1) & mask) {
      const UChar *c = stub_slots[k];
      if (c == NULL || (cg_get_imm64(c + CG_STUB_MISSES_AT) == misses
                        && cg_get_imm64(c + CG_STUB_HELPER_AT) == helper))
         return k;
   }
}

static void cg_stub_table_grow(void)
{
   UChar **old = stub_slots;
   UInt old_size = stub_slots_size;
   stub_slots_size = old_size ? 2 * old_size : 4096;
   stub_slots = VG_(calloc)("cg.main.stubs", stub_slots_size,
                            sizeof *stub_slots);
   for (UInt k = 0; k < old_size; k++)
      if (old[k])
         stub_slots[cg_stub_slot(cg_get_imm64(old[k] + CG_STUB_MISSES_AT),
                                 cg_get_imm64(old[k] + CG_STUB_HELPER_AT))]
            = old[k];
   if (old)
      VG_(free)(old);
}

void *cg_data_stub(ULong *misses, void *fn)
{
   UWord helper = (UWord)fn;
   if (stubs_off)
      return NULL;
   if (2 * (stub_count + 1) > stub_slots_size)
      cg_stub_table_grow();
   UInt k = cg_stub_slot((UWord)misses, helper);
   if (stub_slots[k])
      return stub_slots[k];
   UChar *code = cg_stub_code();
   if (code == NULL)
      return NULL;
   code[0] = 0x48;                              /* movabs $misses, %rsi */
   code[1] = 0xBE;
   cg_put_imm64(code + CG_STUB_MISSES_AT, (UWord)misses);
   code[10] = 0x49;                             /* movabs $helper, %r11 */
   code[11] = 0xBB;
   cg_put_imm64(code + CG_STUB_HELPER_AT, helper);
   code[20] = 0x41;                             /* jmp *%r11 */
   code[21] = 0xFF;
   code[22] = 0xE3;
   code[23] = 0xCC;                             /* int3: never reached */
   stub_slots[k] = code;
   stub_count++;
   return code;
}
#else
void *cg_data_stub(ULong *misses, void *fn)
{
   return NULL;
}
#endif
