// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what a hypervisor tells perf about the guest on this CPU.
 *
 * A sample taken while a virtual CPU runs belongs to the guest: its ip
 * is the guest's, its mode is guest user or guest kernel, and the host's
 * stacks are not walked for it.  The hypervisor (KVM, or Xen's PMU code)
 * registers one set of callbacks that answer those questions from its
 * own per-CPU state; arch code asks through perf_guest_state(),
 * perf_guest_get_ip() and perf_guest_handle_intel_pt_intr().
 *
 * The questions are asked from NMIs, so they go through static calls:
 * no pointer to load and check on the interrupt path, and "no guest"
 * (return 0) when nothing is registered.  perf_guest_cbs is kept beside
 * them for code that wants to know whether anything is registered.
 *
 * Locking: registration is rare (module load and unload) and one at a
 * time by contract; there is one hypervisor.  Readers of perf_guest_cbs
 * use RCU; unregistering waits for a grace period, so that once it
 * returns no CPU is still in one of the callbacks it removed.
 */

#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>

struct perf_guest_info_callbacks __rcu *perf_guest_cbs;

DEFINE_STATIC_CALL_RET0(__perf_guest_state, *perf_guest_cbs->state);
DEFINE_STATIC_CALL_RET0(__perf_guest_get_ip, *perf_guest_cbs->get_ip);
DEFINE_STATIC_CALL_RET0(__perf_guest_handle_intel_pt_intr,
			*perf_guest_cbs->handle_intel_pt_intr);

/*
 * Point the static calls at @cbs's functions, or back at "return 0" for
 * a NULL @cbs or a callback it leaves out.
 */
static void perf_guest_route_calls(struct perf_guest_info_callbacks *cbs)
{
	void *none = (void *)&__static_call_return0;

	static_call_update(__perf_guest_state, cbs ? cbs->state : none);
	static_call_update(__perf_guest_get_ip, cbs ? cbs->get_ip : none);
	static_call_update(__perf_guest_handle_intel_pt_intr,
			   cbs && cbs->handle_intel_pt_intr ?
			   cbs->handle_intel_pt_intr : none);
}

/*
 * Replace the installed set @from with @to.  Refused, with a warning,
 * when @from is not what is installed: a second hypervisor must not
 * silently take over the first one's slot, nor one remove another's.
 */
static bool perf_guest_switch(struct perf_guest_info_callbacks *from,
			      struct perf_guest_info_callbacks *to)
{
	if (WARN_ON_ONCE(rcu_access_pointer(perf_guest_cbs) != from))
		return false;
	rcu_assign_pointer(perf_guest_cbs, to);
	perf_guest_route_calls(to);
	return true;
}

/**
 * perf_register_guest_info_callbacks - install a hypervisor's callbacks
 * @cbs: the callbacks; @cbs->state and @cbs->get_ip are required,
 *	@cbs->handle_intel_pt_intr is optional
 */
void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	perf_guest_switch(NULL, cbs);
}
EXPORT_SYMBOL_GPL(perf_register_guest_info_callbacks);

/**
 * perf_unregister_guest_info_callbacks - remove a hypervisor's callbacks
 * @cbs: the set installed by perf_register_guest_info_callbacks()
 *
 * On return no CPU runs any of @cbs any more, and every question is
 * answered "no guest" again.
 */
void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	/*
	 * The callbacks run from NMIs, which RCU waits for like any other
	 * section with preemption off: after the grace period, no CPU is
	 * still inside one of @cbs's functions.
	 */
	if (perf_guest_switch(cbs, NULL))
		synchronize_rcu();
}
EXPORT_SYMBOL_GPL(perf_unregister_guest_info_callbacks);
