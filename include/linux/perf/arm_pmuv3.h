/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: the numbers of the Armv8 PMU architecture, PMUv3, that do not
 * depend on how its registers are reached: counter indices, event numbers
 * and the fields of the PMU's control, filter and ID registers.  Code
 * outside perfcore uses them by name, so names, values and types are the
 * ones every 6.12 user expects.
 *
 * The CPU PMU driver (drivers/perf/arm_pmuv3.c) programs a real PMU with
 * them, and KVM (include/kvm/arm_pmu.h, arch/arm64/kvm/) emulates one for
 * its guests with the very same numbers, so both include this header.
 * Reaching the registers differs between AArch64 (system registers) and
 * AArch32 (CP15): <asm/arm_pmuv3.h>, included at the end, has the
 * accessors, built on PMEVN_SWITCH() below.
 */
#ifndef __PERF_ARM_PMUV3_H
#define __PERF_ARM_PMUV3_H

#include <linux/bits.h>
#include <linux/bug.h>

/*
 * Counter indices are the architecture's: event counters 0 to 30 (PMCR.N
 * says how many there are), the cycle counter at 31 and, with
 * FEAT_PMUv3_ICNTR, the instruction counter at 32.  They double as the
 * counters' bit numbers in PMCNTENSET/CLR, PMINTENSET/CLR and PMOVSSET/CLR.
 */
#define ARMV8_PMU_MAX_GENERAL_COUNTERS	31
#define ARMV8_PMU_CYCLE_IDX		31	/* PMCCNTR */
#define ARMV8_PMU_INSTR_IDX		32	/* PMICNTR, AArch64 only */

/*
 * Common events 0x00-0x3f.  PMCEID0 and PMCEID1 say which of them the CPU
 * counts, bits 0-31 of each for 0x00-0x1f and 0x20-0x3f.
 */
#define ARMV8_PMUV3_PERFCTR_SW_INCR			0x00
#define ARMV8_PMUV3_PERFCTR_L1I_CACHE_REFILL		0x01
#define ARMV8_PMUV3_PERFCTR_L1I_TLB_REFILL		0x02
#define ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL		0x03
#define ARMV8_PMUV3_PERFCTR_L1D_CACHE			0x04
#define ARMV8_PMUV3_PERFCTR_L1D_TLB_REFILL		0x05
#define ARMV8_PMUV3_PERFCTR_LD_RETIRED			0x06
#define ARMV8_PMUV3_PERFCTR_ST_RETIRED			0x07
#define ARMV8_PMUV3_PERFCTR_INST_RETIRED		0x08
#define ARMV8_PMUV3_PERFCTR_EXC_TAKEN			0x09
#define ARMV8_PMUV3_PERFCTR_EXC_RETURN			0x0a
#define ARMV8_PMUV3_PERFCTR_CID_WRITE_RETIRED		0x0b
#define ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED		0x0c
#define ARMV8_PMUV3_PERFCTR_BR_IMMED_RETIRED		0x0d
#define ARMV8_PMUV3_PERFCTR_BR_RETURN_RETIRED		0x0e
#define ARMV8_PMUV3_PERFCTR_UNALIGNED_LDST_RETIRED	0x0f
#define ARMV8_PMUV3_PERFCTR_BR_MIS_PRED			0x10
#define ARMV8_PMUV3_PERFCTR_CPU_CYCLES			0x11
#define ARMV8_PMUV3_PERFCTR_BR_PRED			0x12
#define ARMV8_PMUV3_PERFCTR_MEM_ACCESS			0x13
#define ARMV8_PMUV3_PERFCTR_L1I_CACHE			0x14
#define ARMV8_PMUV3_PERFCTR_L1D_CACHE_WB		0x15
#define ARMV8_PMUV3_PERFCTR_L2D_CACHE			0x16
#define ARMV8_PMUV3_PERFCTR_L2D_CACHE_REFILL		0x17
#define ARMV8_PMUV3_PERFCTR_L2D_CACHE_WB		0x18
#define ARMV8_PMUV3_PERFCTR_BUS_ACCESS			0x19
#define ARMV8_PMUV3_PERFCTR_MEMORY_ERROR		0x1a
#define ARMV8_PMUV3_PERFCTR_INST_SPEC			0x1b
#define ARMV8_PMUV3_PERFCTR_TTBR_WRITE_RETIRED		0x1c
#define ARMV8_PMUV3_PERFCTR_BUS_CYCLES			0x1d
#define ARMV8_PMUV3_PERFCTR_CHAIN			0x1e
#define ARMV8_PMUV3_PERFCTR_L1D_CACHE_ALLOCATE		0x1f
#define ARMV8_PMUV3_PERFCTR_L2D_CACHE_ALLOCATE		0x20
#define ARMV8_PMUV3_PERFCTR_BR_RETIRED			0x21
#define ARMV8_PMUV3_PERFCTR_BR_MIS_PRED_RETIRED		0x22
#define ARMV8_PMUV3_PERFCTR_STALL_FRONTEND		0x23
#define ARMV8_PMUV3_PERFCTR_STALL_BACKEND		0x24
#define ARMV8_PMUV3_PERFCTR_L1D_TLB			0x25
#define ARMV8_PMUV3_PERFCTR_L1I_TLB			0x26
#define ARMV8_PMUV3_PERFCTR_L2I_CACHE			0x27
#define ARMV8_PMUV3_PERFCTR_L2I_CACHE_REFILL		0x28
#define ARMV8_PMUV3_PERFCTR_L3D_CACHE_ALLOCATE		0x29
#define ARMV8_PMUV3_PERFCTR_L3D_CACHE_REFILL		0x2a
#define ARMV8_PMUV3_PERFCTR_L3D_CACHE			0x2b
#define ARMV8_PMUV3_PERFCTR_L3D_CACHE_WB		0x2c
#define ARMV8_PMUV3_PERFCTR_L2D_TLB_REFILL		0x2d
#define ARMV8_PMUV3_PERFCTR_L2I_TLB_REFILL		0x2e
#define ARMV8_PMUV3_PERFCTR_L2D_TLB			0x2f
#define ARMV8_PMUV3_PERFCTR_L2I_TLB			0x30
#define ARMV8_PMUV3_PERFCTR_REMOTE_ACCESS		0x31
#define ARMV8_PMUV3_PERFCTR_LL_CACHE			0x32
#define ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS		0x33
#define ARMV8_PMUV3_PERFCTR_DTLB_WALK			0x34
#define ARMV8_PMUV3_PERFCTR_ITLB_WALK			0x35
#define ARMV8_PMUV3_PERFCTR_LL_CACHE_RD			0x36
#define ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD		0x37
#define ARMV8_PMUV3_PERFCTR_REMOTE_ACCESS_RD		0x38
#define ARMV8_PMUV3_PERFCTR_L1D_CACHE_LMISS_RD		0x39
#define ARMV8_PMUV3_PERFCTR_OP_RETIRED			0x3a
#define ARMV8_PMUV3_PERFCTR_OP_SPEC			0x3b
#define ARMV8_PMUV3_PERFCTR_STALL			0x3c
#define ARMV8_PMUV3_PERFCTR_STALL_SLOT_BACKEND		0x3d
#define ARMV8_PMUV3_PERFCTR_STALL_SLOT_FRONTEND		0x3e
#define ARMV8_PMUV3_PERFCTR_STALL_SLOT			0x3f

/*
 * Extended common events 0x4000-0x403f, in bits 32-63 of PMCEID0 and
 * PMCEID1 (PMCEID2 and PMCEID3 on AArch32).  The comment on the first
 * event of each group says what the group is.
 */
#define ARMV8_SPE_PERFCTR_SAMPLE_POP		0x4000	/* SPE: population */
#define ARMV8_SPE_PERFCTR_SAMPLE_FEED		0x4001	/* SPE: samples taken */
#define ARMV8_SPE_PERFCTR_SAMPLE_FILTRATE	0x4002	/* SPE: samples kept */
#define ARMV8_SPE_PERFCTR_SAMPLE_COLLISION	0x4003	/* SPE: collisions */
#define ARMV8_AMU_PERFCTR_CNT_CYCLES		0x4004	/* AMUv1 */
#define ARMV8_AMU_PERFCTR_STALL_BACKEND_MEM	0x4005
#define ARMV8_PMUV3_PERFCTR_L1I_CACHE_LMISS	0x4006	/* long-latency miss */
#define ARMV8_PMUV3_PERFCTR_L2D_CACHE_LMISS_RD	0x4009
#define ARMV8_PMUV3_PERFCTR_L2I_CACHE_LMISS	0x400a
#define ARMV8_PMUV3_PERFCTR_L3D_CACHE_LMISS_RD	0x400b
#define ARMV8_PMUV3_PERFCTR_TRB_WRAP		0x400c	/* trace buffer */
#define ARMV8_PMUV3_PERFCTR_TRB_TRIG		0x400e
#define ARMV8_PMUV3_PERFCTR_TRCEXTOUT0		0x4010	/* trace unit outputs */
#define ARMV8_PMUV3_PERFCTR_TRCEXTOUT1		0x4011
#define ARMV8_PMUV3_PERFCTR_TRCEXTOUT2		0x4012
#define ARMV8_PMUV3_PERFCTR_TRCEXTOUT3		0x4013
#define ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT4	0x4018	/* CTI outputs */
#define ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT5	0x4019
#define ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT6	0x401a
#define ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT7	0x401b
#define ARMV8_PMUV3_PERFCTR_LDST_ALIGN_LAT	0x4020	/* alignment latency */
#define ARMV8_PMUV3_PERFCTR_LD_ALIGN_LAT	0x4021
#define ARMV8_PMUV3_PERFCTR_ST_ALIGN_LAT	0x4022
#define ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED	0x4024	/* MTE (Armv8.5) */
#define ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED_RD	0x4025
#define ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED_WR	0x4026

/*
 * Events 0x40-0xbf are the CPU's own, but the Arm ARM recommends numbers
 * for common ones and most CPUs follow it.  These are those numbers; the
 * CPU-specific tables in the driver pick from them.
 */
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD		0x40
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR		0x41
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_RD	0x42
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_WR	0x43
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_INNER	0x44
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_OUTER	0x45
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WB_VICTIM	0x46
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WB_CLEAN		0x47
#define ARMV8_IMPDEF_PERFCTR_L1D_CACHE_INVAL		0x48
#define ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_RD		0x4c
#define ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_WR		0x4d
#define ARMV8_IMPDEF_PERFCTR_L1D_TLB_RD			0x4e
#define ARMV8_IMPDEF_PERFCTR_L1D_TLB_WR			0x4f
#define ARMV8_IMPDEF_PERFCTR_L2D_CACHE_RD		0x50
#define ARMV8_IMPDEF_PERFCTR_L2D_CACHE_WR		0x51
#define ARMV8_IMPDEF_PERFCTR_L2D_CACHE_REFILL_RD	0x52
#define ARMV8_IMPDEF_PERFCTR_L2D_CACHE_REFILL_WR	0x53
#define ARMV8_IMPDEF_PERFCTR_L2D_CACHE_WB_VICTIM	0x56
#define ARMV8_IMPDEF_PERFCTR_L2D_CACHE_WB_CLEAN		0x57
#define ARMV8_IMPDEF_PERFCTR_L2D_CACHE_INVAL		0x58
#define ARMV8_IMPDEF_PERFCTR_L2D_TLB_REFILL_RD		0x5c
#define ARMV8_IMPDEF_PERFCTR_L2D_TLB_REFILL_WR		0x5d
#define ARMV8_IMPDEF_PERFCTR_L2D_TLB_RD			0x5e
#define ARMV8_IMPDEF_PERFCTR_L2D_TLB_WR			0x5f
#define ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_RD		0x60
#define ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_WR		0x61
#define ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_SHARED		0x62
#define ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_NOT_SHARED	0x63
#define ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_NORMAL		0x64
#define ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_PERIPH		0x65
#define ARMV8_IMPDEF_PERFCTR_MEM_ACCESS_RD		0x66
#define ARMV8_IMPDEF_PERFCTR_MEM_ACCESS_WR		0x67
#define ARMV8_IMPDEF_PERFCTR_UNALIGNED_LD_SPEC		0x68
#define ARMV8_IMPDEF_PERFCTR_UNALIGNED_ST_SPEC		0x69
#define ARMV8_IMPDEF_PERFCTR_UNALIGNED_LDST_SPEC	0x6a
#define ARMV8_IMPDEF_PERFCTR_LDREX_SPEC			0x6c
#define ARMV8_IMPDEF_PERFCTR_STREX_PASS_SPEC		0x6d
#define ARMV8_IMPDEF_PERFCTR_STREX_FAIL_SPEC		0x6e
#define ARMV8_IMPDEF_PERFCTR_STREX_SPEC			0x6f
#define ARMV8_IMPDEF_PERFCTR_LD_SPEC			0x70
#define ARMV8_IMPDEF_PERFCTR_ST_SPEC			0x71
#define ARMV8_IMPDEF_PERFCTR_LDST_SPEC			0x72
#define ARMV8_IMPDEF_PERFCTR_DP_SPEC			0x73
#define ARMV8_IMPDEF_PERFCTR_ASE_SPEC			0x74
#define ARMV8_IMPDEF_PERFCTR_VFP_SPEC			0x75
#define ARMV8_IMPDEF_PERFCTR_PC_WRITE_SPEC		0x76
#define ARMV8_IMPDEF_PERFCTR_CRYPTO_SPEC		0x77
#define ARMV8_IMPDEF_PERFCTR_BR_IMMED_SPEC		0x78
#define ARMV8_IMPDEF_PERFCTR_BR_RETURN_SPEC		0x79
#define ARMV8_IMPDEF_PERFCTR_BR_INDIRECT_SPEC		0x7a
#define ARMV8_IMPDEF_PERFCTR_ISB_SPEC			0x7c
#define ARMV8_IMPDEF_PERFCTR_DSB_SPEC			0x7d
#define ARMV8_IMPDEF_PERFCTR_DMB_SPEC			0x7e
#define ARMV8_IMPDEF_PERFCTR_EXC_UNDEF			0x81
#define ARMV8_IMPDEF_PERFCTR_EXC_SVC			0x82
#define ARMV8_IMPDEF_PERFCTR_EXC_PABORT			0x83
#define ARMV8_IMPDEF_PERFCTR_EXC_DABORT			0x84
#define ARMV8_IMPDEF_PERFCTR_EXC_IRQ			0x86
#define ARMV8_IMPDEF_PERFCTR_EXC_FIQ			0x87
#define ARMV8_IMPDEF_PERFCTR_EXC_SMC			0x88
#define ARMV8_IMPDEF_PERFCTR_EXC_HVC			0x8a
#define ARMV8_IMPDEF_PERFCTR_EXC_TRAP_PABORT		0x8b
#define ARMV8_IMPDEF_PERFCTR_EXC_TRAP_DABORT		0x8c
#define ARMV8_IMPDEF_PERFCTR_EXC_TRAP_OTHER		0x8d
#define ARMV8_IMPDEF_PERFCTR_EXC_TRAP_IRQ		0x8e
#define ARMV8_IMPDEF_PERFCTR_EXC_TRAP_FIQ		0x8f
#define ARMV8_IMPDEF_PERFCTR_RC_LD_SPEC			0x90
#define ARMV8_IMPDEF_PERFCTR_RC_ST_SPEC			0x91
#define ARMV8_IMPDEF_PERFCTR_L3D_CACHE_RD		0xa0
#define ARMV8_IMPDEF_PERFCTR_L3D_CACHE_WR		0xa1
#define ARMV8_IMPDEF_PERFCTR_L3D_CACHE_REFILL_RD	0xa2
#define ARMV8_IMPDEF_PERFCTR_L3D_CACHE_REFILL_WR	0xa3
#define ARMV8_IMPDEF_PERFCTR_L3D_CACHE_WB_VICTIM	0xa6
#define ARMV8_IMPDEF_PERFCTR_L3D_CACHE_WB_CLEAN		0xa7
#define ARMV8_IMPDEF_PERFCTR_L3D_CACHE_INVAL		0xa8

/*
 * PMCR, the control register.  The flags are plain ints; the mask, bits
 * 0-7, is what the driver and KVM treat as writable.  N, read-only on a
 * real CPU, is how many event counters it has.
 */
#define ARMV8_PMU_PMCR_E	0x01	/* counters enabled */
#define ARMV8_PMU_PMCR_P	0x02	/* zero the event counters */
#define ARMV8_PMU_PMCR_C	0x04	/* zero the cycle counter */
#define ARMV8_PMU_PMCR_D	0x08	/* cycle counter ticks per 64 cycles */
#define ARMV8_PMU_PMCR_X	0x10	/* events exported to a trace unit */
#define ARMV8_PMU_PMCR_DP	0x20	/* no cycle counting where prohibited */
#define ARMV8_PMU_PMCR_LC	0x40	/* cycle counter overflows at 64 bits */
#define ARMV8_PMU_PMCR_LP	0x80	/* event counters overflow at 64 bits */
#define ARMV8_PMU_PMCR_N	GENMASK(15, 11)

#define ARMV8_PMU_PMCR_MASK						\
	(ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C |	\
	 ARMV8_PMU_PMCR_D | ARMV8_PMU_PMCR_X | ARMV8_PMU_PMCR_DP |	\
	 ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_LP)

/*
 * PMOVSSET/PMOVSCLR, the overflow flags, one per counter index.  The
 * instruction counter's flag, AArch64 only, is above bit 31, so the whole
 * set is 64 bits wide.
 */
#define ARMV8_PMU_OVSR_P	GENMASK(30, 0)	/* event counters */
#define ARMV8_PMU_OVSR_C	BIT(31)		/* cycle counter */
#define ARMV8_PMU_OVSR_F	BIT_ULL(32)	/* instruction counter */

#define ARMV8_PMU_OVERFLOWED_MASK	\
	(ARMV8_PMU_OVSR_C | ARMV8_PMU_OVSR_P | ARMV8_PMU_OVSR_F)

/*
 * PMEVTYPER<n>: the event number, and FEAT_PMUv3_TH's threshold (TH) and
 * threshold condition (TC), which only AArch64's 64-bit register has.
 */
#define ARMV8_PMU_EVTYPE_EVENT	GENMASK(15, 0)
#define ARMV8_PMU_EVTYPE_TH	GENMASK_ULL(43, 32)
#define ARMV8_PMU_EVTYPE_TC	GENMASK_ULL(63, 61)

/*
 * Exception-level filters in bits 26-31 of PMEVTYPER<n>, PMCCFILTR and
 * PMICFILTR, each named after what setting it does.  They are unsigned
 * ints, and so is ~ of one: ANDed into a u64 it clears bits 32-63 too.
 */
#define ARMV8_PMU_EXCLUDE_EL3		0x04000000U	/* M */
#define ARMV8_PMU_INCLUDE_EL2		0x08000000U	/* NSH */
#define ARMV8_PMU_EXCLUDE_NS_EL0	0x10000000U	/* NSU */
#define ARMV8_PMU_EXCLUDE_NS_EL1	0x20000000U	/* NSK */
#define ARMV8_PMU_EXCLUDE_EL0		0x40000000U	/* U */
#define ARMV8_PMU_EXCLUDE_EL1		0x80000000U	/* P */

/* PMUSERENR: what EL0 may do to the PMU, as int flags. */
#define ARMV8_PMU_USERENR_EN	0x1	/* access it all */
#define ARMV8_PMU_USERENR_SW	0x2	/* write PMSWINC */
#define ARMV8_PMU_USERENR_CR	0x4	/* read the cycle counter */
#define ARMV8_PMU_USERENR_ER	0x8	/* read the event counters */
#define ARMV8_PMU_USERENR_MASK	\
	(ARMV8_PMU_USERENR_EN | ARMV8_PMU_USERENR_SW |			\
	 ARMV8_PMU_USERENR_CR | ARMV8_PMU_USERENR_ER)

/*
 * PMMIR, FEAT_PMUv3p4's description of the machine, which the STALL_SLOT
 * and BUS_ACCESS events and PMEVTYPER.TH are measured against.
 */
#define ARMV8_PMU_SLOTS		GENMASK(7, 0)	/* operations per cycle */
#define ARMV8_PMU_BUS_SLOTS	GENMASK(15, 8)	/* bus transfers per cycle */
#define ARMV8_PMU_BUS_WIDTH	GENMASK(19, 16)	/* bus width, encoded */
#define ARMV8_PMU_THWIDTH	GENMASK(23, 20)	/* bits of PMEVTYPER.TH */

/*
 * PMEVN_SWITCH(idx, case_macro) turns a run-time event counter index into
 * one of 31 register accesses.  Each event counter has registers of its
 * own, PMEVCNTR<n> and PMEVTYPER<n>, and an MRS/MSR (MRC/MCR on AArch32)
 * names its register in the instruction, so <asm/arm_pmuv3.h> needs a
 * switch with an arm per index, each giving case_macro a literal n to
 * paste into a register name.  An index outside 0-30 only warns.
 *
 * PMEVN_CASE(n, case_macro) is one such arm: "case n: case_macro(n);
 * break", to be ended with a semicolon.
 *
 * The helpers take the case macro, or the index, as __VA_ARGS__: both are
 * plain tokens used more than once, which checkpatch --strict otherwise
 * reports as arguments with possible side effects.
 */
#define __PMEVN_ARM(case_macro, ...)					\
	case __VA_ARGS__:						\
		case_macro(__VA_ARGS__);				\
		break

#define PMEVN_CASE(n, case_macro)	__PMEVN_ARM(case_macro, n)

#define __PMEVN_SWITCH(x, ...)						\
	do {								\
		switch (x) {						\
		PMEVN_CASE(0, __VA_ARGS__);				\
		PMEVN_CASE(1, __VA_ARGS__);				\
		PMEVN_CASE(2, __VA_ARGS__);				\
		PMEVN_CASE(3, __VA_ARGS__);				\
		PMEVN_CASE(4, __VA_ARGS__);				\
		PMEVN_CASE(5, __VA_ARGS__);				\
		PMEVN_CASE(6, __VA_ARGS__);				\
		PMEVN_CASE(7, __VA_ARGS__);				\
		PMEVN_CASE(8, __VA_ARGS__);				\
		PMEVN_CASE(9, __VA_ARGS__);				\
		PMEVN_CASE(10, __VA_ARGS__);				\
		PMEVN_CASE(11, __VA_ARGS__);				\
		PMEVN_CASE(12, __VA_ARGS__);				\
		PMEVN_CASE(13, __VA_ARGS__);				\
		PMEVN_CASE(14, __VA_ARGS__);				\
		PMEVN_CASE(15, __VA_ARGS__);				\
		PMEVN_CASE(16, __VA_ARGS__);				\
		PMEVN_CASE(17, __VA_ARGS__);				\
		PMEVN_CASE(18, __VA_ARGS__);				\
		PMEVN_CASE(19, __VA_ARGS__);				\
		PMEVN_CASE(20, __VA_ARGS__);				\
		PMEVN_CASE(21, __VA_ARGS__);				\
		PMEVN_CASE(22, __VA_ARGS__);				\
		PMEVN_CASE(23, __VA_ARGS__);				\
		PMEVN_CASE(24, __VA_ARGS__);				\
		PMEVN_CASE(25, __VA_ARGS__);				\
		PMEVN_CASE(26, __VA_ARGS__);				\
		PMEVN_CASE(27, __VA_ARGS__);				\
		PMEVN_CASE(28, __VA_ARGS__);				\
		PMEVN_CASE(29, __VA_ARGS__);				\
		PMEVN_CASE(30, __VA_ARGS__);				\
		default:						\
			WARN(1, "Invalid PMEV* index\n");		\
		}							\
	} while (0)

#define PMEVN_SWITCH(x, case_macro)	__PMEVN_SWITCH(x, case_macro)

/* Last, as the accessors in there are built on PMEVN_SWITCH(). */
#include <asm/arm_pmuv3.h>

#endif /* __PERF_ARM_PMUV3_H */
