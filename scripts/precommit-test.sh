#!/usr/bin/env bash
# End-to-end test of .pre-commit-hooks.yaml (`language: python`, built from this
# repository with maturin): `pre-commit try-repo` against a temporary git
# repository holding a bad Java file and a bad Rust file; the hook must fail,
# then pass once the files are fixed. Run by .ci/run.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet pre-commit
export PATH="$work/venv/bin:$PATH"
export PRE_COMMIT_HOME="${PRE_COMMIT_HOME:-$work/cache}"
# The hook is `language: python`: pre-commit pip-installs this repository, and
# maturin builds the binary. Share the repository's cargo target directory so that
# build reuses what `cargo build --release` / scripts/wheel-test.sh compiled.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

cd "$work" && mkdir project && cd project
git init -q -b main
git config user.email ci@example.invalid
git config user.name ci
mkdir -p src/main/java/com/acme src/queue
cat > src/main/java/com/acme/Orders.java <<'JAVA'
package com.acme;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class Orders {
    private final BlockingQueue<String> pending = new LinkedBlockingQueue<>();

    @PostMapping("/orders")
    public void place(String order) {
        pending.offer(order);
    }
}
JAVA
cat > src/queue/mod.rs <<'RUST'
#[post("/start")]
pub fn start() {
    let (_tx, _rx) = std::sync::mpsc::channel::<u64>();
}
RUST
git add -A

echo "pre-commit try-repo on the bad files: the hook must fail"
if pre-commit try-repo "$repo" poolguard --all-files > "$work/bad.log" 2>&1; then
    cat "$work/bad.log"
    echo "FAIL: the hook passed on files with findings" >&2
    exit 1
fi
grep -q "warning\[unbounded_queue\]" "$work/bad.log" || { cat "$work/bad.log"; echo "FAIL: no finding in the hook output" >&2; exit 1; }
grep -q "Orders.java" "$work/bad.log" && grep -q "mod.rs" "$work/bad.log" || { cat "$work/bad.log"; echo "FAIL: both files should be reported" >&2; exit 1; }

sed -i 's/new LinkedBlockingQueue<>()/new LinkedBlockingQueue<>(200)/' src/main/java/com/acme/Orders.java
sed -i 's/std::sync::mpsc::channel::<u64>()/std::sync::mpsc::sync_channel::<u64>(64)/' src/queue/mod.rs
git add -A

echo "pre-commit try-repo on the fixed files: the hook must pass"
if ! pre-commit try-repo "$repo" poolguard --all-files > "$work/good.log" 2>&1; then
    cat "$work/good.log"
    echo "FAIL: the hook failed on fixed files" >&2
    exit 1
fi
echo "pre-commit hook: OK"
