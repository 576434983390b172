#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The libpfm4 patch (tools/knc/libpfm4/*.patch) as its sender posts it
# (make libpfm4-patch): From: and Signed-off-by: whoever runs this, as git
# config user.name and user.email give them (tools/knc/series-lib.sh's
# series_ident: an error without them). The stored patch keeps the
# project's stand-in, "knc-pmu <knc-pmu@localhost>", which make libpfm4
# applies as it is; that address is not one to post from, and every line
# of it is rewritten here: the From: header and the sign-off. Nothing else
# of the patch changes.
#
#   tools/knc/libpfm4-patch.sh [OUT]   (default: build/libpfm4/patches)
#   tools/knc/libpfm4-patch.sh -h | --help
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
STANDIN='knc-pmu <knc-pmu@localhost>'

case ${1:-} in
-h | --help)
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	exit 0 ;;
esac
# shellcheck source=tools/knc/series-lib.sh
. "$REPO/tools/knc/series-lib.sh"
series_ident libpfm4-patch || exit 1
OUT=${1:-$REPO/build/libpfm4/patches}
rm -rf "$OUT"
mkdir -p "$OUT"
for p in "$REPO"/tools/knc/libpfm4/*.patch; do
	python3 - "$p" "$OUT/${p##*/}" "$STANDIN" "$SERIES_NAME <$SERIES_EMAIL>" <<'PY'
import sys
src, dst, standin, ident = sys.argv[1:]
text = open(src).read()
head, sep, rest = text.partition('\n\n')
lines = head.split('\n')
if 'From: ' + standin not in lines:
    sys.exit('libpfm4-patch: %s: no "From: %s" header' % (src, standin))
head = '\n'.join('From: ' + ident if l == 'From: ' + standin else l for l in lines)
msg, dashes, diff = rest.partition('\n---\n')
if 'Signed-off-by: ' + standin not in msg.split('\n'):
    sys.exit('libpfm4-patch: %s: no "Signed-off-by: %s"' % (src, standin))
msg = '\n'.join('Signed-off-by: ' + ident if l == 'Signed-off-by: ' + standin else l
                for l in msg.split('\n'))
out = head + sep + msg + dashes + diff
if standin in out:
    sys.exit('libpfm4-patch: %s: "%s" is left elsewhere' % (src, standin))
open(dst, 'w').write(out)
PY
	echo "$OUT/${p##*/}"
done
