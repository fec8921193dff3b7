// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: perf_events ABI layout checks
 *
 * include/uapi/linux/perf_event.h is shared with every perf binary ever
 * built, so its layout may never move.  This file pins the facts that
 * user space relies on most (the attr size generations, the mmap page
 * and the fixed-size record structures) as compile-time assertions, so
 * an accidental edit of the header breaks the build instead of breaking
 * user space.  It generates no code or data; bit positions inside
 * bitfields cannot be measured at compile time and are covered by the
 * perfcore_abi KUnit suite (abi_test.c) instead.
 */
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <uapi/linux/perf_event.h>

#define ATTR_END(field)	offsetofend(struct perf_event_attr, field)
#define ATTR_AT(field)	offsetof(struct perf_event_attr, field)
#define PAGE_AT(field)	offsetof(struct perf_event_mmap_page, field)

/*
 * perf_event_attr: user space tells the kernel which generation it was
 * built for through attr.size, so each PERF_ATTR_SIZE_VERn has to be
 * the end of the last field that generation added.
 */
static_assert(sizeof(struct perf_event_attr) == PERF_ATTR_SIZE_VER8);
static_assert(ATTR_END(config1) == PERF_ATTR_SIZE_VER0);
static_assert(ATTR_END(config2) == PERF_ATTR_SIZE_VER1);
static_assert(ATTR_END(branch_sample_type) == PERF_ATTR_SIZE_VER2);
static_assert(ATTR_END(clockid) == PERF_ATTR_SIZE_VER3);
static_assert(ATTR_END(sample_regs_intr) == PERF_ATTR_SIZE_VER4);
static_assert(ATTR_END(__reserved_2) == PERF_ATTR_SIZE_VER5);
static_assert(ATTR_END(aux_action) == PERF_ATTR_SIZE_VER6);
static_assert(ATTR_END(sig_data) == PERF_ATTR_SIZE_VER7);
static_assert(ATTR_END(config3) == PERF_ATTR_SIZE_VER8);

/* The head of the struct, before the first size generation. */
static_assert(ATTR_AT(type) == 0 && ATTR_AT(size) == 4);
static_assert(ATTR_AT(config) == 8);
static_assert(ATTR_AT(sample_period) == 16 && ATTR_AT(sample_freq) == 16);
static_assert(ATTR_AT(sample_type) == 24 && ATTR_AT(read_format) == 32);
/* The option bitfield is the one u64 between read_format and wakeup. */
static_assert(ATTR_END(read_format) == 40 && ATTR_AT(wakeup_events) == 48);
static_assert(ATTR_AT(wakeup_watermark) == 48 && ATTR_AT(bp_type) == 52);

/* Members of each union must overlay exactly. */
static_assert(ATTR_AT(bp_addr) == 56 && ATTR_AT(kprobe_func) == 56 &&
	      ATTR_AT(uprobe_path) == 56 && ATTR_AT(config1) == 56);
static_assert(ATTR_AT(bp_len) == 64 && ATTR_AT(kprobe_addr) == 64 &&
	      ATTR_AT(probe_offset) == 64 && ATTR_AT(config2) == 64);

/* The later generations, field by field. */
static_assert(ATTR_AT(branch_sample_type) == 72);
static_assert(ATTR_AT(sample_regs_user) == 80);
static_assert(ATTR_AT(sample_stack_user) == 88 && ATTR_AT(clockid) == 92);
static_assert(ATTR_AT(sample_regs_intr) == 96);
static_assert(ATTR_AT(aux_watermark) == 104);
static_assert(ATTR_AT(sample_max_stack) == 108 && ATTR_AT(__reserved_2) == 110);
static_assert(ATTR_AT(aux_sample_size) == 112 && ATTR_AT(aux_action) == 116);
static_assert(sizeof_field(struct perf_event_attr, aux_action) == 4);
static_assert(ATTR_AT(sig_data) == 120 && ATTR_AT(config3) == 128);

/* Every generation is a whole number of u64 words. */
static_assert(PERF_ATTR_SIZE_VER0 % 8 == 0 && PERF_ATTR_SIZE_VER1 % 8 == 0 &&
	      PERF_ATTR_SIZE_VER2 % 8 == 0 && PERF_ATTR_SIZE_VER3 % 8 == 0 &&
	      PERF_ATTR_SIZE_VER4 % 8 == 0 && PERF_ATTR_SIZE_VER5 % 8 == 0 &&
	      PERF_ATTR_SIZE_VER6 % 8 == 0 && PERF_ATTR_SIZE_VER7 % 8 == 0);

/*
 * perf_event_mmap_page: user space reads it through mmap() with its own
 * copy of the header.  The ring-buffer words start at byte 1024 so the
 * self-monitoring part can grow into the reserved gap.
 */
static_assert(sizeof(struct perf_event_mmap_page) == 1088);
static_assert(PAGE_AT(version) == 0 && PAGE_AT(compat_version) == 4);
static_assert(PAGE_AT(lock) == 8 && PAGE_AT(index) == 12);
static_assert(PAGE_AT(offset) == 16);
static_assert(PAGE_AT(time_enabled) == 24 && PAGE_AT(time_running) == 32);
static_assert(PAGE_AT(capabilities) == 40);
static_assert(PAGE_AT(pmc_width) == 48 && PAGE_AT(time_shift) == 50);
static_assert(PAGE_AT(time_mult) == 52);
static_assert(PAGE_AT(time_offset) == 56 && PAGE_AT(time_zero) == 64);
static_assert(PAGE_AT(size) == 72 && PAGE_AT(__reserved_1) == 76);
static_assert(PAGE_AT(time_cycles) == 80 && PAGE_AT(time_mask) == 88);
static_assert(PAGE_AT(__reserved) == 96);
static_assert(sizeof_field(struct perf_event_mmap_page, __reserved) == 928);
static_assert(PAGE_AT(data_head) == 1024 && PAGE_AT(data_tail) == 1032);
static_assert(PAGE_AT(data_offset) == 1040 && PAGE_AT(data_size) == 1048);
static_assert(PAGE_AT(aux_head) == 1056 && PAGE_AT(aux_tail) == 1064);
static_assert(PAGE_AT(aux_offset) == 1072 && PAGE_AT(aux_size) == 1080);

/* Records and their payloads. */
static_assert(sizeof(struct perf_event_header) == 8);
static_assert(offsetof(struct perf_event_header, misc) == 4);
static_assert(offsetof(struct perf_event_header, size) == 6);
static_assert(sizeof(struct perf_ns_link_info) == 16);
static_assert(sizeof(struct perf_branch_entry) == 24);
static_assert(offsetof(struct perf_branch_entry, to) == 8);
static_assert(sizeof(union perf_mem_data_src) == sizeof(__u64));
static_assert(sizeof(union perf_sample_weight) == sizeof(__u64));
#ifdef __BIG_ENDIAN_BITFIELD
static_assert(offsetof(union perf_sample_weight, var1_dw) == 4);
#else
static_assert(offsetof(union perf_sample_weight, var1_dw) == 0);
#endif
static_assert(sizeof(struct perf_event_query_bpf) == 8);
static_assert(offsetof(struct perf_event_query_bpf, ids) == 8);

/*
 * Values that are encoded into other fields: the mem_data_src shifts
 * must tile the u64 in order, and the callchain markers must stay in
 * the range above PERF_CONTEXT_MAX.
 */
static_assert(PERF_MEM_OP_SHIFT == 0 && PERF_MEM_LVL_SHIFT == 5);
static_assert(PERF_MEM_SNOOP_SHIFT == 19 && PERF_MEM_LOCK_SHIFT == 24);
static_assert(PERF_MEM_TLB_SHIFT == 26 && PERF_MEM_LVLNUM_SHIFT == 33);
static_assert(PERF_MEM_REMOTE_SHIFT == 37 && PERF_MEM_SNOOPX_SHIFT == 38);
static_assert(PERF_MEM_BLK_SHIFT == 40 && PERF_MEM_HOPS_SHIFT == 43);
static_assert(PERF_CONTEXT_GUEST_USER > (__u64)PERF_CONTEXT_MAX);
static_assert(sizeof(enum perf_callchain_context) == sizeof(__u64));
static_assert(PERF_BRANCH_ENTRY_INFO_BITS_MAX == 33);
