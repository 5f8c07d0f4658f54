//! The record cache: what analysing a file yields (its facts, suppressions and
//! errors, line index, digest, whether it is generated code), kept in
//! `<project root>/.poolguard_cache/` and keyed by the file's content, its
//! root-relative path and everything else extraction reads (poolguard's build,
//! the loaded catalog, `include_tests`, `include_generated`, `max_file_bytes`).
//! An unchanged file is then read and hashed, never parsed.
//!
//! One pack file a project: a header, an index and the records. It is read once
//! at the start of a run and, when anything changed, written whole to a
//! temporary file that is renamed over it, so concurrent or killed runs never
//! leave a torn pack. A pack that is missing, of another build or settings, or
//! fails its checksum is ignored (and rebuilt); one that cannot be written costs
//! a note, never the run.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{xxh3_128, Xxh3};

use crate::catalog::Catalog;
use crate::facts::{FileFacts, TypeRef};
use crate::report::{Analysed, FileError};
use crate::source::{Language, SourceFile};

/// The default cache directory, under the project root.
pub const DIR_NAME: &str = ".poolguard_cache";
/// Bump whenever the pack layout or a cached type changes.
pub const FORMAT_VERSION: u32 = 52;
const PACK: &str = "records.pack";
const MAGIC: &[u8; 8] = b"PGCACHE\n";
/// Magic, format version, settings fingerprint, body length, body checksum.
const HEADER_BYTES: usize = 8 + 4 + 16 + 8 + 8;
const CACHEDIR_TAG: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This file is a cache directory tag created by poolguard.\n\
# For information about cache directory tags see https://bford.info/cachedir/\n";

/// Where a run keeps its cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// `--no-cache`: neither read nor written.
    Off,
    /// `<project root>/.poolguard_cache`.
    Default,
    /// `--cache-dir`, `POOLGUARD_CACHE_DIR` or the config's `cache-dir`.
    Dir(PathBuf),
}

impl Location {
    /// The cache directory of a project, unless the cache is off.
    pub fn dir(&self, root: &Path) -> Option<PathBuf> {
        match self {
            Location::Off => None,
            Location::Default => Some(root.join(DIR_NAME)),
            Location::Dir(d) => Some(d.clone()),
        }
    }
}

/// Everything besides a file's path and content that decides what analysing it
/// yields.
pub fn fingerprint(
    catalog: &Catalog,
    include_tests: bool,
    include_generated: bool,
    max_file_bytes: u64,
) -> u128 {
    let mut h = Xxh3::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(&FORMAT_VERSION.to_le_bytes());
    // A rebuilt binary (same version, other extraction code) starts afresh.
    if let Some(m) = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::metadata(p).ok())
    {
        h.update(&m.len().to_le_bytes());
        let modified = m.modified().ok();
        let since = modified.and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
        h.update(&since.map_or(0, |d| d.as_nanos()).to_le_bytes());
    }
    for language in [Language::Java, Language::Rust] {
        h.update(format!("{:?}", catalog.lang(language).data).as_bytes());
    }
    h.update(&[u8::from(include_tests), u8::from(include_generated)]);
    h.update(&max_file_bytes.to_le_bytes());
    h.digest128()
}

/// One file's place in the pack.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    /// Root-relative path, as reported.
    path: String,
    /// xxh3-128 and length of the content.
    content: u128,
    len: u64,
    /// Where the record lies among the records.
    offset: u64,
    size: u64,
}

/// What analysing a file yields, as cached.
#[derive(Deserialize)]
struct Record {
    generated: bool,
    test_code: bool,
    errors: Vec<String>,
    file: Option<(Language, Vec<u32>, u64, FileFacts)>,
}

/// [`Record`] by reference, for writing (the same bytes).
#[derive(Serialize)]
struct RecordRef<'a> {
    generated: bool,
    test_code: bool,
    errors: Vec<&'a str>,
    file: Option<(Language, &'a [u32], u64, &'a FileFacts)>,
}

/// A pack read at the start of the run.
struct Pack {
    bytes: Vec<u8>,
    /// Where the records start in `bytes`.
    records: usize,
    entries: Vec<Entry>,
    by_path: FxHashMap<String, usize>,
}

/// A file's record for the next pack.
pub struct Stored {
    path: String,
    content: u128,
    len: u64,
    data: Data,
}

impl Stored {
    /// Analysed in this run (not taken from the cache).
    pub fn is_new(&self) -> bool {
        matches!(self.data, Data::New(_))
    }
}

enum Data {
    /// The bytes of the pack read at the start (the file is unchanged).
    Old {
        offset: u64,
        size: u64,
    },
    New(Vec<u8>),
}

/// A file's cache key, computed from the bytes analysed.
pub struct Key {
    path: String,
    content: u128,
    len: u64,
}

/// The cache of one run.
pub struct Cache {
    dir: PathBuf,
    fingerprint: u128,
    old: Option<Pack>,
}

impl Cache {
    /// Open the cache in `dir`: read the pack if it is one of this build and these
    /// settings. Never fails: anything unreadable is an empty cache.
    pub fn open(dir: PathBuf, fingerprint: u128) -> Cache {
        let old = std::fs::read(dir.join(PACK))
            .ok()
            .and_then(|bytes| Pack::parse(bytes, fingerprint));
        Cache {
            dir,
            fingerprint,
            old,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of a file whose content is `bytes`, shown as `display`.
    pub fn key(display: &str, bytes: &[u8]) -> Key {
        Key {
            path: display.to_string(),
            content: xxh3_128(bytes),
            len: bytes.len() as u64,
        }
    }

    /// The cached outcome of analysing the file of `key`, if the pack has it.
    pub(crate) fn get(
        &self,
        key: &Key,
        path: &Path,
        language: Language,
    ) -> Option<(Analysed, Stored)> {
        let pack = self.old.as_ref()?;
        let e = &pack.entries[*pack.by_path.get(&key.path)?];
        if e.content != key.content || e.len != key.len {
            return None;
        }
        let start = pack.records.checked_add(usize::try_from(e.offset).ok()?)?;
        let end = start.checked_add(usize::try_from(e.size).ok()?)?;
        let record: Record = postcard::from_bytes(pack.bytes.get(start..end)?).ok()?;
        let errors = |display: &str| {
            let errors = record.errors.into_iter();
            errors
                .map(|message| FileError {
                    path: display.to_string(),
                    message,
                })
                .collect()
        };
        let file = match record.file {
            Some((lang, _, _, _)) if lang != language => return None,
            Some((_, line_starts, digest, mut facts)) => {
                share(&mut facts);
                let display = key.path.clone();
                let source = SourceFile::from_index(
                    path.to_path_buf(),
                    display,
                    language,
                    line_starts,
                    digest,
                );
                Some(Box::new((source, facts)))
            }
            None => None,
        };
        let analysed = Analysed {
            file,
            errors: errors(&key.path),
            generated: record.generated,
            test_code: record.test_code,
        };
        let stored = Stored {
            path: key.path.clone(),
            content: key.content,
            len: key.len,
            data: Data::Old {
                offset: e.offset,
                size: e.size,
            },
        };
        Some((analysed, stored))
    }

    /// Encode a freshly analysed file for the next pack.
    pub(crate) fn put(key: Key, analysed: &Analysed) -> Option<Stored> {
        let record = RecordRef {
            generated: analysed.generated,
            test_code: analysed.test_code,
            errors: analysed.errors.iter().map(|e| e.message.as_str()).collect(),
            file: analysed.file.as_deref().map(|(source, facts)| {
                let (line_starts, digest) = source.index();
                (source.language, line_starts, digest, facts)
            }),
        };
        let bytes = postcard::to_stdvec(&record).ok()?;
        Some(Stored {
            path: key.path,
            content: key.content,
            len: key.len,
            data: Data::New(bytes),
        })
    }

    /// Write the pack of this run, when it differs from the one read: the files of
    /// this run (`stored`) and the entries of the old pack for other files that
    /// still exist under `root`. Runs on its own thread; join it for the outcome.
    pub fn save(
        self,
        stored: Vec<Stored>,
        root: PathBuf,
    ) -> std::thread::JoinHandle<Result<bool, String>> {
        std::thread::spawn(move || self.write(stored, &root))
    }

    fn write(self, mut stored: Vec<Stored>, root: &Path) -> Result<bool, String> {
        let mut seen: FxHashSet<String> = FxHashSet::default();
        stored.retain(|s| seen.insert(s.path.clone()));
        let mut changed =
            self.old.is_none() || stored.iter().any(|s| matches!(s.data, Data::New(_)));
        let mut kept = Vec::new();
        if let Some(old) = &self.old {
            for e in &old.entries {
                if seen.contains(e.path.as_str()) {
                    continue;
                }
                // Files outside this run's walk stay cached while they exist.
                if std::fs::symlink_metadata(root.join(&e.path)).is_ok() {
                    kept.push(Stored {
                        path: e.path.clone(),
                        content: e.content,
                        len: e.len,
                        data: Data::Old {
                            offset: e.offset,
                            size: e.size,
                        },
                    });
                } else {
                    changed = true;
                }
            }
        }
        if !changed {
            return Ok(false);
        }
        stored.extend(kept);
        self.write_pack(&stored)
            .map(|()| true)
            .map_err(|e| format!("cannot write the cache in {}: {e}", self.dir.display()))
    }

    fn write_pack(&self, stored: &[Stored]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        for (name, text) in [(".gitignore", "*\n"), ("CACHEDIR.TAG", CACHEDIR_TAG)] {
            let path = self.dir.join(name);
            if std::fs::symlink_metadata(&path).is_err() {
                std::fs::write(path, text)?;
            }
        }
        let old = self.old.as_ref();
        fn record<'a>(old: Option<&'a Pack>, s: &'a Stored) -> &'a [u8] {
            match &s.data {
                Data::New(b) => b,
                Data::Old { offset, size } => old
                    .and_then(|p| {
                        let start = p.records.checked_add(usize::try_from(*offset).ok()?)?;
                        p.bytes
                            .get(start..start.checked_add(usize::try_from(*size).ok()?)?)
                    })
                    .unwrap_or_default(),
            }
        }
        let mut offset = 0u64;
        let entries: Vec<Entry> = stored
            .iter()
            .map(|s| {
                let size = record(old, s).len() as u64;
                let e = Entry {
                    path: s.path.clone(),
                    content: s.content,
                    len: s.len,
                    offset,
                    size,
                };
                offset += size;
                e
            })
            .collect();
        let index = postcard::to_stdvec(&entries).map_err(std::io::Error::other)?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = self
            .dir
            .join(format!("{PACK}.{}.{nanos}.tmp", std::process::id()));
        let result = (|| {
            let file = std::fs::File::create(&tmp)?;
            let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
            out.write_all(&[0; HEADER_BYTES])?;
            let mut sum = Xxh3::new();
            let mut body = |out: &mut std::io::BufWriter<std::fs::File>, b: &[u8]| {
                sum.update(b);
                out.write_all(b)
            };
            body(&mut out, &(index.len() as u64).to_le_bytes())?;
            body(&mut out, &index)?;
            for s in stored {
                body(&mut out, record(old, s))?;
            }
            let body_len = 8 + index.len() as u64 + offset;
            let mut header = Vec::with_capacity(HEADER_BYTES);
            header.extend_from_slice(MAGIC);
            header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
            header.extend_from_slice(&self.fingerprint.to_le_bytes());
            header.extend_from_slice(&body_len.to_le_bytes());
            header.extend_from_slice(&sum.digest().to_le_bytes());
            out.seek(SeekFrom::Start(0))?;
            out.write_all(&header)?;
            out.into_inner().map_err(|e| e.into_error())?;
            std::fs::rename(&tmp, self.dir.join(PACK))
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}

impl Pack {
    fn parse(bytes: Vec<u8>, fingerprint: u128) -> Option<Pack> {
        let header = bytes.get(..HEADER_BYTES)?;
        let u64_at = |at: usize| Some(u64::from_le_bytes(header.get(at..at + 8)?.try_into().ok()?));
        if &header[..8] != MAGIC
            || header[8..12] != FORMAT_VERSION.to_le_bytes()
            || header[12..28] != fingerprint.to_le_bytes()
        {
            return None;
        }
        let (body_len, sum) = (u64_at(28)?, u64_at(36)?);
        let body = bytes.get(HEADER_BYTES..)?;
        if body.len() as u64 != body_len || xxhash_rust::xxh3::xxh3_64(body) != sum {
            return None;
        }
        let index_len =
            usize::try_from(u64::from_le_bytes(body.get(..8)?.try_into().ok()?)).ok()?;
        let index = body.get(8..8usize.checked_add(index_len)?)?;
        let entries: Vec<Entry> = postcard::from_bytes(index).ok()?;
        let records = HEADER_BYTES + 8 + index_len;
        let by_path = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.path.clone(), i))
            .collect();
        Some(Pack {
            bytes,
            records,
            entries,
            by_path,
        })
    }
}

/// Restore the sharing the front ends set up (one allocation per type reference
/// or owner in a file), which decoding undoes.
fn share(facts: &mut FileFacts) {
    let mut refs: FxHashMap<TypeRef, Arc<TypeRef>> = FxHashMap::default();
    let mut one = |r: &mut Arc<TypeRef>| {
        if let Some(shared) = refs.get(&**r) {
            *r = shared.clone();
        } else {
            refs.insert((**r).clone(), r.clone());
        }
    };
    for c in facts
        .calls
        .iter_mut()
        .chain(facts.handlers.iter_mut().map(|(c, _)| c))
    {
        if let Some(t) = &mut c.target {
            one(t);
        }
    }
    for t in &mut facts.types {
        t.supers.iter_mut().for_each(&mut one);
        t.fields.iter_mut().for_each(|(_, r)| one(r));
    }
    facts.ret_types.iter_mut().for_each(|(_, r)| one(r));
    let params = facts.param_types.iter_mut().map(|(_, t)| t);
    for types in params.chain(facts.arg_types.iter_mut().map(|(_, t)| t)) {
        types.iter_mut().flatten().for_each(&mut one);
    }
    facts
        .member_receivers
        .iter_mut()
        .for_each(|(_, r, _)| one(r));
    let mut owners: FxHashSet<Arc<str>> = FxHashSet::default();
    for c in &mut facts.contexts {
        if let Some(o) = &mut c.owner {
            match owners.get(o) {
                Some(shared) => *o = shared.clone(),
                None => {
                    owners.insert(o.clone());
                }
            }
        }
    }
}

/// `poolguard clean`: delete the cache in `dir` (only the files poolguard
/// writes; the directory itself when that leaves it empty). Returns whether
/// there was a cache.
pub fn clean(dir: &Path) -> std::io::Result<bool> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(false);
    };
    let mut found = false;
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let ours = name == PACK
            || name == ".gitignore"
            || name == "CACHEDIR.TAG"
            || (name.starts_with(PACK) && name.ends_with(".tmp"));
        if ours && e.file_type().is_ok_and(|t| t.is_file()) {
            std::fs::remove_file(e.path())?;
            found = true;
        }
    }
    let _ = std::fs::remove_dir(dir);
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_pack_is_no_pack() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(dir.path().to_path_buf(), 7);
        let analysed = Analysed {
            file: None,
            errors: vec![FileError {
                path: "a.rs".into(),
                message: "skipped: x".into(),
            }],
            generated: false,
            test_code: false,
        };
        let stored = Cache::put(Cache::key("a.rs", b"x"), &analysed).unwrap();
        std::fs::write(dir.path().join("a.rs"), "x").unwrap();
        assert!(cache
            .save(vec![stored], dir.path().into())
            .join()
            .unwrap()
            .unwrap());
        let cache = Cache::open(dir.path().to_path_buf(), 7);
        let (hit, _) = cache
            .get(&Cache::key("a.rs", b"x"), Path::new("a.rs"), Language::Rust)
            .unwrap();
        assert_eq!(hit.errors[0].message, "skipped: x");
        assert!(cache
            .get(&Cache::key("a.rs", b"y"), Path::new("a.rs"), Language::Rust)
            .is_none());
        assert!(Cache::open(dir.path().to_path_buf(), 8).old.is_none());
        let pack = dir.path().join(PACK);
        let mut bytes = std::fs::read(&pack).unwrap();
        for cut in [0, 10, HEADER_BYTES, bytes.len() - 1] {
            std::fs::write(&pack, &bytes[..cut]).unwrap();
            assert!(
                Cache::open(dir.path().to_path_buf(), 7).old.is_none(),
                "{cut}"
            );
        }
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&pack, &bytes).unwrap();
        assert!(Cache::open(dir.path().to_path_buf(), 7).old.is_none());
        assert!(clean(dir.path()).unwrap());
        assert!(!dir.path().join(PACK).exists());
    }
}
