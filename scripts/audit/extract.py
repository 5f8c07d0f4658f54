#!/usr/bin/env python3
"""extract.py GITDIR DEST: write HEAD's .java/.rs/Cargo.toml files into DEST, skipping absent blobs."""
import subprocess, sys, os
gitdir, dest = sys.argv[1], sys.argv[2]
out = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "HEAD"], capture_output=True, text=True).stdout
items = []
for line in out.splitlines():
    meta, path = line.split("\t", 1)
    mode, kind, sha = meta.split()
    if kind != "blob": continue
    if path.endswith((".java", ".rs")) or os.path.basename(path) == "Cargo.toml":
        items.append((sha, path))
p = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
n = miss = 0
for sha, path in items:
    p.stdin.write((sha + "\n").encode()); p.stdin.flush()
    header = p.stdout.readline().decode().split()
    if len(header) < 3 or header[1] == "missing":
        miss += 1; continue
    size = int(header[2]); data = p.stdout.read(size); p.stdout.read(1)
    full = os.path.join(dest, path); os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f: f.write(data)
    n += 1
p.stdin.close(); p.wait()
print(f"{dest}: {n} files, {miss} missing")
