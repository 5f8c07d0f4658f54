#!/usr/bin/env python3
"""find.py BIN SRCROOT [flags...]: list findings of every tree under SRCROOT with ids (J/R by language), one block each."""
import json, subprocess, sys, os
b, root, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
ids = {"java": 0, "rust": 0}
for tree in sorted(os.listdir(root)):
    out = subprocess.run([b, "check", os.path.join(root, tree), "--no-cache", "--exit-zero", "--format", "json"] + flags, capture_output=True, text=True).stdout
    for d in json.loads(out)["diagnostics"]:
        ids[d["language"]] += 1
        i = ("J" if d["language"] == "java" else "R") + str(ids[d["language"]])
        print(f"## {i} [{tree}] {d['rule']} {d['level']} {root}/{tree}/{d['path']}:{d['span']['start']['line']}")
        print(f"message: {d['message']}")
        ctx = d.get("context") or {}
        print(f"context: {ctx.get('kind')} via {' -> '.join(v if isinstance(v, str) else json.dumps(v) for v in ctx.get('via', []))}")
        for l in d.get("labels", []):
            print(f"label: {l.get('path', d['path'])}:{l['span']['start']['line']} {l.get('message','')}")
        print()
