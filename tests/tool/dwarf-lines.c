/* dwarf-lines.c -- prints every (file, line) of the DWARF line tables of an ELF file, for the tool tests.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: dwarf-lines FILE
   Prints "<file>\t<line>" for every row of every compilation unit's line
   table (duplicates included; callers sort), read with libdw: an oracle
   independent of Valgrind's own DWARF reader, against which the tests
   check the lines a profile attributes counts to.  Exit 1 with a message
   if FILE cannot be read or has no line table. */

#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: dwarf-lines FILE\n");
      return 2;
   }
   int fd = open(argv[1], O_RDONLY);
   if (fd < 0) {
      fprintf(stderr, "dwarf-lines: %s: %s\n", argv[1], strerror(errno));
      return 1;
   }
   Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
   if (dw == NULL) {
      fprintf(stderr, "dwarf-lines: %s: %s\n", argv[1], dwarf_errmsg(-1));
      close(fd);
      return 1;
   }
   size_t rows = 0;
   Dwarf_Off off = 0, next;
   size_t header_size;
   while (dwarf_nextcu(dw, off, &next, &header_size, NULL, NULL, NULL) == 0) {
      Dwarf_Die cu;
      Dwarf_Lines *lines;
      size_t n;
      if (dwarf_offdie(dw, off + header_size, &cu) != NULL
          && dwarf_getsrclines(&cu, &lines, &n) == 0) {
         for (size_t i = 0; i < n; i++) {
            Dwarf_Line *line = dwarf_onesrcline(lines, i);
            int line_no;
            const char *file;
            if (line == NULL || dwarf_lineno(line, &line_no) != 0
                || (file = dwarf_linesrc(line, NULL, NULL)) == NULL)
               continue;
            printf("%s\t%d\n", file, line_no);
            rows++;
         }
      }
      off = next;
   }
   dwarf_end(dw);
   close(fd);
   if (rows == 0) {
      fprintf(stderr, "dwarf-lines: %s: no line table\n", argv[1]);
      return 1;
   }
   return 0;
}
