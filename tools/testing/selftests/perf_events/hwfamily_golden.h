/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwfamily.c's recorded stock answers (hwfamily.golden), assembled into
 * the binary, NUL-terminated: the Makefile names the file.
 */
#ifndef HWFAMILY_GOLDEN_H
#define HWFAMILY_GOLDEN_H

#ifndef HWFAMILY_GOLDEN
#define HWFAMILY_GOLDEN "hwfamily.golden"
#endif
asm(".pushsection .rodata\n"
	".global hwfamily_golden\n"
	"hwfamily_golden:\n"
	".incbin \"" HWFAMILY_GOLDEN "\"\n"
	".byte 0\n"
	".popsection\n");
extern const char hwfamily_golden[];

#endif
