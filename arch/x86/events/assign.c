// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: counter assignment for the x86 PMU framework,
 * perf_assign_events().  The core counter drivers and Intel uncore call
 * it to give each event of a group a counter of its own.
 *
 * Each event comes with a constraint whose idxmsk64 is the set of
 * counters it may count on: bits below INTEL_PMC_IDX_FIXED are
 * general-purpose counters, the bits from there up fixed ones.  Every
 * event needs its own counter, and at most gpmax of them may be on
 * general-purpose counters.
 *
 * Algorithm.  A greedy pass first, the most constrained events first
 * (increasing weight, ties in the caller's order): each event takes its
 * lowest free fixed counter, else its lowest free general-purpose one.
 * When that places everything its result is the answer, so the counters
 * chosen are the ones users know.  The events it leaves out are then
 * placed by augmenting paths, a maximum bipartite matching: a
 * breadth-first search from the unplaced events through the counters
 * they allow, moving the events on those counters on to others, until
 * the path reaches a free counter.  The general-purpose limit takes part
 * as one more node (read as a flow network, one edge of capacity gpmax
 * that all general-purpose counters share): while the limit is reached,
 * a path may still take a free general-purpose counter provided it also
 * moves one event off general-purpose counters altogether.  One search
 * costs O(n * counters) and there are at most n + 1.
 *
 * Paired events (PERF_X86_EVENT_PAIR: AMD's large-increment events)
 * take an even counter and the odd one after it, which counts as a
 * second general-purpose counter against gpmax.  They are placed first,
 * each on the lowest free pair it allows, and never moved after: exact
 * where the other events may use any counter, as on the CPUs that have
 * paired events, and a matching of pairs in general is a harder
 * problem than this one.
 *
 * Why a matching: a greedy choice is never revisited.  An event allowed
 * counters {0, 3} and three events allowed {0, 1, 2}: the lightest one
 * takes counter 0, and the last of the three is left with nothing,
 * though 3, 0, 1, 2 places all four.  Likewise an event allowed {0, 1}
 * taking counter 0 before one whose only other choice, a fixed counter,
 * is already taken.
 *
 * Nothing is allocated and nothing locked; the state is a few hundred
 * bytes of stack.  Safe with interrupts off.
 */

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include "perf_event.h"

#define ASSIGN_GP_MASK	GENMASK_ULL(INTEL_PMC_IDX_FIXED - 1, 0)

/* assign_state.from[]: how an event was reached by a search */
#define ASSIGN_ROOT	(-1)	/* unplaced, the path starts here */
#define ASSIGN_VIA_GP	(-2)	/* gives its general-purpose counter up */

struct assign_state {
	struct event_constraint	**constraints;
	int			n;
	int			gpmax;
	int			placed;
	int			gp_used;
	u64			used;		/* counters taken */
	u64			pinned;		/* events that never move: pairs */
	s8			counter[X86_PMC_IDX_MAX];	/* event's, or -1 */
	s8			owner[X86_PMC_IDX_MAX];		/* counter's, or -1 */
	u8			order[X86_PMC_IDX_MAX];		/* greedy order */

	/* One search. */
	u64			seen;		/* events reached */
	s8			from[X86_PMC_IDX_MAX];	/* who takes its counter */
	u8			queue[X86_PMC_IDX_MAX];
	int			gp_taker;	/* the path that needs a GP slot */
	int			gp_counter;	/* and the free counter it takes */
};

static bool assign_is_gp(int idx)
{
	return idx < INTEL_PMC_IDX_FIXED;
}

static u64 assign_mask(const struct assign_state *s, int e)
{
	return s->constraints[e]->idxmsk64;
}

/* Event @e leaves its counter, if it has one, and takes the free @idx. */
static void assign_move(struct assign_state *s, int e, int idx)
{
	int old = s->counter[e];

	if (old >= 0) {
		s->owner[old] = -1;
		s->used &= ~BIT_ULL(old);
		if (assign_is_gp(old))
			s->gp_used--;
	}
	s->counter[e] = idx;
	s->owner[idx] = e;
	s->used |= BIT_ULL(idx);
	if (assign_is_gp(idx))
		s->gp_used++;
}

static bool assign_is_pair(const struct assign_state *s, int e)
{
	return s->constraints[e]->flags & PERF_X86_EVENT_PAIR;
}

/*
 * Each paired event on the lowest even counter it allows whose odd
 * neighbour is free too.  Return: whether all found one.
 */
static bool assign_pairs(struct assign_state *s)
{
	int e, idx;

	for (e = 0; e < s->n; e++) {
		u64 avail;

		if (!assign_is_pair(s, e))
			continue;
		avail = assign_mask(s, e) & ASSIGN_GP_MASK & ~s->used &
			~(s->used >> 1) & (ASSIGN_GP_MASK >> 1);
		if (!avail || s->gp_used + 2 > s->gpmax)
			return false;
		idx = __ffs64(avail);
		s->counter[e] = idx;
		s->owner[idx] = e;
		s->owner[idx + 1] = e;
		s->used |= BIT_ULL(idx) | BIT_ULL(idx + 1);
		s->gp_used += 2;
		s->pinned |= BIT_ULL(e);
		s->placed++;
	}
	return true;
}

/* Events by increasing weight, stable: an insertion sort, n is small. */
static void assign_sort(struct assign_state *s)
{
	int i, j;

	for (i = 0; i < s->n; i++) {
		int w = s->constraints[i]->weight;

		for (j = i; j > 0 && s->constraints[s->order[j - 1]]->weight > w; j--)
			s->order[j] = s->order[j - 1];
		s->order[j] = i;
	}
}

static void assign_greedy(struct assign_state *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		int e = s->order[i];
		u64 avail = assign_mask(s, e) & ~s->used;

		if (s->counter[e] >= 0)
			continue;
		if (avail & ~ASSIGN_GP_MASK)
			avail &= ~ASSIGN_GP_MASK;
		else if (s->gp_used < s->gpmax)
			avail &= ASSIGN_GP_MASK;
		else
			continue;
		if (!avail)
			continue;
		assign_move(s, e, __ffs64(avail));
		s->placed++;
	}
}

/*
 * Apply the path the search found: @e takes the free counter @idx, and
 * going back towards the root, each event takes the counter the one
 * after it left.  Every move is into a counter that is free by then.
 */
static void assign_flip(struct assign_state *s, int e, int idx)
{
	for (;;) {
		int old = s->counter[e];
		int prev = s->from[e];

		assign_move(s, e, idx);
		if (prev == ASSIGN_ROOT)
			break;
		if (prev == ASSIGN_VIA_GP) {
			/* @old is now free, but the GP slot it held is not. */
			prev = s->gp_taker;
			old = s->gp_counter;
		}
		e = prev;
		idx = old;
	}
	s->placed++;
}

static void assign_reach(struct assign_state *s, int *tail, int e, int prev)
{
	s->seen |= BIT_ULL(e);
	s->from[e] = prev;
	s->queue[(*tail)++] = e;
}

/*
 * The general-purpose limit is reached and event @e could take the free
 * general-purpose counter @idx: it may, if an event now on a
 * general-purpose counter leaves for a fixed one.  Every such event
 * becomes reachable, once per search.
 */
static void assign_reach_gp(struct assign_state *s, int *tail, int e, int idx)
{
	u64 gp = s->used & ASSIGN_GP_MASK;

	if (s->gp_taker >= 0)
		return;
	s->gp_taker = e;
	s->gp_counter = idx;
	while (gp) {
		int v = s->owner[__ffs64(gp)];

		gp &= gp - 1;
		if (!((s->seen | s->pinned) & BIT_ULL(v)))
			assign_reach(s, tail, v, ASSIGN_VIA_GP);
	}
}

/*
 * Take the next counter to try out of @mask: fixed ones first, each kind
 * lowest first.  Only the counters an event allows are visited: a
 * search that fails (more events than counters, the usual case when
 * flexible groups are multiplexed) visits every reachable one.
 */
static int assign_next_counter(u64 *mask)
{
	u64 fixed = *mask & ~ASSIGN_GP_MASK;
	int idx = __ffs64(fixed ? fixed : *mask);

	*mask &= ~BIT_ULL(idx);
	return idx;
}

/*
 * One breadth-first search for an augmenting path, from all unplaced
 * events at once.  Counters are tried fixed ones first, lowest first.
 * Returns whether one more event got placed.
 */
static bool assign_augment(struct assign_state *s)
{
	int head = 0, tail = 0;
	int i;

	s->seen = 0;
	s->gp_taker = -1;
	for (i = 0; i < s->n; i++) {
		int e = s->order[i];

		if (s->counter[e] < 0)
			assign_reach(s, &tail, e, ASSIGN_ROOT);
	}

	while (head < tail) {
		int e = s->queue[head++];
		u64 mask = assign_mask(s, e);

		if (s->counter[e] >= 0)
			mask &= ~BIT_ULL(s->counter[e]);

		while (mask) {
			int idx = assign_next_counter(&mask);
			int v;

			v = s->owner[idx];
			if (v >= 0) {
				if (!(s->seen & BIT_ULL(v)) &&
				    !(s->pinned & BIT_ULL(v)))
					assign_reach(s, &tail, v, e);
				continue;
			}
			if (!assign_is_gp(idx) || s->gp_used < s->gpmax) {
				assign_flip(s, e, idx);
				return true;
			}
			assign_reach_gp(s, &tail, e, idx);
		}
	}
	return false;
}

/**
 * perf_assign_events - give each event a counter of its own
 * @constraints: per event, the counters it may use (idxmsk64) and their
 *	number (weight)
 * @n: the number of events, at most X86_PMC_IDX_MAX
 * @wmin: the lowest weight among them
 * @wmax: the highest weight among them
 * @gpmax: how many general-purpose counters at most may be taken (a
 *	paired event takes two)
 * @assign: per event, the counter it gets; may be NULL to only ask
 *	whether the events fit
 *
 * The weights themselves order the greedy pass; @wmin and @wmax, the
 * callers' summary of them, are not needed.  The constraints are only
 * read.  On failure @assign is left as it was.
 *
 * Return: 0 when every event got a counter, else how many could not.
 */
int perf_assign_events(struct event_constraint **constraints, int n,
		       int wmin, int wmax, int gpmax, int *assign)
{
	struct assign_state s;
	int i;

	BUILD_BUG_ON(X86_PMC_IDX_MAX > 64 || INTEL_PMC_IDX_FIXED >= X86_PMC_IDX_MAX);

	if (n <= 0)
		return 0;
	if (WARN_ON_ONCE(n > X86_PMC_IDX_MAX))
		return n;

	s.constraints = constraints;
	s.n = n;
	s.gpmax = gpmax;
	s.placed = 0;
	s.gp_used = 0;
	s.used = 0;
	s.pinned = 0;
	memset(s.counter, -1, sizeof(s.counter));
	memset(s.owner, -1, sizeof(s.owner));

	if (!assign_pairs(&s))
		return n - s.placed;
	assign_sort(&s);
	assign_greedy(&s);
	while (s.placed < n && assign_augment(&s))
		;
	if (s.placed < n)
		return n - s.placed;

	if (assign) {
		for (i = 0; i < n; i++)
			assign[i] = s.counter[i];
	}
	return 0;
}
EXPORT_SYMBOL_GPL(perf_assign_events);
