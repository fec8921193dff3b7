#!/usr/bin/env python3
"""Where a guest's CPUs are, for a guest that did not finish in time.

    vcpu-dump.py MONITOR_SOCKET ARCH SYSTEM_MAP

Asks QEMU's human monitor (a unix socket) for each vCPU's registers, walks
the kernel stack a little (arm64: the frame-pointer chain; x86_64: kernel
text addresses found on the stack, as a guess), and prints one "@@VCPU"
block per CPU with the addresses named from System.map, then ends the
guest (the monitor's quit).  A hang that left
nothing on the console (both CPUs spinning with interrupts off, say) is
then at least a place in the code.  The guest boots with nokaslr, so
System.map's addresses are the running ones.
"""
import bisect
import re
import socket
import sys
import time

PROMPT = b'(qemu) '


class Monitor:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(20)
        self.sock.connect(path)
        self._until_prompt()

    def _until_prompt(self):
        buf = b''
        deadline = time.time() + 30
        while not buf.endswith(PROMPT) and time.time() < deadline:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            buf += chunk
        return buf

    def cmd(self, line):
        self.sock.sendall(line.encode() + b'\n')
        out = self._until_prompt().decode(errors='replace')
        # The monitor echoes the command (with terminal escapes) first.
        out = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', out)
        lines = out.replace('\r', '').split('\n')
        return [l for l in lines[1:] if l and not l.startswith('(qemu)')]


class Symbols:
    def __init__(self, path):
        self.addrs, self.names = [], []
        self.lo = self.hi = 0
        try:
            with open(path) as f:
                rows = [l.split() for l in f]
        except OSError:
            return
        syms = sorted((int(r[0], 16), r[2]) for r in rows
                      if len(r) >= 3 and r[1] in 'tTwW')
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]
        # _etext is a data symbol on arm64: look the bounds up in all.
        named = {r[2]: int(r[0], 16) for r in rows if len(r) >= 3}
        self.lo = named.get('_stext', 0)
        self.hi = named.get('_etext', 0)

    def is_text(self, addr):
        return self.lo <= addr < self.hi

    def name(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0 or not self.is_text(addr):
            return '?'
        return '%s+0x%x' % (self.names[i], addr - self.addrs[i])


def registers(lines):
    regs = {}
    for l in lines:
        for k, v in re.findall(r'\b([A-Z][A-Z0-9]*)=([0-9a-fA-F]{8,16})\b', l):
            regs.setdefault(k, int(v, 16))
    return regs


def read_words(mon, addr, n):
    words = []
    for l in mon.cmd('x /%dgx 0x%x' % (n, addr)):
        if ':' not in l:
            continue
        words += [int(w, 16) for w in re.findall(r'0x([0-9a-fA-F]+)',
                                                  l.split(':', 1)[1])]
    return words[:n]


def frames_arm64(mon, syms, regs):
    out = []
    fp = regs.get('X29', 0)
    lr = regs.get('X30', 0)
    if syms.is_text(lr):
        out.append(lr)
    for _ in range(24):
        if not fp or fp & 7:
            break
        rec = read_words(mon, fp, 2)
        if len(rec) < 2 or not syms.is_text(rec[1]):
            break
        out.append(rec[1])
        if rec[0] <= fp:
            break
        fp = rec[0]
    return out


def frames_x86(mon, syms, regs):
    sp = regs.get('RSP', 0)
    if not sp:
        return []
    return [w for w in read_words(mon, sp, 96) if syms.is_text(w)][:24]


def main():
    sock, arch, smap = sys.argv[1:4]
    syms = Symbols(smap)
    try:
        mon = Monitor(sock)
    except OSError as e:
        print('@@VCPU none: no monitor (%s)' % e)
        return
    mon.cmd('stop')
    cpus = [int(m) for l in mon.cmd('info cpus')
            for m in re.findall(r'CPU #(\d+)', l)]
    for cpu in cpus:
        mon.cmd('cpu %d' % cpu)
        regs = registers(mon.cmd('info registers'))
        pc = regs.get('PC' if arch == 'arm64' else 'RIP', 0)
        print('@@VCPU cpu%d pc %#x %s' % (cpu, pc, syms.name(pc)))
        if not syms.is_text(pc):
            continue
        walk = frames_arm64 if arch == 'arm64' else frames_x86
        try:
            for a in walk(mon, syms, regs):
                print('@@VCPU cpu%d   %s%#x %s' %
                      (cpu, '' if arch == 'arm64' else '? ', a, syms.name(a)))
        except OSError:
            print('@@VCPU cpu%d   (monitor stopped answering)' % cpu)
            return
    mon.sock.sendall(b'quit\n')


if __name__ == '__main__':
    main()
