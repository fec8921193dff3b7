/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perf_event.h - the user/kernel contract of perf_event_open(2)
 *
 * This header is an ABI: every number, every bit position and every
 * structure offset below is frozen, because binaries built against any
 * older or newer copy exchange these values with the running kernel.
 * The comments are perfcore's own; the layout is the one Linux ships.
 *
 * Map of the file:
 *   1. what to count:      event types and the generic event ids
 *   2. how to count:       struct perf_event_attr and its size versions
 *   3. what a sample holds: sample_type, branch filters, read_format
 *   4. controlling an fd:  ioctls and perf_event_open() flags
 *   5. the shared page:    struct perf_event_mmap_page
 *   6. the ring buffer:    record header, misc bits, record types
 *   7. payload encodings:  callchain markers, AUX flags, memory data
 *                          source, branch entries, weights, transactions
 */
#ifndef _UAPI_LINUX_PERF_EVENT_H
#define _UAPI_LINUX_PERF_EVENT_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <asm/byteorder.h>

/*
 * 1. What to count
 * ================
 *
 * perf_event_attr.type names the PMU that interprets attr.config.  The
 * fixed ids below are the generic PMUs; dynamically registered PMUs get
 * larger ids, published in sysfs.
 */
enum perf_type_id {
	PERF_TYPE_HARDWARE			= 0,	/* config: perf_hw_id */
	PERF_TYPE_SOFTWARE			= 1,	/* config: perf_sw_ids */
	PERF_TYPE_TRACEPOINT			= 2,	/* config: tracepoint id */
	PERF_TYPE_HW_CACHE			= 3,	/* config: cache triple */
	PERF_TYPE_RAW				= 4,	/* config: PMU specific */
	PERF_TYPE_BREAKPOINT			= 5,	/* bp_* fields */

	PERF_TYPE_MAX,					/* end of fixed ids */
};

/*
 * With PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE, the upper half of
 * attr.config may carry the type id of one specific PMU (useful on
 * systems with several CPU PMUs); the lower half holds the event.
 */
#define PERF_PMU_TYPE_SHIFT		32
#define PERF_HW_EVENT_MASK		0xffffffff

/* Generic hardware events, mapped by each CPU PMU driver. */
enum perf_hw_id {
	PERF_COUNT_HW_CPU_CYCLES		= 0,
	PERF_COUNT_HW_INSTRUCTIONS		= 1,
	PERF_COUNT_HW_CACHE_REFERENCES		= 2,
	PERF_COUNT_HW_CACHE_MISSES		= 3,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_HW_BRANCH_MISSES		= 5,
	PERF_COUNT_HW_BUS_CYCLES		= 6,
	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND	= 7,
	PERF_COUNT_HW_STALLED_CYCLES_BACKEND	= 8,
	PERF_COUNT_HW_REF_CPU_CYCLES		= 9,

	PERF_COUNT_HW_MAX,
};

/*
 * PERF_TYPE_HW_CACHE events are a triple packed into attr.config:
 *   bits  0..7   which cache (perf_hw_cache_id)
 *   bits  8..15  which operation (perf_hw_cache_op_id)
 *   bits 16..23  which outcome (perf_hw_cache_op_result_id)
 */
enum perf_hw_cache_id {
	PERF_COUNT_HW_CACHE_L1D			= 0,
	PERF_COUNT_HW_CACHE_L1I			= 1,
	PERF_COUNT_HW_CACHE_LL			= 2,
	PERF_COUNT_HW_CACHE_DTLB		= 3,
	PERF_COUNT_HW_CACHE_ITLB		= 4,
	PERF_COUNT_HW_CACHE_BPU			= 5,
	PERF_COUNT_HW_CACHE_NODE		= 6,

	PERF_COUNT_HW_CACHE_MAX,
};

enum perf_hw_cache_op_id {
	PERF_COUNT_HW_CACHE_OP_READ		= 0,
	PERF_COUNT_HW_CACHE_OP_WRITE		= 1,
	PERF_COUNT_HW_CACHE_OP_PREFETCH		= 2,

	PERF_COUNT_HW_CACHE_OP_MAX,
};

enum perf_hw_cache_op_result_id {
	PERF_COUNT_HW_CACHE_RESULT_ACCESS	= 0,
	PERF_COUNT_HW_CACHE_RESULT_MISS		= 1,

	PERF_COUNT_HW_CACHE_RESULT_MAX,
};

/* Events the kernel counts itself, without any PMU hardware. */
enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK			= 0,	/* hrtimer, per cpu */
	PERF_COUNT_SW_TASK_CLOCK		= 1,	/* hrtimer, per task */
	PERF_COUNT_SW_PAGE_FAULTS		= 2,
	PERF_COUNT_SW_CONTEXT_SWITCHES		= 3,
	PERF_COUNT_SW_CPU_MIGRATIONS		= 4,
	PERF_COUNT_SW_PAGE_FAULTS_MIN		= 5,	/* no I/O needed */
	PERF_COUNT_SW_PAGE_FAULTS_MAJ		= 6,	/* I/O needed */
	PERF_COUNT_SW_ALIGNMENT_FAULTS		= 7,
	PERF_COUNT_SW_EMULATION_FAULTS		= 8,
	PERF_COUNT_SW_DUMMY			= 9,	/* never counts */
	PERF_COUNT_SW_BPF_OUTPUT		= 10,	/* bpf_perf_event_output() */
	PERF_COUNT_SW_CGROUP_SWITCHES		= 11,	/* cgroup changes on switch */

	PERF_COUNT_SW_MAX,
};

/*
 * 2. How to count
 * ===============
 *
 * Userspace passes attr.size = the size of the struct it was built with;
 * the kernel accepts any of the sizes below (and larger ones whose
 * unknown tail is zero).  Each VERn is the size at which a generation
 * of the struct ends, i.e. the offset just past its last new field:
 *   VER0  64  the original struct, up to config1
 *   VER1  72  + config2
 *   VER2  80  + branch_sample_type
 *   VER3  96  + sample_regs_user, sample_stack_user, clockid
 *   VER4 104  + sample_regs_intr
 *   VER5 112  + aux_watermark, sample_max_stack, __reserved_2
 *   VER6 120  + aux_sample_size, aux_action
 *   VER7 128  + sig_data
 *   VER8 136  + config3
 */
#define PERF_ATTR_SIZE_VER0	64
#define PERF_ATTR_SIZE_VER1	72
#define PERF_ATTR_SIZE_VER2	80
#define PERF_ATTR_SIZE_VER3	96
#define PERF_ATTR_SIZE_VER4	104
#define PERF_ATTR_SIZE_VER5	112
#define PERF_ATTR_SIZE_VER6	120
#define PERF_ATTR_SIZE_VER7	128
#define PERF_ATTR_SIZE_VER8	136

/*
 * struct perf_event_attr - the argument of perf_event_open(2)
 *
 * All reserved fields and bits must be zero; the kernel rejects
 * anything it does not understand rather than ignoring it.
 */
struct perf_event_attr {
	__u32	type;		/* perf_type_id or a dynamic PMU id */
	__u32	size;		/* sizeof() as the caller knows it */
	__u64	config;		/* event selector, meaning set by type */

	union {			/* interval between samples: */
		__u64	sample_period;	/* ... in events, or */
		__u64	sample_freq;	/* ... as a rate in Hz (freq=1) */
	};

	__u64	sample_type;	/* PERF_SAMPLE_* bits: sample content */
	__u64	read_format;	/* PERF_FORMAT_* bits: read() layout */

	/* Boolean and small options, packed low bit first. */
	__u64	disabled       :  1, /* created stopped */
		inherit	       :  1, /* follow into new children */
		pinned	       :  1, /* must always be on the PMU */
		exclusive      :  1, /* group wants the PMU to itself */
		exclude_user   :  1, /* skip user mode */
		exclude_kernel :  1, /* skip kernel mode */
		exclude_hv     :  1, /* skip hypervisor */
		exclude_idle   :  1, /* skip the idle task */
		mmap	       :  1, /* emit MMAP records (exec maps) */
		comm	       :  1, /* emit COMM records */
		freq	       :  1, /* sample_freq rather than period */
		inherit_stat   :  1, /* per-task totals for inherited */
		enable_on_exec :  1, /* start at the next exec() */
		task	       :  1, /* emit FORK/EXIT records */
		watermark      :  1, /* wake by bytes, not events */
		/*
		 * Skid the caller can accept: 0 any, 1 constant,
		 * 2 asked to be 0, 3 must be 0.
		 */
		precise_ip     :  2,
		mmap_data      :  1, /* MMAP records for data maps too */
		sample_id_all  :  1, /* sample_id trailer on all records */

		exclude_host   :  1, /* skip when running the host */
		exclude_guest  :  1, /* skip when running a guest */

		exclude_callchain_kernel : 1, /* no kernel frames */
		exclude_callchain_user   : 1, /* no user frames */
		mmap2	       :  1, /* MMAP2 records with inode data */
		comm_exec      :  1, /* mark COMM records caused by exec */
		use_clockid    :  1, /* timestamps from clockid */
		context_switch :  1, /* emit SWITCH records */
		write_backward :  1, /* ring buffer written top down */
		namespaces     :  1, /* emit NAMESPACES records */
		ksymbol	       :  1, /* emit KSYMBOL records */
		bpf_event      :  1, /* emit BPF_EVENT records */
		aux_output     :  1, /* output into leader's AUX */
		cgroup	       :  1, /* emit CGROUP records */
		text_poke      :  1, /* emit TEXT_POKE records */
		build_id       :  1, /* MMAP2 carries a build id */
		inherit_thread :  1, /* inherit to threads only */
		remove_on_exec :  1, /* drop the event at exec() */
		sigtrap	       :  1, /* SIGTRAP on every overflow */
		__reserved_1   : 26;

	union {			/* when to wake poll()ers: */
		__u32	wakeup_events;	  /* every N records, or */
		__u32	wakeup_watermark; /* every N bytes (watermark=1) */
	};

	__u32	bp_type;	/* HW_BREAKPOINT_* access kind */
	union {			/* first config extension */
		__u64	bp_addr;	/* breakpoint address */
		__u64	kprobe_func;	/* kprobe PMU: symbol name */
		__u64	uprobe_path;	/* uprobe PMU: binary path */
		__u64	config1;	/* PMU specific */
	};
	union {			/* second config extension */
		__u64	bp_len;		/* breakpoint length */
		__u64	kprobe_addr;	/* kprobe PMU: address or NULL */
		__u64	probe_offset;	/* probe PMU: offset in symbol/file */
		__u64	config2;	/* PMU specific */
	};

	__u64	branch_sample_type;	/* PERF_SAMPLE_BRANCH_* filter */

	__u64	sample_regs_user;	/* user registers to dump (arch mask) */
	__u32	sample_stack_user;	/* user stack bytes to dump */

	__s32	clockid;		/* clock used when use_clockid=1 */

	__u64	sample_regs_intr;	/* registers at the interrupt */

	__u32	aux_watermark;		/* AUX bytes between wakeups */
	__u16	sample_max_stack;	/* callchain depth limit */
	__u16	__reserved_2;
	__u32	aux_sample_size;	/* AUX bytes copied into a sample */

	union {				/* AUX tracing control: */
		__u32	aux_action;
		struct {
			__u32	aux_start_paused :  1, /* created paused */
				aux_pause	 :  1, /* overflow pauses */
				aux_resume	 :  1, /* overflow resumes */
				__reserved_3	 : 29;
		};
	};

	__u64	sig_data;		/* si_perf value for sigtrap */

	__u64	config3;		/* third config extension */
};

/*
 * 3. What a sample holds
 * ======================
 *
 * sample_type bits.  Each set bit adds one item to PERF_RECORD_SAMPLE,
 * in the fixed order listed above enum perf_event_type.
 */
enum perf_event_sample_format {
	PERF_SAMPLE_IP				= 1U << 0,
	PERF_SAMPLE_TID				= 1U << 1,
	PERF_SAMPLE_TIME			= 1U << 2,
	PERF_SAMPLE_ADDR			= 1U << 3,
	PERF_SAMPLE_READ			= 1U << 4,
	PERF_SAMPLE_CALLCHAIN			= 1U << 5,
	PERF_SAMPLE_ID				= 1U << 6,
	PERF_SAMPLE_CPU				= 1U << 7,
	PERF_SAMPLE_PERIOD			= 1U << 8,
	PERF_SAMPLE_STREAM_ID			= 1U << 9,
	PERF_SAMPLE_RAW				= 1U << 10,
	PERF_SAMPLE_BRANCH_STACK		= 1U << 11,
	PERF_SAMPLE_REGS_USER			= 1U << 12,
	PERF_SAMPLE_STACK_USER			= 1U << 13,
	PERF_SAMPLE_WEIGHT			= 1U << 14,
	PERF_SAMPLE_DATA_SRC			= 1U << 15,
	PERF_SAMPLE_IDENTIFIER			= 1U << 16,
	PERF_SAMPLE_TRANSACTION			= 1U << 17,
	PERF_SAMPLE_REGS_INTR			= 1U << 18,
	PERF_SAMPLE_PHYS_ADDR			= 1U << 19,
	PERF_SAMPLE_AUX				= 1U << 20,
	PERF_SAMPLE_CGROUP			= 1U << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE		= 1U << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE		= 1U << 23,
	PERF_SAMPLE_WEIGHT_STRUCT		= 1U << 24,

	PERF_SAMPLE_MAX = 1U << 25,		/* first unused bit */
};

/* The two weight flavours are exclusive; this masks either. */
#define PERF_SAMPLE_WEIGHT_TYPE	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * branch_sample_type: which taken branches the branch stack keeps, and
 * what extra information each entry carries.  Bit numbers first, masks
 * after.  If none of USER/KERNEL/HV is set, the event's own exclude_*
 * settings decide the privilege levels.
 */
enum perf_branch_sample_type_shift {
	PERF_SAMPLE_BRANCH_USER_SHIFT		= 0,	/* user-mode targets */
	PERF_SAMPLE_BRANCH_KERNEL_SHIFT		= 1,	/* kernel targets */
	PERF_SAMPLE_BRANCH_HV_SHIFT		= 2,	/* hypervisor targets */

	PERF_SAMPLE_BRANCH_ANY_SHIFT		= 3,	/* every branch kind */
	PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT	= 4,	/* calls of any kind */
	PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT	= 5,	/* returns of any kind */
	PERF_SAMPLE_BRANCH_IND_CALL_SHIFT	= 6,	/* indirect calls */
	PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT	= 7,	/* aborted transactions */
	PERF_SAMPLE_BRANCH_IN_TX_SHIFT		= 8,	/* inside a transaction */
	PERF_SAMPLE_BRANCH_NO_TX_SHIFT		= 9,	/* outside transactions */
	PERF_SAMPLE_BRANCH_COND_SHIFT		= 10,	/* conditional */

	PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT	= 11,	/* as a call stack */
	PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT	= 12,	/* indirect jumps */
	PERF_SAMPLE_BRANCH_CALL_SHIFT		= 13,	/* direct calls */

	PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT	= 14,	/* omit flag bits */
	PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT	= 15,	/* omit cycle counts */

	PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT	= 16,	/* fill entry.type */

	PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT	= 17,	/* emit hw_idx */

	PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT	= 18,	/* fill entry.priv */

	PERF_SAMPLE_BRANCH_COUNTERS_SHIFT	= 19,	/* per-branch counts */

	PERF_SAMPLE_BRANCH_MAX_SHIFT		/* first unused bit */
};

enum perf_branch_sample_type {
	PERF_SAMPLE_BRANCH_USER		= 1U << PERF_SAMPLE_BRANCH_USER_SHIFT,
	PERF_SAMPLE_BRANCH_KERNEL	= 1U << PERF_SAMPLE_BRANCH_KERNEL_SHIFT,
	PERF_SAMPLE_BRANCH_HV		= 1U << PERF_SAMPLE_BRANCH_HV_SHIFT,

	PERF_SAMPLE_BRANCH_ANY		= 1U << PERF_SAMPLE_BRANCH_ANY_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_CALL	= 1U << PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_RETURN	= 1U << PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
	PERF_SAMPLE_BRANCH_IND_CALL	= 1U << PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ABORT_TX	= 1U << PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT,
	PERF_SAMPLE_BRANCH_IN_TX	= 1U << PERF_SAMPLE_BRANCH_IN_TX_SHIFT,
	PERF_SAMPLE_BRANCH_NO_TX	= 1U << PERF_SAMPLE_BRANCH_NO_TX_SHIFT,
	PERF_SAMPLE_BRANCH_COND		= 1U << PERF_SAMPLE_BRANCH_COND_SHIFT,

	PERF_SAMPLE_BRANCH_CALL_STACK	= 1U << PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT,
	PERF_SAMPLE_BRANCH_IND_JUMP	= 1U << PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
	PERF_SAMPLE_BRANCH_CALL		= 1U << PERF_SAMPLE_BRANCH_CALL_SHIFT,

	PERF_SAMPLE_BRANCH_NO_FLAGS	= 1U << PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT,
	PERF_SAMPLE_BRANCH_NO_CYCLES	= 1U << PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT,

	PERF_SAMPLE_BRANCH_TYPE_SAVE	=
		1U << PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_HW_INDEX	= 1U << PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT,

	PERF_SAMPLE_BRANCH_PRIV_SAVE	= 1U << PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_COUNTERS	= 1U << PERF_SAMPLE_BRANCH_COUNTERS_SHIFT,

	PERF_SAMPLE_BRANCH_MAX		= 1U << PERF_SAMPLE_BRANCH_MAX_SHIFT,
};

/* The privilege-level part of branch_sample_type. */
#define PERF_SAMPLE_BRANCH_PLM_ALL		\
	(PERF_SAMPLE_BRANCH_USER |		\
	 PERF_SAMPLE_BRANCH_KERNEL |		\
	 PERF_SAMPLE_BRANCH_HV)

/*
 * The ABI of the registers dumped for PERF_SAMPLE_REGS_USER/INTR, given
 * in front of the dump (NONE: nothing follows, e.g. a kernel thread).
 */
enum perf_sample_regs_abi {
	PERF_SAMPLE_REGS_ABI_NONE		= 0,
	PERF_SAMPLE_REGS_ABI_32			= 1,
	PERF_SAMPLE_REGS_ABI_64			= 2,
};

/*
 * read_format bits: what read() on the fd (and PERF_SAMPLE_READ) return.
 * Without GROUP:  { value; [time_enabled]; [time_running]; [id]; [lost] }
 * With GROUP:     { nr; [time_enabled]; [time_running];
 *                   nr * { value; [id]; [lost] } }
 */
enum perf_event_read_format {
	PERF_FORMAT_TOTAL_TIME_ENABLED		= 1U << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING		= 1U << 1,
	PERF_FORMAT_ID				= 1U << 2,
	PERF_FORMAT_GROUP			= 1U << 3,
	PERF_FORMAT_LOST			= 1U << 4,

	PERF_FORMAT_MAX = 1U << 5,		/* first unused bit */
};

/*
 * 4. Controlling an event fd
 * ==========================
 *
 * Argument of PERF_EVENT_IOC_QUERY_BPF: the caller sets ids_len to the
 * room in ids[]; the kernel fills prog_cnt and up to ids_len ids of the
 * BPF programs attached to the (tracepoint) event.
 */
struct perf_event_query_bpf {
	__u32	ids_len;
	__u32	prog_cnt;
	__u32	ids[];
};

/* ioctl() requests on an event fd; all use the '$' magic. */
#define PERF_EVENT_IOC_ENABLE			_IO('$', 0)
#define PERF_EVENT_IOC_DISABLE			_IO('$', 1)
#define PERF_EVENT_IOC_REFRESH			_IO('$', 2)	/* arg: overflows left */
#define PERF_EVENT_IOC_RESET			_IO('$', 3)
#define PERF_EVENT_IOC_PERIOD			_IOW('$', 4, __u64)
#define PERF_EVENT_IOC_SET_OUTPUT		_IO('$', 5)	/* arg: target fd */
#define PERF_EVENT_IOC_SET_FILTER		_IOW('$', 6, char *)
#define PERF_EVENT_IOC_ID			_IOR('$', 7, __u64 *)
#define PERF_EVENT_IOC_SET_BPF			_IOW('$', 8, __u32)
#define PERF_EVENT_IOC_PAUSE_OUTPUT		_IOW('$', 9, __u32)
#define PERF_EVENT_IOC_QUERY_BPF		_IOWR('$', 10, struct perf_event_query_bpf *)
#define PERF_EVENT_IOC_MODIFY_ATTRIBUTES	_IOW('$', 11, struct perf_event_attr *)

/* Argument of ENABLE/DISABLE/RESET/REFRESH: act on the whole group. */
enum perf_event_ioc_flags {
	PERF_IOC_FLAG_GROUP		= 1U << 0,
};

/* The flags argument of perf_event_open(). */
#define PERF_FLAG_FD_NO_GROUP		(1UL << 0)	/* group_fd ignored */
#define PERF_FLAG_FD_OUTPUT		(1UL << 1)	/* output to group_fd */
#define PERF_FLAG_PID_CGROUP		(1UL << 2)	/* pid is a cgroup fd */
#define PERF_FLAG_FD_CLOEXEC		(1UL << 3)	/* O_CLOEXEC on the fd */

/*
 * 5. The shared page
 * ==================
 *
 * struct perf_event_mmap_page - first page of an event's mmap()
 *
 * The first part is a self-monitoring snapshot written by the kernel
 * under a sequence count: readers retry while @lock changes.  The last
 * part (from offset 1024) describes the data and AUX ring buffers; the
 * reader owns the *_tail words and the kernel the *_head words.
 */
struct perf_event_mmap_page {
	__u32	version;		/* layout version */
	__u32	compat_version;		/* oldest compatible layout */

	/*
	 * Self-monitoring snapshot.  With cap_user_rdpmc, user space can
	 * read the counter itself: count = offset + rdpmc(index - 1),
	 * sign-extended from pmc_width bits; index 0 means not running.
	 */
	__u32	lock;			/* seqcount over this section */
	__u32	index;			/* hw counter + 1, or 0 */
	__s64	offset;			/* add to the hw counter value */
	__u64	time_enabled;		/* ns enabled, when last updated */
	__u64	time_running;		/* ns on the PMU, when last updated */
	union {
		__u64	capabilities;
		struct {
			__u64	cap_bit0		: 1, /* always 0 */
				cap_bit0_is_deprecated	: 1, /* always 1 */

				cap_user_rdpmc		: 1, /* rdpmc usable */
				cap_user_time		: 1, /* time_* valid */
				cap_user_time_zero	: 1, /* time_zero valid */
				cap_user_time_short	: 1, /* time_cycles valid */
				cap_____res		: 58;
		};
	};

	__u16	pmc_width;		/* valid bits of a rdpmc value */

	/*
	 * Converting timestamp counter (TSC) cycles to perf time:
	 *   ns = time_offset + ((cyc * time_mult) >> time_shift)
	 * time_zero is the same for the clock's zero point; with
	 * cap_user_time_short the counter is first widened using
	 * time_cycles and time_mask.
	 */
	__u16	time_shift;
	__u32	time_mult;
	__u64	time_offset;
	__u64	time_zero;

	__u32	size;			/* bytes valid up to here */
	__u32	__reserved_1;

	__u64	time_cycles;		/* base for short counters */
	__u64	time_mask;		/* width mask for short counters */

	/* Pads the header so the ring-buffer words start at 1024. */
	__u8	__reserved[116 * 8];

	/*
	 * Data ring buffer.  data_head only grows; read it, then issue a
	 * read barrier before reading records.  Write data_tail after a
	 * full barrier to return the space (non-overwrite mode only).
	 */
	__u64   data_head;		/* kernel's write position */
	__u64	data_tail;		/* reader's read position */
	__u64	data_offset;		/* start of the buffer in the mapping */
	__u64	data_size;		/* buffer length */

	/*
	 * AUX area: the caller chooses aux_offset/aux_size (outside the
	 * data buffer) and maps it with a second mmap(); head/tail work
	 * as for the data buffer.
	 */
	__u64	aux_head;
	__u64	aux_tail;
	__u64	aux_offset;
	__u64	aux_size;
};

/*
 * 6. The ring buffer
 * ==================
 *
 * Every record starts with struct perf_event_header; header.misc holds
 * the CPU mode the record refers to in its low three bits, plus flags
 * whose meaning depends on the record type (hence the shared bits).
 */
#define PERF_RECORD_MISC_CPUMODE_MASK		(7 << 0)
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	(0 << 0)
#define PERF_RECORD_MISC_KERNEL			(1 << 0)
#define PERF_RECORD_MISC_USER			(2 << 0)
#define PERF_RECORD_MISC_HYPERVISOR		(3 << 0)
#define PERF_RECORD_MISC_GUEST_KERNEL		(4 << 0)
#define PERF_RECORD_MISC_GUEST_USER		(5 << 0)

/* Synthesized MMAP: /proc/PID/maps parsing gave up early. */
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)

/* Bit 13, by record type: */
#define PERF_RECORD_MISC_MMAP_DATA		(1 << 13) /* MMAP: data map */
#define PERF_RECORD_MISC_COMM_EXEC		(1 << 13) /* COMM: from exec */
#define PERF_RECORD_MISC_FORK_EXEC		(1 << 13) /* FORK: from exec */
#define PERF_RECORD_MISC_SWITCH_OUT		(1 << 13) /* SWITCH: going out */

/* Bit 14, by record type: */
#define PERF_RECORD_MISC_EXACT_IP		(1 << 14) /* SAMPLE: ip exact */
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	(1 << 14) /* SWITCH: preempted */
#define PERF_RECORD_MISC_MMAP_BUILD_ID		(1 << 14) /* MMAP2: build id */

/* Kept back for a future misc extension. */
#define PERF_RECORD_MISC_EXT_RESERVED		(1 << 15)

struct perf_event_header {
	__u32	type;			/* enum perf_event_type */
	__u16	misc;			/* PERF_RECORD_MISC_* */
	__u16	size;			/* whole record, header included */
};

/* One namespace in a PERF_RECORD_NAMESPACES record. */
struct perf_ns_link_info {
	__u64	dev;
	__u64	ino;
};

/* Index of each namespace in that record's array. */
enum {
	NET_NS_INDEX		= 0,
	UTS_NS_INDEX		= 1,
	IPC_NS_INDEX		= 2,
	PID_NS_INDEX		= 3,
	USER_NS_INDEX		= 4,
	MNT_NS_INDEX		= 5,
	CGROUP_NS_INDEX		= 6,

	NR_NAMESPACES,
};

/*
 * Record types.  Below, "sample_id" is the trailer that sample_id_all
 * appends to non-sample records: the TID, TIME, ID, STREAM_ID, CPU and
 * IDENTIFIER items selected by sample_type, in that order.
 *
 *   MMAP           pid, tid, addr, len, pgoff, filename
 *   LOST           id, lost count
 *   COMM           pid, tid, comm
 *   EXIT, FORK     pid, ppid, tid, ptid, time
 *   THROTTLE,
 *   UNTHROTTLE     time, id, stream_id
 *   READ           pid, tid, read_format values
 *   SAMPLE         the sample_type items in this order (not bit
 *                  order): IDENTIFIER, IP, TID, TIME, ADDR, ID,
 *                  STREAM_ID, CPU, PERIOD, READ, CALLCHAIN, RAW,
 *                  BRANCH_STACK, REGS_USER, STACK_USER, WEIGHT or
 *                  WEIGHT_STRUCT, DATA_SRC, TRANSACTION, REGS_INTR,
 *                  PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE,
 *                  AUX
 *   MMAP2          MMAP plus device/inode or build id, prot, flags
 *   AUX            aux_offset, aux_size, PERF_AUX_FLAG_* flags
 *   ITRACE_START   pid, tid
 *   LOST_SAMPLES   lost count
 *   SWITCH         nothing (direction in misc)
 *   SWITCH_CPU_WIDE  next/prev pid and tid
 *   NAMESPACES     pid, tid, nr, perf_ns_link_info[nr]
 *   KSYMBOL        addr, len, ksym_type, flags, name
 *   BPF_EVENT      type, flags, id, tag
 *   CGROUP         id, path
 *   TEXT_POKE      addr, old_len, new_len, bytes
 *   AUX_OUTPUT_HW_ID  hw_id of the AUX source
 * Each is followed by sample_id when sample_id_all is set.
 */
enum perf_event_type {
	PERF_RECORD_MMAP			= 1,
	PERF_RECORD_LOST			= 2,
	PERF_RECORD_COMM			= 3,
	PERF_RECORD_EXIT			= 4,
	PERF_RECORD_THROTTLE			= 5,
	PERF_RECORD_UNTHROTTLE			= 6,
	PERF_RECORD_FORK			= 7,
	PERF_RECORD_READ			= 8,
	PERF_RECORD_SAMPLE			= 9,
	PERF_RECORD_MMAP2			= 10,
	PERF_RECORD_AUX				= 11,
	PERF_RECORD_ITRACE_START		= 12,
	PERF_RECORD_LOST_SAMPLES		= 13,
	PERF_RECORD_SWITCH			= 14,
	PERF_RECORD_SWITCH_CPU_WIDE		= 15,
	PERF_RECORD_NAMESPACES			= 16,
	PERF_RECORD_KSYMBOL			= 17,
	PERF_RECORD_BPF_EVENT			= 18,
	PERF_RECORD_CGROUP			= 19,
	PERF_RECORD_TEXT_POKE			= 20,
	PERF_RECORD_AUX_OUTPUT_HW_ID		= 21,

	PERF_RECORD_MAX,			/* first unused type */
};

/* PERF_RECORD_KSYMBOL: what kind of symbol appeared or went away. */
enum perf_record_ksymbol_type {
	PERF_RECORD_KSYMBOL_TYPE_UNKNOWN	= 0,
	PERF_RECORD_KSYMBOL_TYPE_BPF		= 1,
	PERF_RECORD_KSYMBOL_TYPE_OOL		= 2,	/* out-of-line code */
	PERF_RECORD_KSYMBOL_TYPE_MAX		/* first unused type */
};

/* PERF_RECORD_KSYMBOL flags: set when the symbol is removed. */
#define PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER	(1 << 0)

/* PERF_RECORD_BPF_EVENT: what happened to the program. */
enum perf_bpf_event_type {
	PERF_BPF_EVENT_UNKNOWN		= 0,
	PERF_BPF_EVENT_PROG_LOAD	= 1,
	PERF_BPF_EVENT_PROG_UNLOAD	= 2,
	PERF_BPF_EVENT_MAX,		/* first unused type */
};

/*
 * 7. Payload encodings
 * ====================
 *
 * Callchains: the default depth limit, and the most context markers
 * one chain may hold.  A marker is an entry whose value is one of the
 * huge numbers below (no real ip is that high); it says which context
 * the following entries belong to.
 */
#define PERF_MAX_STACK_DEPTH		127
#define PERF_MAX_CONTEXTS_PER_STACK	  8

enum perf_callchain_context {
	PERF_CONTEXT_HV			= (__u64)-32,
	PERF_CONTEXT_KERNEL		= (__u64)-128,
	PERF_CONTEXT_USER		= (__u64)-512,

	PERF_CONTEXT_GUEST		= (__u64)-2048,
	PERF_CONTEXT_GUEST_KERNEL	= (__u64)-2176,
	PERF_CONTEXT_GUEST_USER		= (__u64)-2560,

	PERF_CONTEXT_MAX		= (__u64)-4095,	/* lowest marker */
};

/* PERF_RECORD_AUX flags. */
#define PERF_AUX_FLAG_TRUNCATED			0x01	/* ran out of room */
#define PERF_AUX_FLAG_OVERWRITE			0x02	/* snapshot mode */
#define PERF_AUX_FLAG_PARTIAL			0x04	/* has gaps */
#define PERF_AUX_FLAG_COLLISION			0x08	/* sample overlap */
#define PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK	0xff00	/* PMU data format */

/* Data formats that CoreSight reports in that mask. */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT	0x0000 /* framed */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW		0x0100 /* unframed */

/*
 * union perf_mem_data_src - where a sampled memory access was served
 * (PERF_SAMPLE_DATA_SRC).  The value is defined by bit number, so on
 * big-endian bitfield ABIs the members are declared in reverse.
 *
 *   bits  0..4   mem_op      operation (PERF_MEM_OP_*)
 *   bits  5..18  mem_lvl     level, old one-hot form (PERF_MEM_LVL_*)
 *   bits 19..23  mem_snoop   snoop result (PERF_MEM_SNOOP_*)
 *   bits 24..25  mem_lock    locked access (PERF_MEM_LOCK_*)
 *   bits 26..32  mem_dtlb    TLB result (PERF_MEM_TLB_*)
 *   bits 33..36  mem_lvl_num level as a number (PERF_MEM_LVLNUM_*)
 *   bit  37      mem_remote  remote node (PERF_MEM_REMOTE_*)
 *   bits 38..39  mem_snoopx  extended snoop (PERF_MEM_SNOOPX_*)
 *   bits 40..42  mem_blk     why the access blocked (PERF_MEM_BLK_*)
 *   bits 43..45  mem_hops    interconnect hops (PERF_MEM_HOPS_*)
 *   bits 46..63  mem_rsvd    zero
 */
#if defined(__LITTLE_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64 val;
	struct {
		__u64   mem_op:5,
			mem_lvl:14,
			mem_snoop:5,
			mem_lock:2,
			mem_dtlb:7,
			mem_lvl_num:4,
			mem_remote:1,
			mem_snoopx:2,
			mem_blk:3,
			mem_hops:3,
			mem_rsvd:18;
	};
};
#elif defined(__BIG_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64 val;
	struct {
		__u64	mem_rsvd:18,
			mem_hops:3,
			mem_blk:3,
			mem_snoopx:2,
			mem_remote:1,
			mem_lvl_num:4,
			mem_dtlb:7,
			mem_lock:2,
			mem_snoop:5,
			mem_lvl:14,
			mem_op:5;
	};
};
#else
#error "Unknown endianness"
#endif

/* mem_op: one bit per kind of access. */
#define PERF_MEM_OP_NA		0x01	/* unknown */
#define PERF_MEM_OP_LOAD	0x02
#define PERF_MEM_OP_STORE	0x04
#define PERF_MEM_OP_PFETCH	0x08	/* prefetch */
#define PERF_MEM_OP_EXEC	0x10	/* instruction fetch */
#define PERF_MEM_OP_SHIFT	0

/*
 * mem_lvl: the older encoding, a hit/miss flag plus one bit per level.
 * New producers should also fill mem_lvl_num/mem_remote/mem_snoopx.
 */
#define PERF_MEM_LVL_NA		0x01	/* unknown */
#define PERF_MEM_LVL_HIT	0x02
#define PERF_MEM_LVL_MISS	0x04
#define PERF_MEM_LVL_L1		0x08
#define PERF_MEM_LVL_LFB	0x10	/* line fill buffer */
#define PERF_MEM_LVL_L2		0x20
#define PERF_MEM_LVL_L3		0x40
#define PERF_MEM_LVL_LOC_RAM	0x80	/* local DRAM */
#define PERF_MEM_LVL_REM_RAM1	0x100	/* DRAM one hop away */
#define PERF_MEM_LVL_REM_RAM2	0x200	/* DRAM two hops away */
#define PERF_MEM_LVL_REM_CCE1	0x400	/* remote cache, one hop */
#define PERF_MEM_LVL_REM_CCE2	0x800	/* remote cache, two hops */
#define PERF_MEM_LVL_IO		0x1000	/* I/O memory */
#define PERF_MEM_LVL_UNC	0x2000	/* uncached */
#define PERF_MEM_LVL_SHIFT	5

/* mem_remote: the level named in mem_lvl_num is on another node. */
#define PERF_MEM_REMOTE_REMOTE	0x01
#define PERF_MEM_REMOTE_SHIFT	37

/* mem_lvl_num: a plain number, not a bit mask. */
#define PERF_MEM_LVLNUM_L1	0x01
#define PERF_MEM_LVLNUM_L2	0x02
#define PERF_MEM_LVLNUM_L3	0x03
#define PERF_MEM_LVLNUM_L4	0x04
#define PERF_MEM_LVLNUM_L2_MHB	0x05	/* L2 miss handling buffer */
#define PERF_MEM_LVLNUM_MSC	0x06	/* memory-side cache */
/* 0x07 is unassigned */
#define PERF_MEM_LVLNUM_UNC	0x08	/* uncached */
#define PERF_MEM_LVLNUM_CXL	0x09	/* CXL-attached */
#define PERF_MEM_LVLNUM_IO	0x0a	/* I/O */
#define PERF_MEM_LVLNUM_ANY_CACHE 0x0b	/* some cache */
#define PERF_MEM_LVLNUM_LFB	0x0c	/* line fill buffer */
#define PERF_MEM_LVLNUM_RAM	0x0d	/* DRAM */
#define PERF_MEM_LVLNUM_PMEM	0x0e	/* persistent memory */
#define PERF_MEM_LVLNUM_NA	0x0f	/* unknown */

#define PERF_MEM_LVLNUM_SHIFT	33

/* mem_snoop: what the coherence snoop found. */
#define PERF_MEM_SNOOP_NA	0x01	/* unknown */
#define PERF_MEM_SNOOP_NONE	0x02	/* no snoop */
#define PERF_MEM_SNOOP_HIT	0x04	/* clean hit */
#define PERF_MEM_SNOOP_MISS	0x08
#define PERF_MEM_SNOOP_HITM	0x10	/* hit on a modified line */
#define PERF_MEM_SNOOP_SHIFT	19

/* mem_snoopx: snoop results that did not fit in mem_snoop. */
#define PERF_MEM_SNOOPX_FWD	0x01	/* forwarded by another cache */
#define PERF_MEM_SNOOPX_PEER	0x02	/* served by a peer cache */
#define PERF_MEM_SNOOPX_SHIFT  38

/* mem_lock: atomic/locked access. */
#define PERF_MEM_LOCK_NA	0x01	/* unknown */
#define PERF_MEM_LOCK_LOCKED	0x02
#define PERF_MEM_LOCK_SHIFT	24

/* mem_dtlb: translation outcome. */
#define PERF_MEM_TLB_NA		0x01	/* unknown */
#define PERF_MEM_TLB_HIT	0x02
#define PERF_MEM_TLB_MISS	0x04
#define PERF_MEM_TLB_L1		0x08
#define PERF_MEM_TLB_L2		0x10
#define PERF_MEM_TLB_WK		0x20	/* hardware page walker */
#define PERF_MEM_TLB_OS		0x40	/* software (OS) fault handler */
#define PERF_MEM_TLB_SHIFT	26

/* mem_blk: why the access was held up. */
#define PERF_MEM_BLK_NA		0x01	/* unknown */
#define PERF_MEM_BLK_DATA	0x02	/* data not ready */
#define PERF_MEM_BLK_ADDR	0x04	/* address conflict */
#define PERF_MEM_BLK_SHIFT	40

/* mem_hops: distance to the node that served it (a number). */
#define PERF_MEM_HOPS_0		0x01	/* same node, other core */
#define PERF_MEM_HOPS_1		0x02	/* another node, same socket */
#define PERF_MEM_HOPS_2		0x03	/* another socket */
#define PERF_MEM_HOPS_3		0x04	/* another board */
/* 0x05..0x07 are unassigned */
#define PERF_MEM_HOPS_SHIFT	43

/* Place value v of field f at its position, e.g. PERF_MEM_S(LVL, HIT). */
#define PERF_MEM_S(f, v) \
	(((__u64)PERF_MEM_##f##_##v) << PERF_MEM_##f##_SHIFT)

/*
 * struct perf_branch_entry - one taken branch of PERF_SAMPLE_BRANCH_STACK
 *
 * @from, @to: source and target addresses.  The third word packs, low
 * bit first: mispred/predicted (prediction outcome, both 0 if unknown),
 * in_tx/abort (transactional memory state), cycles (since the previous
 * entry, 0 if unknown), type (PERF_BR_*, with PERF_BR_EXTEND_ABI
 * meaning "see new_type"), spec (PERF_BR_SPEC_*), new_type
 * (PERF_BR_NEW_*) and priv (PERF_BR_PRIV_*).
 */
struct perf_branch_entry {
	__u64	from;
	__u64	to;
	__u64	mispred   :  1,
		predicted :  1,
		in_tx     :  1,
		abort     :  1,
		cycles    : 16,
		type      :  4,
		spec      :  2,
		new_type  :  4,
		priv      :  3,
		reserved  : 31;
};

/* Used bits in the third word of a branch entry. */
#define PERF_BRANCH_ENTRY_INFO_BITS_MAX		33

/* perf_branch_entry.type: the kind of control transfer. */
enum {
	PERF_BR_UNKNOWN		= 0,
	PERF_BR_COND		= 1,	/* conditional */
	PERF_BR_UNCOND		= 2,	/* unconditional */
	PERF_BR_IND		= 3,	/* indirect */
	PERF_BR_CALL		= 4,	/* function call */
	PERF_BR_IND_CALL	= 5,	/* indirect call */
	PERF_BR_RET		= 6,	/* function return */
	PERF_BR_SYSCALL		= 7,	/* system call */
	PERF_BR_SYSRET		= 8,	/* system call return */
	PERF_BR_COND_CALL	= 9,	/* conditional call */
	PERF_BR_COND_RET	= 10,	/* conditional return */
	PERF_BR_ERET		= 11,	/* exception return */
	PERF_BR_IRQ		= 12,	/* interrupt */
	PERF_BR_SERROR		= 13,	/* system error */
	PERF_BR_NO_TX		= 14,	/* not in a transaction */
	PERF_BR_EXTEND_ABI	= 15,	/* type is in new_type */
	PERF_BR_MAX,
};

/* perf_branch_entry.spec: was the branch on the executed path. */
enum {
	PERF_BR_SPEC_NA			= 0,	/* unknown */
	PERF_BR_SPEC_WRONG_PATH		= 1,	/* speculative, squashed */
	PERF_BR_NON_SPEC_CORRECT_PATH	= 2,	/* architectural */
	PERF_BR_SPEC_CORRECT_PATH	= 3,	/* speculative, kept */
	PERF_BR_SPEC_MAX,
};

/* perf_branch_entry.new_type: kinds added after type filled up. */
enum {
	PERF_BR_NEW_FAULT_ALGN		= 0,	/* alignment fault */
	PERF_BR_NEW_FAULT_DATA		= 1,	/* data fault */
	PERF_BR_NEW_FAULT_INST		= 2,	/* instruction fault */
	PERF_BR_NEW_ARCH_1		= 3,	/* ARCH_n: per architecture */
	PERF_BR_NEW_ARCH_2		= 4,
	PERF_BR_NEW_ARCH_3		= 5,
	PERF_BR_NEW_ARCH_4		= 6,
	PERF_BR_NEW_ARCH_5		= 7,
	PERF_BR_NEW_MAX,
};

/* perf_branch_entry.priv: privilege level of the branch target. */
enum {
	PERF_BR_PRIV_UNKNOWN	= 0,
	PERF_BR_PRIV_USER	= 1,
	PERF_BR_PRIV_KERNEL	= 2,
	PERF_BR_PRIV_HV		= 3,
};

/* What the per-architecture new_type slots mean on arm64. */
#define PERF_BR_ARM64_FIQ		PERF_BR_NEW_ARCH_1
#define PERF_BR_ARM64_DEBUG_HALT	PERF_BR_NEW_ARCH_2
#define PERF_BR_ARM64_DEBUG_EXIT	PERF_BR_NEW_ARCH_3
#define PERF_BR_ARM64_DEBUG_INST	PERF_BR_NEW_ARCH_4
#define PERF_BR_ARM64_DEBUG_DATA	PERF_BR_NEW_ARCH_5

/*
 * union perf_sample_weight - PERF_SAMPLE_WEIGHT(_STRUCT) payload
 *
 * With PERF_SAMPLE_WEIGHT the whole u64 is one cost (e.g. latency).
 * With PERF_SAMPLE_WEIGHT_STRUCT it splits into a 32-bit and two 16-bit
 * costs whose meaning depends on the PMU; var1_dw is always the low
 * half of the u64, hence the two declaration orders.
 */
union perf_sample_weight {
	__u64		full;
#if defined(__LITTLE_ENDIAN_BITFIELD)
	struct {
		__u32	var1_dw;
		__u16	var2_w;
		__u16	var3_w;
	};
#elif defined(__BIG_ENDIAN_BITFIELD)
	struct {
		__u16	var3_w;
		__u16	var2_w;
		__u32	var1_dw;
	};
#else
#error "Unknown endianness"
#endif
};

/*
 * PERF_SAMPLE_TRANSACTION: flags describing a transactional-memory
 * abort, with the abort code the hardware gave in the upper 32 bits.
 */
enum {
	PERF_TXN_ELISION        = (1 << 0), /* lock elision */
	PERF_TXN_TRANSACTION    = (1 << 1), /* explicit transaction */
	PERF_TXN_SYNC           = (1 << 2), /* caused by the instruction */
	PERF_TXN_ASYNC          = (1 << 3), /* caused by something else */
	PERF_TXN_RETRY          = (1 << 4), /* worth retrying */
	PERF_TXN_CONFLICT       = (1 << 5), /* conflict with another cpu */
	PERF_TXN_CAPACITY_WRITE = (1 << 6), /* write set overflowed */
	PERF_TXN_CAPACITY_READ  = (1 << 7), /* read set overflowed */

	PERF_TXN_MAX	        = (1 << 8), /* first unused flag */

	/* the abort code */
	PERF_TXN_ABORT_MASK  = (0xffffffffULL << 32),
	PERF_TXN_ABORT_SHIFT = 32,
};

#endif /* _UAPI_LINUX_PERF_EVENT_H */
