#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instruction profiles of a guest workload, per kernel function.

Two steps, both driven by harness/insn-profile.sh:

  insn_profile.py run OUT ARCH KERNEL GUEST_SCRIPT
      boots the kernel (harness/boot.sh script) with QEMU's exec log off,
      and switches it on (-d exec,nochain,in_asm, kernel addresses only)
      through a monitor socket while the guest script is between the
      lines "@@PROF_START <phase>" and "@@PROF_END <phase>"; each phase
      logs to OUT/<phase>.log.
  insn_profile.py report MAP OUT PER [VMLINUX]
      turns OUT/A.log and OUT/B.log into instructions per function per
      call of the function PER (say kernel_clone: per fork), and writes
      OUT/profile.tsv: function, A, B, B - A, calls of it in B - A.

A translated block's instructions come from its in_asm bytes: four per
instruction on arm64; on x86_64, where lengths vary, from objdump of
VMLINUX.  The log of a phase is a few hundred MB per 100k forks' worth
of kernel work; the guest script should keep its phases short.
"""
import bisect
import collections
import os
import socket
import subprocess
import sys
import time


def monitor(sock, cmd):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    s.settimeout(2)
    try:
        s.recv(4096)
    except OSError:
        pass
    s.sendall((cmd + '\n').encode())
    time.sleep(0.2)
    s.close()


def run(out, arch, kernel, script):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sock = os.path.join(out, 'monitor.sock')
    dfilter = {'x86_64': '0xffffffff80000000..0xffffffffffffffff',
               'arm64': '0xffff800000000000..0xffffffffffffffff'}[arch]
    env = dict(os.environ, ARCH=arch, KERNEL=kernel, SCRIPT=script,
               KERNEL_APPEND='nokaslr',
               QEMU_EXTRA='-monitor unix:%s,server,nowait -D %s -dfilter %s'
               % (sock, os.path.join(out, 'qemu.log'), dfilter))
    # boot.sh's run tag: arch, kernel, -debug, -<PMU_MODEL>, mode
    tag = '%s-%s' % (arch, kernel)
    if os.environ.get('DEBUG') == '1':
        tag += '-debug'
    if os.environ.get('PMU_MODEL', 'none') != 'none':
        tag += '-' + os.environ['PMU_MODEL']
    latest = os.path.join(root, 'build', 'logs', tag + '-script-latest')
    t0 = time.time()
    boot = subprocess.Popen(['bash', 'harness/boot.sh', 'script'], cwd=root,
                            env=env)
    done = set()
    while boot.poll() is None:
        time.sleep(0.05)
        run_dir = os.path.realpath(latest)
        if not os.path.isdir(run_dir) or os.path.getmtime(run_dir) < t0 - 5:
            continue
        try:
            with open(os.path.join(run_dir, 'console.log')) as f:
                console = f.read()
        except OSError:
            continue
        for line in console.splitlines():
            word = line.split()
            if len(word) != 2 or line in done:
                continue
            if word[0] == '@@PROF_START':
                monitor(sock, 'logfile %s' %
                        os.path.join(out, word[1] + '.log'))
                monitor(sock, 'log exec,nochain,in_asm')
            elif word[0] == '@@PROF_END':
                monitor(sock, 'log none')
            else:
                continue
            done.add(line)
    return boot.returncode


def load_map(path):
    syms = []
    with open(path) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            if kind in 'tTwW':
                syms.append((int(addr, 16), name))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def insn_starts(vmlinux):
    """Addresses of all instructions of VMLINUX's text, sorted."""
    starts = []
    dis = subprocess.Popen(['objdump', '-d', '--no-show-raw-insn', vmlinux],
                           stdout=subprocess.PIPE, text=True)
    for line in dis.stdout:
        head = line.split(':', 1)[0].strip()
        if len(head) >= 8 and line.startswith(' ') and ':' in line:
            try:
                starts.append(int(head, 16))
            except ValueError:
                pass
    dis.wait()
    starts.sort()
    return starts


def parse(paths):
    """Block sizes in bytes by address, and executions per phase."""
    size, counts = {}, []
    for path in paths:
        execs = collections.Counter()
        pc, nbytes = None, 0
        with open(path, errors='replace') as f:
            for line in f:
                if line.startswith('Trace '):
                    if pc not in (None, -1):
                        size[pc] = nbytes
                    pc = None
                    fields = line[line.index('[') + 1:line.index(']')]
                    execs[int(fields.split('/')[1], 16)] += 1
                elif line.startswith('IN:'):
                    if pc not in (None, -1):
                        size[pc] = nbytes
                    pc, nbytes = -1, 0
                elif pc == -1 and line.startswith('0x'):
                    pc = int(line.split(':')[0], 16)
                elif pc not in (None, -1) and line.startswith('OBJD-T:'):
                    nbytes += len(line.split()[1]) // 2
        counts.append(execs)
    return size, counts


def report(mapf, out, per, vmlinux=None):
    addrs, names = load_map(mapf)
    size, counts = parse([os.path.join(out, p + '.log') for p in 'AB'])
    starts = insn_starts(vmlinux) if vmlinux else None

    def insns(pc):
        n = size.get(pc, 4)
        if starts is None:
            return max(n // 4, 1)
        return max(bisect.bisect_left(starts, pc + n) -
                   bisect.bisect_left(starts, pc), 1)

    phases = []
    for execs in counts:
        cost, calls = collections.Counter(), collections.Counter()
        for pc, n in execs.items():
            i = bisect.bisect_right(addrs, pc) - 1
            name = names[i] if i >= 0 else '?'
            cost[name] += n * insns(pc)
            if i >= 0 and addrs[i] == pc:
                calls[name] += n
        ops = calls.get(per, 0)
        if not ops:
            sys.exit('profile: no call of %s in a phase' % per)
        phases.append((ops, cost, calls))
    (na, ca, ka), (nb, cb, kb) = phases
    rows = []
    for name in set(ca) | set(cb):
        a, b = ca.get(name, 0) / na, cb.get(name, 0) / nb
        calls = kb.get(name, 0) / nb - ka.get(name, 0) / na
        rows.append((name, a, b, b - a, calls))
    rows.sort(key=lambda r: -abs(r[3]))
    with open(os.path.join(out, 'profile.tsv'), 'w') as f:
        f.write('# per call of %s: A %d calls, B %d calls\n' % (per, na, nb))
        for r in rows:
            f.write('%s\t%.1f\t%.1f\t%.1f\t%.2f\n' % r)
    print('%s: %d and %d calls of %s; B - A in all: %.0f instructions each'
          % (out, na, nb, per, sum(r[3] for r in rows)))


if __name__ == '__main__':
    if sys.argv[1] == 'run':
        sys.exit(run(*sys.argv[2:6]))
    report(*sys.argv[2:])
