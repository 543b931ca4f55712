/* dlclose.c -- dlopen a small shared object, call it, dlclose it; twice.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: dlclose PATH-OF-myprint.so
   Unloading discards the translations of the object's code; loading it
   again maps it (usually) at the same place and translates it anew. */

#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: dlclose PATH-OF-myprint.so\n");
      return 2;
   }
   for (int round = 0; round < 2; round++) {
      void *h = dlopen(argv[1], RTLD_NOW);
      void (*myprint)(void);

      if (h == NULL) {
         printf("dlopen failed: %s\n", dlerror());
         return 1;
      }
      myprint = (void (*)(void))dlsym(h, "myprint");
      if (myprint == NULL) {
         printf("dlsym failed\n");
         return 1;
      }
      myprint();
      if (dlclose(h) != 0) {
         printf("dlclose failed\n");
         return 1;
      }
   }
   return 0;
}
