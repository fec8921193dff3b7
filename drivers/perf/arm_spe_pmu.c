// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm_spe: Arm's Statistical Profiling Extension as a perf PMU.
 *
 * SPE picks one operation in every N the CPU executes (N is the event's
 * sample period, PMSIRR_EL1), follows it through the pipeline and
 * writes a record of what it did (its PC, type, data address, latency,
 * events) to a buffer in memory, the profiling buffer, with no
 * interrupt per sample.  Here that buffer is the event's AUX area: the
 * hardware writes from PMBPTR_EL1 up to PMBLIMITR_EL1's limit, and
 * raises its interrupt (a PPI, "buffer management event") when it gets
 * there or faults; the driver then hands the bytes written to perf and
 * opens the next stretch of the AUX area.  perf's tools decode the
 * records (the format is the architecture's packets, which the driver
 * never parses).
 *
 * The file reads top to bottom as: register access (every access goes
 * through struct spe_hw_ops, so that a KUnit model can stand in for the
 * hardware), the event ABI (config fields, what they program, which
 * events are refused), the buffer (the stretch of the AUX area the
 * hardware may write next: spe_plan_window(), pure arithmetic), the
 * perf callbacks, the interrupt, and probing.
 *
 * Concurrency: there is nothing to lock.  An event is on one CPU at a
 * time; its pmu callbacks run there with interrupts disabled, and the
 * buffer's interrupt is that CPU's PPI, so the per-CPU output handle
 * (spe_pmu->handle) and the CPU's SPE registers are only touched by the
 * CPU they belong to, with interrupts off.
 *
 * What it refuses, as stock does: a frequency (EINVAL: nothing counts
 * samples the driver could steer by), exclude_idle, event-filter bits
 * the CPU's SPE version leaves RES0, and filters the CPU lacks
 * (EOPNOTSUPP); physical addresses and physical timestamps need
 * perf_allow_kernel().  Contexts (PMSCR_EL1.CX) go into records only
 * with PID_IN_CONTEXTIDR and for a caller allowed kernel profiling.
 */
#define pr_fmt(fmt) "arm_spe_pmu: " fmt

#include <linux/bitfield.h>
#include <linux/capability.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/perf/arm_pmu.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/mmu.h>
#include <asm/cpufeature.h>
#include <asm/barrier.h>

#define SPE_PMU_NAME	"arm_spe"

/* ---- register access ---------------------------------------------- */

enum spe_reg {
	SPE_PMSCR, SPE_PMSICR, SPE_PMSIRR, SPE_PMSFCR, SPE_PMSEVFR,
	SPE_PMSNEVFR, SPE_PMSLATFR, SPE_PMSIDR,
	SPE_PMBLIMITR, SPE_PMBPTR, SPE_PMBSR, SPE_PMBIDR,
};

/**
 * struct spe_hw_ops - the driver's only access to SPE's registers
 * @read: read register @reg of this CPU
 * @write: write it
 * @sync: a context synchronization (ISB): writes before take effect
 * @drain: complete the records in flight (PSB CSYNC, DSB NSH), so that
 *	the buffer and PMBPTR/PMBSR say all there is
 */
struct spe_hw_ops {
	u64	(*read)(enum spe_reg reg);
	void	(*write)(enum spe_reg reg, u64 val);
	void	(*sync)(void);
	void	(*drain)(void);
};

static __always_inline u64 spe_native_read(enum spe_reg reg)
{
	switch (reg) {
	case SPE_PMSCR:		return read_sysreg_s(SYS_PMSCR_EL1);
	case SPE_PMSICR:	return read_sysreg_s(SYS_PMSICR_EL1);
	case SPE_PMSIRR:	return read_sysreg_s(SYS_PMSIRR_EL1);
	case SPE_PMSFCR:	return read_sysreg_s(SYS_PMSFCR_EL1);
	case SPE_PMSEVFR:	return read_sysreg_s(SYS_PMSEVFR_EL1);
	case SPE_PMSNEVFR:	return read_sysreg_s(SYS_PMSNEVFR_EL1);
	case SPE_PMSLATFR:	return read_sysreg_s(SYS_PMSLATFR_EL1);
	case SPE_PMSIDR:	return read_sysreg_s(SYS_PMSIDR_EL1);
	case SPE_PMBLIMITR:	return read_sysreg_s(SYS_PMBLIMITR_EL1);
	case SPE_PMBPTR:	return read_sysreg_s(SYS_PMBPTR_EL1);
	case SPE_PMBSR:		return read_sysreg_s(SYS_PMBSR_EL1);
	case SPE_PMBIDR:	return read_sysreg_s(SYS_PMBIDR_EL1);
	}
	return 0;
}

static __always_inline void spe_native_write(enum spe_reg reg, u64 val)
{
	switch (reg) {
	case SPE_PMSCR:
		write_sysreg_s(val, SYS_PMSCR_EL1);
		break;
	case SPE_PMSICR:
		write_sysreg_s(val, SYS_PMSICR_EL1);
		break;
	case SPE_PMSIRR:
		write_sysreg_s(val, SYS_PMSIRR_EL1);
		break;
	case SPE_PMSFCR:
		write_sysreg_s(val, SYS_PMSFCR_EL1);
		break;
	case SPE_PMSEVFR:
		write_sysreg_s(val, SYS_PMSEVFR_EL1);
		break;
	case SPE_PMSNEVFR:
		write_sysreg_s(val, SYS_PMSNEVFR_EL1);
		break;
	case SPE_PMSLATFR:
		write_sysreg_s(val, SYS_PMSLATFR_EL1);
		break;
	case SPE_PMBLIMITR:
		write_sysreg_s(val, SYS_PMBLIMITR_EL1);
		break;
	case SPE_PMBPTR:
		write_sysreg_s(val, SYS_PMBPTR_EL1);
		break;
	case SPE_PMBSR:
		write_sysreg_s(val, SYS_PMBSR_EL1);
		break;
	default:	/* the ID registers are read-only */
		WARN_ON_ONCE(1);
		break;
	}
}

static __always_inline void spe_native_sync(void)
{
	isb();
}

static __always_inline void spe_native_drain(void)
{
	psb_csync();
	dsb(nsh);
}

static const struct spe_hw_ops spe_native_hw = {
	.read	= spe_native_read,
	.write	= spe_native_write,
	.sync	= spe_native_sync,
	.drain	= spe_native_drain,
};

/* What PMSIDR_EL1 (and ID_AA64DFR0_EL1.PMSVer) say the CPU does */
#define SPE_CAN_FILTER_EVENTS	BIT(0)	/* PMSIDR.FE */
#define SPE_CAN_FILTER_TYPES	BIT(1)	/* FT */
#define SPE_CAN_FILTER_LATENCY	BIT(2)	/* FL */
#define SPE_ARCH_INST		BIT(3)	/* the interval counts instructions */
#define SPE_LOAD_SOURCE		BIT(4)	/* LDS */
#define SPE_ERND		BIT(5)	/* jitter in the secondary counter */
#define SPE_CAN_EXCLUDE_EVENTS	BIT(6)	/* FnE: PMSNEVFR_EL1 */

/**
 * struct spe_pmu - one SPE PMU: the CPUs whose PPI it is
 * @pmu: perf's view
 * @pdev: the platform device (device tree node or ACPI MADT)
 * @hw: register access (spe_native_hw, or a KUnit model)
 * @cpus: the CPUs it profiles on (the PPI's partition)
 * @node: its cpuhp instance
 * @irq: the buffer management interrupt, a PPI
 * @version: ID_AA64DFR0_EL1.PMSVer
 * @caps: SPE_* above
 * @min_interval: the smallest sample period PMSIDR recommends
 * @count_size: the latency counters' width, in bits
 * @max_record: the largest record, in bytes
 * @align: the alignment PMBPTR must keep, in bytes
 * @handle: each CPU's AUX output handle (used on that CPU only)
 */
struct spe_pmu {
	struct pmu			pmu;
	struct platform_device		*pdev;
	const struct spe_hw_ops		*hw;
	cpumask_t			cpus;
	struct hlist_node		node;
	int				irq;
	u16				version;
	u32				caps;
	u32				min_interval;
	u16				count_size;
	u16				max_record;
	u16				align;
	struct perf_output_handle __percpu *handle;
};

static struct spe_pmu *to_spe(struct pmu *pmu)
{
	return container_of(pmu, struct spe_pmu, pmu);
}

/*
 * Register access through spe->hw.  The native table is the one that
 * matters for speed: with it, each call becomes the one system register
 * access it stands for (the register is a constant at every call site),
 * where an indirect call and a switch cost more than the access itself
 * on the buffer interrupt's path.
 */
static __always_inline u64 spe_hw_read(const struct spe_pmu *spe,
				       enum spe_reg reg)
{
	if (likely(spe->hw == &spe_native_hw))
		return spe_native_read(reg);
	return spe->hw->read(reg);
}

static __always_inline void spe_hw_write(const struct spe_pmu *spe,
					 enum spe_reg reg, u64 val)
{
	if (likely(spe->hw == &spe_native_hw))
		spe_native_write(reg, val);
	else
		spe->hw->write(reg, val);
}

static __always_inline void spe_hw_sync(const struct spe_pmu *spe)
{
	if (likely(spe->hw == &spe_native_hw))
		spe_native_sync();
	else
		spe->hw->sync();
}

static __always_inline void spe_hw_drain(const struct spe_pmu *spe)
{
	if (likely(spe->hw == &spe_native_hw))
		spe_native_drain();
	else
		spe->hw->drain();
}

/* The AUX area as the hardware sees it: vmapped, in one piece */
struct spe_buf {
	void	*base;
	u64	size;
	bool	snapshot;
};

static enum cpuhp_state spe_hp_state;

/* ---- the event ABI ------------------------------------------------- */

/*
 * The config fields, as format/ names them: which of attr.config,
 * config1, config2 and config3 holds each, and its bits.
 */
enum spe_field {
	SPE_F_TS,		/* PMSCR.TS: timestamps */
	SPE_F_PA,		/* PMSCR.PA: physical data addresses */
	SPE_F_PCT,		/* PMSCR.PCT: the physical counter's time */
	SPE_F_JITTER,		/* PMSIRR.RND */
	SPE_F_BRANCH,		/* PMSFCR.B: branches only */
	SPE_F_LOAD,		/* PMSFCR.LD: loads only */
	SPE_F_STORE,		/* PMSFCR.ST: stores only */
	SPE_F_EVENTS,		/* PMSEVFR: events a record must have */
	SPE_F_NOT_EVENTS,	/* PMSNEVFR: events it must not have */
	SPE_F_MIN_LATENCY,	/* PMSLATFR.MINLAT */
};

static const struct {
	u8 word, lo, hi;
} spe_fields[] = {
	[SPE_F_TS]		= { 0, 0, 0 },
	[SPE_F_PA]		= { 0, 1, 1 },
	[SPE_F_PCT]		= { 0, 2, 2 },
	[SPE_F_JITTER]		= { 0, 16, 16 },
	[SPE_F_BRANCH]		= { 0, 32, 32 },
	[SPE_F_LOAD]		= { 0, 33, 33 },
	[SPE_F_STORE]		= { 0, 34, 34 },
	[SPE_F_EVENTS]		= { 1, 0, 63 },
	[SPE_F_MIN_LATENCY]	= { 2, 0, 11 },
	[SPE_F_NOT_EVENTS]	= { 3, 0, 63 },
};

/* The value of field @f in @attr */
static u64 spe_cfg(const struct perf_event_attr *attr, enum spe_field f)
{
	const u64 words[] = { attr->config, attr->config1, attr->config2,
			      attr->config3 };

	return (words[spe_fields[f].word] >> spe_fields[f].lo) &
	       GENMASK_ULL(spe_fields[f].hi - spe_fields[f].lo, 0);
}

/* hw.flags: records carry CONTEXTIDR_EL1 (decided at event_init) */
#define SPE_EVENT_CONTEXT	BIT(0)
static_assert((PERF_EVENT_FLAG_ARCH & SPE_EVENT_CONTEXT) == SPE_EVENT_CONTEXT);

/* PMSEVFR_EL1's bits the CPU's version leaves RES0 */
static u64 spe_event_filter_res0(const struct spe_pmu *spe)
{
	if (spe->version == ID_AA64DFR0_EL1_PMSVer_IMP)
		return PMSEVFR_EL1_RES0_IMP;
	if (spe->version == ID_AA64DFR0_EL1_PMSVer_V1P1)
		return PMSEVFR_EL1_RES0_V1P1;
	return PMSEVFR_EL1_RES0_V1P2;
}

static u64 spe_pmsfcr(const struct perf_event_attr *attr)
{
	u64 types = FIELD_PREP(PMSFCR_EL1_B, spe_cfg(attr, SPE_F_BRANCH)) |
		    FIELD_PREP(PMSFCR_EL1_LD, spe_cfg(attr, SPE_F_LOAD)) |
		    FIELD_PREP(PMSFCR_EL1_ST, spe_cfg(attr, SPE_F_STORE));
	u64 val = types;

	if (types)
		val |= PMSFCR_EL1_FT;
	if (spe_cfg(attr, SPE_F_EVENTS))
		val |= PMSFCR_EL1_FE;
	if (spe_cfg(attr, SPE_F_NOT_EVENTS))
		val |= PMSFCR_EL1_FnE;
	if (spe_cfg(attr, SPE_F_MIN_LATENCY))
		val |= PMSFCR_EL1_FL;
	return val;
}

static u64 spe_pmscr(const struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	u64 val = FIELD_PREP(PMSCR_EL1_TS, spe_cfg(attr, SPE_F_TS)) |
		  FIELD_PREP(PMSCR_EL1_PA, spe_cfg(attr, SPE_F_PA)) |
		  FIELD_PREP(PMSCR_EL1_PCT, spe_cfg(attr, SPE_F_PCT));

	if (!attr->exclude_user)
		val |= PMSCR_EL1_E0SPE;
	if (!attr->exclude_kernel)
		val |= PMSCR_EL1_E1SPE;
	if (event->hw.flags & SPE_EVENT_CONTEXT)
		val |= PMSCR_EL1_CX;
	return val;
}

/* The interval: the period, within what PMSIRR.INTERVAL can hold */
static u64 spe_pmsirr(struct perf_event *event)
{
	const struct spe_pmu *spe = to_spe(event->pmu);
	u64 period = event->hw.sample_period;

	if (period < spe->min_interval)
		period = spe->min_interval;
	else if (period > PMSIRR_EL1_INTERVAL_MASK)
		period = PMSIRR_EL1_INTERVAL_MASK;
	else
		period &= PMSIRR_EL1_INTERVAL_MASK;
	event->hw.sample_period = period;
	return period |
	       FIELD_PREP(PMSIRR_EL1_RND, spe_cfg(&event->attr, SPE_F_JITTER));
}

static int spe_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct spe_pmu *spe = to_spe(event->pmu);
	u64 res0 = spe_event_filter_res0(spe);
	u64 fcr = spe_pmsfcr(attr);

	if (attr->type != event->pmu->type)
		return -ENOENT;
	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &spe->cpus))
		return -ENOENT;
	if ((spe_cfg(attr, SPE_F_EVENTS) & res0) ||
	    (spe_cfg(attr, SPE_F_NOT_EVENTS) & res0))
		return -EOPNOTSUPP;
	if (attr->exclude_idle)
		return -EOPNOTSUPP;
	/* Samples land in a buffer: no count to steer a frequency by. */
	if (attr->freq)
		return -EINVAL;
	if (((fcr & PMSFCR_EL1_FE) && !(spe->caps & SPE_CAN_FILTER_EVENTS)) ||
	    ((fcr & PMSFCR_EL1_FnE) && !(spe->caps & SPE_CAN_EXCLUDE_EVENTS)) ||
	    ((fcr & PMSFCR_EL1_FT) && !(spe->caps & SPE_CAN_FILTER_TYPES)) ||
	    ((fcr & PMSFCR_EL1_FL) && !(spe->caps & SPE_CAN_FILTER_LATENCY)))
		return -EOPNOTSUPP;

	/* A PID in each record tells who ran: the kernel's to give away. */
	if (IS_ENABLED(CONFIG_PID_IN_CONTEXTIDR) && !perf_allow_kernel())
		event->hw.flags |= SPE_EVENT_CONTEXT;
	if (spe_pmscr(event) & (PMSCR_EL1_PA | PMSCR_EL1_PCT))
		return perf_allow_kernel();
	return 0;
}

/* ---- the buffer ---------------------------------------------------- */

/**
 * struct spe_window - where the hardware may write next in the AUX area
 * @size: the AUX area's bytes
 * @off: where the handle's head is, as an offset into it
 * @space: the bytes perf lets us write from there (handle->size)
 * @wakeup: bytes from the head to where perf wants a wakeup; as much as
 *	@space or more where none is in reach
 * @align: the alignment PMBPTR_EL1 must have
 * @max_record: the largest record
 * @snapshot: the area is overwritten in a loop (no space accounting)
 * @padded: a stretch too short for a record was padded over already
 * @pad: out: bytes of padding to write at @off
 * @limit: out: the offset PMBLIMITR_EL1 stops the hardware at, a page
 *	boundary
 */
struct spe_window {
	u64	size, off, space, wakeup;
	u32	align, max_record;
	bool	snapshot, padded;
	u64	pad, limit;
};

enum spe_plan {
	SPE_PLAN_OPEN,		/* write from @off up to @limit */
	SPE_PLAN_PAD,		/* pad @pad bytes, then plan again */
	SPE_PLAN_FULL,		/* pad @pad bytes (the rest): truncated */
};

/*
 * A snapshot area is overwritten in two halves, so that a reader finds
 * at least half an area of whole records behind the head (records can
 * only be parsed forwards): stop at the end of the head's half, or pad
 * to it and take the next half where no record fits.
 */
static enum spe_plan spe_plan_snapshot(struct spe_window *w)
{
	u64 half = w->size / 2;
	u64 end = w->off < half ? half : w->size;

	w->pad = 0;
	if (end - w->off < w->max_record) {
		w->pad = end - w->off;
		w->off = end % w->size;
		end = w->off + half;
	}
	w->limit = end;
	return SPE_PLAN_OPEN;
}

/**
 * spe_plan_window() - the next stretch of the AUX area to hand over
 * @w: the area and the handle's state; fills @w->pad or @w->limit
 *
 * The hardware writes from PMBPTR (the head, aligned) up to a page
 * boundary, the limit: the end of the area, or short of it where data
 * not yet read follows the head in this lap (the limit must not pass
 * the free space), or the first page boundary past the wakeup point,
 * so that the interrupt there wakes the reader.  A head off its
 * alignment is padded first; a stretch with no room for a whole record
 * is padded over once and the next one taken (perf moves the wakeup
 * point on as the padding passes it); where no page boundary lies in
 * the free space, the space left is padded and the output truncated.
 * Pure arithmetic on @w; KUnit holds it to these rules.
 *
 * Return: what to do (enum spe_plan).
 */
static enum spe_plan spe_plan_window(struct spe_window *w)
{
	u64 end = w->size;

	if (w->snapshot)
		return spe_plan_snapshot(w);
	w->limit = 0;
	w->pad = min(ALIGN(w->off, w->align) - w->off, w->space);
	if (w->pad)
		return SPE_PLAN_PAD;
	if (w->off + w->space < w->size)
		end = round_down(w->off + w->space, PAGE_SIZE);
	if (w->wakeup && w->wakeup < w->space && w->off + w->wakeup < w->size)
		end = min(end, round_up(w->off + w->wakeup, PAGE_SIZE));
	if (end <= w->off) {
		w->pad = w->space;
		return SPE_PLAN_FULL;
	}
	if (end - w->off < w->max_record && !w->padded) {
		w->pad = end - w->off;
		w->padded = true;
		return SPE_PLAN_PAD;
	}
	w->limit = end;
	return SPE_PLAN_OPEN;
}

/* Fill @len bytes from offset @off with padding, wrapping at the end */
static void spe_pad(struct spe_buf *buf, u64 off, u64 len)
{
	u64 first = min(len, buf->size - off);

	memset(buf->base + off, 0, first);
	if (len > first)
		memset(buf->base, 0, len - first);
}

/* The AUX area's offset of the handle's head */
static u64 spe_head_off(struct perf_output_handle *handle, struct spe_buf *buf)
{
	return handle->head % buf->size;
}

/*
 * Begin an output session on the event's AUX area and point the
 * hardware at the stretch it may fill.  False where there is none (no
 * AUX area, or no room: truncated); the buffer is then disabled.
 */
static bool spe_buffer_open(struct spe_pmu *spe,
			    struct perf_output_handle *handle,
			    struct perf_event *event)
{
	struct spe_buf *buf = perf_aux_output_begin(handle, event);
	struct spe_window w = { };
	enum spe_plan plan;

	if (!buf) {
		/* A fault may have left the buffer enabled. */
		spe_hw_write(spe, SPE_PMBLIMITR, 0);
		return false;
	}
	w.size = buf->size;
	w.align = spe->align;
	w.max_record = spe->max_record;
	w.snapshot = buf->snapshot;
	do {
		/* From the handle as padding (perf_aux_output_skip) left it */
		u64 off = spe_head_off(handle, buf);

		w.off = off;
		w.space = handle->size;
		w.wakeup = handle->wakeup - handle->head;
		plan = spe_plan_window(&w);
		if (w.pad) {
			spe_pad(buf, off, w.pad);
			if (buf->snapshot)
				handle->head = w.off;
			else
				perf_aux_output_skip(handle, w.pad);
		}
	} while (plan == SPE_PLAN_PAD);

	if (plan == SPE_PLAN_FULL) {
		perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);
		perf_aux_output_end(handle, 0);
		spe_hw_write(spe, SPE_PMBLIMITR, 0);
		return false;
	}
	spe_hw_write(spe, SPE_PMBPTR, (u64)buf->base + w.off);
	spe_hw_write(spe, SPE_PMBLIMITR, ((u64)buf->base + w.limit) |
			PMBLIMITR_EL1_E);
	return true;
}

/* End the session: perf gets what the hardware wrote since it began */
static void spe_buffer_close(struct spe_pmu *spe,
			     struct perf_output_handle *handle)
{
	struct spe_buf *buf = perf_get_aux(handle);
	u64 off = spe_hw_read(spe, SPE_PMBPTR) - (u64)buf->base;
	u64 written = off - spe_head_off(handle, buf);

	if (buf->snapshot)
		handle->head = off;
	perf_aux_output_end(handle, written);
}

/* Stop sampling, let records in flight land, then close the buffer */
static void spe_quiesce(struct spe_pmu *spe)
{
	spe_hw_write(spe, SPE_PMSCR, 0);
	spe_hw_sync(spe);
	spe_hw_drain(spe);
	spe_hw_write(spe, SPE_PMBLIMITR, 0);
	spe_hw_sync(spe);
}

enum spe_service {
	SPE_NOTHING,		/* PMBSR.S clear: not ours */
	SPE_FULL,		/* the stretch is full: go on with the next */
	SPE_BROKEN,		/* a fault or an unknown event: stop */
};

/*
 * The buffer has stopped (PMBSR_EL1.S): account for what it wrote, flag
 * what perf must know (lost data, collisions) and end the session.
 * PMBSR is left for the caller to clear.
 */
static enum spe_service spe_buffer_service(struct spe_pmu *spe,
					   struct perf_output_handle *handle)
{
	const char *why = "unknown buffer event";
	u64 status;

	spe_hw_drain(spe);
	spe_hw_sync(spe);
	status = spe_hw_read(spe, SPE_PMBSR);
	if (!FIELD_GET(PMBSR_EL1_S, status))
		return SPE_NOTHING;
	if (FIELD_GET(PMBSR_EL1_DL, status))
		perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED |
					     PERF_AUX_FLAG_PARTIAL);
	if (FIELD_GET(PMBSR_EL1_COLL, status))
		perf_aux_output_flag(handle, PERF_AUX_FLAG_COLLISION);

	switch (FIELD_GET(PMBSR_EL1_EC, status)) {
	case PMBSR_EL1_EC_BUF:
		if (FIELD_GET(PMBSR_EL1_BUF_BSC_MASK, status) ==
		    PMBSR_EL1_BUF_BSC_FULL) {
			spe_buffer_close(spe, handle);
			return SPE_FULL;
		}
		why = "unknown buffer status";
		break;
	case PMBSR_EL1_EC_FAULT_S1:
	case PMBSR_EL1_EC_FAULT_S2:
		why = "buffer fault";
		break;
	}
	pr_err_ratelimited("%s on CPU %d: PMBSR %#llx, PMBPTR %#llx, PMBLIMITR %#llx\n",
			   why, smp_processor_id(), status,
			   spe_hw_read(spe, SPE_PMBPTR),
			   spe_hw_read(spe, SPE_PMBLIMITR));
	spe_buffer_close(spe, handle);
	return SPE_BROKEN;
}

/* ---- perf callbacks ------------------------------------------------ */

static void spe_stop(struct perf_event *event, int flags);

static void spe_start(struct perf_event *event, int flags)
{
	struct spe_pmu *spe = to_spe(event->pmu);
	struct perf_output_handle *handle = this_cpu_ptr(spe->handle);
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;

	hwc->state = 0;
	if (!spe_buffer_open(spe, handle, event)) {
		spe_stop(event, 0);
		return;
	}
	spe_hw_write(spe, SPE_PMSFCR, spe_pmsfcr(attr));
	spe_hw_write(spe, SPE_PMSEVFR, spe_cfg(attr, SPE_F_EVENTS));
	if (spe->caps & SPE_CAN_EXCLUDE_EVENTS)
		spe_hw_write(spe, SPE_PMSNEVFR, spe_cfg(attr, SPE_F_NOT_EVENTS));
	spe_hw_write(spe, SPE_PMSLATFR,
		     FIELD_PREP(PMSLATFR_EL1_MINLAT,
				spe_cfg(attr, SPE_F_MIN_LATENCY)));
	if (flags & PERF_EF_RELOAD) {
		spe_hw_write(spe, SPE_PMSIRR, spe_pmsirr(event));
		spe_hw_sync(spe);
		/* Where the interval stood when the event last stopped */
		spe_hw_write(spe, SPE_PMSICR, local64_read(&hwc->period_left));
	}
	spe_hw_sync(spe);
	spe_hw_write(spe, SPE_PMSCR, spe_pmscr(event));
}

static void spe_stop(struct perf_event *event, int flags)
{
	struct spe_pmu *spe = to_spe(event->pmu);
	struct perf_output_handle *handle = this_cpu_ptr(spe->handle);
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	spe_quiesce(spe);
	if (flags & PERF_EF_UPDATE) {
		/*
		 * Close the session here, on the switch-out path, rather
		 * than leave an interrupt to find the next task's.
		 */
		if (perf_get_aux(handle)) {
			if (spe_buffer_service(spe, handle) == SPE_NOTHING)
				spe_buffer_close(spe, handle);
			else
				spe_hw_write(spe, SPE_PMBSR, 0);
		}
		/* PMSICR may hold ECOUNT too: period_left is only ours. */
		local64_set(&hwc->period_left, spe_hw_read(spe, SPE_PMSICR));
		hwc->state |= PERF_HES_UPTODATE;
	}
	hwc->state |= PERF_HES_STOPPED;
}

static int spe_add(struct perf_event *event, int flags)
{
	struct spe_pmu *spe = to_spe(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int cpu = event->cpu < 0 ? smp_processor_id() : event->cpu;

	if (!cpumask_test_cpu(cpu, &spe->cpus))
		return -ENOENT;
	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (!(flags & PERF_EF_START))
		return 0;
	spe_start(event, PERF_EF_RELOAD);
	return (hwc->state & PERF_HES_STOPPED) ? -EINVAL : 0;
}

static void spe_del(struct perf_event *event, int flags)
{
	spe_stop(event, PERF_EF_UPDATE);
}

/* Nothing counts: the samples are the records. */
static void spe_read(struct perf_event *event)
{
}

static void *spe_setup_aux(struct perf_event *event, void **pages,
			   int nr_pages, bool snapshot)
{
	int cpu = event->cpu < 0 ? raw_smp_processor_id() : event->cpu;
	struct page **list;
	struct spe_buf *buf;
	int i;

	/*
	 * Two pages at least (a stretch ends on a page boundary), and an
	 * even number in snapshot mode (it is used in halves).
	 */
	if (nr_pages < 2 || (snapshot && (nr_pages & 1)))
		return NULL;
	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, cpu_to_node(cpu));
	list = kcalloc(nr_pages, sizeof(*list), GFP_KERNEL);
	if (!buf || !list)
		goto fail;
	for (i = 0; i < nr_pages; i++)
		list[i] = virt_to_page(pages[i]);
	/* The hardware writes it as one range of virtual addresses. */
	buf->base = vmap(list, nr_pages, VM_MAP, PAGE_KERNEL);
	if (!buf->base)
		goto fail;
	kfree(list);
	buf->size = (u64)nr_pages << PAGE_SHIFT;
	buf->snapshot = snapshot;
	return buf;
fail:
	kfree(list);
	kfree(buf);
	return NULL;
}

static void spe_free_aux(void *aux)
{
	struct spe_buf *buf = aux;

	vunmap(buf->base);
	kfree(buf);
}

/* ---- the buffer management interrupt -------------------------------- */

static irqreturn_t spe_irq(int irq, void *data)
{
	struct perf_output_handle *handle = data;
	struct perf_event *event = handle->event;
	enum spe_service service;
	struct spe_pmu *spe;

	if (!perf_get_aux(handle))
		return IRQ_NONE;
	spe = to_spe(event->pmu);
	/* Readers due a wakeup are woken here, not from an irq_work. */
	perf_aux_irq_begin();
	service = spe_buffer_service(spe, handle);
	switch (service) {
	case SPE_NOTHING:
		break;
	case SPE_BROKEN:
		/* perf's irq_work may disable the event; let it first. */
		irq_work_run();
		spe_quiesce(spe);
		break;
	case SPE_FULL:
		/*
		 * Truncated: perf's irq_work disables the event; let it
		 * first.  Otherwise go on with the next stretch.
		 */
		if (handle->aux_flags & PERF_AUX_FLAG_TRUNCATED)
			irq_work_run();
		else if (!spe_buffer_open(spe, handle, event))
			spe_stop(event, PERF_EF_UPDATE);
		else
			spe_hw_sync(spe);
		break;
	}
	/* Resume: the buffer's pointers are consistent again. */
	if (service != SPE_NOTHING)
		spe_hw_write(spe, SPE_PMBSR, 0);
	perf_aux_irq_end();
	return service == SPE_NOTHING ? IRQ_NONE : IRQ_HANDLED;
}

/* ---- sysfs --------------------------------------------------------- */

/* format/<name>: "config1:0-63", or "config:2" for a single bit */
static ssize_t spe_format_show(struct device *dev,
			       struct device_attribute *attr, char *page)
{
	struct dev_ext_attribute *ea = container_of(attr, typeof(*ea), attr);
	enum spe_field f = (uintptr_t)ea->var;
	static const char *const word[] = { "", "1", "2", "3" };

	if (spe_fields[f].lo == spe_fields[f].hi)
		return sysfs_emit(page, "config%s:%u\n", word[spe_fields[f].word],
				  spe_fields[f].lo);
	return sysfs_emit(page, "config%s:%u-%u\n", word[spe_fields[f].word],
			  spe_fields[f].lo, spe_fields[f].hi);
}

#define SPE_FORMAT(_name, _field)					\
	static struct dev_ext_attribute spe_format_##_name = {		\
		__ATTR(_name, 0444, spe_format_show, NULL),		\
		(void *)(uintptr_t)(_field)				\
	}

SPE_FORMAT(ts_enable, SPE_F_TS);
SPE_FORMAT(pa_enable, SPE_F_PA);
SPE_FORMAT(pct_enable, SPE_F_PCT);
SPE_FORMAT(jitter, SPE_F_JITTER);
SPE_FORMAT(branch_filter, SPE_F_BRANCH);
SPE_FORMAT(load_filter, SPE_F_LOAD);
SPE_FORMAT(store_filter, SPE_F_STORE);
SPE_FORMAT(event_filter, SPE_F_EVENTS);
SPE_FORMAT(inv_event_filter, SPE_F_NOT_EVENTS);
SPE_FORMAT(min_latency, SPE_F_MIN_LATENCY);

static struct attribute *spe_format_attrs[] = {
	&spe_format_ts_enable.attr.attr,
	&spe_format_pa_enable.attr.attr,
	&spe_format_pct_enable.attr.attr,
	&spe_format_jitter.attr.attr,
	&spe_format_branch_filter.attr.attr,
	&spe_format_load_filter.attr.attr,
	&spe_format_store_filter.attr.attr,
	&spe_format_event_filter.attr.attr,
	&spe_format_inv_event_filter.attr.attr,
	&spe_format_min_latency.attr.attr,
	NULL,
};

/* inv_event_filter only where the CPU has PMSNEVFR_EL1 */
static umode_t spe_format_visible(struct kobject *kobj, struct attribute *attr,
				  int n)
{
	struct spe_pmu *spe = dev_get_drvdata(kobj_to_dev(kobj));

	if (attr == &spe_format_inv_event_filter.attr.attr &&
	    !(spe->caps & SPE_CAN_EXCLUDE_EVENTS))
		return 0;
	return attr->mode;
}

static const struct attribute_group spe_format_group = {
	.name		= "format",
	.is_visible	= spe_format_visible,
	.attrs		= spe_format_attrs,
};

enum spe_cap_file { SPE_CAP_ARCH_INST, SPE_CAP_ERND, SPE_CAP_COUNT_SIZE,
		    SPE_CAP_MIN_INTERVAL };

static ssize_t spe_cap_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	struct spe_pmu *spe = dev_get_drvdata(dev);
	struct dev_ext_attribute *ea = container_of(attr, typeof(*ea), attr);
	u32 val = 0;

	switch ((uintptr_t)ea->var) {
	case SPE_CAP_ARCH_INST:
		val = !!(spe->caps & SPE_ARCH_INST);
		break;
	case SPE_CAP_ERND:
		val = !!(spe->caps & SPE_ERND);
		break;
	case SPE_CAP_COUNT_SIZE:
		val = spe->count_size;
		break;
	case SPE_CAP_MIN_INTERVAL:
		val = spe->min_interval;
		break;
	}
	return sysfs_emit(page, "%u\n", val);
}

#define SPE_CAP_ATTR(_name, _which)					\
	static struct dev_ext_attribute spe_cap_##_name = {		\
		__ATTR(_name, 0444, spe_cap_show, NULL),		\
		(void *)(uintptr_t)(_which)				\
	}

SPE_CAP_ATTR(arch_inst, SPE_CAP_ARCH_INST);
SPE_CAP_ATTR(ernd, SPE_CAP_ERND);
SPE_CAP_ATTR(count_size, SPE_CAP_COUNT_SIZE);
SPE_CAP_ATTR(min_interval, SPE_CAP_MIN_INTERVAL);

static struct attribute *spe_cap_attrs[] = {
	&spe_cap_arch_inst.attr.attr,
	&spe_cap_ernd.attr.attr,
	&spe_cap_count_size.attr.attr,
	&spe_cap_min_interval.attr.attr,
	NULL,
};

static const struct attribute_group spe_cap_group = {
	.name	= "caps",
	.attrs	= spe_cap_attrs,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	struct spe_pmu *spe = dev_get_drvdata(dev);

	return cpumap_print_to_pagebuf(true, page, &spe->cpus);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *spe_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group spe_pmu_group = {
	.attrs	= spe_pmu_attrs,
};

static const struct attribute_group *spe_attr_groups[] = {
	&spe_pmu_group,
	&spe_cap_group,
	&spe_format_group,
	NULL,
};

/* ---- probing ------------------------------------------------------- */

/* PMSIDR_EL1.INTERVAL's encodings: the recommended smallest interval */
static const u16 spe_intervals[16] = {
	[PMSIDR_EL1_INTERVAL_256] = 256, [PMSIDR_EL1_INTERVAL_512] = 512,
	[PMSIDR_EL1_INTERVAL_768] = 768, [PMSIDR_EL1_INTERVAL_1024] = 1024,
	[PMSIDR_EL1_INTERVAL_1536] = 1536, [PMSIDR_EL1_INTERVAL_2048] = 2048,
	[PMSIDR_EL1_INTERVAL_3072] = 3072, [PMSIDR_EL1_INTERVAL_4096] = 4096,
};

/**
 * spe_decode_id() - what the CPU's SPE does, from its ID registers
 * @spe: filled in: version, caps, min_interval, count_size, max_record,
 *	align
 * @pmsver: ID_AA64DFR0_EL1.PMSVer
 * @pmbidr: PMBIDR_EL1
 * @pmsidr: PMSIDR_EL1
 *
 * Return: 0, or -ENXIO where the driver cannot use it: no SPE, a
 * buffer a higher EL owns, or an alignment or record size out of range.
 */
static int spe_decode_id(struct spe_pmu *spe, unsigned int pmsver,
			 u64 pmbidr, u64 pmsidr)
{
	static const struct { u64 field; u32 cap; } caps[] = {
		{ PMSIDR_EL1_FE, SPE_CAN_FILTER_EVENTS },
		{ PMSIDR_EL1_FT, SPE_CAN_FILTER_TYPES },
		{ PMSIDR_EL1_FL, SPE_CAN_FILTER_LATENCY },
		{ PMSIDR_EL1_ARCHINST, SPE_ARCH_INST },
		{ PMSIDR_EL1_LDS, SPE_LOAD_SOURCE },
		{ PMSIDR_EL1_ERND, SPE_ERND },
		{ PMSIDR_EL1_FnE, SPE_CAN_EXCLUDE_EVENTS },
	};
	unsigned int i, interval, countsize;

	if (!pmsver || FIELD_GET(PMBIDR_EL1_P, pmbidr))
		return -ENXIO;
	spe->version = pmsver;
	spe->align = 1 << FIELD_GET(PMBIDR_EL1_ALIGN, pmbidr);
	spe->max_record = 1 << FIELD_GET(PMSIDR_EL1_MAXSIZE, pmsidr);
	if (spe->align > SZ_2K || spe->max_record < 16 ||
	    spe->max_record > SZ_2K)
		return -ENXIO;
	spe->caps = 0;
	for (i = 0; i < ARRAY_SIZE(caps); i++)
		if (pmsidr & caps[i].field)
			spe->caps |= caps[i].cap;

	interval = FIELD_GET(PMSIDR_EL1_INTERVAL, pmsidr);
	spe->min_interval = spe_intervals[interval];
	if (!spe->min_interval) {
		pr_warn("PMSIDR_EL1.INTERVAL %u unknown: taking 4096\n",
			interval);
		spe->min_interval = 4096;
	}
	countsize = FIELD_GET(PMSIDR_EL1_COUNTSIZE, pmsidr);
	spe->count_size = countsize == PMSIDR_EL1_COUNTSIZE_16_BIT_SAT ? 16 : 12;
	if (countsize != PMSIDR_EL1_COUNTSIZE_12_BIT_SAT &&
	    countsize != PMSIDR_EL1_COUNTSIZE_16_BIT_SAT)
		pr_warn("PMSIDR_EL1.COUNTSIZE %u unknown: taking 12 bits\n",
			countsize);
	return 0;
}

struct spe_probe {
	struct spe_pmu	*spe;
	int		ret;
};

/* On a CPU of the PMU's: read and decode its ID registers */
static void spe_probe_cpu(void *data)
{
	struct spe_probe *probe = data;
	struct spe_pmu *spe = probe->spe;
	unsigned int pmsver;

	pmsver = cpuid_feature_extract_unsigned_field(read_cpuid(ID_AA64DFR0_EL1),
						      ID_AA64DFR0_EL1_PMSVer_SHIFT);
	probe->ret = -ENXIO;
	/* PMBIDR first: it says whether this EL may use the rest. */
	if (pmsver)
		probe->ret = spe_decode_id(spe, pmsver,
					   spe_hw_read(spe, SPE_PMBIDR),
					   spe_hw_read(spe, SPE_PMSIDR));
}

static int spe_probe_hw(struct spe_pmu *spe)
{
	struct spe_probe probe = { .spe = spe, .ret = -ENXIO };

	if (smp_call_function_any(&spe->cpus, spe_probe_cpu, &probe, 1) ||
	    probe.ret) {
		dev_err(&spe->pdev->dev,
			"SPE unusable (no PMSVer, buffer owned by a higher EL, or sizes out of range)\n");
		return -ENXIO;
	}
	dev_info(&spe->pdev->dev,
		 "probed SPEv1.%d for CPUs %*pbl [max_record_sz %u, align %u, features 0x%x]\n",
		 spe->version - 1, cpumask_pr_args(&spe->cpus),
		 spe->max_record, spe->align, spe->caps);
	return 0;
}

/* A CPU's SPE at rest: nothing sampled, no buffer, no event pending */
static void spe_reset_cpu(struct spe_pmu *spe)
{
	spe_quiesce(spe);
	spe_hw_write(spe, SPE_PMBPTR, 0);
	spe_hw_sync(spe);
	spe_hw_write(spe, SPE_PMBSR, 0);
	spe_hw_sync(spe);
}

static int spe_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct spe_pmu *spe = hlist_entry_safe(node, struct spe_pmu, node);

	if (cpumask_test_cpu(cpu, &spe->cpus)) {
		spe_reset_cpu(spe);
		enable_percpu_irq(spe->irq, IRQ_TYPE_NONE);
	}
	return 0;
}

static int spe_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct spe_pmu *spe = hlist_entry_safe(node, struct spe_pmu, node);

	if (cpumask_test_cpu(cpu, &spe->cpus)) {
		disable_percpu_irq(spe->irq);
		spe_reset_cpu(spe);
	}
	return 0;
}

/* The buffer interrupt: a PPI, whose partition is the PMU's CPUs */
static int spe_probe_irq(struct spe_pmu *spe)
{
	struct device *dev = &spe->pdev->dev;
	int irq = platform_get_irq(spe->pdev, 0);

	if (irq < 0)
		return -ENXIO;
	if (!irq_is_percpu(irq)) {
		dev_err(dev, "expected PPI but got SPI (%d)\n", irq);
		return -EINVAL;
	}
	if (irq_get_percpu_devid_partition(irq, &spe->cpus)) {
		dev_err(dev, "failed to get PPI partition (%d)\n", irq);
		return -EINVAL;
	}
	spe->irq = irq;
	return 0;
}

static int spe_register(struct spe_pmu *spe)
{
	static atomic_t count = ATOMIC_INIT(0);
	struct device *dev = &spe->pdev->dev;
	char *name;

	spe->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.parent		= dev,
		.capabilities	= PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_ITRACE,
		.attr_groups	= spe_attr_groups,
		/*
		 * The software context's scheduling gives a task's event
		 * its sched-in and sched-out; the AUX area comes with a
		 * later mmap, so such an event is opened disabled (or
		 * beside a dummy event) and enabled once it is mapped.
		 */
		.task_ctx_nr	= perf_sw_context,
		.event_init	= spe_event_init,
		.add		= spe_add,
		.del		= spe_del,
		.start		= spe_start,
		.stop		= spe_stop,
		.read		= spe_read,
		.setup_aux	= spe_setup_aux,
		.free_aux	= spe_free_aux,
	};
	name = devm_kasprintf(dev, GFP_KERNEL, SPE_PMU_NAME "_%d",
			      atomic_fetch_inc(&count));
	if (!name)
		return -ENOMEM;
	return perf_pmu_register(&spe->pmu, name, -1);
}

static int spe_device_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct spe_pmu *spe;
	int ret;

	/* Under KPTI the kernel's buffer is unmapped at EL0: it faults. */
	if (arm64_kernel_unmapped_at_el0()) {
		dev_warn_once(dev, "profiling buffer inaccessible. Try passing \"kpti=off\" on the kernel command line\n");
		return -EPERM;
	}
	spe = devm_kzalloc(dev, sizeof(*spe), GFP_KERNEL);
	if (!spe)
		return -ENOMEM;
	spe->handle = alloc_percpu(struct perf_output_handle);
	if (!spe->handle)
		return -ENOMEM;
	spe->pdev = pdev;
	spe->hw = &spe_native_hw;
	platform_set_drvdata(pdev, spe);

	ret = spe_probe_irq(spe);
	if (!ret)
		ret = spe_probe_hw(spe);
	if (ret)
		goto free_handle;
	/* The PPI stays disabled until each CPU's online callback. */
	ret = request_percpu_irq(spe->irq, spe_irq, "arm_spe_pmu", spe->handle);
	if (ret)
		goto free_handle;
	ret = cpuhp_state_add_instance(spe_hp_state, &spe->node);
	if (ret)
		goto free_irq;
	ret = spe_register(spe);
	if (ret)
		goto remove_instance;
	return 0;

remove_instance:
	cpuhp_state_remove_instance(spe_hp_state, &spe->node);
free_irq:
	free_percpu_irq(spe->irq, spe->handle);
free_handle:
	free_percpu(spe->handle);
	return ret;
}

static void spe_device_remove(struct platform_device *pdev)
{
	struct spe_pmu *spe = platform_get_drvdata(pdev);

	perf_pmu_unregister(&spe->pmu);
	cpuhp_state_remove_instance(spe_hp_state, &spe->node);
	free_percpu_irq(spe->irq, spe->handle);
	free_percpu(spe->handle);
}

static const struct of_device_id spe_of_match[] = {
	{ .compatible = "arm,statistical-profiling-extension-v1" },
	{ }
};
MODULE_DEVICE_TABLE(of, spe_of_match);

/* The device the ACPI MADT's GICC entries make (arm_pmu_acpi.c) */
static const struct platform_device_id spe_id_match[] = {
	{ ARMV8_SPE_PDEV_NAME, 0 },
	{ }
};
MODULE_DEVICE_TABLE(platform, spe_id_match);

static struct platform_driver spe_driver = {
	.id_table	= spe_id_match,
	.driver		= {
		.name			= "arm_spe_pmu",
		.of_match_table		= spe_of_match,
		.suppress_bind_attrs	= true,
	},
	.probe		= spe_device_probe,
	.remove_new	= spe_device_remove,
};

static int __init spe_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "arm_spe_pmu",
				      spe_cpu_online, spe_cpu_offline);
	if (ret < 0)
		return ret;
	spe_hp_state = ret;
	ret = platform_driver_register(&spe_driver);
	if (ret)
		cpuhp_remove_multi_state(spe_hp_state);
	return ret;
}

static void __exit spe_exit(void)
{
	platform_driver_unregister(&spe_driver);
	cpuhp_remove_multi_state(spe_hp_state);
}

module_init(spe_init);
module_exit(spe_exit);

#if IS_ENABLED(CONFIG_KUNIT)
#include "arm_spe_pmu_test.c"
#endif

MODULE_DESCRIPTION("Arm Statistical Profiling Extension PMU");
MODULE_LICENSE("GPL");
