#!/bin/bash
# diff.sh BIN_A BIN_B [flags]: per tree under /work/audit/{bench,r81,r82,r83}/src, compare JSON findings (concise lines with level+context kind)
A=$1; B=$2; shift 2
for t in ${AUDIT_TREES:-/work/audit/bench/src/* /work/audit/r*/src/*}; do
  for b in A B; do
    bin=${!b}
    $bin check $t --no-cache --exit-zero --format json "$@" 2>/dev/null | python3 -c '
import json,sys
for d in json.load(sys.stdin)["diagnostics"]:
    print(d["level"], d["rule"], d["path"]+":"+str(d["span"]["start"]["line"]), d["context"]["kind"], (d["context"]["via"][0]["what"] if d["context"]["via"] else ""))' > /tmp/diff_$b.txt
  done
  if ! cmp -s /tmp/diff_A.txt /tmp/diff_B.txt; then echo "=== $t ($(wc -l < /tmp/diff_A.txt) -> $(wc -l < /tmp/diff_B.txt))"; diff /tmp/diff_A.txt /tmp/diff_B.txt | grep '^[<>]'; fi
done
