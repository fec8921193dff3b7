#!/usr/bin/env python3
"""header_names.py STOCK_TREE OURS_HEADER...: names our in-kernel headers
export that could collide with the rest of the kernel.

Every file that includes <linux/perf_event.h> sees every macro, tag,
enumerator, typedef and function name it declares, in whatever
configuration the file is built.  Upstream's own names are safe by
definition (the kernel already lives with them): those of
<linux/perf_event.h> and of the header's own upstream version.  Each
name of ours must start with perf_ or PERF_ (or __perf_, _PERF_ for
include guards), or, in the header of a subsystem of its own, with
that subsystem's prefix (NAMESPACES: the Arm CPU PMU's armpmu_ and
ARMPMU_).  PSI_CPU in the sample-item enum broke every such file once
CONFIG_PSI was set.

Prints each offending name with its header and exits 1 if there is any.
"""
import os
import re
import sys

UPSTREAM_HEADER = 'include/linux/perf_event.h'
PREFIX = re.compile(r'^_*(perf|PERF)_')
# Headers whose upstream version already claims a namespace of its own.
NAMESPACES = {
    'include/linux/perf/arm_pmu.h': re.compile(r'^_*(armpmu_|arm_pmu_|ARMPMU_)'),
    'include/linux/perf/arm_pmuv3.h': re.compile(r'^_*(ARMV8_PMU|PMEVN_)'),
}

NAME = r'[A-Za-z_][A-Za-z0-9_]*'
PATTERNS = (
    re.compile(r'^\s*#\s*define\s+(' + NAME + ')', re.M),           # macros
    re.compile(r'\b(?:struct|union|enum)\s+(' + NAME + r')\s*\{'),   # tags
    re.compile(r'\btypedef\b[^;]*?\b(' + NAME + r')\s*;'),           # typedefs
    # enumerators: a name at the start of a line inside an enum body,
    # followed by '=' or ',' or the closing brace
    None,
    # functions and variables declared at file scope
    re.compile(r'^(?:extern\s+|static\s+inline\s+|static\s+)?'
               r'(?:const\s+|unsigned\s+|signed\s+|struct\s+|enum\s+|union\s+)*'
               + NAME + r'[\s\*]+(' + NAME + r')\s*(?:\(|;|\[|=)', re.M),
)
ENUM_BODY = re.compile(r'\benum\b[^{;]*\{([^}]*)\}', re.S)
ENUMERATOR = re.compile(r'^\s*(' + NAME + r')\s*(?:=[^,]*)?,?\s*(?:/\*.*)?$', re.M)
KEYWORDS = {'return', 'if', 'else', 'while', 'for', 'do', 'switch', 'case',
            'sizeof', 'typeof', 'goto'}


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def names(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        text = strip_comments(f.read())
    found = set()
    for pat in PATTERNS:
        if pat is not None:
            found.update(pat.findall(text))
    for body in ENUM_BODY.findall(text):
        found.update(ENUMERATOR.findall(body))
    return {n for n in found if n not in KEYWORDS}


def tokens(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return set(re.findall(NAME, f.read()))


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    common = tokens(os.path.join(sys.argv[1], UPSTREAM_HEADER))
    bad = []
    for hdr in sys.argv[2:]:
        stock = set(common)
        own = os.path.join(sys.argv[1], hdr)
        if os.path.exists(own):
            stock |= tokens(own)
        space = NAMESPACES.get(hdr)
        for n in sorted(names(hdr)):
            if n in stock or PREFIX.match(n) or (space and space.match(n)):
                continue
            # An include guard of ours: _LINUX_PERF_..._H.
            if re.match(r'^_+LINUX_PERF_\w*_H$', n):
                continue
            bad.append((hdr, n))
    for hdr, n in bad:
        print(f'{hdr}: {n} is neither upstream\'s nor perf_/PERF_-prefixed')
    print(f'header names: {len(bad)} unprefixed names of ours')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
