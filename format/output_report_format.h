/* exported by format */
/* output_report_format.h: the output report, the text `gorewrite
 * --layout-report FILE` writes: what gorewrite says it put in OUTPUT;
 * tests/tools/lief_check.c reads it and compares it with what LIEF reads
 * in OUTPUT and INPUT.
 *
 * One record a line, fields separated by one space, numbers in hex with
 * 0x except counts (decimal). Paths and names are a single field: every
 * byte outside '!'..'~', and '%' itself, is written as %XX; an empty name
 * is written %00 (decoding it gives "", as no name holds a NUL).
 *
 *   gorewrite-layout 3
 *   input PATH
 *   output PATH
 *   size N                        the output file's size
 *   entry OLD NEW                 e_entry of INPUT and of OUTPUT
 *   phoff OFF                     OUTPUT's program header table
 *   phnum N                       then N lines, in table order:
 *   phdr TYPE FLAGS OFFSET VADDR PADDR FILESZ MEMSZ ALIGN
 *   shoff OFF
 *   shnum N                       OUTPUT's section headers (INPUT's + 2)
 *   shstrndx N
 *   section NAME TYPE FLAGS ADDR OFFSET SIZE     each section gorewrite added
 *   symtab N                      .symtab entries (null entry included), as in INPUT
 *   symtab_first NAME             entry 1's name
 *   symtab_last NAME              the last entry's name
 *   functions N INSTR LEFT_OUT    INPUT's functions (pclntab), those given an
 *                                 entry patch, those left out by --only and
 *                                 --exclude (since version 3)
 *   patches N                     then N lines, in the order written:
 *   patch ADDR LEN                bytes of INPUT's image overwritten: a jmp
 *                                 rel32 into the new code, then int3 filler
 *   call_site ADDR LEN            a direct call or jmp rel32 (LEN 5) aimed at
 *                                 a patched entry in INPUT, now at the
 *                                 place that entry's jmp leads to
 *   end
 */
#ifndef GS_OUTPUT_REPORT_FORMAT_H
#define GS_OUTPUT_REPORT_FORMAT_H

#define GS_OUTPUT_REPORT_MAGIC "gorewrite-layout 3"

#endif
