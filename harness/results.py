#!/usr/bin/env python3
"""Turn one guest run's console log into results.

usage: results.py RUN_DIR --arch A --kernel K [--debug] [--profile P] [--xfail FILE]

Reads RUN_DIR/console.log and writes RUN_DIR/results.tsv (name, status,
detail) and RUN_DIR/perf-test.txt, prints the failures and one summary line
"<tag>: N passed, N failed, N skipped".  Statuses: pass, fail, skip, xfail
(failed, listed in the expected-failures file), xpass (listed but passed:
remove it from the list).  Exit status 1 when anything failed; an xpass is
printed loudly but does not fail the run.

What becomes a result:
  suite.<binary>.<test>   kselftest TAP between @@BEGIN/@@RESULT markers;
                          a binary that reported fewer tests than its plan,
                          crashed, or is missing is a failure of its own
  perf.<check>            perf-tool workflows (exit status of the command)
  fuzz.<check>            make fuzz: each fuzzer ended when told, no task
                          left stuck (exit status of the guest's check)
  boot.<check>            the boot was the one its model asks for (the
                          acpi model: firmware tables, no device tree)
  kunit.<suite>.<test>    KUnit results the kernel printed at boot
  kernel.<check>          booted, finished before the time limit, and a
                          console free of oopses, BUGs, WARNINGs, lockdep,
                          KASAN and RCU-stall reports, unchecked MSR
                          accesses, unknown NMIs, and call traces (but
                          the hard lockup the hardlockup test provokes)
  perftest.<N>            with --perftest-expect FILE, on a boot whose model
                          FILE lists: `perf test`'s result N matches stock's
                          (pass), or not, or the test is missing (fail)
With --model M (a boot on one of the PMU models of boot.sh) every name
is prefixed with "M.", e.g. intel.suite.hwcount.hw_percpu_event.
`perf test` lines are saved to perf-test.txt; they are counted only where
the expectations file has stock's results for the boot's model (M, or
"none" for a boot without one).  The file applies to stock and ours alike,
so that make check KERNEL=stock proves it (and to KERNEL=mainline, the
newer upstream oracle on arm64, whose perf test results were stock's).
The expected-failures file applies to ours alone: stock and mainline
are upstream kernels, every failure there is reported (KERNEL=next, work
in progress, is held to everything).
"""
import argparse
import os
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
TAP = re.compile(r'^(not ok|ok)\s+(\d+)\s+(?:- )?(\S+)(.*)$')
PLAN = re.compile(r'^1\.\.(\d+)')
ANSI = re.compile(r'\x1b\[[0-9;]*m')
MARK = re.compile(r'^@@(\S+)\s*(.*)$')
# Between the lines of a detail printed on several (a hung guest's vCPUs);
# results.tsv keeps one line per result, with ' | ' there.
MORE = '\n        '
PERFTEST = re.compile(r'^\s*(\d+(?:\.\d+)?):\s+(.*?)\s*:\s+(Ok|FAILED!|Skip.*)$')

# Console reports that mean the kernel misbehaved, whatever the test said.
BAD_CONSOLE = [
    r'Kernel panic', r'\bBUG:', r'Oops[:\s]', r'general protection fault',
    r'Unable to handle kernel', r'KASAN:', r'UBSAN:', r'\bWARNING:',
    r'possible (recursive|circular) locking', r'inconsistent lock state',
    r'DEBUG_LOCKS_WARN_ON', r'ODEBUG:', r'list_(add|del) corruption',
    r'rcu: INFO: rcu_\w+ (self-)?detected stall', r'detected stall',
    r'INFO: task \S+ blocked for more than', r'suspicious RCU usage',
    r'lockdep is turned off', r'hung_task',
    # A driver that writes what the CPU refuses (the kernel caught the
    # #GP and went on), and an NMI nobody claimed: both mean counters
    # that would misbehave on a real machine.
    r'unchecked MSR access error', r'NMI received for unknown reason',
    r'Uhhuh\. NMI', r'Dazed and confused',
]
BAD_RE = re.compile('|'.join(BAD_CONSOLE))
CALL_TRACE_RE = re.compile(r'^\s*Call [Tt]race:')
HARD_LOCKUP_RE = re.compile(r'Watchdog detected hard LOCKUP')


def load_xfail(path, arch):
    """name -> issue, for this arch ('arch:name' entries or plain names)."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    for line in open(path):
        line = line.split('#', 1)[0].strip() if not line.lstrip().startswith('#') else ''
        if not line:
            continue
        parts = line.split()
        name, issue = parts[0], (parts[1] if len(parts) > 1 else '?')
        if ':' in name:
            a, name = name.split(':', 1)
            if a != arch:
                continue
        out[name] = issue
    return out


def load_perftest_expect(path, model):
    """perf test name -> stock's result (Ok, FAILED, Skip or any) for model."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    for line in open(path):
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        parts = line.rstrip('\n').split('\t')
        if len(parts) != 3:
            continue
        m, status, name = parts
        if m == model:
            out[name.strip()] = status.strip()
    return out


def perftest_results(perftest, expect):
    """Each perf test result against stock's; tests stock has that did not run."""
    out = []
    seen = set()
    for line in perftest:
        num, status, name = line.split('\t')
        seen.add(name)
        want = expect.get(name)
        got = 'FAILED' if status.startswith('FAILED') else status.split()[0]
        if want is None:
            out.append((f'perftest.{num}', 'fail', f'{name}: {status}, not in the expectations file'))
        elif want == 'any' or want == got:
            out.append((f'perftest.{num}', 'pass', ''))
        else:
            out.append((f'perftest.{num}', 'fail', f'{name}: {status}, stock: {want}'))
    for name in sorted(set(expect) - seen):
        slug = re.sub(r'[^a-z0-9]+', '_', name.lower()).strip('_')
        out.append((f'perftest.missing.{slug}', 'fail', f'{name}: did not run'))
    return out


def parse(log_lines):
    results = []            # (name, status, detail)
    perftest = []
    kunit_stack = {}        # indent -> name of the enclosing subtest
    kunit_seen = set()      # suites that reported tests
    section = None          # current @@BEGIN name
    plan = seen = 0
    ended = set()
    began = set()
    bad = []
    booted = done = timeout = False
    in_kunit = False

    lockup_at = None        # line number of the last hard-lockup report
    last = ''               # the last line the guest printed
    vcpus = []              # where each vCPU was when the guest timed out
    for n, raw in enumerate(log_lines):
        line = ANSI.sub('', raw.rstrip('\n'))
        body = TS.sub('', line)
        if BAD_RE.search(body) and not body.startswith(('#', 'ok', 'not ok')):
            bad.append(body.strip())
        # A call trace is a report of its own, whatever came before it,
        # except the hard-lockup watchdog's, which the hardlockup test
        # provokes on purpose (stock and ours alike).
        if HARD_LOCKUP_RE.search(body):
            lockup_at = n
        elif CALL_TRACE_RE.search(body) and not (
                'suite.hardlockup' in began and lockup_at is not None and
                n - lockup_at <= 40):
            bad.append(body.strip())
        m = MARK.match(line)
        if m:
            key, rest = m.groups()
            if key.startswith('BEGIN-'):
                booted = True
            elif key == 'BEGIN':
                section, plan, seen = rest.split()[0], 0, 0
                began.add(section)
            elif key == 'RESULT':
                name, rc = (rest.split() + ['?'])[:2]
                ended.add(name)
                if name.startswith('suite.'):
                    if plan == 0 and seen == 0:
                        results.append((name, 'fail', f'no TAP output (exit {rc})'))
                    elif seen < plan:
                        results.append((name + '.incomplete', 'fail',
                                        f'{plan - seen} of {plan} tests did not report (exit {rc})'))
                elif name.startswith(('perf.', 'fuzz.', 'boot.')):
                    results.append((name, 'pass' if rc == '0' else 'fail',
                                    '' if rc == '0' else f'exit {rc}'))
                section = None
            elif key == 'DONE':
                done = True
            elif key == 'TIMEOUT':
                timeout = True
            elif key == 'VCPU':
                vcpus.append(rest)
            continue
        if body.strip() and not line.startswith('perfcore: '):
            last = body.strip()

        if section and section.startswith('suite.'):
            pm = PLAN.match(line)
            if pm:
                plan = int(pm.group(1))
                continue
            tm = TAP.match(line)
            if tm:
                st, _, name, rest = tm.groups()
                seen += 1
                if name.startswith('global.'):
                    name = name[len('global.'):]
                full = f'{section}.{name}'
                if '# SKIP' in rest:
                    results.append((full, 'skip', rest.split('# SKIP', 1)[1].strip()))
                else:
                    results.append((full, 'pass' if st == 'ok' else 'fail', ''))
            continue
        if section == 'perftest':
            pt = PERFTEST.match(line)
            if pt:
                perftest.append(f'{pt.group(1)}\t{pt.group(3)}\t{pt.group(2)}')
            continue

        # KUnit output the kernel printed at boot (KTAP).  A "# Subtest:"
        # header sits at its children's indentation: suites' tests are at
        # indent 4, a parameterised test's cases at 8 (summarised by the
        # test's own line at 4), suites' verdicts at 0.
        if not booted:
            if body.startswith('KTAP version'):
                in_kunit = True
                continue
            if not in_kunit:
                continue
            indent = len(body) - len(body.lstrip(' '))
            text = body.strip()
            sm = re.match(r'^# Subtest: (\S+)', text)
            if sm:
                kunit_stack[indent] = sm.group(1)
                continue
            tm = TAP.match(text)
            if not tm:
                continue
            st, _, name, rest = tm.groups()
            if indent == 4:
                suite = kunit_stack.get(4, '?')
                full = f'kunit.{suite}.{name}'
                kunit_seen.add(suite)
                if '# SKIP' in rest:
                    results.append((full, 'skip', rest.split('# SKIP', 1)[1].strip()))
                else:
                    results.append((full, 'pass' if st == 'ok' else 'fail', ''))
            elif indent == 0 and st == 'not ok' and name not in kunit_seen:
                results.append((f'kunit.{name}', 'fail', 'suite failed before its tests ran'))

    for name in sorted(began - ended):
        results.append((name + '.crashed', 'fail', 'guest stopped inside this step'))
    results.append(('kernel.booted', 'pass' if booted else 'fail',
                    '' if booted else 'init never started'))
    if booted:
        # A hang that printed nothing is at least a place in the code:
        # the guest's last line and where its vCPUs were (boot.sh).
        why = '' if done else 'no @@DONE'
        if timeout:
            why = MORE.join([f'timed out; the last line printed: {last[:200]}']
                            + vcpus)
        results.append(('kernel.finished', 'pass' if done and not timeout else 'fail', why))
    results.append(('kernel.console_clean', 'fail' if bad else 'pass',
                    '; '.join(bad[:5])))
    return results, perftest, began


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('run')
    ap.add_argument('--arch', required=True)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--debug', action='store_true')
    ap.add_argument('--profile', default='test')
    ap.add_argument('--xfail')
    ap.add_argument('--model', help='PMU model of the boot (boot.sh PMU_MODEL): names get it as a prefix')
    ap.add_argument('--perftest-expect', help="stock's perf test results per model")
    a = ap.parse_args()

    with open(os.path.join(a.run, 'console.log'), errors='replace') as f:
        results, perftest, began = parse(f)
    exp = os.path.join(a.run, 'expected-binaries')
    if os.path.exists(exp):
        for b in open(exp).read().split():
            if f'suite.{b}' not in began:
                results.append((f'suite.{b}.missing', 'fail', 'binary not built or not run'))

    # perf-test-expected's boot key: the PMU model, or the arch's
    # boot without one ("none" on x86_64, whose results are not kept,
    # "arm64" on arm64, whose PMU is always there).
    key = a.model or ('arm64' if a.arch == 'arm64' else 'none')
    expect = load_perftest_expect(a.perftest_expect, key)
    if expect and 'perftest' in began:
        results += perftest_results(perftest, expect)
    if a.model:
        results = [(f'{a.model}.{n}', st, d) for n, st, d in results]
    # Only ours has known, tracked failures; the oracles (stock,
    # mainline) and next are held to every test.
    xfail = load_xfail(a.xfail, a.arch) if a.kernel == 'ours' else {}
    final = []
    for name, st, detail in results:
        if name in xfail:
            if st == 'fail':
                st, detail = 'xfail', f'expected failure ({xfail[name]}) {detail}'.strip()
            elif st == 'pass':
                st, detail = 'xpass', f'listed in expected-failures ({xfail[name]}) but passed: remove it'
        final.append((name, st, detail))

    with open(os.path.join(a.run, 'results.tsv'), 'w') as f:
        for r in final:
            f.write('\t'.join(x.replace(MORE, ' | ') for x in r) + '\n')
    with open(os.path.join(a.run, 'perf-test.txt'), 'w') as f:
        f.write('\n'.join(perftest) + ('\n' if perftest else ''))

    tag = f'{a.arch}/{a.kernel}' + ('/compat' if a.profile == 'compat' else '') \
        + ('/debug' if a.debug else '') + (f'/{a.model}' if a.model else '')
    count = {k: 0 for k in ('pass', 'fail', 'skip', 'xfail', 'xpass')}
    for name, st, detail in final:
        count[st] += 1
        if st in ('fail', 'xpass'):
            print(f'  {st.upper():5} {tag} {name}' + (f': {detail}' if detail else ''))
    if perftest:
        ok = sum(1 for p in perftest if '\tOk\t' in p)
        fl = sum(1 for p in perftest if '\tFAILED!\t' in p)
        print(f'  perf test ({tag}): {ok} Ok, {fl} FAILED, {len(perftest) - ok - fl} skipped '
              f'(saved to {os.path.join(a.run, "perf-test.txt")})')
    extra = ''
    if count['xfail'] or count['xpass']:
        extra = f" ({count['xfail']} expected failures, {count['xpass']} unexpected passes)"
    print(f"{tag}: {count['pass'] + count['xpass']} passed, {count['fail']} failed, "
          f"{count['skip']} skipped{extra}")
    return 1 if count['fail'] else 0


if __name__ == '__main__':
    sys.exit(main())
