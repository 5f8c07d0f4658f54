//! Rust templates: axum handlers, tokio workers, rayon/std-thread batch jobs,
//! domain modules and HTTP clients.

use std::collections::HashSet;
use std::path::PathBuf;

use super::{camel, fill, kebab, line_count, snake, Rng, Vars, MAX_LINES, MIN_LINES, NOUNS};

const CRATES: &[&str] = &[
    "orders-api",
    "billing-worker",
    "inventory-sync",
    "catalog-service",
    "shipping-gateway",
    "pricing-engine",
    "payments-core",
    "accounts-api",
    "notify-dispatch",
    "search-indexer",
    "reviews-api",
    "loyalty-service",
    "fulfillment-worker",
    "returns-api",
    "ledger-core",
    "identity-service",
    "edge-gateway",
    "reporting-jobs",
    "scheduler",
    "recs-engine",
];

const QUALIFIERS: &[&str] = &[
    "bulk", "legacy", "regional", "partner", "internal", "priority", "cached", "remote", "v2",
    "admin", "public", "shadow",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Handlers,
    Worker,
    Batch,
    Domain,
    Client,
}

const KINDS: &[(Kind, usize)] = &[
    (Kind::Handlers, 30),
    (Kind::Worker, 15),
    (Kind::Batch, 15),
    (Kind::Domain, 25),
    (Kind::Client, 15),
];

pub struct Plan {
    kind: Kind,
    krate: &'static str,
    e: &'static str,
    e2: &'static str,
    stem: String,
}

impl Plan {
    fn dir(&self) -> String {
        let sub = match self.kind {
            Kind::Handlers => "http",
            Kind::Worker => "workers",
            Kind::Batch => "jobs",
            Kind::Domain => "domain",
            Kind::Client => "clients",
        };
        format!("rust/{}/src/{sub}", self.krate)
    }

    pub fn path(&self) -> PathBuf {
        PathBuf::from(format!("{}/{}.rs", self.dir(), self.stem))
    }
}

pub fn plan(i: usize, rng: &mut Rng, taken: &mut HashSet<String>) -> Plan {
    let kind = KINDS[rng.weighted(&KINDS.iter().map(|k| k.1).collect::<Vec<_>>())].0;
    let krate = CRATES[i % CRATES.len()];
    let e = *rng.pick(NOUNS);
    let mut e2 = *rng.pick(NOUNS);
    while e2 == e {
        e2 = *rng.pick(NOUNS);
    }
    let words: &[&str] = match kind {
        Kind::Handlers => &["routes", "handlers", "api", "endpoints"],
        Kind::Worker => &["worker", "consumer", "dispatcher", "relay"],
        Kind::Batch => &["job", "rollup", "reindex", "export"],
        Kind::Domain => &["model", "rules", "state", "types"],
        Kind::Client => &["client", "gateway", "upstream", "remote"],
    };
    let mut p = Plan {
        kind,
        krate,
        e,
        e2,
        stem: String::new(),
    };
    let base = format!("{}_{}", snake(e), rng.pick(words));
    let dir = p.dir();
    let mut stem = base.clone();
    let mut tries = 0;
    while !taken.insert(format!("{dir}/{stem}")) {
        tries += 1;
        stem = if tries <= 4 {
            format!("{}_{base}", rng.pick(QUALIFIERS))
        } else {
            format!("{base}_{tries}")
        };
    }
    p.stem = stem;
    p
}

/// An item template. `$m$` is a unique snake-case function name and `$T$` a unique
/// type name; `route` (method, path) registers a handler in `routes()`.
struct Item {
    verbs: &'static [&'static str],
    types: &'static [&'static str],
    weight: usize,
    route: Option<(&'static str, &'static str)>,
    text: &'static str,
}

struct Names {
    fns: HashSet<String>,
    types: HashSet<String>,
}

fn unique_in(
    set: &mut HashSet<String>,
    base: String,
    rng: &mut Rng,
    words: &[&str],
    sep: &str,
) -> String {
    let mut name = base.clone();
    let mut n = 2;
    while !set.insert(name.clone()) {
        name = if n <= 3 {
            format!("{base}{sep}{}", rng.pick(words))
        } else {
            format!("{base}{sep}{n}")
        };
        n += 1;
    }
    name
}

fn item_vars(rng: &mut Rng, v: &mut Vars, names: &mut Names, item: &Item) {
    let e = v.get("e_snake").unwrap_or("item").to_string();
    let es = format!("{e}s");
    let verb = rng.pick(item.verbs).to_string();
    let noun = if verb.ends_with('_') { es } else { e };
    let base = format!("{}_{noun}", verb.trim_end_matches('_'));
    let m = unique_in(
        &mut names.fns,
        base,
        rng,
        &["now", "by_region", "fast", "checked", "all"],
        "_",
    );
    let ty = if item.types.is_empty() {
        String::new()
    } else {
        let base = format!("{}{}", v.get("E").unwrap_or("Item"), rng.pick(item.types));
        unique_in(
            &mut names.types,
            base,
            rng,
            &["Kind", "Set", "Info", "Spec"],
            "",
        )
    };
    v.set("mk", kebab_snake(&m))
        .set("m", m)
        .set("T", ty)
        .set(
            "ms",
            rng.pick(&["250", "400", "500", "800", "1_500", "2_000"])
                .to_string(),
        )
        .set("sec", rng.range(2, 30).to_string())
        .set("n", rng.range(2, 9).to_string())
        .set(
            "cap",
            rng.pick(&["64", "128", "256", "512", "1_024"]).to_string(),
        );
}

fn kebab_snake(s: &str) -> String {
    s.replace('_', "-")
}

pub fn render(p: &Plan, rng: &mut Rng) -> String {
    let mut v = Vars::default();
    let e = p.e;
    let e2 = p.e2;
    v.set("krate", p.krate)
        .set("E", e)
        .set("e", camel(e))
        .set("e_snake", snake(e))
        .set("es", format!("{}s", snake(e)))
        .set("ek", format!("{}s", kebab(e)))
        .set("E2", e2)
        .set("e2", snake(e2))
        .set("es2", format!("{}s", snake(e2)))
        .set("ek2", format!("{}s", kebab(e2)))
        .set("E_UP", snake(e).to_uppercase())
        .set(
            "Status",
            *rng.pick(&["Pending", "Active", "Settled", "Failed", "Open"]),
        )
        .set("doc", doc(p, rng))
        .set("uses", format!("{COMMON_USES}\n"));
    // The largest item is ~70 lines: stop early enough to stay under MAX_LINES.
    let target = rng.range(MIN_LINES, MAX_LINES - 72);
    let hazard = rng.chance(6);
    let mut names = Names {
        fns: HashSet::new(),
        types: HashSet::new(),
    };
    let (head, core, hazards, pool): (&str, &[Item], &[Item], &[Item]) = match p.kind {
        Kind::Handlers => (HANDLERS_HEAD, &[], HANDLER_HAZARDS, HANDLER_ITEMS),
        Kind::Worker => (WORKER_HEAD, WORKER_CORE, WORKER_HAZARDS, ASYNC_ITEMS),
        Kind::Batch => (BATCH_HEAD, BATCH_CORE, BATCH_HAZARDS, BATCH_ITEMS),
        Kind::Domain => (DOMAIN_HEAD, &[], &[], SHARED_ITEMS),
        Kind::Client => (CLIENT_HEAD, CLIENT_CORE, CLIENT_HAZARDS, ASYNC_ITEMS),
    };
    for f in [
        "now_millis",
        "routes",
        "validate",
        "into_response",
        "from",
        "spawn",
        "run",
        "flush",
        "shutdown",
        "new",
    ] {
        names.fns.insert(f.to_string());
    }
    let mut body = String::new();
    let mut routes = String::new();
    let mut add = |item: &Item, rng: &mut Rng, v: &mut Vars, body: &mut String| {
        item_vars(rng, v, &mut names, item);
        if let Some((method, path)) = item.route {
            routes.push_str(&fill(
                &format!("        .route(\"{path}\", {method}($m$))\n"),
                v,
            ));
        }
        body.push('\n');
        body.push_str(&fill(item.text, v));
    };
    for item in core {
        add(item, rng, &mut v, &mut body);
    }
    if hazard && !hazards.is_empty() {
        let weights: Vec<usize> = hazards.iter().map(|i| i.weight).collect();
        add(&hazards[rng.weighted(&weights)], rng, &mut v, &mut body);
    }
    // The routes() function is part of the handlers head; estimate its lines.
    let head_lines = line_count(head) + 2;
    let weights: Vec<usize> = pool.iter().map(|i| i.weight).collect();
    let shared: Vec<usize> = SHARED_ITEMS.iter().map(|i| i.weight).collect();
    let mut lines = head_lines + line_count(&body);
    while lines < target {
        // Two thirds from the kind's own pool, the rest from the shared one.
        let item = if pool.as_ptr() != SHARED_ITEMS.as_ptr() && rng.chance(66) {
            &pool[rng.weighted(&weights)]
        } else {
            &SHARED_ITEMS[rng.weighted(&shared)]
        };
        let before = body.len();
        add(item, rng, &mut v, &mut body);
        lines += line_count(&body[before..]) + usize::from(item.route.is_some());
    }
    if p.kind == Kind::Handlers {
        let unbounded = hazard && rng.chance(30);
        v.set(
            "events_channel",
            if unbounded {
                "let (events, rx) = mpsc::unbounded_channel();"
            } else {
                "let (events, rx) = mpsc::channel(1_024);"
            },
        );
        v.set(
            "events_type",
            if unbounded {
                "mpsc::UnboundedSender"
            } else {
                "mpsc::Sender"
            },
        );
        v.set("routes", routes);
    }
    let mut out = fill(head, &v);
    out.push_str(&body);
    out
}

fn doc(p: &Plan, rng: &mut Rng) -> String {
    let e = snake(p.e).replace('_', " ");
    let e2 = snake(p.e2).replace('_', " ");
    let lines = [
        format!("HTTP handlers for {e}s: lookups, listing, creation and the {e2} fan-out."),
        format!("Background processing of {e} events, batched and bounded."),
        format!("Periodic {e} jobs: aggregation and re-indexing on the CPU pool."),
        format!("The {e} model: states, transitions and validation rules."),
        format!("Client for the {e2} service used by `{}`.", p.krate),
        format!("Keeps {e} data in step with the {e2} service."),
    ];
    rng.pick(&lines).clone()
}

// ------------------------------------------------------------------ shared items

const COMMON_USES: &str = "use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
";

const SHARED_ITEMS: &[Item] = &[
    Item {
        verbs: &["describe"],
        types: &["Stage", "Tier", "Channel", "Priority", "Source"],
        weight: 5,
        route: None,
        text: "/// Where a $e_snake$ is in its life cycle, as reported to partners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum $T$ {
    Draft,
    Submitted,
    Accepted { by_partner: bool },
    Rejected(u16),
    Archived,
}

impl $T$ {
    pub fn is_terminal(self) -> bool {
        matches!(self, $T$::Rejected(_) | $T$::Archived)
    }

    pub fn next(self) -> Option<$T$> {
        match self {
            $T$::Draft => Some($T$::Submitted),
            $T$::Submitted => Some($T$::Accepted { by_partner: false }),
            $T$::Accepted { .. } => Some($T$::Archived),
            $T$::Rejected(code) if code >= 500 => Some($T$::Submitted),
            $T$::Rejected(_) | $T$::Archived => None,
        }
    }
}

impl fmt::Display for $T$ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            $T$::Draft => f.write_str(\"draft\"),
            $T$::Submitted => f.write_str(\"submitted\"),
            $T$::Accepted { by_partner: true } => f.write_str(\"accepted-by-partner\"),
            $T$::Accepted { by_partner: false } => f.write_str(\"accepted\"),
            $T$::Rejected(code) => write!(f, \"rejected ({code})\"),
            $T$::Archived => f.write_str(\"archived\"),
        }
    }
}

impl FromStr for $T$ {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            \"draft\" => Ok($T$::Draft),
            \"submitted\" => Ok($T$::Submitted),
            \"accepted\" => Ok($T$::Accepted { by_partner: false }),
            \"accepted-by-partner\" => Ok($T$::Accepted { by_partner: true }),
            \"archived\" => Ok($T$::Archived),
            other => other
                .strip_prefix(\"rejected \")
                .and_then(|code| code.trim_matches(|c| c == '(' || c == ')').parse().ok())
                .map($T$::Rejected)
                .ok_or_else(|| format!(\"unknown stage `{other}`\")),
        }
    }
}
",
    },
    Item {
        verbs: &["build"],
        types: &["Options", "Limits", "Settings", "Policy"],
        weight: 5,
        route: None,
        text: "#[derive(Debug, Clone)]
pub struct $T$ {
    pub region: String,
    pub max_items: usize,
    pub timeout: Duration,
    pub retries: u32,
    pub tags: Vec<String>,
}

impl Default for $T$ {
    fn default() -> Self {
        $T$ {
            region: \"eu-west-1\".to_string(),
            max_items: $cap$,
            timeout: Duration::from_millis($ms$),
            retries: $n$,
            tags: Vec::new(),
        }
    }
}

impl $T$ {
    pub fn with_region(mut self, region: impl Into<String>) -> Self {
        self.region = region.into();
        self
    }

    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout.min(Duration::from_secs($sec$));
        self
    }

    pub fn tag(mut self, tag: &str) -> Self {
        if !self.tags.iter().any(|t| t == tag) {
            self.tags.push(tag.to_owned());
        }
        self
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.max_items == 0 {
            return Err(\"max_items must be positive\".into());
        }
        if self.retries > 10 {
            return Err(format!(\"too many retries: {}\", self.retries));
        }
        Ok(())
    }
}
",
    },
    Item {
        verbs: &["score", "rank"],
        types: &["Scorer"],
        weight: 4,
        route: None,
        text: "pub trait $T$: Send + Sync {
    fn name(&self) -> &'static str;

    fn score(&self, amount_cents: i64, age: Duration) -> f64;

    fn explain(&self, amount_cents: i64, age: Duration) -> String {
        format!(\"{}: {:.3}\", self.name(), self.score(amount_cents, age))
    }
}

pub struct Linear$T$ {
    pub weight: f64,
}

pub struct Decaying$T$ {
    pub half_life: Duration,
}

impl $T$ for Linear$T$ {
    fn name(&self) -> &'static str {
        \"linear\"
    }

    fn score(&self, amount_cents: i64, _age: Duration) -> f64 {
        self.weight * amount_cents as f64 / 100.0
    }
}

impl $T$ for Decaying$T$ {
    fn name(&self) -> &'static str {
        \"decaying\"
    }

    fn score(&self, amount_cents: i64, age: Duration) -> f64 {
        let halves = age.as_secs_f64() / self.half_life.as_secs_f64().max(1.0);
        amount_cents as f64 * 0.5f64.powf(halves)
    }
}

pub fn $m$(scorers: &[Box<dyn $T$>], amount_cents: i64, age: Duration) -> Option<(&'static str, f64)> {
    scorers
        .iter()
        .map(|s| (s.name(), s.score(amount_cents, age)))
        .filter(|(_, score)| score.is_finite())
        .max_by(|a, b| a.1.total_cmp(&b.1))
}
",
    },
    Item {
        verbs: &["group_", "index_", "bucket_"],
        types: &[],
        weight: 5,
        route: None,
        text: "pub fn $m$<'a>(rows: &'a [(String, String, i64)]) -> BTreeMap<&'a str, (usize, i64)> {
    let mut out: BTreeMap<&'a str, (usize, i64)> = BTreeMap::new();
    for (region, _id, cents) in rows.iter().filter(|(_, id, _)| !id.is_empty()) {
        let slot = out.entry(region.as_str()).or_insert((0, 0));
        slot.0 += 1;
        slot.1 = slot.1.saturating_add(*cents);
    }
    out.retain(|_, (count, _)| *count >= $n$);
    out
}
",
    },
    Item {
        verbs: &["parse", "decode"],
        types: &["Error"],
        weight: 4,
        route: None,
        text: "#[derive(Debug)]
pub enum $T$ {
    Missing(&'static str),
    Invalid { field: &'static str, value: String },
    TooLarge(usize),
}

impl fmt::Display for $T$ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            $T$::Missing(field) => write!(f, \"missing field `{field}`\"),
            $T$::Invalid { field, value } => write!(f, \"invalid `{field}`: {value:?}\"),
            $T$::TooLarge(n) => write!(f, \"{n} bytes is over the limit\"),
        }
    }
}

impl std::error::Error for $T$ {}

pub fn $m$(line: &str) -> Result<(String, i64, Vec<String>), $T$> {
    if line.len() > 64 * 1024 {
        return Err($T$::TooLarge(line.len()));
    }
    let mut parts = line.split(';').map(str::trim);
    let id = parts.next().filter(|s| !s.is_empty()).ok_or($T$::Missing(\"id\"))?;
    let amount = parts.next().ok_or($T$::Missing(\"amount\"))?;
    let amount: i64 = amount.parse().map_err(|_| $T$::Invalid {
        field: \"amount\",
        value: amount.to_string(),
    })?;
    let tags = parts
        .flat_map(|p| p.split(','))
        .map(|t| t.trim().to_lowercase())
        .filter(|t| !t.is_empty())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    Ok((id.to_string(), amount, tags))
}
",
    },
    Item {
        verbs: &["fee_for", "limit_for", "rate_for"],
        types: &[],
        weight: 4,
        route: None,
        text: "const $E_UP$_BANDS: &[(i64, u32)] = &[(0, 0), (1_000, 25), (10_000, 40), (100_000, 55), (1_000_000, 70)];

/// Basis points for an amount, from the band table above.
pub fn $m$(amount_cents: i64, premium: bool) -> u32 {
    let idx = match $E_UP$_BANDS.binary_search_by(|(floor, _)| floor.cmp(&amount_cents)) {
        Ok(i) => i,
        Err(0) => 0,
        Err(i) => i - 1,
    };
    let base = $E_UP$_BANDS[idx].1;
    if premium {
        base.saturating_sub(base / $n$)
    } else {
        base
    }
}
",
    },
    Item {
        verbs: &["merge_", "dedupe_", "compact_"],
        types: &[],
        weight: 4,
        route: None,
        text: "pub fn $m$(mut items: Vec<(String, u64, i64)>) -> Vec<(String, u64, i64)> {
    items.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    items.dedup_by(|later, earlier| later.0 == earlier.0);
    let total: i64 = items.iter().map(|(_, _, cents)| cents).sum();
    if total == 0 {
        return Vec::new();
    }
    let mut seen = HashSet::with_capacity(items.len());
    items
        .into_iter()
        .filter(|(id, _, _)| seen.insert(id.clone()))
        .take($cap$)
        .collect()
}
",
    },
    Item {
        verbs: &["classify", "route"],
        types: &[],
        weight: 4,
        route: None,
        text: "pub fn $m$(region: &str, amount_cents: i64, flags: &[&str]) -> &'static str {
    let express = flags.iter().any(|f| *f == \"express\");
    match (region, amount_cents, express) {
        (\"eu\" | \"uk\", 0..=9_999, false) => \"standard-eu\",
        (\"eu\" | \"uk\", _, true) => \"express-eu\",
        (\"us\", cents, _) if cents >= 100_000 => \"manual-review\",
        (\"us\", _, true) => \"express-us\",
        (_, cents, _) if cents < 0 => \"refund\",
        _ => {
            if flags.contains(&\"fragile\") {
                \"special-handling\"
            } else {
                \"standard\"
            }
        }
    }
}
",
    },
    Item {
        verbs: &["window", "rolling"],
        types: &["Window"],
        weight: 3,
        route: None,
        text: "/// A fixed-size window of recent samples, for rates and percentiles.
pub struct $T$ {
    samples: std::collections::VecDeque<(Instant, u64)>,
    span: Duration,
    limit: usize,
}

impl $T$ {
    pub fn new(span: Duration, limit: usize) -> Self {
        $T$ {
            samples: std::collections::VecDeque::with_capacity(limit.min(4_096)),
            span,
            limit,
        }
    }

    pub fn push(&mut self, at: Instant, value: u64) {
        while let Some((first, _)) = self.samples.front() {
            if at.duration_since(*first) > self.span || self.samples.len() >= self.limit {
                self.samples.pop_front();
            } else {
                break;
            }
        }
        self.samples.push_back((at, value));
    }

    pub fn percentile(&self, p: f64) -> Option<u64> {
        if self.samples.is_empty() {
            return None;
        }
        let mut values: Vec<u64> = self.samples.iter().map(|(_, v)| *v).collect();
        values.sort_unstable();
        let rank = ((values.len() - 1) as f64 * p.clamp(0.0, 1.0)).round() as usize;
        values.get(rank).copied()
    }
}
",
    },
];

// ------------------------------------------------------------------ async items

const ASYNC_ITEMS: &[Item] = &[
    Item {
        verbs: &["fetch_", "load_", "collect_"],
        types: &[],
        weight: 5,
        route: None,
        text: "pub async fn $m$(client: &reqwest::Client, base: &str, ids: &[String]) -> HashMap<String, serde_json::Value> {
    let lookups = ids.iter().map(|id| {
        let url = format!(\"{base}/v1/$ek2$/{id}\");
        async move {
            let response = client.get(&url).timeout(Duration::from_millis($ms$)).send().await.ok()?;
            let body = response.error_for_status().ok()?.json::<serde_json::Value>().await.ok()?;
            Some((id.clone(), body))
        }
    });
    match tokio::time::timeout(Duration::from_secs($sec$), futures::future::join_all(lookups)).await {
        Ok(results) => results.into_iter().flatten().collect(),
        Err(_) => {
            tracing::warn!(count = ids.len(), \"$ek2$ lookups timed out\");
            HashMap::new()
        }
    }
}
",
    },
    Item {
        verbs: &["process_", "dispatch_", "replay_"],
        types: &[],
        weight: 5,
        route: None,
        text: "pub async fn $m$(jobs: Vec<String>, permits: Arc<tokio::sync::Semaphore>) -> (usize, usize) {
    let mut set = tokio::task::JoinSet::new();
    for job in jobs {
        let permits = Arc::clone(&permits);
        set.spawn(async move {
            let _permit = permits.acquire_owned().await.ok()?;
            tokio::time::timeout(Duration::from_millis($ms$), handle_job(job)).await.ok()
        });
    }
    let (mut ok, mut failed) = (0, 0);
    while let Some(joined) = set.join_next().await {
        match joined {
            Ok(Some(Ok(()))) => ok += 1,
            Ok(Some(Err(err))) => {
                tracing::debug!(error = %err, \"job failed\");
                failed += 1;
            }
            Ok(None) | Err(_) => failed += 1,
        }
    }
    (ok, failed)
}
",
    },
    Item {
        verbs: &["retry", "with_backoff"],
        types: &[],
        weight: 4,
        route: None,
        text: "pub async fn $m$<T, E, F, Fut>(mut attempt: F, max_attempts: u32) -> Result<T, E>
where
    F: FnMut(u32) -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
    E: fmt::Display,
{
    let mut delay = Duration::from_millis(50);
    let mut n = 0;
    loop {
        n += 1;
        match tokio::time::timeout(Duration::from_millis($ms$), attempt(n)).await {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(err)) if n >= max_attempts => return Err(err),
            Ok(Err(err)) => tracing::debug!(attempt = n, error = %err, \"retrying\"),
            Err(_) => tracing::debug!(attempt = n, \"attempt timed out\"),
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs($sec$));
    }
}
",
    },
    Item {
        verbs: &["checksum", "compress", "render"],
        types: &[],
        weight: 4,
        route: None,
        text: "pub async fn $m$(payload: Vec<u8>) -> Result<u64, String> {
    let work = tokio::task::spawn_blocking(move || {
        payload
            .chunks(4_096)
            .map(|chunk| chunk.iter().fold(0u64, |acc, b| acc.rotate_left(5) ^ u64::from(*b)))
            .fold(0xcbf2_9ce4_8422_2325u64, |acc, h| (acc ^ h).wrapping_mul(0x100_0000_01b3))
    });
    match tokio::time::timeout(Duration::from_secs($sec$), work).await {
        Ok(Ok(sum)) => Ok(sum),
        Ok(Err(join)) => Err(format!(\"hashing task failed: {join}\")),
        Err(_) => Err(\"hashing timed out\".to_string()),
    }
}
",
    },
    Item {
        verbs: &["watch", "poll"],
        types: &[],
        weight: 3,
        route: None,
        text: "pub fn $m$(
    interval: Duration,
    mut stop: tokio::sync::watch::Receiver<bool>,
    tx: tokio::sync::mpsc::Sender<u64>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut seq = 0u64;
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    seq += 1;
                    if tx.send_timeout(seq, Duration::from_millis($ms$)).await.is_err() {
                        tracing::warn!(seq, \"consumer is behind, skipping tick\");
                    }
                }
                changed = stop.changed() => {
                    if changed.is_err() || *stop.borrow() {
                        break;
                    }
                }
            }
        }
    })
}
",
    },
];

// ------------------------------------------------------------------ handlers

const HANDLERS_HEAD: &str = "//! $doc$

$uses$use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, RwLock};
use tracing::{debug, info, warn};

use crate::domain::{$E$, $E$Status};
use crate::store::{$E$Store, StoreError};

#[derive(Clone)]
pub struct AppState {
    pub store: Arc<$E$Store>,
    pub http: reqwest::Client,
    pub base_url: Arc<str>,
    pub events: $events_type$<$E$Event>,
    pub cache: Arc<RwLock<HashMap<String, $E$View>>>,
}

impl AppState {
    pub fn new(store: Arc<$E$Store>, base_url: &str) -> (Self, mpsc::Receiver<$E$Event>) {
        $events_channel$
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_millis(500))
            .timeout(Duration::from_secs(5))
            .pool_max_idle_per_host(16)
            .build()
            .expect(\"static client configuration\");
        let state = AppState {
            store,
            http,
            base_url: Arc::from(base_url),
            events,
            cache: Arc::new(RwLock::new(HashMap::new())),
        };
        (state, rx)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct $E$View {
    pub id: String,
    pub status: $E$Status,
    pub amount_cents: i64,
    pub region: String,
    pub updated_at: u64,
}

impl From<&$E$> for $E$View {
    fn from(item: &$E$) -> Self {
        $E$View {
            id: item.id.clone(),
            status: item.status,
            amount_cents: item.amount_cents,
            region: item.region.clone(),
            updated_at: item.updated_at,
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct New$E$ {
    pub region: String,
    pub amount_cents: i64,
    #[serde(default)]
    pub reference: Option<String>,
}

impl New$E$ {
    fn validate(&self) -> Result<(), ApiError> {
        if self.region.trim().is_empty() {
            return Err(ApiError::BadRequest(\"region is required\".into()));
        }
        if self.amount_cents < 0 {
            return Err(ApiError::BadRequest(format!(\"negative amount: {}\", self.amount_cents)));
        }
        Ok(())
    }
}

#[derive(Debug, Deserialize)]
pub struct ListParams {
    pub region: Option<String>,
    pub limit: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub enum $E$Event {
    Created { id: String, at: u64 },
    Updated { id: String, at: u64 },
    Removed { id: String },
}

#[derive(Debug)]
pub enum ApiError {
    NotFound(String),
    BadRequest(String),
    Timeout(&'static str),
    Upstream(String),
    Internal(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            ApiError::NotFound(what) => (StatusCode::NOT_FOUND, format!(\"{what} not found\")),
            ApiError::BadRequest(why) => (StatusCode::BAD_REQUEST, why),
            ApiError::Timeout(what) => (StatusCode::GATEWAY_TIMEOUT, format!(\"{what} timed out\")),
            ApiError::Upstream(why) => (StatusCode::BAD_GATEWAY, why),
            ApiError::Internal(why) => {
                warn!(error = %why, \"internal error\");
                (StatusCode::INTERNAL_SERVER_ERROR, \"internal error\".to_string())
            }
        };
        (status, Json(serde_json::json!({ \"error\": message }))).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        ApiError::Internal(err.to_string())
    }
}

fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

pub fn routes(state: AppState) -> Router {
    Router::new()
$routes$        .with_state(state)
}
";

const HANDLER_ITEMS: &[Item] = &[
    Item {
        verbs: &["get", "show"],
        types: &[],
        weight: 5,
        route: Some(("get", "/$ek$/:id/$mk$")),
        text: "pub async fn $m$(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<$E$View>, ApiError> {
    if let Some(hit) = state.cache.read().await.get(&id).cloned() {
        debug!(%id, \"cache hit\");
        return Ok(Json(hit));
    }
    let found = tokio::time::timeout(Duration::from_millis($ms$), state.store.find(&id))
        .await
        .map_err(|_| ApiError::Timeout(\"$e_snake$ lookup\"))??;
    match found {
        Some(item) => {
            let view = $E$View::from(&item);
            state.cache.write().await.insert(id, view.clone());
            Ok(Json(view))
        }
        None => Err(ApiError::NotFound(format!(\"$e_snake$ {id}\"))),
    }
}
",
    },
    Item {
        verbs: &["list_", "search_", "recent_"],
        types: &[],
        weight: 5,
        route: Some(("get", "/$ek$/$mk$")),
        text: "pub async fn $m$(
    State(state): State<AppState>,
    Query(params): Query<ListParams>,
) -> Result<Json<Vec<$E$View>>, ApiError> {
    let limit = params.limit.unwrap_or(50).min($cap$);
    let items = tokio::time::timeout(
        Duration::from_millis($ms$),
        state.store.list(params.region.as_deref()),
    )
    .await
    .map_err(|_| ApiError::Timeout(\"$e_snake$ listing\"))??;
    let mut views: Vec<$E$View> = items
        .iter()
        .filter(|item| item.status != $E$Status::Cancelled)
        .filter(|item| params.region.as_ref().map_or(true, |r| &item.region == r))
        .map($E$View::from)
        .collect();
    views.sort_by(|a, b| b.amount_cents.cmp(&a.amount_cents).then_with(|| a.id.cmp(&b.id)));
    views.truncate(limit);
    Ok(Json(views))
}
",
    },
    Item {
        verbs: &["create", "open", "register"],
        types: &[],
        weight: 4,
        route: Some(("post", "/$ek$/$mk$")),
        text: "pub async fn $m$(
    State(state): State<AppState>,
    Json(body): Json<New$E$>,
) -> Result<(StatusCode, Json<$E$View>), ApiError> {
    body.validate()?;
    let item = state.store.insert(body.region.clone(), body.amount_cents, body.reference.clone()).await?;
    let event = $E$Event::Created {
        id: item.id.clone(),
        at: now_millis(),
    };
    if let Err(err) = state.events.try_send(event) {
        warn!(error = %err, \"dropping $e_snake$ event\");
    }
    info!(id = %item.id, region = %item.region, \"created $e_snake$\");
    Ok((StatusCode::CREATED, Json($E$View::from(&item))))
}
",
    },
    Item {
        verbs: &["report", "history", "audit"],
        types: &[],
        weight: 4,
        route: Some(("get", "/$ek$/:id/$mk$")),
        text: "pub async fn $m$(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let items = state.store.history(&id).await?;
    let work = tokio::task::spawn_blocking(move || {
        let mut by_day: BTreeMap<u64, (usize, i64)> = BTreeMap::new();
        for item in &items {
            let day = item.updated_at / 86_400_000;
            let slot = by_day.entry(day).or_default();
            slot.0 += 1;
            slot.1 += item.amount_cents;
        }
        let days: Vec<_> = by_day
            .into_iter()
            .map(|(day, (count, cents))| serde_json::json!({ \"day\": day, \"count\": count, \"cents\": cents }))
            .collect();
        serde_json::json!({ \"id\": id, \"days\": days })
    });
    let report = tokio::time::timeout(Duration::from_secs($sec$), work)
        .await
        .map_err(|_| ApiError::Timeout(\"$e_snake$ report\"))?
        .map_err(|err| ApiError::Internal(err.to_string()))?;
    Ok(Json(report))
}
",
    },
    Item {
        verbs: &["quote", "price", "enrich"],
        types: &[],
        weight: 4,
        route: Some(("get", "/$ek$/:id/$mk$")),
        text: "pub async fn $m$(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let url = format!(\"{}/api/$ek2$/{id}\", state.base_url);
    let response = state
        .http
        .get(&url)
        .timeout(Duration::from_millis($ms$))
        .send()
        .await
        .map_err(|err| ApiError::Upstream(err.to_string()))?;
    if response.status() == reqwest::StatusCode::NOT_FOUND {
        return Err(ApiError::NotFound(format!(\"$e2$ for {id}\")));
    }
    if !response.status().is_success() {
        return Err(ApiError::Upstream(format!(\"{} from {url}\", response.status())));
    }
    let body = response
        .json::<serde_json::Value>()
        .await
        .map_err(|err| ApiError::Upstream(err.to_string()))?;
    Ok(Json(body))
}
",
    },
    Item {
        verbs: &["update", "amend"],
        types: &[],
        weight: 3,
        route: Some(("put", "/$ek$/:id/$mk$")),
        text: "pub async fn $m$(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(body): Json<New$E$>,
) -> Result<Json<$E$View>, ApiError> {
    body.validate()?;
    let Some(mut item) = state.store.find(&id).await? else {
        return Err(ApiError::NotFound(format!(\"$e_snake$ {id}\")));
    };
    match item.status {
        $E$Status::Cancelled | $E$Status::Completed => {
            return Err(ApiError::BadRequest(format!(\"$e_snake$ {id} is closed\")));
        }
        _ => {
            item.region = body.region;
            item.amount_cents = body.amount_cents;
            item.updated_at = now_millis();
        }
    }
    state.store.save(&item).await?;
    state.cache.write().await.remove(&id);
    let _ = state.events.try_send($E$Event::Updated {
        id: id.clone(),
        at: item.updated_at,
    });
    Ok(Json($E$View::from(&item)))
}
",
    },
    Item {
        verbs: &["delete", "cancel", "archive"],
        types: &[],
        weight: 3,
        route: Some(("delete", "/$ek$/:id/$mk$")),
        text: "pub async fn $m$(State(state): State<AppState>, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let removed = state.store.remove(&id).await?;
    state.cache.write().await.remove(&id);
    if removed {
        let _ = state.events.try_send($E$Event::Removed { id });
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(format!(\"$e_snake$ {id}\")))
    }
}
",
    },
];

const HANDLER_HAZARDS: &[Item] = &[
    Item {
        verbs: &["legacy_quote", "sync_quote"],
        types: &[],
        weight: 2,
        route: None,
        text: "/// Called from the old synchronous reporting path.
pub fn $m$(state: &AppState, id: &str) -> Option<$E$View> {
    let item = futures::executor::block_on(state.store.find(id)).ok()??;
    Some($E$View::from(&item))
}
",
    },
    Item {
        verbs: &["partner_lookup", "plain_lookup"],
        types: &[],
        weight: 2,
        route: None,
        text:
            "pub async fn $m$(base: &str, id: &str) -> Result<serde_json::Value, reqwest::Error> {
    let client = reqwest::Client::new();
    client.get(format!(\"{base}/partners/{id}\")).send().await?.json().await
}
",
    },
];

// ------------------------------------------------------------------ workers

const WORKER_HEAD: &str = "//! $doc$

$uses$use tokio::sync::{mpsc, watch, Semaphore};
use tokio::task::JoinHandle;
use tokio::time::{interval, timeout, MissedTickBehavior};
use tracing::{debug, error, info, warn};

use crate::domain::$E$Event;
use crate::store::$E$Store;

async fn handle_job(job: String) -> Result<(), String> {
    if job.is_empty() {
        return Err(\"empty job\".to_string());
    }
    tokio::task::yield_now().await;
    Ok(())
}
";

const WORKER_CORE: &[Item] = &[Item {
    verbs: &["start"],
    types: &["Worker"],
    weight: 1,
    route: None,
    text: "pub struct $T$ {
    rx: mpsc::Receiver<$E$Event>,
    store: Arc<$E$Store>,
    batch: Vec<$E$Event>,
    limit: Arc<Semaphore>,
    shutdown: watch::Receiver<bool>,
}

impl $T$ {
    pub fn spawn(store: Arc<$E$Store>, shutdown: watch::Receiver<bool>) -> (mpsc::Sender<$E$Event>, JoinHandle<()>) {
        let (tx, rx) = mpsc::channel($cap$);
        let worker = $T$ {
            rx,
            store,
            batch: Vec::with_capacity($cap$),
            limit: Arc::new(Semaphore::new($n$)),
            shutdown,
        };
        let handle = tokio::spawn(async move { worker.run().await });
        (tx, handle)
    }

    async fn run(mut self) {
        let mut tick = interval(Duration::from_millis($ms$));
        tick.set_missed_tick_behavior(MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                maybe = self.rx.recv() => match maybe {
                    Some(event) => {
                        self.batch.push(event);
                        if self.batch.len() >= $n$0 {
                            self.flush().await;
                        }
                    }
                    None => break,
                },
                _ = tick.tick() => self.flush().await,
                _ = self.shutdown.changed() => {
                    info!(\"$e_snake$ worker stopping\");
                    break;
                }
            }
        }
        self.flush().await;
    }

    async fn flush(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        let batch = std::mem::take(&mut self.batch);
        let Ok(permit) = Arc::clone(&self.limit).acquire_owned().await else {
            return;
        };
        let store = Arc::clone(&self.store);
        tokio::spawn(async move {
            let _permit = permit;
            let count = batch.len();
            match timeout(Duration::from_secs($sec$), store.apply(batch)).await {
                Ok(Ok(())) => debug!(count, \"flushed $e_snake$ events\"),
                Ok(Err(err)) => error!(count, error = %err, \"flush failed\"),
                Err(_) => warn!(count, \"flush timed out\"),
            }
        });
    }
}
",
}];

const WORKER_HAZARDS: &[Item] = &[Item {
    verbs: &["fan_out", "broadcast"],
    types: &[],
    weight: 1,
    route: None,
    text: "pub fn $m$(store: Arc<$E$Store>) -> mpsc::UnboundedSender<$E$Event> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(event) = rx.recv().await {
            if let Err(err) = store.apply(vec![event]).await {
                warn!(error = %err, \"dropping event\");
            }
        }
    });
    tx
}
",
}];

// ------------------------------------------------------------------ batch

const BATCH_HEAD: &str = "//! $doc$

$uses$use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use tracing::{info, warn};

#[derive(Debug, Clone)]
pub struct $E$Record {
    pub id: String,
    pub region: String,
    pub amount_cents: i64,
    pub tags: Vec<String>,
    pub updated_at: u64,
}
";

const BATCH_CORE: &[Item] = &[Item {
    verbs: &["build_pool"],
    types: &[],
    weight: 1,
    route: None,
    text: "pub fn $m$(threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads.clamp(1, $n$))
        .thread_name(|i| format!(\"$ek$-cpu-{i}\"))
        .build()
        .expect(\"thread pool\")
}
",
}];

const BATCH_ITEMS: &[Item] = &[
    Item {
        verbs: &["totals_by_region", "rollup"],
        types: &[],
        weight: 5,
        route: None,
        text: "pub fn $m$(records: &[$E$Record]) -> HashMap<String, i64> {
    records
        .par_iter()
        .filter(|r| r.amount_cents > 0)
        .map(|r| (r.region.clone(), r.amount_cents))
        .fold(HashMap::new, |mut acc: HashMap<String, i64>, (region, cents)| {
            *acc.entry(region).or_default() += cents;
            acc
        })
        .reduce(HashMap::new, |mut a, b| {
            for (k, v) in b {
                *a.entry(k).or_default() += v;
            }
            a
        })
}
",
    },
    Item {
        verbs: &["reindex", "rescore"],
        types: &[],
        weight: 4,
        route: None,
        text: "pub fn $m$(pool: &ThreadPool, records: &mut [$E$Record]) -> usize {
    let touched = AtomicUsize::new(0);
    pool.install(|| {
        records.par_chunks_mut($cap$).for_each(|chunk| {
            for record in chunk.iter_mut() {
                record.tags.sort();
                record.tags.dedup();
                if record.tags.len() > $n$ {
                    record.tags.truncate($n$);
                }
                touched.fetch_add(1, Ordering::Relaxed);
            }
        });
    });
    touched.into_inner()
}
",
    },
    Item {
        verbs: &["scan", "checksum_all"],
        types: &[],
        weight: 4,
        route: None,
        text: "pub fn $m$(records: &[$E$Record], workers: usize) -> u64 {
    let chunk = records.len().div_ceil(workers.max(1)).max(1);
    let sums: Vec<u64> = thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|r| r.id.bytes().fold(r.updated_at, |h, b| h.rotate_left(7) ^ u64::from(b)))
                        .fold(0u64, u64::wrapping_add)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    sums.into_iter().fold(0u64, u64::wrapping_add)
}
",
    },
    Item {
        verbs: &["pipeline", "stream_export"],
        types: &[],
        weight: 4,
        route: None,
        text: "pub fn $m$(records: Vec<$E$Record>, out: &mut Vec<String>) -> Result<usize, String> {
    let (tx, rx) = mpsc::sync_channel::<$E$Record>($cap$);
    let producer = thread::Builder::new()
        .name(\"$ek$-producer\".into())
        .spawn(move || {
            for record in records {
                if tx.send(record).is_err() {
                    break;
                }
            }
        })
        .map_err(|e| e.to_string())?;
    let mut written = 0;
    loop {
        match rx.recv_timeout(Duration::from_millis($ms$)) {
            Ok(record) => {
                out.push(format!(\"{};{};{}\", record.id, record.region, record.amount_cents));
                written += 1;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if producer.is_finished() {
                    break;
                }
                warn!(written, \"producer is slow\");
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    Ok(written)
}
",
    },
    Item {
        verbs: &["top_", "largest_"],
        types: &[],
        weight: 3,
        route: None,
        text: "pub fn $m$(records: &[$E$Record], k: usize) -> Vec<&$E$Record> {
    let mut sorted: Vec<&$E$Record> = records.par_iter().filter(|r| !r.tags.iter().any(|t| t == \"internal\")).collect();
    sorted.par_sort_unstable_by(|a, b| b.amount_cents.cmp(&a.amount_cents).then_with(|| a.id.cmp(&b.id)));
    sorted.truncate(k);
    info!(k, kept = sorted.len(), \"selected top $es$\");
    sorted
}
",
    },
];

const BATCH_HAZARDS: &[Item] = &[
    Item {
        verbs: &["collect_results", "gather"],
        types: &[],
        weight: 2,
        route: None,
        text: "pub fn $m$(records: Vec<$E$Record>) -> Vec<i64> {
    let (tx, rx) = mpsc::channel();
    let worker = thread::spawn(move || {
        for record in records {
            let _ = tx.send(record.amount_cents);
        }
    });
    let mut out = Vec::new();
    while let Ok(cents) = rx.recv() {
        out.push(cents);
    }
    worker.join().expect(\"worker panicked\");
    out
}
",
    },
    Item {
        verbs: &["nested_rollup"],
        types: &[],
        weight: 1,
        route: None,
        text: "pub fn $m$(pool: &ThreadPool, groups: &[Vec<$E$Record>]) -> Vec<i64> {
    pool.install(|| {
        groups
            .par_iter()
            .map(|group| pool.install(|| group.par_iter().map(|r| r.amount_cents).sum::<i64>()))
            .collect()
    })
}
",
    },
];

// ------------------------------------------------------------------ domain

const DOMAIN_HEAD: &str = "//! $doc$

$uses$use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = \"snake_case\")]
pub enum $E$Status {
    New,
    Pending,
    Active,
    Completed,
    Cancelled,
    Failed,
}

impl $E$Status {
    pub fn can_move_to(self, next: $E$Status) -> bool {
        use $E$Status::*;
        match (self, next) {
            (New, Pending) | (New, Cancelled) => true,
            (Pending, Active) | (Pending, Cancelled) | (Pending, Failed) => true,
            (Active, Completed) | (Active, Failed) => true,
            (Failed, Pending) => true,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct $E$ {
    pub id: String,
    pub status: $E$Status,
    pub region: String,
    pub amount_cents: i64,
    pub attempts: u32,
    pub updated_at: u64,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
}

impl $E$ {
    pub fn transition(&mut self, next: $E$Status, at: u64) -> Result<(), String> {
        if !self.status.can_move_to(next) {
            return Err(format!(\"{} cannot go from {:?} to {:?}\", self.id, self.status, next));
        }
        if next == $E$Status::Failed {
            self.attempts += 1;
        }
        self.status = next;
        self.updated_at = at;
        Ok(())
    }

    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels.get(key).map(String::as_str)
    }
}
";

// ------------------------------------------------------------------ clients

const CLIENT_HEAD: &str = "//! $doc$

$uses$use reqwest::{Client, StatusCode};
use serde::{Deserialize, Serialize};
use tracing::{debug, warn};

async fn handle_job(job: String) -> Result<(), String> {
    if job.trim().is_empty() {
        return Err(\"blank job\".into());
    }
    Ok(())
}
";

const CLIENT_CORE: &[Item] = &[Item {
    verbs: &["connect"],
    types: &["Client"],
    weight: 1,
    route: None,
    text: "#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct $E2$Dto {
    pub id: String,
    pub amount_cents: i64,
    #[serde(default)]
    pub currency: Option<String>,
}

#[derive(Debug)]
pub enum $T$Error {
    Transport(reqwest::Error),
    Status(StatusCode),
    NotFound,
}

impl fmt::Display for $T$Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            $T$Error::Transport(err) => write!(f, \"transport error: {err}\"),
            $T$Error::Status(code) => write!(f, \"unexpected status {code}\"),
            $T$Error::NotFound => f.write_str(\"not found\"),
        }
    }
}

impl From<reqwest::Error> for $T$Error {
    fn from(err: reqwest::Error) -> Self {
        $T$Error::Transport(err)
    }
}

#[derive(Clone)]
pub struct $T$ {
    http: Client,
    base: Arc<str>,
}

impl $T$ {
    pub fn new(base: &str) -> Result<Self, reqwest::Error> {
        let http = Client::builder()
            .connect_timeout(Duration::from_millis($ms$))
            .timeout(Duration::from_secs($sec$))
            .pool_idle_timeout(Duration::from_secs(90))
            .user_agent(\"$krate$\")
            .build()?;
        Ok($T$ {
            http,
            base: Arc::from(base.trim_end_matches('/')),
        })
    }

    pub async fn get(&self, id: &str) -> Result<$E2$Dto, $T$Error> {
        let response = self.http.get(format!(\"{}/v1/$ek2$/{id}\", self.base)).send().await?;
        match response.status() {
            StatusCode::OK => Ok(response.json().await?),
            StatusCode::NOT_FOUND => Err($T$Error::NotFound),
            other => Err($T$Error::Status(other)),
        }
    }

    pub async fn get_many(&self, ids: &[String]) -> Vec<Result<$E2$Dto, $T$Error>> {
        let calls = ids.iter().map(|id| self.get(id));
        futures::future::join_all(calls).await
    }

    pub async fn put(&self, dto: &$E2$Dto) -> Result<(), $T$Error> {
        let response = self
            .http
            .put(format!(\"{}/v1/$ek2$/{}\", self.base, dto.id))
            .json(dto)
            .send()
            .await?;
        if response.status().is_success() {
            debug!(id = %dto.id, \"stored $e2$\");
            Ok(())
        } else {
            warn!(id = %dto.id, status = %response.status(), \"store failed\");
            Err($T$Error::Status(response.status()))
        }
    }
}
",
}];

const CLIENT_HAZARDS: &[Item] = &[Item {
    verbs: &["quick_fetch", "probe"],
    types: &[],
    weight: 1,
    route: None,
    text: "pub async fn $m$(base: &str, id: &str) -> Result<String, reqwest::Error> {
    let http = Client::new();
    http.get(format!(\"{base}/v1/$ek2$/{id}\")).send().await?.text().await
}
",
}];
