// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: which counter an Arm CPU PMU event gets.  Pure functions of
 * the events' needs (struct armpmu_need) and the counters taken, used by
 * add() and by the group check at event_init(), so both decide alike.
 *
 * The shapes the counters come in: a few counters only one kind of
 * event can use (PMUv3's cycle and instruction counters), a bank of
 * general counters any event can use, and in that bank chained pairs
 * (an even counter and the odd one above it) for 64-bit counts on
 * 32-bit counters.  armpmu_take() places one more event beside those
 * already placed, which is all add() needs while nothing is in the way;
 * armpmu_assign() places a whole set from scratch, and finds a placement
 * whenever one exists for sets of these shapes: a pair that finds no
 * free aligned pair because single events sit one in each of two pairs
 * is placed when the singles move.
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/perf/arm_pmu.h>

/* Odd counters n in @odd whose pair n-1, n is wholly in @free. */
static u64 armpmu_free_pairs(u64 odd, u64 free)
{
	return odd & free & (free << 1) & 0xaaaaaaaaaaaaaaaaULL;
}

static int armpmu_lowest(u64 mask)
{
	return mask ? __ffs64(mask) : -EAGAIN;
}

/**
 * armpmu_take() - a counter for one more event
 * @need: what the event can take
 * @used: the counters already taken
 *
 * Return: the event's index (the odd one of a pair), the lowest of what
 * it may take, its preferred counters first; -EAGAIN when none is free.
 */
int armpmu_take(const struct armpmu_need *need, u64 used)
{
	u64 free = ~used;

	if (need->prefer & free)
		return armpmu_lowest(need->prefer & free);
	if (need->pair)
		return armpmu_lowest(armpmu_free_pairs(need->allowed, free));
	return armpmu_lowest(need->allowed & free);
}

/**
 * armpmu_taken() - the counters an event placed at @idx occupies
 * @need: what it could take
 * @idx: where it was placed
 *
 * Return: the mask of counters to mark used: the pair below an odd
 * index for a chained event, else the one counter.
 */
u64 armpmu_taken(const struct armpmu_need *need, int idx)
{
	if (need->pair && !(need->prefer & BIT_ULL(idx)))
		return BIT_ULL(idx) | BIT_ULL(idx - 1);
	return BIT_ULL(idx);
}

/* How hard an event is to place: fewer choices first. */
static int armpmu_choices(const struct armpmu_need *need)
{
	int n = hweight64(need->allowed);

	return need->pair ? n : 2 * n;
}

/*
 * armpmu_assign() places in three passes over the events in order of
 * their choices (ties keep the caller's order, so the result depends
 * only on the set as given): each event that has a preferred counter
 * takes one if it is free, since nothing else could use it; then every
 * pair takes the lowest free aligned pair; then the single events take
 * the lowest counter left to them.  Pairs before singles is what a
 * greedy pass in the caller's order gets wrong.
 */
#define ARMPMU_ASSIGN_MAX	ARMPMU_MAX_HWEVENTS

/**
 * armpmu_assign() - place a set of events from scratch
 * @need: what each event can take
 * @nr: how many events
 * @usable: the counters the PMU has
 * @idx: out: each event's index
 *
 * Return: 0 with @idx filled, or -EAGAIN when the set does not fit
 * (then @idx is undefined).
 */
int armpmu_assign(const struct armpmu_need *need, int nr, u64 usable,
		  int *idx)
{
	u8 order[ARMPMU_ASSIGN_MAX];
	u64 used = ~usable;
	int i, j, pass;

	if (nr > ARMPMU_ASSIGN_MAX)
		return -EAGAIN;

	/* Insertion sort by choices: stable, and nr is small. */
	for (i = 0; i < nr; i++) {
		for (j = i; j > 0 &&
		     armpmu_choices(&need[order[j - 1]]) >
		     armpmu_choices(&need[i]); j--)
			order[j] = order[j - 1];
		order[j] = i;
		idx[i] = -1;
	}

	for (pass = 0; pass < 3; pass++) {
		for (j = 0; j < nr; j++) {
			const struct armpmu_need *n = &need[order[j]];
			struct armpmu_need only = *n;
			int at;

			if (idx[order[j]] >= 0)
				continue;
			if (pass == 0) {
				if (!(n->prefer & ~used))
					continue;
				only.allowed = 0;
			} else if (pass == 1) {
				if (!n->pair)
					continue;
				only.prefer = 0;
			} else {
				only.prefer = 0;
			}
			at = armpmu_take(&only, used);
			if (at < 0)
				return -EAGAIN;
			idx[order[j]] = at;
			used |= armpmu_taken(&only, at);
		}
	}
	return 0;
}
