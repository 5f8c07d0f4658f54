//! Crates as programs, and the module path of each file.
//!
//! Programs: a crate with a binary (`src/main.rs`, `src/bin/`, `[[bin]]`)
//! that declares no request entry point (no route handler, service, listener) and
//! whose library, if it has one, no other crate of the workspace depends on, is a
//! tool (a CLI, a load generator, a dev-environment runner, a batch job): it serves
//! no traffic, so its code is cold, like `src/bin/` (rules.md, revision 2). So is a
//! crate named for a command line (`acme-cli`, `cargo-deploy`), a WebAssembly module for the browser,
//! a desktop application (it depends on a GUI framework), and a library only tools build on.
//! A program that stops on SIGTERM and builds on a crate of the workspace that serves
//! is that crate's server, not a tool (a thin `main` that starts a node).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::facts::{FileFacts, Heat};
use crate::source::{Language, SourceFile};

/// What a crate's `Cargo.toml` says about it.
#[derive(Debug, Default)]
struct Manifest {
    /// `[package] name`.
    name: Option<String>,
    /// Packages it depends on (dependencies and build-dependencies).
    deps: Vec<String>,
    /// Packages only its tests and examples use.
    dev_deps: Vec<String>,
    /// Files of its `[[bin]]` targets that name a `path`.
    bins: Vec<PathBuf>,
    /// Files of every target that names a `path` (`[lib]`, `[[bin]]`, `[[example]]`, ..).
    targets: Vec<PathBuf>,
    /// A WebAssembly module for the browser: a `cdylib` that depends on
    /// `wasm-bindgen` for every target. It runs in a page, not in a server.
    browser: bool,
    /// It declares a `[lib]` target.
    lib: bool,
}

/// Mark every file of a tool crate as a binary's.
pub fn mark_tool_crates(files: &[SourceFile], facts: &mut [FileFacts], desktop: &[String]) {
    let mut roots: HashMap<PathBuf, Option<PathBuf>> = HashMap::new();
    let mut crates: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        if f.language != Language::Rust {
            continue;
        }
        if let Some(root) = f.path.parent().and_then(|d| crate_root(d, &mut roots)) {
            crates.entry(root).or_default().push(i);
        }
    }
    let manifests: BTreeMap<&PathBuf, Manifest> = crates.keys().map(|r| (r, manifest(r))).collect();
    drop_undeclared_modules(files, facts, &crates, &manifests);
    let roots: Vec<&PathBuf> = crates.keys().collect();
    let by_name: HashMap<&str, usize> = roots
        .iter()
        .enumerate()
        .filter_map(|(k, r)| manifests[r].name.as_deref().map(|n| (n, k)))
        .collect();
    // Who builds on each crate: through dependencies, and through dev-dependencies only.
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); roots.len()];
    let mut dev_dependents: Vec<Vec<usize>> = vec![Vec::new(); roots.len()];
    for (k, r) in roots.iter().enumerate() {
        let m = &manifests[r];
        for d in &m.deps {
            if let Some(&t) = by_name.get(d.as_str()).filter(|&&t| t != k) {
                dependents[t].push(k);
            }
        }
        for d in &m.dev_deps {
            if let Some(&t) = by_name.get(d.as_str()).filter(|&&t| t != k) {
                dev_dependents[t].push(k);
            }
        }
    }
    let mut program = vec![false; roots.len()];
    let mut serves = vec![false; roots.len()];
    for (k, root) in roots.iter().enumerate() {
        let (m, members) = (&manifests[root], &crates[*root]);
        let krate = m.name.as_deref().map(|n| n.replace('-', "_"));
        for &i in members {
            facts[i].module = module_path(root, &files[i].path, krate.as_deref());
        }
        // Its binary must be among the files read: otherwise nothing says it serves
        // no traffic (a fixture under another project's `Cargo.toml`).
        let src = root.join("src");
        program[k] = members.iter().any(|&i| {
            let p = &files[i].path;
            p == &src.join("main.rs")
                || p.starts_with(src.join("bin"))
                || m.bins.iter().any(|b| p == &root.join(b))
        });
        serves[k] = serves_traffic(members, facts);
    }
    // A program that declares no entry point of its own but builds on a crate of the
    // workspace that does, and stops on SIGTERM as a supervised service does, is that
    // crate's server (a thin `main` that starts a node). A benchmark or a CLI built
    // on the server's crates stops on Ctrl-C, if at all.
    let serves_itself = serves.clone();
    for (k, root) in roots.iter().enumerate() {
        serves[k] |= program[k]
            && crates[*root].iter().any(|&i| facts[i].handles_sigterm)
            && manifests[root]
                .deps
                .iter()
                .filter_map(|d| by_name.get(d.as_str()))
                .any(|&d| d != k && serves_itself[d]);
    }
    // A crate is a tool when it serves no traffic and either is a program nobody
    // builds on, or every crate that builds on it is a tool (a CLI's client library);
    // a library only tests and tools build on (a test kit) is cold too, even when it serves (a
    // mock server on a local port). Grows to a fixpoint.
    // A crate named for a command line (`acme-cli`, `cli-util`) is one, even when a
    // command serves a local port (a dev tunnel, a login callback).
    // So is a WebAssembly module for the browser, which serves no traffic either, and a
    // desktop application (it depends on a GUI framework of the catalog's
    // `desktop_crates`), even when it serves its own window on a local port.
    let mut tool: Vec<bool> = roots
        .iter()
        .map(|r| {
            let m = &manifests[r];
            m.browser
                || m.name.as_deref().is_some_and(names_a_cli)
                || m.deps.iter().any(|d| desktop.contains(d))
        })
        .collect();
    loop {
        let mut changed = false;
        for k in 0..roots.len() {
            if tool[k] {
                continue;
            }
            let users = &dependents[k];
            let only_tools = !users.is_empty() && users.iter().all(|&u| tool[u]);
            // (`test_infra`: tests of the server crate and a benchmark program use it.)
            let test_kit =
                (users.is_empty() || only_tools) && !program[k] && !dev_dependents[k].is_empty();
            if test_kit || (!serves[k] && ((program[k] && users.is_empty()) || only_tools)) {
                tool[k] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (k, root) in roots.iter().enumerate() {
        // A program with no library that no crate builds on: only its own binaries
        // call its code.
        let src_lib = root.join("src").join("lib.rs");
        let program_only = program[k]
            && !manifests[root].lib
            && dependents[k].is_empty()
            && !crates[*root].iter().any(|&i| files[i].path == src_lib);
        for &i in &crates[*root] {
            facts[i].tool = tool[k];
            facts[i].binary |= tool[k];
            facts[i].program_only = program_only;
        }
    }
}

/// Whether a package name has `cli` as one of its words (`restate-cli`, `cli_util`),
/// or is a cargo subcommand (`cargo-deploy`).
fn names_a_cli(name: &str) -> bool {
    name.starts_with("cargo-")
        || name
            .split(['-', '_'])
            .any(|w| w.eq_ignore_ascii_case("cli"))
}

/// Whether a crate declares a request entry point or binds a listening socket outside
/// an `admin` module. A handler registered by name counts when the crate defines that
/// function (`client.get(url)` names no handler).
fn serves_traffic(members: &[usize], facts: &[FileFacts]) -> bool {
    let functions: HashSet<&str> = members
        .iter()
        .flat_map(|&i| facts[i].contexts.iter().map(|c| c.name.as_str()))
        .collect();
    // A load generator's metrics endpoint in its `admin` module serves operators.
    members
        .iter()
        .filter(|&&i| !facts[i].admin_module())
        .any(|&i| {
            facts[i].listens
                || facts[i].consumes
                || facts[i]
                    .handlers
                    .iter()
                    .any(|(h, _)| functions.contains(&*h.method))
                || facts[i]
                    .contexts
                    .iter()
                    .any(|c| c.entry.as_ref().is_some_and(|e| e.heat == Heat::Hot))
        })
}

/// `billing/src/api/refund.rs` -> `billing::api::refund` (`lib.rs`, `main.rs` and
/// `mod.rs` name their directory's module); files outside `src/` get the crate only.
fn module_path(root: &Path, file: &Path, krate: Option<&str>) -> Vec<Box<str>> {
    let mut out: Vec<Box<str>> = krate.map(Into::into).into_iter().collect();
    let Ok(rel) = file.strip_prefix(root.join("src")) else {
        return out;
    };
    let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
    for (k, part) in parts.iter().enumerate() {
        let last = k + 1 == parts.len();
        let name = if last {
            part.strip_suffix(".rs").unwrap_or(part)
        } else {
            part
        };
        if last && matches!(name, "lib" | "main" | "mod") {
            continue;
        }
        out.push(name.into());
    }
    out
}

/// Read a crate's manifest; an unreadable one says nothing (so its library counts
/// as used by others and nothing is marked).
fn manifest(root: &Path) -> Manifest {
    let Ok(text) = std::fs::read_to_string(root.join("Cargo.toml")) else {
        return Manifest::default();
    };
    let Ok(table) = text.parse::<toml::Table>() else {
        return Manifest::default();
    };
    let doc = toml::Value::Table(table);
    let name = doc
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .map(|n| n.replace('_', "-"));
    let names = |tables: Vec<&toml::Value>| -> Vec<String> {
        let mut out = Vec::new();
        for t in tables.into_iter().filter_map(|t| t.as_table()) {
            for (key, spec) in t {
                // `alias = { package = "real-name", .. }`
                let real = spec.get("package").and_then(|p| p.as_str()).unwrap_or(key);
                out.push(real.replace('_', "-"));
            }
        }
        out
    };
    let mut targets: Vec<&toml::Value> = vec![&doc];
    if let Some(t) = doc.get("target").and_then(|t| t.as_table()) {
        targets.extend(t.values());
    }
    let section =
        |k: &str| -> Vec<&toml::Value> { targets.iter().filter_map(|t| t.get(k)).collect() };
    let mut deps = names(section("dependencies"));
    deps.extend(names(section("build-dependencies")));
    let dev_deps = names(section("dev-dependencies"));
    let bins = doc
        .get("bin")
        .and_then(|b| b.as_array())
        .into_iter()
        .flatten()
        .filter_map(|b| b.get("path").and_then(|p| p.as_str()).map(PathBuf::from))
        .collect();
    let mut targets: Vec<PathBuf> = doc
        .get("lib")
        .and_then(|l| l.get("path"))
        .and_then(|p| p.as_str())
        .map(PathBuf::from)
        .into_iter()
        .collect();
    for kind in ["bin", "example", "test", "bench"] {
        let paths = doc
            .get(kind)
            .and_then(|b| b.as_array())
            .into_iter()
            .flatten();
        targets.extend(paths.filter_map(|b| b.get("path")?.as_str().map(PathBuf::from)));
    }
    let lib = doc.get("lib").is_some();
    let cdylib = doc
        .get("lib")
        .and_then(|l| l.get("crate-type"))
        .and_then(|t| t.as_array())
        .is_some_and(|t| t.iter().any(|k| k.as_str() == Some("cdylib")));
    let browser = cdylib
        && names(doc.get("dependencies").into_iter().collect())
            .iter()
            .any(|d| d == "wasm-bindgen");
    Manifest {
        name,
        deps,
        dev_deps,
        bins,
        targets,
        browser,
        lib,
    }
}

/// The nearest directory at or above `dir` holding a `Cargo.toml` (memoized).
fn crate_root(dir: &Path, roots: &mut HashMap<PathBuf, Option<PathBuf>>) -> Option<PathBuf> {
    if let Some(hit) = roots.get(dir) {
        return hit.clone();
    }
    let found = if dir.join("Cargo.toml").is_file() {
        Some(dir.to_path_buf())
    } else {
        dir.parent().and_then(|p| crate_root(p, roots))
    };
    roots.insert(dir.to_path_buf(), found.clone());
    found
}

/// Rust files that no module declares (`// mod download;` commented out in `lib.rs`)
/// are not compiled: their facts are dropped. Only where the parent module's file is
/// in the project, was parsed, and shows every module it declares; crate roots
/// (`lib.rs`, `main.rs`, `build.rs`, `src/bin/*`, tests, examples, benches, and the
/// targets `Cargo.toml` names by `path`) stay.
fn drop_undeclared_modules(
    files: &[SourceFile],
    facts: &mut [FileFacts],
    crates: &BTreeMap<PathBuf, Vec<usize>>,
    manifests: &BTreeMap<&PathBuf, Manifest>,
) {
    let by_path: HashMap<&Path, usize> = files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.language == Language::Rust)
        .map(|(i, f)| (f.path.as_path(), i))
        .collect();
    // Files named by `#[path = ".."]` where they are declared.
    let mut named: HashSet<PathBuf> = HashSet::new();
    for (f, x) in files.iter().zip(facts.iter()) {
        let dir = f.path.parent().unwrap_or(Path::new(""));
        for m in x.modules.iter().flatten() {
            if let Some(p) = m.strip_prefix('@') {
                named.insert(dir.join(p));
            }
        }
    }
    // A module declared only by a dead module is dead too (`replicator/local.rs`
    // under an undeclared `replicator/mod.rs`): repeat until nothing changes.
    let mut dead: HashSet<usize> = HashSet::new();
    loop {
        let before = dead.len();
        for (root, members) in crates {
            let targets: Vec<PathBuf> = manifests[root]
                .targets
                .iter()
                .map(|t| root.join(t))
                .collect();
            for &i in members {
                let f = &files[i];
                if dead.contains(&i) || targets.contains(&f.path) || named.contains(&f.path) {
                    continue;
                }
                let Some((parents, name)) = module_parents(&f.path) else {
                    continue;
                };
                let mut seen = false;
                let mut declared = false;
                for (parent, prefix) in &parents {
                    let Some(&p) = by_path.get(parent.as_path()) else {
                        continue;
                    };
                    if dead.contains(&p) {
                        seen = true; // a module that is not compiled declares nothing
                        continue;
                    }
                    let Some(mods) = &facts[p].modules else {
                        declared = true; // it may declare it where it cannot be read
                        break;
                    };
                    // An inline parent (`mod a { .. }` in `lib.rs`) speaks only when it has one.
                    if !prefix.is_empty() && !mods.iter().any(|m| m.starts_with(prefix.as_str())) {
                        continue;
                    }
                    seen = true;
                    let want = format!("{prefix}{name}");
                    declared |= mods.iter().any(|m| **m == *want);
                }
                if seen && !declared {
                    dead.insert(i);
                }
            }
        }
        if dead.len() == before {
            break;
        }
    }
    for i in dead {
        facts[i] = FileFacts::default();
    }
}

/// The files that may declare `path`'s module, each with the module path prefix
/// it declares it under (`mod a { mod b; }`: `a/` in `a`'s parent), and the
/// module's name; `None` for crate roots and special directories.
fn module_parents(path: &Path) -> Option<(Vec<(PathBuf, String)>, String)> {
    let stem = path.file_stem()?.to_str()?;
    let dir = path.parent()?;
    let special = ["tests", "examples", "benches", "bin"];
    if matches!(stem, "lib" | "main" | "build")
        || dir
            .components()
            .any(|c| special.iter().any(|s| c.as_os_str() == *s))
    {
        return None;
    }
    // `dir/name.rs` is declared in `dir`'s module file; `dir/mod.rs` in the one above.
    let (name, home) = if stem == "mod" {
        (dir.file_name()?.to_str()?.to_string(), dir.parent()?)
    } else {
        (stem.to_string(), dir)
    };
    let mut parents = vec![
        (home.join("mod.rs"), String::new()),
        (home.join("lib.rs"), String::new()),
        (home.join("main.rs"), String::new()),
    ];
    // 2018 style: `src/api.rs` declares the modules in `src/api/`; and `mod api { mod
    // v1; }` in `src/lib.rs` declares `src/api/v1.rs` as `api/v1`.
    if let (Some(up), Some(home_name)) = (home.parent(), home.file_name().and_then(|n| n.to_str()))
    {
        parents.push((up.join(format!("{home_name}.rs")), String::new()));
        for root in ["mod.rs", "lib.rs", "main.rs"] {
            parents.push((up.join(root), format!("{home_name}/")));
        }
    }
    Some((parents, name))
}
