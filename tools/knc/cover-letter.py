#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fill in a git format-patch cover letter from a text file.

    cover-letter.py COVER TEXT

COVER is the 0000-cover-letter.patch git format-patch --cover-letter
wrote; TEXT's first line becomes its subject and the rest its blurb, in
place of git's *** SUBJECT HERE *** and *** BLURB HERE ***. Used by
tools/knc/series-lib.sh (tools/knc/intree-series.sh,
tools/knc/perf-events-series.sh) and tools/knc/linux-fixes.sh.
"""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    path, text = sys.argv[1], open(sys.argv[2]).read()
    subject, blurb = text.split('\n', 1)
    cover = open(path).read()
    for mark in ('*** SUBJECT HERE ***', '*** BLURB HERE ***'):
        if mark not in cover:
            sys.exit(f'{path}: no "{mark}" to fill in')
    cover = cover.replace('*** SUBJECT HERE ***', subject.strip())
    cover = cover.replace('*** BLURB HERE ***', blurb.strip())
    open(path, 'w').write(cover)


if __name__ == '__main__':
    main()
