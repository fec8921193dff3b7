/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: the Arm CPU PMU framework (drivers/perf/arm_pmu*.c), as the
 * CPU PMU drivers, KVM's PMU emulation and the perf hard-lockup detector
 * see it.  drivers/perf/arm_pmu.c says which file does what.
 *
 * A driver fills a struct arm_pmu from armpmu_alloc() with callbacks that
 * reach its registers; the framework does the rest of struct pmu.
 * Counters are numbered as the architecture numbers them: event counter
 * n is index n, PMUv3's cycle counter is index 31 and its instruction
 * counter index 32.
 */
#ifndef _LINUX_PERF_ARM_PMU_H
#define _LINUX_PERF_ARM_PMU_H

#include <asm/cputype.h>
#include <linux/bitfield.h>
#include <linux/perf_event.h>
#include <linux/perf/counter_share.h>
#include <linux/interrupt.h>
#include <linux/sysfs.h>
#include <linux/platform_device.h>

/* Platform device names of Arm's PMU-adjacent tracing units. */
#define ARMV8_SPE_PDEV_NAME	"arm,spe-v1"
#define ARMV8_TRBE_PDEV_NAME	"arm,trbe"

#ifdef CONFIG_ARM_PMU

/* Counter indices go up to 31 (Armv7, Armv8.8) or 32 (Armv8.9's ICNTR). */
#ifdef CONFIG_ARM
#define ARMPMU_MAX_HWEVENTS		32
#else
#define ARMPMU_MAX_HWEVENTS		33
#endif

/*
 * hw_perf_event.flags: how wide the count the event asks for is.  None
 * set means 32 bits.  They live in the core's arch-private flag bits.
 */
#define ARMPMU_EVT_64BIT		BIT(0)
#define ARMPMU_EVT_47BIT		BIT(1)
#define ARMPMU_EVT_63BIT		BIT(2)
static_assert(!((ARMPMU_EVT_64BIT | ARMPMU_EVT_47BIT | ARMPMU_EVT_63BIT) &
		~PERF_EVENT_FLAG_ARCH));

/*
 * Event tables: a driver's map of generic and cache events to its event
 * numbers, with the holes marked so armpmu_map_event() answers -ENOENT.
 */
#define HW_OP_UNSUPPORTED		0xFFFF
#define CACHE_OP_UNSUPPORTED		0xFFFF
#define C(_x)				PERF_COUNT_HW_CACHE_##_x

#define PERF_MAP_ALL_UNSUPPORTED \
	[0 ... PERF_COUNT_HW_MAX - 1] = HW_OP_UNSUPPORTED

#define PERF_CACHE_MAP_ALL_UNSUPPORTED \
	[0 ... C(MAX) - 1][0 ... C(OP_MAX) - 1][0 ... C(RESULT_MAX) - 1] = \
		CACHE_OP_UNSUPPORTED

/**
 * struct pmu_hw_events - one CPU's counters
 * @events: the event on each counter; a chained pair's event sits at
 *	the pair's odd (upper) index only
 * @used_mask: the counters taken, both halves of a pair included
 * @percpu_pmu: the PMU these belong to
 * @irq: this CPU's overflow interrupt, 0 when it has none
 * @stopped: between the core's pmu_disable and pmu_enable: the overflow
 *	handler must not start the counters again
 * @paired: the odd indices in @used_mask that hold a chained pair (the
 *	even one below is the pair's too)
 * @counting: the driver's record of the counters it let count, as the
 *	hardware has them (PMUv3: PMCNTENSET_EL0)
 * @to_count: the counters that count once the PMU starts; the driver
 *	brings @counting to it at start, in one write each way, and at
 *	once outside pmu_disable
 * @irqs_on: the counters whose overflow interrupt the driver enabled
 *	(PMUv3: PMINTENSET_EL0)
 * @user_access: the driver's last setting of EL0's counter access
 *	(PMUv3: PMUSERENR_EL0), U64_MAX when unknown
 * @types: the driver's record of each counter's type register (PMUv3:
 *	PMEVTYPER<n>_EL0), U64_MAX when unknown
 * @share: the events that read a counter of @events' (identical counting
 *	events, kernel/events/share.c), which are in no other field
 * @branch_users: the events on counters that take a branch stack
 * @branches: room for one branch stack of arm_pmu.branch_records
 *	entries, filled at an overflow (NULL without branch records)
 *
 * Only its own CPU changes it, with interrupts off: the struct pmu
 * callbacks run so, and so does the overflow interrupt.  The driver's
 * records are right while its reset() has run since the CPU last lost
 * its registers (bring-up, power-down).
 */
struct pmu_hw_events {
	struct perf_event	*events[ARMPMU_MAX_HWEVENTS];
	DECLARE_BITMAP(used_mask, ARMPMU_MAX_HWEVENTS);
	struct arm_pmu		*percpu_pmu;
	int			irq;
	bool			stopped;
	u64			paired;
	u64			counting;
	u64			to_count;
	u64			irqs_on;
	u64			user_access;
	u64			types[ARMPMU_MAX_HWEVENTS];
	struct perf_share_riders share;
	int			branch_users;
	struct perf_branch_stack *branches;
};

/**
 * struct armpmu_need - the counters an event can be given
 * @prefer: counters only this kind of event can use (PMUv3's cycle
 *	counter for CPU_CYCLES): tried first, one of them is enough
 * @allowed: the counters it may take otherwise
 * @pair: otherwise it takes two neighbouring counters, an even one and
 *	the odd one above it, chained into one; @allowed names the odd
 *	ones.  The event's index is the odd one.
 */
struct armpmu_need {
	u64	prefer;
	u64	allowed;
	bool	pair;
};

/* The slots of arm_pmu.attr_groups. */
enum armpmu_attr_groups {
	ARMPMU_ATTR_GROUP_COMMON = 0,	/* the framework's: cpus */
	ARMPMU_ATTR_GROUP_EVENTS = 1,
	ARMPMU_ATTR_GROUP_FORMATS = 2,
	ARMPMU_ATTR_GROUP_CAPS = 3,
	ARMPMU_NR_ATTR_GROUPS
};

#define ARMV8_PMUV3_MAX_COMMON_EVENTS		0x40
#define ARMV8_PMUV3_EXT_COMMON_EVENT_BASE	0x4000

/**
 * struct arm_pmu - a CPU PMU: one per kind of CPU
 * @pmu: what the core sees; the framework fills it
 * @name: the PMU's name in sysfs
 * @supported_cpus: the CPUs that have this kind of PMU
 * @cntr_mask: the counters it has
 * @pmuver: PMUv3's version (ID_AA64DFR0_EL1.PMUVer), for KVM
 * @reg_pmmir: PMUv3's PMMIR_EL1 (the slots of caps/slots)
 * @pmceid_bitmap: common events 0x0 to 0x3f that the CPU implements
 * @pmceid_ext_bitmap: the same from 0x4000
 * @map_event: an event's number for the counters from its attr, or a
 *	negative errno (armpmu_map_event() does the usual part); may set
 *	the ARMPMU_EVT_* width in hw.flags
 * @set_event_filter: put the privilege filter bits for attr into
 *	hw.config_base, or answer an errno (NULL: the PMU filters nothing)
 * @counters_for: what counters the event may take (struct armpmu_need);
 *	the framework then places events itself, moving those already
 *	placed when a new one fits only so
 * @get_event_idx: without @counters_for, the driver picks a free counter
 *	and marks it in @used_mask (or answers -EAGAIN)
 * @clear_event_idx: and frees it again
 * @enable: program the event's counter and let it count
 * @disable: stop it counting
 * @read_counter: the counter's value
 * @write_counter: load it
 * @start: let the enabled counters count (the CPU's global enable)
 * @stop: stop all of them
 * @reset: put the CPU's counters in a known state (CPU bring-up and
 *	return from a power-down); called on that CPU with the arm_pmu
 * @handle_irq: the overflow interrupt; armpmu_handle_overflow() does
 *	the common part
 * @branch_records: the branch records the CPUs keep (PMUv3's BRBE), 0
 *	without: then the framework refuses branch stacks
 * @branch_init: check a branch-stack event (after @set_event_filter):
 *	0 or an errno
 * @branch_read: at an overflow, with the counters stopped: the event's
 *	branch stack into @stack
 * @secure_access: 32-bit Arm only, unused on arm64
 * @attr_groups: sysfs groups, NULL-terminated; the driver fills EVENTS,
 *	FORMATS and CAPS
 * @plat_device: the device the probe found, if any
 * @hw_events: the per-CPU counters
 * @node: CPU hotplug instance
 * @cpu_pm_nb: CPU power-management notifier
 * @acpi_cpuid: MIDR of the CPUs an ACPI probe gave this PMU
 * @driver_data: the driver's own (PMUv3: its register access)
 */
struct arm_pmu {
	struct pmu	pmu;
	char		*name;
	cpumask_t	supported_cpus;
	DECLARE_BITMAP(cntr_mask, ARMPMU_MAX_HWEVENTS);
	int		pmuver;
	u64		reg_pmmir;
	DECLARE_BITMAP(pmceid_bitmap, ARMV8_PMUV3_MAX_COMMON_EVENTS);
	DECLARE_BITMAP(pmceid_ext_bitmap, ARMV8_PMUV3_MAX_COMMON_EVENTS);

	int		(*map_event)(struct perf_event *event);
	int		(*set_event_filter)(struct hw_perf_event *evt,
					    struct perf_event_attr *attr);
	void		(*counters_for)(struct arm_pmu *armpmu,
					struct perf_event *event,
					struct armpmu_need *need);
	int		(*get_event_idx)(struct pmu_hw_events *cpuc,
					 struct perf_event *event);
	void		(*clear_event_idx)(struct pmu_hw_events *cpuc,
					   struct perf_event *event);
	void		(*enable)(struct perf_event *event);
	void		(*disable)(struct perf_event *event);
	u64		(*read_counter)(struct perf_event *event);
	void		(*write_counter)(struct perf_event *event, u64 val);
	void		(*start)(struct arm_pmu *armpmu);
	void		(*stop)(struct arm_pmu *armpmu);
	void		(*reset)(void *armpmu);
	irqreturn_t	(*handle_irq)(struct arm_pmu *armpmu);
	int		branch_records;
	int		(*branch_init)(struct perf_event *event);
	void		(*branch_read)(struct arm_pmu *armpmu,
				       struct perf_event *event,
				       struct perf_branch_stack *stack);

	bool		secure_access;
	const struct attribute_group *attr_groups[ARMPMU_NR_ATTR_GROUPS + 1];
	struct pmu_hw_events	__percpu *hw_events;
	struct platform_device	*plat_device;
	struct notifier_block	cpu_pm_nb;
	struct hlist_node	node;
	unsigned long	acpi_cpuid;
	const void	*driver_data;
};

#define to_arm_pmu(p) (container_of(p, struct arm_pmu, pmu))

/* A counter bitmap as a mask, bit n for index n (at most 64 counters). */
static inline u64 armpmu_bits64(const unsigned long *bits)
{
	u64 mask;

	bitmap_to_arr64(&mask, bits, ARMPMU_MAX_HWEVENTS);
	return mask;
}

/* The counters the PMU has. */
static inline u64 armpmu_counter_mask(const struct arm_pmu *armpmu)
{
	return armpmu_bits64(armpmu->cntr_mask);
}

/* Counter arithmetic, for drivers' interrupt handlers. */
u64 armpmu_event_update(struct perf_event *event);
int armpmu_event_set_period(struct perf_event *event);
irqreturn_t armpmu_handle_overflow(struct arm_pmu *armpmu, u64 overflowed,
				   struct pt_regs *regs);

int armpmu_map_event_flat(struct perf_event *event, const unsigned int *event_map,
			  const unsigned int *cache_map, u32 raw_event_mask);

/**
 * armpmu_map_event() - an event's number for the counters
 * @event: the event being set up
 * @event_map: the generic hardware events' numbers, or NULL
 * @cache_map: the generic cache events' numbers, or NULL
 * @raw_event_mask: the bits of config a raw event keeps
 *
 * Return: the number, -EINVAL for a generic id beyond the ABI's, or
 * -ENOENT where the PMU has no such event.
 */
static inline int
armpmu_map_event(struct perf_event *event,
		 const unsigned int (*event_map)[PERF_COUNT_HW_MAX],
		 const unsigned int (*cache_map)[C(MAX)][C(OP_MAX)][C(RESULT_MAX)],
		 u32 raw_event_mask)
{
	return armpmu_map_event_flat(event,
				     event_map ? &(*event_map)[0] : NULL,
				     cache_map ? &(*cache_map)[0][0][0] : NULL,
				     raw_event_mask);
}

/* Counter placement (arm_pmu_assign.c), pure. */
int armpmu_take(const struct armpmu_need *need, u64 used);
u64 armpmu_taken(const struct armpmu_need *need, int idx);
int armpmu_assign(const struct armpmu_need *need, int nr, u64 usable,
		  int *idx);

/* Probing: a table of MIDR values and what to call for each. */
typedef int (*armpmu_init_fn)(struct arm_pmu *armpmu);

struct pmu_probe_info {
	unsigned int	cpuid;
	unsigned int	mask;
	armpmu_init_fn	init;
};

#define PMU_PROBE(_cpuid, _mask, _fn) { .cpuid = (_cpuid), .mask = (_mask), .init = (_fn) }
#define ARM_PMU_PROBE(_cpuid, _fn) PMU_PROBE(_cpuid, ARM_CPU_PART_MASK, _fn)
#define ARM_PMU_XSCALE_MASK (ARM_CPU_XSCALE_ARCH_MASK | (0xff << 24))
#define XSCALE_PMU_PROBE(_version, _fn) \
	PMU_PROBE((ARM_CPU_IMP_INTEL << 24) | (_version), ARM_PMU_XSCALE_MASK, _fn)

int arm_pmu_device_probe(struct platform_device *pdev,
			 const struct of_device_id *of_table,
			 const struct pmu_probe_info *table);
int arm_pmu_probe_with(struct platform_device *pdev, armpmu_init_fn init);

#ifdef CONFIG_ACPI
int arm_pmu_acpi_probe(armpmu_init_fn init);
#else
static inline int arm_pmu_acpi_probe(armpmu_init_fn init_fn)
{
	return 0;
}
#endif

#ifdef CONFIG_KVM
void kvm_host_pmu_init(struct arm_pmu *pmu);
#else
static inline void kvm_host_pmu_init(struct arm_pmu *pmu) { }
#endif

/* Whether the PMU interrupt is a pseudo-NMI (the hard-lockup detector). */
bool arm_pmu_irq_is_nmi(void);

/* For the probes (platform and ACPI) only. */
int armpmu_request_irq(int irq, int cpu);
struct arm_pmu *armpmu_alloc(void);
int armpmu_register(struct arm_pmu *armpmu);
void armpmu_free_irq(int irq, int cpu);
void armpmu_free(struct arm_pmu *armpmu);

/* The name of the PMUv3 platform driver. */
#define ARMV8_PMU_PDEV_NAME	"armv8-pmu"

#endif

/*
 * Format attributes from a field's description: a driver defines
 * ATTR_CFG_FLD_<name>_CFG (config, config1, ...), _LO and _HI, then
 * GEN_PMU_FORMAT_ATTR(name) makes format/<name> ("config1:5-16", or
 * "config1:5" for one bit) and ATTR_CFG_GET_FLD(attr, name) reads the
 * field from an attr.
 */
static inline ssize_t armpmu_format_show(char *page, const char *cfg, int lo,
					 int hi)
{
	if (lo == hi)
		return sysfs_emit(page, "%s:%d\n", cfg, lo);
	return sysfs_emit(page, "%s:%d-%d\n", cfg, lo, hi);
}

#define GEN_PMU_FORMAT_ATTR(name)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *page)	\
{									\
	return armpmu_format_show(page,					\
				  __stringify(ATTR_CFG_FLD_##name##_CFG), \
				  ATTR_CFG_FLD_##name##_LO,		\
				  ATTR_CFG_FLD_##name##_HI);		\
}									\
static struct device_attribute format_attr_##name = __ATTR_RO(name)

#define ATTR_CFG_GET_FLD(attr, name)					\
	FIELD_GET(GENMASK_ULL(ATTR_CFG_FLD_##name##_HI, ATTR_CFG_FLD_##name##_LO), \
		  (attr)->ATTR_CFG_FLD_##name##_CFG)

#endif /* _LINUX_PERF_ARM_PMU_H */
