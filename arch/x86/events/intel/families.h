/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: what the Intel family tables (families*.c) share: the
 * off-core response event codes most cores use, the cache operations
 * no Intel core has, and each file's families for the list in
 * families.c.
 */
#ifndef _X86_EVENTS_INTEL_FAMILIES_H
#define _X86_EVENTS_INTEL_FAMILIES_H

#include "../counters.h"

/*
 * What a PEBS table's row of an event and unit mask, or of an event
 * alone, matches: the code with no modifier (edge, invert, threshold,
 * AnyThread, the transactional filters).
 */
#define PEBS_UEVENT_CMASK	(X86C_FIXED_CMASK | ARCH_PERFMON_EVENTSEL_ANY | \
				 ARCH_PERFMON_EVENTSEL_PIN_CONTROL)
#define PEBS_EVENT_CMASK	(PEBS_UEVENT_CMASK & ~ARCH_PERFMON_EVENTSEL_UMASK)

#define OFFCORE_RSP_0		0x01b7	/* OFFCORE_RESPONSE_0 */
#define OFFCORE_RSP_1		0x01bb	/* OFFCORE_RESPONSE_1 */

/*
 * Operations Intel's caches do not have: writes to the instruction side
 * and the branch predictor, prefetches into the ITLB and the predictor.
 */
#define INTEL_CACHE_REFUSED						\
	(X86C_CACHE_NO(L1I, WRITE) |					\
	 X86C_CACHE_NO(ITLB, WRITE) | X86C_CACHE_NO(ITLB, PREFETCH) |	\
	 X86C_CACHE_NO(BPU, WRITE) | X86C_CACHE_NO(BPU, PREFETCH))

/* families_core.c: the big cores before Skylake */
extern const struct x86c_intel_family x86c_family_core2;
extern const struct x86c_intel_family x86c_family_nehalem;
extern const struct x86c_intel_family x86c_family_westmere;
extern const struct x86c_intel_family x86c_family_sandybridge;
extern const struct x86c_intel_family x86c_family_sandybridge_server;
extern const struct x86c_intel_family x86c_family_ivybridge;
extern const struct x86c_intel_family x86c_family_ivybridge_server;
extern const struct x86c_intel_family x86c_family_haswell;
extern const struct x86c_intel_family x86c_family_broadwell;
/* Haswell's transactional events, Skylake's too */
extern const struct x86c_named_event x86c_haswell_tsx_events[];

/* families_atom.c: the Atom cores */
extern const struct x86c_intel_family x86c_family_bonnell;
extern const struct x86c_intel_family x86c_family_silvermont;
extern const struct x86c_intel_family x86c_family_knights_landing;
extern const struct x86c_intel_family x86c_family_goldmont;
extern const struct x86c_intel_family x86c_family_goldmont_plus;
extern const struct x86c_intel_family x86c_family_tremont;
extern const struct x86c_intel_family x86c_family_gracemont;
extern const struct x86c_intel_family x86c_family_gracemont_hybrid;
extern const struct x86c_intel_family x86c_family_crestmont;
extern const struct x86c_intel_family x86c_family_crestmont_hybrid;
extern const struct x86c_intel_family x86c_family_skymont_hybrid;

#endif /* _X86_EVENTS_INTEL_FAMILIES_H */
