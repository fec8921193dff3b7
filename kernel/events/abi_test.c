// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite perfcore_abi: the parts of the perf_events ABI that
 * abi_check.c cannot pin at compile time.
 *
 * Bitfield placement is chosen by the compiler, so it is measured here:
 * each field is filled with ones in an otherwise zeroed object and the
 * raw bytes are compared with the bits the ABI documents for it.  Any
 * byte outside the expected bits that changes is a failure too, so a
 * field that grew, moved or overlaps a neighbour is caught.  The ioctl
 * request numbers are checked the same way, by decoding them.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/ioctl.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <uapi/linux/perf_event.h>

/*
 * Not const: assigning it to a narrow bitfield must truncate quietly at
 * run time instead of drawing a constant-overflow warning.
 */
static u64 abi_all_ones = U64_MAX;

/*
 * Room for any of the structures probed.  Static rather than on the
 * stack because the mmap page alone is over a kilobyte; KUnit runs the
 * cases one at a time, so one pair of buffers is enough.
 */
union abi_scratch {
	struct perf_event_attr attr;
	struct perf_event_mmap_page page;
	union perf_mem_data_src src;
	struct perf_branch_entry br;
};

static union abi_scratch abi_obj, abi_want;

/* How a bitfield group is declared relative to the byte order. */
enum abi_order {
	ABI_NATIVE,	/* same declaration everywhere: follows the compiler */
	ABI_BY_VALUE,	/* reversed on big endian: fixed bits of the value */
};

/*
 * abi_expect_word - check abi_obj after one field was filled with ones
 * @test: the running test
 * @what: field name, for messages
 * @off: byte offset of the field's storage word in its structure
 * @size: size of that word (4 or 8)
 * @first: lowest bit of the field on little endian
 * @width: number of bits of the field
 * @order: whether the bits move on big endian
 *
 * The whole of abi_obj must be zero except exactly the field's bits.
 */
static void abi_expect_word(struct kunit *test, const char *what,
			    size_t off, size_t size, unsigned int first,
			    unsigned int width, enum abi_order order)
{
	unsigned int nbits = size * BITS_PER_BYTE;
	u8 *want = (u8 *)&abi_want;
	u64 mask;
	u32 mask32;

	KUNIT_ASSERT_LE(test, off + size, sizeof(abi_want));

	/* Big-endian GCC fills bitfields from the top of the word. */
	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) && order == ABI_NATIVE)
		first = nbits - first - width;
	mask = GENMASK_ULL(first + width - 1, first);

	memset(&abi_want, 0, sizeof(abi_want));
	if (size == sizeof(u32)) {
		mask32 = mask;
		memcpy(want + off, &mask32, sizeof(mask32));
	} else {
		memcpy(want + off, &mask, sizeof(mask));
	}
	KUNIT_EXPECT_MEMEQ_MSG(test, &abi_obj, &abi_want, sizeof(abi_obj),
			       "%s: want bits %u..%u of the word at %zu",
			       what, first, first + width - 1, off);
}

/*
 * Fill @field of member @m of a zeroed abi_obj with ones and check it.
 * @off, @size locate the storage word; @first, @width the field in it.
 */
#define ABI_PROBE(test, m, field, off, size, first, width, order)	\
	do {								\
		memset(&abi_obj, 0, sizeof(abi_obj));			\
		abi_obj.m.field = abi_all_ones;				\
		abi_expect_word(test, #field, off, size, first,	\
				width, order);				\
	} while (0)

#define ATTR_FLAG(test, field, first, width)				\
	ABI_PROBE(test, attr, field, 40, 8,		\
		  first, width, ABI_NATIVE)

/* The option flags word of perf_event_attr, at byte 40. */
static void abi_attr_flags(struct kunit *test)
{
	ATTR_FLAG(test, disabled, 0, 1);
	ATTR_FLAG(test, inherit, 1, 1);
	ATTR_FLAG(test, pinned, 2, 1);
	ATTR_FLAG(test, exclusive, 3, 1);
	ATTR_FLAG(test, exclude_user, 4, 1);
	ATTR_FLAG(test, exclude_kernel, 5, 1);
	ATTR_FLAG(test, exclude_hv, 6, 1);
	ATTR_FLAG(test, exclude_idle, 7, 1);
	ATTR_FLAG(test, mmap, 8, 1);
	ATTR_FLAG(test, comm, 9, 1);
	ATTR_FLAG(test, freq, 10, 1);
	ATTR_FLAG(test, inherit_stat, 11, 1);
	ATTR_FLAG(test, enable_on_exec, 12, 1);
	ATTR_FLAG(test, task, 13, 1);
	ATTR_FLAG(test, watermark, 14, 1);
	ATTR_FLAG(test, precise_ip, 15, 2);
	ATTR_FLAG(test, mmap_data, 17, 1);
	ATTR_FLAG(test, sample_id_all, 18, 1);
	ATTR_FLAG(test, exclude_host, 19, 1);
	ATTR_FLAG(test, exclude_guest, 20, 1);
	ATTR_FLAG(test, exclude_callchain_kernel, 21, 1);
	ATTR_FLAG(test, exclude_callchain_user, 22, 1);
	ATTR_FLAG(test, mmap2, 23, 1);
	ATTR_FLAG(test, comm_exec, 24, 1);
	ATTR_FLAG(test, use_clockid, 25, 1);
	ATTR_FLAG(test, context_switch, 26, 1);
	ATTR_FLAG(test, write_backward, 27, 1);
	ATTR_FLAG(test, namespaces, 28, 1);
	ATTR_FLAG(test, ksymbol, 29, 1);
	ATTR_FLAG(test, bpf_event, 30, 1);
	ATTR_FLAG(test, aux_output, 31, 1);
	ATTR_FLAG(test, cgroup, 32, 1);
	ATTR_FLAG(test, text_poke, 33, 1);
	ATTR_FLAG(test, build_id, 34, 1);
	ATTR_FLAG(test, inherit_thread, 35, 1);
	ATTR_FLAG(test, remove_on_exec, 36, 1);
	ATTR_FLAG(test, sigtrap, 37, 1);
	ATTR_FLAG(test, __reserved_1, 38, 26);
}

#define ATTR_AUX(test, field, first, width)				\
	ABI_PROBE(test, attr, field, 116, 4,		\
		  first, width, ABI_NATIVE)

/* The AUX pause/resume bits share a u32 with aux_action. */
static void abi_attr_aux_action(struct kunit *test)
{
	ATTR_AUX(test, aux_start_paused, 0, 1);
	ATTR_AUX(test, aux_pause, 1, 1);
	ATTR_AUX(test, aux_resume, 2, 1);
	ATTR_AUX(test, __reserved_3, 3, 29);
	ATTR_AUX(test, aux_action, 0, 32);
}

#define PAGE_CAP(test, field, first, width)				\
	ABI_PROBE(test, page, field, 40, 8,	\
		  first, width, ABI_NATIVE)

/* Capability bits of the mmap page, overlaying capabilities. */
static void abi_mmap_page_caps(struct kunit *test)
{
	PAGE_CAP(test, cap_bit0, 0, 1);
	PAGE_CAP(test, cap_bit0_is_deprecated, 1, 1);
	PAGE_CAP(test, cap_user_rdpmc, 2, 1);
	PAGE_CAP(test, cap_user_time, 3, 1);
	PAGE_CAP(test, cap_user_time_zero, 4, 1);
	PAGE_CAP(test, cap_user_time_short, 5, 1);
	PAGE_CAP(test, cap_____res, 6, 58);
	PAGE_CAP(test, capabilities, 0, 64);
}

#define MEM_FIELD(test, field, shift, width)				\
	ABI_PROBE(test, src, field, 0, 8,		\
		  shift, width, ABI_BY_VALUE)

/*
 * perf_mem_data_src is declared per byte order so that each field sits
 * at the same bits of .val everywhere; those bits are the *_SHIFT macros.
 */
static void abi_mem_data_src(struct kunit *test)
{
	union perf_mem_data_src src = {};

	MEM_FIELD(test, mem_op, PERF_MEM_OP_SHIFT, 5);
	MEM_FIELD(test, mem_lvl, PERF_MEM_LVL_SHIFT, 14);
	MEM_FIELD(test, mem_snoop, PERF_MEM_SNOOP_SHIFT, 5);
	MEM_FIELD(test, mem_lock, PERF_MEM_LOCK_SHIFT, 2);
	MEM_FIELD(test, mem_dtlb, PERF_MEM_TLB_SHIFT, 7);
	MEM_FIELD(test, mem_lvl_num, PERF_MEM_LVLNUM_SHIFT, 4);
	MEM_FIELD(test, mem_remote, PERF_MEM_REMOTE_SHIFT, 1);
	MEM_FIELD(test, mem_snoopx, PERF_MEM_SNOOPX_SHIFT, 2);
	MEM_FIELD(test, mem_blk, PERF_MEM_BLK_SHIFT, 3);
	MEM_FIELD(test, mem_hops, PERF_MEM_HOPS_SHIFT, 3);
	MEM_FIELD(test, mem_rsvd, 46, 18);

	/* PERF_MEM_S() must agree with the bitfields. */
	src.mem_op = PERF_MEM_OP_LOAD;
	src.mem_lvl = PERF_MEM_LVL_HIT | PERF_MEM_LVL_L2;
	src.mem_snoop = PERF_MEM_SNOOP_HITM;
	src.mem_lock = PERF_MEM_LOCK_LOCKED;
	src.mem_dtlb = PERF_MEM_TLB_OS;
	src.mem_lvl_num = PERF_MEM_LVLNUM_PMEM;
	src.mem_remote = PERF_MEM_REMOTE_REMOTE;
	src.mem_snoopx = PERF_MEM_SNOOPX_PEER;
	src.mem_blk = PERF_MEM_BLK_ADDR;
	src.mem_hops = PERF_MEM_HOPS_3;
	KUNIT_EXPECT_EQ(test, src.val,
			PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) |
			PERF_MEM_S(LVL, L2) | PERF_MEM_S(SNOOP, HITM) |
			PERF_MEM_S(LOCK, LOCKED) | PERF_MEM_S(TLB, OS) |
			PERF_MEM_S(LVLNUM, PMEM) | PERF_MEM_S(REMOTE, REMOTE) |
			PERF_MEM_S(SNOOPX, PEER) | PERF_MEM_S(BLK, ADDR) |
			PERF_MEM_S(HOPS, 3));
}

#define BRANCH_BITS(test, field, first, width)				\
	ABI_PROBE(test, br, field, 16, 8,	\
		  first, width, ABI_NATIVE)

/* The info word of a branch stack entry, after from and to. */
static void abi_branch_entry(struct kunit *test)
{
	ABI_PROBE(test, br, from, 0, 8, 0, 64, ABI_NATIVE);
	ABI_PROBE(test, br, to, 8, 8, 0, 64, ABI_NATIVE);
	BRANCH_BITS(test, mispred, 0, 1);
	BRANCH_BITS(test, predicted, 1, 1);
	BRANCH_BITS(test, in_tx, 2, 1);
	BRANCH_BITS(test, abort, 3, 1);
	BRANCH_BITS(test, cycles, 4, 16);
	BRANCH_BITS(test, type, 20, 4);
	BRANCH_BITS(test, spec, 24, 2);
	BRANCH_BITS(test, new_type, 26, 4);
	BRANCH_BITS(test, priv, 30, 3);
	BRANCH_BITS(test, reserved, 33, 31);
}

/* One ioctl request and what its number must encode. */
struct abi_ioc_case {
	const char *name;
	unsigned int cmd;
	unsigned int dir;
	unsigned int nr;
	unsigned int size;
	unsigned int lp64;	/* the number on LP64 asm-generic ioctl ABIs */
};

#define ABI_IOC(req, d, n, s, v) \
	{ #req, req, d, n, s, v }

static const struct abi_ioc_case abi_ioc_cases[] = {
	ABI_IOC(PERF_EVENT_IOC_ENABLE, _IOC_NONE, 0, 0, 0x2400),
	ABI_IOC(PERF_EVENT_IOC_DISABLE, _IOC_NONE, 1, 0, 0x2401),
	ABI_IOC(PERF_EVENT_IOC_REFRESH, _IOC_NONE, 2, 0, 0x2402),
	ABI_IOC(PERF_EVENT_IOC_RESET, _IOC_NONE, 3, 0, 0x2403),
	ABI_IOC(PERF_EVENT_IOC_PERIOD, _IOC_WRITE, 4, sizeof(u64),
		0x40082404),
	ABI_IOC(PERF_EVENT_IOC_SET_OUTPUT, _IOC_NONE, 5, 0, 0x2405),
	ABI_IOC(PERF_EVENT_IOC_SET_FILTER, _IOC_WRITE, 6, sizeof(void *),
		0x40082406),
	ABI_IOC(PERF_EVENT_IOC_ID, _IOC_READ, 7, sizeof(void *),
		0x80082407),
	ABI_IOC(PERF_EVENT_IOC_SET_BPF, _IOC_WRITE, 8, sizeof(u32),
		0x40042408),
	ABI_IOC(PERF_EVENT_IOC_PAUSE_OUTPUT, _IOC_WRITE, 9, sizeof(u32),
		0x40042409),
	ABI_IOC(PERF_EVENT_IOC_QUERY_BPF, _IOC_READ | _IOC_WRITE, 10,
		sizeof(void *), 0xc008240a),
	ABI_IOC(PERF_EVENT_IOC_MODIFY_ATTRIBUTES, _IOC_WRITE, 11,
		sizeof(void *), 0x4008240b),
};

/*
 * Decode every request number; where the architecture uses the generic
 * 64-bit encoding (x86_64, arm64, ...), also compare the raw number.
 */
static void abi_ioctl_numbers(struct kunit *test)
{
	bool generic = IS_ENABLED(CONFIG_64BIT) && _IOC_NONE == 0 &&
		       _IOC_WRITE == 1 && _IOC_READ == 2 &&
		       _IOC_SIZESHIFT == 16 && _IOC_DIRSHIFT == 30;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(abi_ioc_cases); i++) {
		const struct abi_ioc_case *c = &abi_ioc_cases[i];

		KUNIT_EXPECT_EQ_MSG(test, _IOC_TYPE(c->cmd), '$', "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, _IOC_NR(c->cmd), c->nr, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, _IOC_DIR(c->cmd), c->dir, "%s",
				    c->name);
		KUNIT_EXPECT_EQ_MSG(test, _IOC_SIZE(c->cmd), c->size, "%s",
				    c->name);
		if (generic)
			KUNIT_EXPECT_EQ_MSG(test, c->cmd, c->lp64, "%s",
					    c->name);
	}
	KUNIT_EXPECT_EQ(test, PERF_IOC_FLAG_GROUP, 1);
}

static struct kunit_case perfcore_abi_cases[] = {
	KUNIT_CASE(abi_attr_flags),
	KUNIT_CASE(abi_attr_aux_action),
	KUNIT_CASE(abi_mmap_page_caps),
	KUNIT_CASE(abi_mem_data_src),
	KUNIT_CASE(abi_branch_entry),
	KUNIT_CASE(abi_ioctl_numbers),
	{}
};

static struct kunit_suite perfcore_abi_suite = {
	.name = "perfcore_abi",
	.test_cases = perfcore_abi_cases,
};

kunit_test_suite(perfcore_abi_suite);

MODULE_DESCRIPTION("perfcore: perf_events ABI layout tests");
MODULE_LICENSE("GPL");
