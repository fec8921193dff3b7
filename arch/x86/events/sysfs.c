// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what the x86 "cpu" PMU shows in sysfs, which perf reads to
 * parse event strings:
 *
 *   format/	the fields of attr.config, per vendor;
 *   events/	the generic events this CPU counts, by their encoding
 *		(absent where the event is not counted);
 *   caps/	max_precise (PEBS's), on Intel pmu_name, and
 *		branches (the depth of the branch records) where there
 *		are records;
 *
 * and beside them rdpmc (rdpmc.c), the vendor's own knobs, and on a
 * hybrid part "cpus", the CPUs of the PMU's kind (perf's list of where
 * to open an event of that PMU).  The probe picks the format group and
 * the vendor's files: see x86c_sysfs_init().  A hybrid part has two
 * PMUs, "cpu_core" and "cpu_atom", with the same groups: each file
 * answers for the PMU of the device it is shown in (x86c_dev_pmu()).
 */

#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/topology.h>

#include <asm/msr-index.h>

#include "counters.h"

/* ---- format/ -------------------------------------------------------- */

/* A field of attr.config or .config1, as "config:<bits>". */
struct x86c_format_attr {
	struct device_attribute	attr;
	const char		*word;
	const char		*bits;
};

static ssize_t x86c_format_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	struct x86c_format_attr *f =
		container_of(attr, struct x86c_format_attr, attr);

	return sysfs_emit(page, "%s:%s\n", f->word, f->bits);
}

#define X86C_FORMAT_IN(var, field, config_word, config_bits)		\
static struct x86c_format_attr x86c_format_##var = {			\
	.attr	= __ATTR(field, 0444, x86c_format_show, NULL),		\
	.word	= config_word,						\
	.bits	= config_bits,						\
}

#define X86C_FORMAT(var, field, config_bits)				\
	X86C_FORMAT_IN(var, field, "config", config_bits)

X86C_FORMAT(event, event, "0-7");
X86C_FORMAT(amd_event, event, "0-7,32-35");	/* 4 more select bits */
X86C_FORMAT(umask, umask, "8-15");
X86C_FORMAT(edge, edge, "18");
X86C_FORMAT(pc, pc, "19");
X86C_FORMAT(any, any, "21");
X86C_FORMAT(inv, inv, "23");
X86C_FORMAT(cmask, cmask, "24-31");
X86C_FORMAT(in_tx, in_tx, "32");		/* with RTM */
X86C_FORMAT(in_tx_cp, in_tx_cp, "33");
/* Extra registers' selections, where the family has the registers. */
X86C_FORMAT_IN(offcore_rsp, offcore_rsp, "config1", "0-63");
X86C_FORMAT_IN(ldlat, ldlat, "config1", "0-15");
X86C_FORMAT_IN(frontend, frontend, "config1", "0-23");
X86C_FORMAT_IN(snoop_rsp, snoop_rsp, "config1", "0-63");

static struct attribute *x86c_intel_format_attrs[] = {
	&x86c_format_event.attr.attr,
	&x86c_format_umask.attr.attr,
	&x86c_format_edge.attr.attr,
	&x86c_format_pc.attr.attr,
	&x86c_format_any.attr.attr,
	&x86c_format_inv.attr.attr,
	&x86c_format_cmask.attr.attr,
	&x86c_format_in_tx.attr.attr,
	&x86c_format_in_tx_cp.attr.attr,
	&x86c_format_offcore_rsp.attr.attr,
	&x86c_format_ldlat.attr.attr,
	&x86c_format_frontend.attr.attr,
	&x86c_format_snoop_rsp.attr.attr,
	NULL,
};

/* Does @p's family have extra register @msr (present or not)? */
static bool x86c_has_extra(struct x86c_pmu *p, u32 msr)
{
	int i;

	for (i = 0; i < p->nr_extra; i++)
		if (p->extra_regs[i].msr == msr)
			return true;
	return false;
}

static umode_t x86c_intel_format_visible(struct kobject *kobj,
					 struct attribute *attr, int i)
{
	struct x86c_pmu *p = x86c_dev_pmu(kobj_to_dev(kobj));

	if (attr == &x86c_format_any.attr.attr && !p->format_any)
		return 0;
	if ((attr == &x86c_format_in_tx.attr.attr ||
	     attr == &x86c_format_in_tx_cp.attr.attr) && !p->tsx_events)
		return 0;
	if (attr == &x86c_format_offcore_rsp.attr.attr)
		return x86c_has_extra(p, MSR_OFFCORE_RSP_0) ? attr->mode : 0;
	if (attr == &x86c_format_ldlat.attr.attr)
		return x86c_has_extra(p, MSR_PEBS_LD_LAT_THRESHOLD) ?
		       attr->mode : 0;
	if (attr == &x86c_format_frontend.attr.attr)
		return x86c_has_extra(p, MSR_PEBS_FRONTEND) ? attr->mode : 0;
	if (attr == &x86c_format_snoop_rsp.attr.attr)
		return x86c_has_extra(p, MSR_SNOOP_RSP_0) ? attr->mode : 0;
	return attr->mode;
}

const struct attribute_group x86c_intel_format_group = {
	.name		= "format",
	.attrs		= x86c_intel_format_attrs,
	.is_visible	= x86c_intel_format_visible,
};

static struct attribute *x86c_amd_format_attrs[] = {
	&x86c_format_amd_event.attr.attr,
	&x86c_format_umask.attr.attr,
	&x86c_format_edge.attr.attr,
	&x86c_format_inv.attr.attr,
	&x86c_format_cmask.attr.attr,
	NULL,
};

const struct attribute_group x86c_amd_format_group = {
	.name	= "format",
	.attrs	= x86c_amd_format_attrs,
};

/* ---- events/ -------------------------------------------------------- */

/*
 * A generic event as perf would write it from the format: the event
 * select (with AMD's high bits), then the other fields that are set.
 */
static ssize_t x86c_event_show(struct device *dev,
			       struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *pattr =
		container_of(attr, struct perf_pmu_events_attr, attr);
	u64 code = x86c_dev_pmu(dev)->event_map[pattr->id];
	u64 event = (code & ARCH_PERFMON_EVENTSEL_EVENT) |
		    ((code >> 24) & 0xf00);
	u64 umask = (code & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;
	u64 cmask = (code & ARCH_PERFMON_EVENTSEL_CMASK) >> 24;
	int len;

	len = sysfs_emit(page, "event=0x%02llx", event);
	if (umask)
		len += sysfs_emit_at(page, len, ",umask=0x%02llx", umask);
	if (code & ARCH_PERFMON_EVENTSEL_EDGE)
		len += sysfs_emit_at(page, len, ",edge");
	if (code & ARCH_PERFMON_EVENTSEL_INV)
		len += sysfs_emit_at(page, len, ",inv");
	if (cmask)
		len += sysfs_emit_at(page, len, ",cmask=0x%02llx", cmask);
	len += sysfs_emit_at(page, len, "\n");
	return len;
}

#define X86C_EVENT_ATTR(var, file, hw_event)				\
static struct perf_pmu_events_attr x86c_event_##var = {		\
	.attr = {							\
		.attr	= { .name = file, .mode = 0444 },		\
		.show	= x86c_event_show,				\
	},								\
	.id	= hw_event,						\
}

X86C_EVENT_ATTR(cycles, "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES);
X86C_EVENT_ATTR(instructions, "instructions", PERF_COUNT_HW_INSTRUCTIONS);
X86C_EVENT_ATTR(cache_refs, "cache-references", PERF_COUNT_HW_CACHE_REFERENCES);
X86C_EVENT_ATTR(cache_misses, "cache-misses", PERF_COUNT_HW_CACHE_MISSES);
X86C_EVENT_ATTR(branches, "branch-instructions",
		PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
X86C_EVENT_ATTR(branch_misses, "branch-misses", PERF_COUNT_HW_BRANCH_MISSES);
X86C_EVENT_ATTR(bus_cycles, "bus-cycles", PERF_COUNT_HW_BUS_CYCLES);
X86C_EVENT_ATTR(stalled_front, "stalled-cycles-frontend",
		PERF_COUNT_HW_STALLED_CYCLES_FRONTEND);
X86C_EVENT_ATTR(stalled_back, "stalled-cycles-backend",
		PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
X86C_EVENT_ATTR(ref_cycles, "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES);

/*
 * The family's named events (struct x86c_named_event), in slots the
 * probe fills, X86C_MAX_NAMED for each PMU: a slot is shown in its
 * PMU's directory only.  As upstream, a hybrid part's and the ones that
 * read otherwise with SMT end without a newline, the others with one.
 */
struct x86c_named_attr {
	struct device_attribute		attr;
	const struct x86c_named_event	*event;
	const struct x86c_pmu		*pmu;
};

static ssize_t x86c_named_show(struct device *dev,
			       struct device_attribute *attr, char *page)
{
	struct x86c_named_attr *named =
		container_of(attr, struct x86c_named_attr, attr);
	const struct x86c_named_event *e = named->event;
	const char *value = e->value;

	if (!e->value_smt && !named->pmu->core_type)
		return sysfs_emit(page, "%s\n", value);
	if (e->value_smt && topology_max_smt_threads() > 1)
		value = e->value_smt;
	/* Copied as it is: perf reads these without a newline. */
	return strscpy(page, value, PAGE_SIZE);
}

static struct x86c_named_attr x86c_named[X86C_MAX_PMUS * X86C_MAX_NAMED];

/* The generic events' files, then the named slots (x86c_sysfs_init()). */
#define X86C_GENERIC_EVENTS	10

static struct attribute *x86c_event_attrs[X86C_GENERIC_EVENTS +
					  ARRAY_SIZE(x86c_named) + 1] = {
	&x86c_event_cycles.attr.attr,
	&x86c_event_instructions.attr.attr,
	&x86c_event_cache_refs.attr.attr,
	&x86c_event_cache_misses.attr.attr,
	&x86c_event_branches.attr.attr,
	&x86c_event_branch_misses.attr.attr,
	&x86c_event_bus_cycles.attr.attr,
	&x86c_event_stalled_front.attr.attr,
	&x86c_event_stalled_back.attr.attr,
	&x86c_event_ref_cycles.attr.attr,
};

/*
 * A generic event this CPU does not count has no file, nor has a named
 * slot the family left empty, nor a topdown event where the metrics are
 * not there.
 */
static umode_t x86c_event_visible(struct kobject *kobj, struct attribute *attr,
				  int i)
{
	struct x86c_pmu *p = x86c_dev_pmu(kobj_to_dev(kobj));
	struct perf_pmu_events_attr *pattr;
	int n;

	for (n = 0; n < ARRAY_SIZE(x86c_named); n++) {
		const struct x86c_named_event *e = x86c_named[n].event;

		if (attr != &x86c_named[n].attr.attr)
			continue;
		if (!e || x86c_named[n].pmu != p ||
		    (e->needs_metrics && !p->perf_metrics))
			return 0;
		return attr->mode;
	}
	pattr = container_of(attr, struct perf_pmu_events_attr, attr.attr);
	return p->event_map[pattr->id] ? attr->mode : 0;
}

static const struct attribute_group x86c_events_group = {
	.name		= "events",
	.attrs		= x86c_event_attrs,
	.is_visible	= x86c_event_visible,
};

/* ---- caps/ ---------------------------------------------------------- */

static ssize_t max_precise_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	/* How precise a sample may be asked to be: PEBS's (intel/pebs.c). */
	return sysfs_emit(buf, "%d\n", x86c_dev_pmu(dev)->max_precise);
}
static DEVICE_ATTR_RO(max_precise);

static ssize_t pmu_name_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", x86c_dev_pmu(dev)->family_name);
}
static DEVICE_ATTR_RO(pmu_name);

/* How many branch records a sample can hold: perf's LBR depth. */
static ssize_t branches_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", x86c_dev_pmu(dev)->lbr.nr);
}
static DEVICE_ATTR_RO(branches);

static struct attribute *x86c_caps_attrs[] = {
	&dev_attr_max_precise.attr,
	&dev_attr_pmu_name.attr,
	&dev_attr_branches.attr,
	NULL,
};

/* Intel names its PMU; AMD's has no name.  Branches where there are. */
static umode_t x86c_caps_visible(struct kobject *kobj, struct attribute *attr,
				 int i)
{
	struct x86c_pmu *p = x86c_dev_pmu(kobj_to_dev(kobj));

	if (attr == &dev_attr_pmu_name.attr && !p->family_name)
		return 0;
	if (attr == &dev_attr_branches.attr && !p->lbr.nr)
		return 0;
	return attr->mode;
}

static const struct attribute_group x86c_caps_group = {
	.name		= "caps",
	.attrs		= x86c_caps_attrs,
	.is_visible	= x86c_caps_visible,
};

/* ---- cpus ----------------------------------------------------------- */

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return cpumap_print_to_pagebuf(true, buf,
				       &x86c_dev_pmu(dev)->supported);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *x86c_hybrid_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

/* Only a hybrid PMU counts on some CPUs and not others. */
static umode_t x86c_hybrid_visible(struct kobject *kobj,
				   struct attribute *attr, int i)
{
	return x86c_dev_pmu(kobj_to_dev(kobj))->core_type ? attr->mode : 0;
}

static const struct attribute_group x86c_hybrid_group = {
	.attrs		= x86c_hybrid_attrs,
	.is_visible	= x86c_hybrid_visible,
};

/* The two slots the probe fills: format/ and the vendor's own files. */
#define X86C_FORMAT_SLOT	4
#define X86C_VENDOR_SLOT	5

const struct attribute_group *x86c_attr_groups[] = {
	&x86c_rdpmc_group,
	&x86c_events_group,
	&x86c_caps_group,
	&x86c_hybrid_group,
	NULL,		/* format/ */
	NULL,		/* the vendor's files, if any */
	NULL,
};

/*
 * Fill a PMU's named-event @slot from @n on with the events of @first
 * (NULL for none).  Return: the next free one.
 */
static int x86c_named_slots(struct x86c_named_attr *slot, int n,
			    const struct x86c_named_event *first)
{
	const struct x86c_named_event *e;

	x86c_for_each_named(e, first) {
		if (WARN_ON_ONCE(n == X86C_MAX_NAMED))
			break;
		sysfs_attr_init(&slot[n].attr.attr);
		slot[n].attr.attr.name = e->name;
		slot[n].attr.attr.mode = 0444;
		slot[n].attr.show = x86c_named_show;
		slot[n].event = e;
		n++;
	}
	return n;
}

/**
 * x86c_sysfs_init - choose the vendor's groups before registration
 * @p: a probed host PMU; a hybrid part's second after its first (the
 *	vendor is the same for both)
 */
void x86c_sysfs_init(struct x86c_pmu *p)
{
	struct x86c_named_attr *slot = x86c_named;
	int n;

	x86c_attr_groups[X86C_FORMAT_SLOT] = p->format;
	x86c_attr_groups[X86C_VENDOR_SLOT] = p->vendor_group;
	for (n = 0; n < ARRAY_SIZE(x86c_named); n++)
		x86c_event_attrs[X86C_GENERIC_EVENTS + n] =
			&x86c_named[n].attr.attr;
	/* This PMU's slots: those after the ones a first PMU took. */
	while (slot < x86c_named + ARRAY_SIZE(x86c_named) && slot->pmu)
		slot += X86C_MAX_NAMED;
	if (WARN_ON_ONCE(slot == x86c_named + ARRAY_SIZE(x86c_named)))
		return;
	n = x86c_named_slots(slot, 0, p->named_events);
	n = x86c_named_slots(slot, n, p->tsx_events);
	if (p->pebs)
		x86c_named_slots(slot, n, p->mem_events);
	for (n = 0; n < X86C_MAX_NAMED; n++)
		slot[n].pmu = p;
}
