#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""backports.py: download one package of a Debian suite the host's apt
does not list (bookworm-backports), checked as apt checks it.

usage: backports.py SUITE ARCH PACKAGE DESTDIR

The suite's InRelease is verified with gpgv against Debian's archive
keyring, the architecture's Packages.xz against the SHA256 InRelease
gives, the .deb against the SHA256 Packages gives.  Prints the .deb's
path, then its Depends field on a second line.  Nothing is installed
and the host's apt configuration is not touched.
"""
import hashlib
import lzma
import os
import subprocess
import sys
import tempfile
import urllib.request

MIRROR = os.environ.get('DEBIAN_MIRROR', 'http://deb.debian.org/debian')
KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg'


def get(url):
    with urllib.request.urlopen(url, timeout=120) as r:
        return r.read()


def verified_release(suite):
    data = get(f'{MIRROR}/dists/{suite}/InRelease')
    with tempfile.NamedTemporaryFile() as f:
        f.write(data)
        f.flush()
        out = subprocess.run(['gpgv', '--keyring', KEYRING, '--output', '-', f.name],
                             capture_output=True)
    if out.returncode:
        sys.exit(f'backports.py: {suite} InRelease: bad signature\n' +
                 out.stderr.decode(errors='replace'))
    return out.stdout.decode()


def sha256_of(release, path):
    in_sha = False
    for line in release.splitlines():
        if line.startswith('SHA256:'):
            in_sha = True
            continue
        if in_sha:
            if not line.startswith(' '):
                break
            digest, _, name = line.split()
            if name == path:
                return digest
    sys.exit(f'backports.py: {path} not in the Release file')


def stanza(packages, name):
    for block in packages.split('\n\n'):
        fields = {}
        key = None
        for line in block.splitlines():
            if line.startswith(' ') and key:
                fields[key] += '\n' + line
            elif ':' in line:
                key, _, value = line.partition(':')
                fields[key] = value.strip()
        if fields.get('Package') == name:
            return fields
    sys.exit(f'backports.py: no package {name}')


def main():
    suite, arch, name, dest = sys.argv[1:5]
    release = verified_release(suite)
    path = f'main/binary-{arch}/Packages.xz'
    xz = get(f'{MIRROR}/dists/{suite}/{path}')
    if hashlib.sha256(xz).hexdigest() != sha256_of(release, path):
        sys.exit(f'backports.py: {path}: checksum mismatch')
    fields = stanza(lzma.decompress(xz).decode(), name)
    deb = get(f"{MIRROR}/{fields['Filename']}")
    if hashlib.sha256(deb).hexdigest() != fields['SHA256']:
        sys.exit(f"backports.py: {fields['Filename']}: checksum mismatch")
    out = os.path.join(dest, os.path.basename(fields['Filename']))
    with open(out, 'wb') as f:
        f.write(deb)
    print(out)
    print(fields.get('Depends', ''))


if __name__ == '__main__':
    main()
