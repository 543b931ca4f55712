/* ptrchase.c -- walk a linked list whose nodes are shuffled over 2 MiB.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Every step loads a pointer from a node at an unpredictable place, so
   nearly every access misses D1 (and LL once the list outgrows it). */

#include <stdio.h>
#include "cgt.h"

#define NODES 32768

struct node {
   struct node *next;
   long value;
   char pad[64 - sizeof(struct node *) - sizeof(long)];
};

static struct node nodes[NODES];
static int order[NODES];

NOINLINE static void link_shuffled(void)
{
   unsigned seed = 31337;

   for (int i = 0; i < NODES; i++)
      order[i] = i;
   for (int i = NODES - 1; i > 0; i--) {
      int j = (int)(cgt_rand(&seed) % (unsigned)(i + 1));
      int tmp = order[i];

      order[i] = order[j];
      order[j] = tmp;
   }
   for (int i = 0; i < NODES; i++) {
      nodes[order[i]].value = i;
      nodes[order[i]].next = i + 1 < NODES ? &nodes[order[i + 1]] : NULL;
   }
}

NOINLINE static long chase(const struct node *p)
{
   long s = 0;

   while (p) {
      s += p->value;
      p = p->next;
   }
   return s;
}

int main(void)
{
   long s = 0;

   link_shuffled();
   for (int round = 0; round < 3; round++)
      s += chase(&nodes[order[0]]);
   printf("ptrchase: %ld\n", s);
   return 0;
}
