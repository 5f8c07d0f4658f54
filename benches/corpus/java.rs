//! Java (Spring) templates: services, REST controllers, configuration classes,
//! queue workers, JPA entities and HTTP clients.

use std::collections::HashSet;
use std::path::PathBuf;

use super::{camel, fill, kebab, line_count, pascal, Rng, Vars, MAX_LINES, MIN_LINES, NOUNS};

const MODULES: &[&str] = &[
    "orders",
    "billing",
    "inventory",
    "catalog",
    "shipping",
    "pricing",
    "payments",
    "accounts",
    "notifications",
    "search",
    "reviews",
    "loyalty",
    "fulfillment",
    "returns",
    "ledger",
    "identity",
    "gateway",
    "reporting",
    "scheduling",
    "recommendations",
];

const FEATURES: &[&str] = &[
    "core", "admin", "partner", "internal", "batch", "sync", "audit", "export", "regional",
    "mobile", "legacy", "checkout",
];

const QUALIFIERS: &[&str] = &[
    "Default",
    "Regional",
    "Bulk",
    "Legacy",
    "Async",
    "Internal",
    "Partner",
    "Priority",
    "Scheduled",
    "Cached",
    "Remote",
    "Local",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Service,
    Controller,
    Config,
    Worker,
    Entity,
    Client,
}

const KINDS: &[(Kind, usize)] = &[
    (Kind::Service, 30),
    (Kind::Controller, 20),
    (Kind::Config, 10),
    (Kind::Worker, 10),
    (Kind::Entity, 15),
    (Kind::Client, 15),
];

pub struct Plan {
    kind: Kind,
    module: &'static str,
    feature: &'static str,
    e: &'static str,
    e2: &'static str,
    class: String,
}

impl Plan {
    fn sub(&self) -> &'static str {
        match self.kind {
            Kind::Service => "service",
            Kind::Controller => "web",
            Kind::Config => "config",
            Kind::Worker => "messaging",
            Kind::Entity => "domain",
            Kind::Client => "client",
        }
    }

    fn dir(&self) -> String {
        format!(
            "java/src/main/java/com/acme/{}/{}/{}",
            self.module,
            self.feature,
            self.sub()
        )
    }

    pub fn path(&self) -> PathBuf {
        PathBuf::from(format!("{}/{}.java", self.dir(), self.class))
    }
}

pub fn plan(i: usize, rng: &mut Rng, taken: &mut HashSet<String>) -> Plan {
    let kind = KINDS[rng.weighted(&KINDS.iter().map(|k| k.1).collect::<Vec<_>>())].0;
    let module = MODULES[i % MODULES.len()];
    let feature = *rng.pick(FEATURES);
    let e = *rng.pick(NOUNS);
    let mut e2 = *rng.pick(NOUNS);
    while e2 == e {
        e2 = *rng.pick(NOUNS);
    }
    let suffixes: &[&str] = match kind {
        Kind::Service => &[
            "Service",
            "Manager",
            "Processor",
            "Coordinator",
            "Facade",
            "Handler",
        ],
        Kind::Controller => &["Controller", "Resource", "Endpoint", "AdminController"],
        Kind::Config => &[
            "Config",
            "Configuration",
            "ExecutorConfig",
            "ClientConfig",
            "AsyncConfig",
        ],
        Kind::Worker => &["Dispatcher", "Worker", "Consumer", "Publisher", "Relay"],
        Kind::Entity => &["", "Record", "Entry", "Snapshot", "History"],
        Kind::Client => &["Client", "Gateway", "Adapter", "Connector"],
    };
    let mut p = Plan {
        kind,
        module,
        feature,
        e,
        e2,
        class: String::new(),
    };
    let base = format!("{e}{}", rng.pick(suffixes));
    let dir = p.dir();
    let mut class = base.clone();
    let mut tries = 0;
    while !taken.insert(format!("{dir}/{class}")) {
        tries += 1;
        class = if tries <= 4 {
            format!("{}{base}", rng.pick(QUALIFIERS))
        } else {
            format!("{base}{tries}")
        };
    }
    p.class = class;
    p
}

/// A class member template; `$m$` is its (unique) name, made of a verb and the noun.
struct Member {
    verbs: &'static [&'static str],
    plural: bool,
    weight: usize,
    text: &'static str,
}

pub fn render(p: &Plan, rng: &mut Rng) -> String {
    let mut v = Vars::default();
    let e = p.e;
    let e2 = p.e2;
    v.set("module", p.module)
        .set("Module", pascal(p.module))
        .set("feature", p.feature)
        .set("sub", p.sub())
        .set("Class", p.class.clone())
        .set("E", e)
        .set("e", camel(e))
        .set("Es", format!("{e}s"))
        .set("es", format!("{}s", camel(e)))
        .set("ek", format!("{}s", kebab(e)))
        .set("E2", e2)
        .set("e2", camel(e2))
        .set("Es2", format!("{e2}s"))
        .set("es2", format!("{}s", camel(e2)))
        .set("ek2", format!("{}s", kebab(e2)))
        .set(
            "exec",
            rng.pick(&[
                "ioExecutor".to_string(),
                format!("{}Executor", camel(e)),
                "lookupPool".to_string(),
                "asyncExecutor".to_string(),
                "workerPool".to_string(),
            ])
            .clone(),
        )
        .set(
            "Field",
            *rng.pick(&[
                "Region",
                "Currency",
                "Channel",
                "Owner",
                "Reference",
                "Priority",
            ]),
        )
        .set(
            "STATUS",
            *rng.pick(&["NEW", "PENDING", "ACTIVE", "COMPLETED", "FAILED"]),
        )
        .set(
            "batch",
            rng.pick(&["50", "100", "200", "250", "500"]).to_string(),
        )
        .set("doc", doc(p, rng));
    let target = rng.range(MIN_LINES, MAX_LINES - 40);
    // A few percent of the files get one hazard.
    let hazard = rng.chance(6);
    match p.kind {
        Kind::Service | Kind::Client | Kind::Worker => service(p, rng, &mut v, target, hazard),
        Kind::Controller => controller(rng, &mut v, target, hazard),
        Kind::Config => config(rng, &mut v, target, hazard),
        Kind::Entity => entity(rng, &mut v, target),
    }
}

fn doc(p: &Plan, rng: &mut Rng) -> String {
    let e = camel(p.e);
    let e2 = camel(p.e2);
    let lines = [
        format!("Keeps {e} state in step with the {e2} service and publishes changes."),
        format!(
            "Application service for {e}s: lookups, batch updates and the async fan-out to {e2}s."
        ),
        format!(
            "Entry point for {e} requests coming from the {} channel.",
            p.feature
        ),
        format!(
            "Wires the executors and HTTP clients that the {} module uses.",
            p.module
        ),
        format!("Moves {e} events from the inbox to the {e2} service, in batches."),
        format!(
            "Talks to the remote {e2} API on behalf of the {} module.",
            p.module
        ),
    ];
    rng.pick(&lines).clone()
}

fn member_name(rng: &mut Rng, m: &Member, used: &mut HashSet<String>, e: &str) -> String {
    let verb = rng.pick(m.verbs);
    let noun = if m.plural {
        format!("{e}s")
    } else {
        e.to_string()
    };
    let base = format!("{verb}{noun}");
    let mut name = base.clone();
    let mut n = 2;
    while !used.insert(name.clone()) {
        let q = rng.pick(&[
            "ByRegion",
            "ForPartner",
            "Internal",
            "Now",
            "Batch",
            "Safely",
        ]);
        name = if n <= 3 {
            format!("{base}{q}")
        } else {
            format!("{base}{n}")
        };
        n += 1;
    }
    name
}

fn item_vars(rng: &mut Rng, v: &mut Vars, name: &str) {
    v.set("m", name.to_string())
        .set("mk", kebab(name))
        .set(
            "ms",
            rng.pick(&["250", "400", "500", "800", "1500", "2000", "3000"])
                .to_string(),
        )
        .set("sec", rng.range(2, 30).to_string())
        .set("n", rng.range(2, 9).to_string())
        .set(
            "cap",
            rng.pick(&["100", "200", "256", "500", "1000", "2000"])
                .to_string(),
        );
}

/// Add members drawn from `pool` until the text reaches `target` lines.
fn grow(
    out: &mut String,
    rng: &mut Rng,
    v: &mut Vars,
    pool: &[Member],
    target: usize,
    used: &mut HashSet<String>,
    noun: &str,
) {
    let weights: Vec<usize> = pool.iter().map(|m| m.weight).collect();
    let mut lines = line_count(out);
    while lines < target {
        let m = &pool[rng.weighted(&weights)];
        let name = member_name(rng, m, used, noun);
        item_vars(rng, v, &name);
        let text = fill(m.text, v);
        lines += line_count(&text) + 1;
        out.push('\n');
        out.push_str(&text);
    }
}

fn add_one(
    out: &mut String,
    rng: &mut Rng,
    v: &mut Vars,
    m: &Member,
    used: &mut HashSet<String>,
    noun: &str,
) {
    let name = member_name(rng, m, used, noun);
    item_vars(rng, v, &name);
    out.push('\n');
    out.push_str(&fill(m.text, v));
}

// ------------------------------------------------------------------ services

const SERVICE_IMPORTS: &str = "package com.acme.$module$.$feature$.$sub$;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

import com.acme.$module$.api.$E$Summary;
import com.acme.$module$.api.$E$View;
import com.acme.$module$.config.$Module$Properties;
import com.acme.$module$.domain.$E$;
import com.acme.$module$.domain.$E$Event;
import com.acme.$module$.domain.$E$Repository;
import com.acme.$module$.domain.Status;
import com.acme.$module$.remote.$E2$Client;
import com.acme.$module$.remote.$E2$Dto;
import com.acme.$module$.remote.$E2$Quote;
import com.acme.common.error.NotFoundException;
import com.acme.common.error.ServiceUnavailableException;
import com.acme.common.error.TransientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestTemplate;

/**
 * $doc$
 */
";

const SERVICE_FIELDS: &str =
    "    private static final Logger log = LoggerFactory.getLogger($Class$.class);
    private static final int MAX_BATCH = $batch$;

    private final $E$Repository $e$Repository;
    private final $E2$Client $e2$Client;
    private final ExecutorService $exec$;
    private final RestTemplate restTemplate;
    private final HttpClient httpClient;
    private final $Module$Properties properties;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final BlockingQueue<$E$> outbox = $outbox$;
";

const WORKER_FIELDS: &str =
    "    private final BlockingQueue<$E$Event> inbox = new ArrayBlockingQueue<>($cap$);
    private final ExecutorService workers = new ThreadPoolExecutor(
            $n$, $n$, 0L, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>($n$),
            runnable -> new Thread(runnable, \"$ek$-worker\"),
            new ThreadPoolExecutor.AbortPolicy());
    private volatile boolean running;
";

const SERVICE_CTOR: &str = "
    public $Class$(
            $E$Repository $e$Repository,
            $E2$Client $e2$Client,
            @Qualifier(\"$exec$\") ExecutorService $exec$,
            RestTemplate restTemplate,
            HttpClient httpClient,
            $Module$Properties properties,
            Clock clock) {
        this.$e$Repository = $e$Repository;
        this.$e2$Client = $e2$Client;
        this.$exec$ = $exec$;
        this.restTemplate = restTemplate;
        this.httpClient = httpClient;
        this.properties = properties;
        this.clock = clock;
    }
";

const SERVICE_TAIL: &str = "
    private $E$View toView($E$ $e$) {
        return new $E$View(
                $e$.getId(),
                $e$.getStatus().name(),
                $e$.getAmount(),
                $e$.get$Field$(),
                $e$.getUpdatedAt());
    }
}
";

const WORKER_CORE: &[Member] = &[
    Member {
        verbs: &["offer"],
        plural: false,
        weight: 1,
        text: "    public boolean $m$Event($E$Event event) {
        try {
            boolean accepted = inbox.offer(event, $ms$, TimeUnit.MILLISECONDS);
            if (!accepted) {
                log.warn(\"inbox full, rejecting {} event {}\", \"$e$\", event.id());
            }
            return accepted;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
",
    },
    Member {
        verbs: &["start"],
        plural: true,
        weight: 1,
        text: "    @Override
    public void start() {
        running = true;
        for (int i = 0; i < $n$; i++) {
            workers.execute(this::drainLoop);
        }
        log.info(\"started {} workers for {}\", $n$, \"$ek$\");
    }

    private void drainLoop() {
        while (running) {
            try {
                $E$Event event = inbox.poll(200, TimeUnit.MILLISECONDS);
                if (event == null) {
                    continue;
                }
                handle(event);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error(\"failed to handle {} event\", \"$e$\", e);
            }
        }
    }

    private void handle($E$Event event) {
        switch (event.type()) {
            case CREATED:
                $e$Repository.findById(event.id()).ifPresent(outbox::offer);
                break;
            case UPDATED:
            case REOPENED:
                $e$Repository.findById(event.id()).ifPresent(item -> {
                    item.setUpdatedAt(clock.instant());
                    $e$Repository.save(item);
                });
                break;
            case DELETED:
                $e$Repository.deleteById(event.id());
                break;
            default:
                log.debug(\"ignoring {} event of type {}\", \"$e$\", event.type());
        }
    }
",
    },
    Member {
        verbs: &["stop"],
        plural: true,
        weight: 1,
        text: "    @Override
    public void stop() {
        running = false;
        workers.shutdown();
        try {
            if (!workers.awaitTermination($sec$, TimeUnit.SECONDS)) {
                List<Runnable> dropped = workers.shutdownNow();
                log.warn(\"forced shutdown, {} tasks dropped\", dropped.size());
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
",
    },
];

const SERVICE_MEMBERS: &[Member] = &[
    Member {
        verbs: &["find", "load", "get", "fetch"],
        plural: false,
        weight: 6,
        text: "    public $E$View $m$(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException(\"$e$ id must not be blank\");
        }
        $E$ $e$ = $e$Repository.findById(id)
                .orElseThrow(() -> new NotFoundException(\"$E$ \" + id + \" not found\"));
        log.debug(\"loaded {} {} in state {}\", \"$e$\", id, $e$.getStatus());
        return toView($e$);
    }
",
    },
    Member {
        verbs: &["list", "search", "recent", "top"],
        plural: true,
        weight: 6,
        text: "    public List<$E$View> $m$(String region, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        return $e$Repository.findByRegion(region).stream()
                .filter(item -> item.getStatus() != Status.CANCELLED)
                .filter(item -> item.get$Field$() != null)
                .sorted(Comparator.comparing($E$::getUpdatedAt).reversed())
                .limit(Math.min(limit, MAX_BATCH))
                .map(this::toView)
                .collect(Collectors.toList());
    }
",
    },
    Member {
        verbs: &["refresh", "reconcile", "touch", "expire", "reprice"],
        plural: true,
        weight: 6,
        text: "    @Transactional
    public int $m$(List<String> ids) {
        int changed = 0;
        int skipped = 0;
        for (String id : ids) {
            Optional<$E$> found = $e$Repository.findById(id);
            if (found.isEmpty()) {
                skipped++;
                continue;
            }
            $E$ current = found.get();
            if (current.getStatus() == Status.$STATUS$) {
                current.setUpdatedAt(clock.instant());
                $e$Repository.save(current);
                changed++;
            } else if (current.getAttempts() > properties.getMaxAttempts()) {
                log.warn(\"giving up on {} after {} attempts\", id, current.getAttempts());
                skipped++;
            } else {
                current.setAttempts(current.getAttempts() + 1);
            }
        }
        log.info(\"$m$: {} changed, {} skipped\", changed, skipped);
        return changed;
    }
",
    },
    Member {
        verbs: &["quote", "price", "enrich", "collect"],
        plural: true,
        weight: 5,
        text: "    public Map<String, $E2$Quote> $m$(Collection<String> ids) {
        List<CompletableFuture<$E2$Quote>> futures = ids.stream()
                .map(id -> CompletableFuture.supplyAsync(() -> $e2$Client.quote(id), $exec$))
                .collect(Collectors.toList());
        try {
            CompletableFuture.allOf(futures.toArray(new CompletableFuture[0]))
                    .get($ms$, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn(\"$m$ timed out after {} ms\", $ms$);
            futures.forEach(f -> f.cancel(true));
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        } catch (ExecutionException e) {
            throw new IllegalStateException(\"$e2$ lookup failed\", e.getCause());
        }
        Map<String, $E2$Quote> result = new HashMap<>();
        for (CompletableFuture<$E2$Quote> f : futures) {
            $E2$Quote q = f.getNow(null);
            if (q != null) {
                result.put(q.getId(), q);
            }
        }
        return result;
    }
",
    },
    Member {
        verbs: &["load", "resolve", "prefetch"],
        plural: false,
        weight: 5,
        text: "    public CompletableFuture<$E$View> $m$Async(String id) {
        return CompletableFuture
                .supplyAsync(() -> $e$Repository.findById(id), $exec$)
                .thenApply(found -> found.map(this::toView).orElse(null))
                .orTimeout($ms$, TimeUnit.MILLISECONDS)
                .exceptionally(ex -> {
                    log.warn(\"async load of {} failed: {}\", id, ex.toString());
                    return null;
                });
    }
",
    },
    Member {
        verbs: &["quote", "check", "lookup"],
        plural: false,
        weight: 5,
        text: "    public $E2$Quote $m$(String id) {
        Future<$E2$Quote> pending = $exec$.submit(() -> $e2$Client.quote(id));
        try {
            return pending.get($ms$, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw new ServiceUnavailableException(\"$e2$ did not answer in \" + $ms$ + \" ms\");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceUnavailableException(\"interrupted while waiting for $e2$\");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
",
    },
    Member {
        verbs: &["fetch", "pull", "download"],
        plural: false,
        weight: 5,
        text: "    public Optional<$E2$Dto> $m$(String id) {
        String url = properties.getBaseUrl() + \"/api/v1/$ek2$/{id}\";
        try {
            ResponseEntity<$E2$Dto> response = restTemplate.getForEntity(url, $E2$Dto.class, id);
            if (response.getStatusCode().is2xxSuccessful() && response.getBody() != null) {
                return Optional.of(response.getBody());
            }
            log.info(\"unexpected status {} for {}\", response.getStatusCode(), id);
            return Optional.empty();
        } catch (RestClientException e) {
            log.warn(\"call to $ek2$ failed for {}\", id, e);
            return Optional.empty();
        }
    }
",
    },
    Member {
        verbs: &["fetchRaw", "export", "mirror"],
        plural: false,
        weight: 4,
        text: "    public String $m$(String id) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(properties.getBaseUrl() + \"/$ek$/\" + id))
                .timeout(Duration.ofMillis($ms$))
                .header(\"Accept\", \"application/json\")
                .GET()
                .build();
        HttpResponse<String> response = httpClient.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 500) {
            throw new IOException(\"$ek$ service returned \" + response.statusCode());
        }
        if (response.statusCode() == 404) {
            return \"\";
        }
        return response.body();
    }
",
    },
    Member {
        verbs: &["describe", "label", "classify"],
        plural: false,
        weight: 4,
        text: "    private String $m$($E$ $e$) {
        return switch ($e$.getStatus()) {
            case NEW, PENDING -> \"open\";
            case ACTIVE -> $e$.getAttempts() > 0 ? \"retrying\" : \"active\";
            case COMPLETED -> \"done\";
            case CANCELLED, FAILED -> {
                log.debug(\"closed {}\", $e$.getId());
                yield \"closed\";
            }
            default -> \"unknown\";
        };
    }
",
    },
    Member {
        verbs: &["count", "tally", "histogram"],
        plural: true,
        weight: 4,
        text: "    public Map<String, Long> $m$(List<$E$> items) {
        Map<String, Long> counts = items.stream()
                .filter(item -> item.getStatus() != null)
                .collect(Collectors.groupingBy($E$::get$Field$, TreeMap::new, Collectors.counting()));
        counts.entrySet().removeIf(entry -> entry.getValue() < $n$);
        return counts;
    }
",
    },
    Member {
        verbs: &["adjust", "credit", "debit", "reserve"],
        plural: false,
        weight: 4,
        text: "    public boolean $m$(String id, long amount) {
        boolean locked = false;
        try {
            locked = lock.tryLock($ms$, TimeUnit.MILLISECONDS);
            if (!locked) {
                return false;
            }
            $E$ $e$ = $e$Repository.findById(id).orElse(null);
            if ($e$ == null) {
                return false;
            }
            $e$.setAmount($e$.getAmount() + amount);
            $e$Repository.save($e$);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            if (locked) {
                lock.unlock();
            }
        }
    }
",
    },
    Member {
        verbs: &["sweep", "purge", "requeue"],
        plural: true,
        weight: 3,
        text: "    @Scheduled(fixedDelay = $sec$000L, initialDelay = $n$000L)
    public void $m$() {
        Instant cutoff = clock.instant().minus(Duration.ofMinutes($n$));
        List<$E$> stale = $e$Repository.findUpdatedBefore(cutoff);
        if (stale.isEmpty()) {
            return;
        }
        log.info(\"found {} stale $es$\", stale.size());
        stale.forEach(item -> {
            item.setStatus(Status.PENDING);
            $e$Repository.save(item);
            if (!outbox.offer(item)) {
                log.warn(\"outbox full, {} stays pending\", item.getId());
            }
        });
    }
",
    },
    Member {
        verbs: &["format", "render", "summarize"],
        plural: true,
        weight: 3,
        text: "    private String $m$(Collection<$E$> items) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        for ($E$ item : items) {
            if (i++ > 0) {
                sb.append(\", \");
            }
            sb.append(item.getId()).append('=').append(item.getStatus());
            if (i >= MAX_BATCH) {
                sb.append(\", ...\");
                break;
            }
        }
        return sb.toString();
    }
",
    },
    Member {
        verbs: &["fetchWithRetry", "retry", "pullWithBackoff"],
        plural: false,
        weight: 3,
        text: "    public $E2$Dto $m$(String id) {
        int attempt = 0;
        long backoff = $n$0L;
        while (true) {
            try {
                return $e2$Client.fetch(id);
            } catch (TransientException e) {
                attempt++;
                if (attempt >= properties.getMaxAttempts()) {
                    throw new IllegalStateException(\"giving up on \" + id + \" after \" + attempt + \" attempts\", e);
                }
                log.debug(\"retrying {} in {} ms\", id, backoff);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ie);
                }
                backoff = Math.min(backoff * 2, 2_000L);
            }
        }
    }
",
    },
    Member {
        verbs: &["summarize", "combine", "assemble"],
        plural: false,
        weight: 4,
        text: "    public CompletableFuture<$E$Summary> $m$(String id) {
        CompletableFuture<$E$> base = CompletableFuture
                .supplyAsync(() -> $e$Repository.findById(id).orElseThrow(), $exec$);
        CompletableFuture<$E2$Quote> quote = CompletableFuture
                .supplyAsync(() -> $e2$Client.quote(id), $exec$)
                .completeOnTimeout($E2$Quote.empty(id), $ms$, TimeUnit.MILLISECONDS);
        return base
                .thenCombine(quote, (item, q) -> new $E$Summary(item.getId(), item.getStatus().name(), q.getAmount()))
                .orTimeout($sec$, TimeUnit.SECONDS);
    }
",
    },
    Member {
        verbs: &["validate", "verify"],
        plural: false,
        weight: 3,
        text: "    private void $m$($E$ candidate) {
        List<String> problems = new ArrayList<>();
        if (candidate.getId() == null) {
            problems.add(\"id is missing\");
        }
        if (candidate.getAmount() < 0) {
            problems.add(\"amount is negative: \" + candidate.getAmount());
        }
        if (candidate.get$Field$() == null || candidate.get$Field$().toString().isEmpty()) {
            problems.add(\"$Field$ is missing\");
        }
        if (candidate.getAttempts() > properties.getMaxAttempts()) {
            problems.add(\"too many attempts\");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join(\"; \", problems));
        }
    }
",
    },
    Member {
        verbs: &["drain", "flush", "publish"],
        plural: true,
        weight: 3,
        text: "    public int $m$() {
        List<$E$> batch = new ArrayList<>(MAX_BATCH);
        outbox.drainTo(batch, MAX_BATCH);
        if (batch.isEmpty()) {
            return 0;
        }
        Map<Status, List<$E$>> byStatus = batch.stream().collect(Collectors.groupingBy($E$::getStatus));
        byStatus.forEach((status, items) -> log.debug(\"flushing {} $es$ in {}\", items.size(), status));
        $e$Repository.saveAll(batch);
        return batch.size();
    }
",
    },
];

/// Hazards: each is a realistic slip that poolguard should report.
const SERVICE_HAZARDS: &[Member] = &[
    Member {
        verbs: &["quoteAll", "collect", "gather"],
        plural: true,
        weight: 3,
        text: "    public List<$E2$Quote> $m$(List<String> ids) {
        List<CompletableFuture<$E2$Quote>> futures = new ArrayList<>();
        for (String id : ids) {
            futures.add(CompletableFuture.supplyAsync(() -> $e2$Client.quote(id), $exec$));
        }
        return futures.stream().map(CompletableFuture::join).collect(Collectors.toList());
    }
",
    },
    Member {
        verbs: &["quoteBlocking", "await"],
        plural: false,
        weight: 3,
        text: "    public $E2$Quote $m$(String id) throws InterruptedException, ExecutionException {
        Future<$E2$Quote> pending = $exec$.submit(() -> $e2$Client.quote(id));
        $E2$Quote quote = pending.get();
        log.debug(\"quoted {} at {}\", id, quote.getAmount());
        return quote;
    }
",
    },
    Member {
        verbs: &["loadNested", "expand"],
        plural: false,
        weight: 2,
        text: "    public $E$View $m$(String id) {
        CompletableFuture<$E$View> outer = CompletableFuture.supplyAsync(() -> {
            CompletableFuture<$E2$Quote> inner = CompletableFuture.supplyAsync(() -> $e2$Client.quote(id), $exec$);
            $E2$Quote quote = inner.join();
            $E$ item = $e$Repository.findById(id).orElseThrow();
            item.setAmount(quote.getAmount());
            return toView(item);
        }, $exec$);
        return outer.join();
    }
",
    },
];

fn service(p: &Plan, rng: &mut Rng, v: &mut Vars, target: usize, hazard: bool) -> String {
    let outbox_hazard = hazard && rng.chance(30);
    let outbox = if outbox_hazard {
        "new LinkedBlockingQueue<>()".to_string()
    } else if rng.chance(50) {
        format!(
            "new ArrayBlockingQueue<>({})",
            rng.pick(&["100", "500", "1_000", "2048"])
        )
    } else {
        format!(
            "new LinkedBlockingQueue<>({})",
            rng.pick(&["256", "1_000", "5_000"])
        )
    };
    v.set("outbox", outbox);
    item_vars(rng, v, "init");
    let mut out = fill(SERVICE_IMPORTS, v);
    let (annotation, implements) = match p.kind {
        Kind::Service => ("Service", ""),
        Kind::Client => ("Component", ""),
        _ => ("Component", " implements SmartLifecycle"),
    };
    out.push_str(&format!(
        "@{annotation}\npublic class {}{implements} {{\n\n",
        p.class
    ));
    out.push_str(&fill(SERVICE_FIELDS, v));
    if p.kind == Kind::Worker {
        out.push_str(&fill(WORKER_FIELDS, v));
    }
    out.push_str(&fill(SERVICE_CTOR, v));
    let mut used = HashSet::new();
    used.insert("toView".to_string());
    if p.kind == Kind::Worker {
        for m in WORKER_CORE {
            add_one(&mut out, rng, v, m, &mut used, "");
        }
    }
    if hazard && !outbox_hazard {
        let weights: Vec<usize> = SERVICE_HAZARDS.iter().map(|m| m.weight).collect();
        let m = &SERVICE_HAZARDS[rng.weighted(&weights)];
        add_one(&mut out, rng, v, m, &mut used, p.e);
    }
    let tail = line_count(SERVICE_TAIL);
    grow(
        &mut out,
        rng,
        v,
        SERVICE_MEMBERS,
        target.saturating_sub(tail),
        &mut used,
        p.e,
    );
    out.push_str(&fill(SERVICE_TAIL, v));
    out
}

// ------------------------------------------------------------------ controllers

const CONTROLLER_HEAD: &str = "package com.acme.$module$.$feature$.$sub$;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import com.acme.$module$.api.$E$Summary;
import com.acme.$module$.api.$E$View;
import com.acme.$module$.api.ErrorBody;
import com.acme.$module$.api.New$E$Request;
import com.acme.$module$.api.Update$E$Request;
import com.acme.$module$.service.$E$Service;
import com.acme.$module$.service.$E2$Service;
import com.acme.common.error.NotFoundException;
import jakarta.validation.Valid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * $doc$
 */
@RestController
@RequestMapping(\"/api/v1/$ek$\")
public class $Class$ {

    private static final Logger log = LoggerFactory.getLogger($Class$.class);
    private static final int MAX_PAGE_SIZE = $batch$;

    private final $E$Service $e$Service;
    private final $E2$Service $e2$Service;
    private final Executor $exec$;

    public $Class$($E$Service $e$Service, $E2$Service $e2$Service, @Qualifier(\"$exec$\") Executor $exec$) {
        this.$e$Service = Objects.requireNonNull($e$Service);
        this.$e2$Service = Objects.requireNonNull($e2$Service);
        this.$exec$ = $exec$;
    }
";

const CONTROLLER_TAIL: &str = "
    @ExceptionHandler(NotFoundException.class)
    public ResponseEntity<ErrorBody> notFound(NotFoundException e) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(new ErrorBody(\"not_found\", e.getMessage()));
    }

    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<ErrorBody> badRequest(IllegalArgumentException e) {
        log.debug(\"rejected request: {}\", e.getMessage());
        return ResponseEntity.badRequest().body(new ErrorBody(\"bad_request\", e.getMessage()));
    }
}
";

const CONTROLLER_MEMBERS: &[Member] = &[
    Member {
        verbs: &["get", "show", "read"],
        plural: false,
        weight: 5,
        text: "    @GetMapping(\"/{id}/$mk$\")
    public ResponseEntity<$E$View> $m$(@PathVariable(\"id\") String id) {
        $E$View view = $e$Service.find$E$(id);
        if (view == null) {
            return ResponseEntity.notFound().build();
        }
        return ResponseEntity.ok(view);
    }
",
    },
    Member {
        verbs: &["list", "page", "browse"],
        plural: true,
        weight: 5,
        text: "    @GetMapping(\"/$mk$\")
    public List<$E$View> $m$(
            @RequestParam(name = \"region\", defaultValue = \"eu\") String region,
            @RequestParam(name = \"size\", defaultValue = \"20\") int size,
            @RequestParam(name = \"page\", defaultValue = \"0\") int page) {
        int bounded = Math.max(1, Math.min(size, MAX_PAGE_SIZE));
        List<$E$View> all = $e$Service.list$Es$(region, bounded * (page + 1));
        int from = Math.min(all.size(), page * bounded);
        return all.subList(from, Math.min(all.size(), from + bounded));
    }
",
    },
    Member {
        verbs: &["create", "register", "open"],
        plural: false,
        weight: 4,
        text: "    @PostMapping(\"/$mk$\")
    public ResponseEntity<$E$View> $m$(@Valid @RequestBody New$E$Request request) {
        if (request.amount() < 0) {
            throw new IllegalArgumentException(\"amount must not be negative\");
        }
        $E$View created = $e$Service.create(request);
        log.info(\"created {} {}\", \"$e$\", created.id());
        return ResponseEntity.created(URI.create(\"/api/v1/$ek$/\" + created.id())).body(created);
    }
",
    },
    Member {
        verbs: &["update", "amend", "patch"],
        plural: false,
        weight: 4,
        text: "    @PutMapping(\"/{id}/$mk$\")
    public ResponseEntity<$E$View> $m$(@PathVariable(\"id\") String id, @Valid @RequestBody Update$E$Request request) {
        $E$View current = $e$Service.find$E$(id);
        if (current == null) {
            return ResponseEntity.notFound().build();
        } else if (\"CANCELLED\".equals(current.status())) {
            return ResponseEntity.status(HttpStatus.CONFLICT).build();
        }
        $E$View updated = $e$Service.update(id, request);
        return ResponseEntity.ok(updated);
    }
",
    },
    Member {
        verbs: &["delete", "cancel", "archive"],
        plural: false,
        weight: 3,
        text: "    @DeleteMapping(\"/{id}/$mk$\")
    public ResponseEntity<Void> $m$(@PathVariable(\"id\") String id) {
        boolean removed = $e$Service.cancel(id);
        return removed ? ResponseEntity.noContent().build() : ResponseEntity.notFound().build();
    }
",
    },
    Member {
        verbs: &["summary", "overview", "dashboard"],
        plural: false,
        weight: 4,
        text: "    @GetMapping(\"/{id}/$mk$\")
    public CompletableFuture<ResponseEntity<$E$Summary>> $m$(@PathVariable(\"id\") String id) {
        return $e$Service.summarize$E$(id)
                .orTimeout($ms$, TimeUnit.MILLISECONDS)
                .thenApply(ResponseEntity::ok)
                .exceptionally(ex -> {
                    log.warn(\"summary for {} failed: {}\", id, ex.toString());
                    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).build();
                });
    }
",
    },
    Member {
        verbs: &["search", "find", "query"],
        plural: true,
        weight: 4,
        text: "    @GetMapping(\"/$mk$\")
    public List<$E$View> $m$(
            @RequestParam(name = \"q\") String query,
            @RequestParam(name = \"sort\", defaultValue = \"recent\") String sort) {
        if (query.length() < 2) {
            throw new IllegalArgumentException(\"query too short\");
        }
        List<$E$View> hits = new ArrayList<>($e$Service.list$Es$(query, MAX_PAGE_SIZE));
        switch (sort) {
            case \"amount\":
                hits.sort((a, b) -> Long.compare(b.amount(), a.amount()));
                break;
            case \"id\":
                hits.sort((a, b) -> a.id().compareTo(b.id()));
                break;
            case \"recent\":
            default:
                hits.sort((a, b) -> b.updatedAt().compareTo(a.updatedAt()));
                break;
        }
        return hits;
    }
",
    },
    Member {
        verbs: &["import", "bulkCreate", "upload"],
        plural: true,
        weight: 3,
        text: "    @PostMapping(\"/$mk$\")
    public ResponseEntity<Map<String, Object>> $m$(@RequestBody List<New$E$Request> requests) {
        List<String> created = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (New$E$Request request : requests) {
            try {
                created.add($e$Service.create(request).id());
            } catch (IllegalArgumentException e) {
                failed.add(request.reference() + \": \" + e.getMessage());
            }
        }
        HttpStatus status = failed.isEmpty() ? HttpStatus.CREATED : HttpStatus.MULTI_STATUS;
        return ResponseEntity.status(status).body(Map.of(\"created\", created, \"failed\", failed, \"at\", Instant.now()));
    }
",
    },
    Member {
        verbs: &["compare", "pair", "match"],
        plural: false,
        weight: 3,
        text: "    @GetMapping(\"/{id}/$mk$/{otherId}\")
    public CompletableFuture<Map<String, Object>> $m$(@PathVariable(\"id\") String id, @PathVariable(\"otherId\") String otherId) {
        CompletableFuture<$E$View> left = CompletableFuture.supplyAsync(() -> $e$Service.find$E$(id), $exec$);
        CompletableFuture<Object> right = CompletableFuture.<Object>supplyAsync(() -> $e2$Service.lookup(otherId), $exec$)
                .completeOnTimeout(Map.of(), $ms$, TimeUnit.MILLISECONDS);
        return left
                .thenCombine(right, (a, b) -> Map.<String, Object>of(\"$e$\", a, \"$e2$\", b))
                .orTimeout($sec$, TimeUnit.SECONDS);
    }
",
    },
];

const CONTROLLER_HAZARDS: &[Member] = &[Member {
    verbs: &["summaryBlocking", "overviewNow"],
    plural: false,
    weight: 1,
    text: "    @GetMapping(\"/{id}/$mk$\")
    public ResponseEntity<$E$Summary> $m$(@PathVariable(\"id\") String id) {
        CompletableFuture<$E$Summary> pending = $e$Service.summarize$E$(id);
        $E$Summary summary = pending.join();
        return ResponseEntity.ok(summary);
    }
",
}];

fn controller(rng: &mut Rng, v: &mut Vars, target: usize, hazard: bool) -> String {
    item_vars(rng, v, "init");
    let mut out = fill(CONTROLLER_HEAD, v);
    let mut used = HashSet::new();
    used.insert("notFound".to_string());
    used.insert("badRequest".to_string());
    let e = v.get("E").unwrap_or("Item").to_string();
    if hazard {
        add_one(&mut out, rng, v, &CONTROLLER_HAZARDS[0], &mut used, &e);
    }
    let tail = line_count(CONTROLLER_TAIL);
    grow(
        &mut out,
        rng,
        v,
        CONTROLLER_MEMBERS,
        target.saturating_sub(tail),
        &mut used,
        &e,
    );
    out.push_str(&fill(CONTROLLER_TAIL, v));
    out
}

// ------------------------------------------------------------------ configuration

const CONFIG_HEAD: &str = "package com.acme.$module$.$feature$.$sub$;

import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.DeserializationFeature;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.client.RestTemplate;

/**
 * $doc$
 */
@Configuration
@EnableConfigurationProperties($Class$.$E$Settings.class)
public class $Class$ {

    private static final Logger log = LoggerFactory.getLogger($Class$.class);
    private static final AtomicInteger THREADS = new AtomicInteger();

    private static ThreadFactory named(String prefix) {
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + \"-\" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            thread.setUncaughtExceptionHandler((t, e) -> log.error(\"uncaught in {}\", t.getName(), e));
            return thread;
        };
    }
";

const CONFIG_MEMBERS: &[Member] = &[
    Member {
        verbs: &["io", "lookup", "fanOut", "remote"],
        plural: false,
        weight: 6,
        text: "    @Bean(destroyMethod = \"shutdown\")
    public ExecutorService $m$Executor($E$Settings settings) {
        int core = Math.max(2, settings.getCorePoolSize());
        int max = Math.max(core, settings.getMaxPoolSize());
        log.info(\"$m$ pool: core={} max={} queue={}\", core, max, $cap$);
        return new ThreadPoolExecutor(
                core,
                max,
                60L, TimeUnit.SECONDS,
                $queue$,
                named(\"$mk$\"),
                new ThreadPoolExecutor.$policy$());
    }
",
    },
    Member {
        verbs: &["task", "async", "mail"],
        plural: false,
        weight: 4,
        text: "    @Bean
    public ThreadPoolTaskExecutor $m$TaskExecutor($E$Settings settings) {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setCorePoolSize(settings.getCorePoolSize());
        executor.setMaxPoolSize(settings.getMaxPoolSize());
        executor.setQueueCapacity($cap$);
        executor.setThreadNamePrefix(\"$mk$-\");
        executor.setWaitForTasksToCompleteOnShutdown(true);
        executor.setAwaitTerminationSeconds($sec$);
        executor.initialize();
        return executor;
    }
",
    },
    Member {
        verbs: &["partner", "upstream", "pricing"],
        plural: false,
        weight: 5,
        text: "    @Bean
    public RestTemplate $m$RestTemplate(RestTemplateBuilder builder, $E$Settings settings) {
        return builder
                .rootUri(settings.getBaseUrl())
                .setConnectTimeout(Duration.ofMillis($ms$))
                .setReadTimeout(Duration.ofSeconds($sec$))
                .defaultHeader(\"X-Client\", \"$module$\")
                .build();
    }
",
    },
    Member {
        verbs: &["partner", "backend", "search"],
        plural: false,
        weight: 4,
        text: "    @Bean
    public HttpClient $m$HttpClient($E$Settings settings) {
        return HttpClient.newBuilder()
                .connectTimeout(Duration.ofMillis($ms$))
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .executor(new ThreadPoolExecutor(2, settings.getMaxPoolSize(), 30L, TimeUnit.SECONDS,
                        new SynchronousQueue<>(), named(\"$mk$-http\"), new ThreadPoolExecutor.AbortPolicy()))
                .build();
    }
",
    },
    Member {
        verbs: &["utc", "system"],
        plural: false,
        weight: 2,
        text: "    @Bean
    @Primary
    public Clock $m$Clock() {
        return Clock.system(ZoneOffset.UTC);
    }

    @Bean
    public Jackson2ObjectMapperBuilderCustomizer $m$Jackson() {
        return builder -> builder
                .featuresToDisable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .timeZone(\"UTC\");
    }
",
    },
];

const CONFIG_HAZARDS: &[Member] = &[
    Member {
        verbs: &["legacy", "reporting"],
        plural: false,
        weight: 2,
        text: "    @Bean(destroyMethod = \"shutdown\")
    public ExecutorService $m$Executor() {
        return Executors.newFixedThreadPool($n$, named(\"$mk$\"));
    }
",
    },
    Member {
        verbs: &["plain", "simple"],
        plural: false,
        weight: 2,
        text: "    @Bean
    public RestTemplate $m$RestTemplate() {
        return new RestTemplate();
    }
",
    },
    Member {
        verbs: &["batch", "export"],
        plural: false,
        weight: 2,
        text: "    @Bean
    public ThreadPoolTaskExecutor $m$TaskExecutor() {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setCorePoolSize($n$);
        executor.setMaxPoolSize($n$);
        executor.setThreadNamePrefix(\"$mk$-\");
        executor.initialize();
        return executor;
    }
",
    },
    Member {
        verbs: &["timer", "heartbeat"],
        plural: false,
        weight: 1,
        text: "    @Bean(destroyMethod = \"shutdownNow\")
    public ScheduledExecutorService $m$Scheduler() {
        return Executors.newScheduledThreadPool($n$, named(\"$mk$\"));
    }
",
    },
];

const SETTINGS: &[(&str, &str, &str)] = &[
    ("int", "corePoolSize", "4"),
    ("int", "maxPoolSize", "16"),
    ("String", "baseUrl", "\"http://localhost:8080\""),
    ("int", "maxAttempts", "3"),
    ("long", "connectTimeoutMillis", "500L"),
    ("long", "readTimeoutMillis", "2000L"),
    ("boolean", "enabled", "true"),
    ("String", "region", "\"eu-west-1\""),
    ("int", "batchSize", "200"),
    ("Duration", "refreshInterval", "Duration.ofMinutes(5)"),
    ("String", "apiKeyHeader", "\"X-Api-Key\""),
    ("int", "queueCapacity", "500"),
    ("boolean", "auditEnabled", "false"),
    ("Duration", "lockTimeout", "Duration.ofSeconds(3)"),
    ("String", "callbackPath", "\"/callbacks\""),
];

fn settings_class(rng: &mut Rng, v: &Vars, count: usize) -> String {
    let mut fields = String::new();
    let mut accessors = String::new();
    // corePoolSize, maxPoolSize and baseUrl are used by the beans: always present.
    let mut chosen: Vec<usize> = vec![0, 1, 2];
    while chosen.len() < count.clamp(3, SETTINGS.len()) {
        let i = rng.below(SETTINGS.len());
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    for &i in &chosen {
        let (ty, name, default) = SETTINGS[i];
        let cap = upper_first(name);
        fields.push_str(&format!("        private {ty} {name} = {default};\n"));
        let getter = if ty == "boolean" { "is" } else { "get" };
        accessors.push_str(&format!(
            "\n        public {ty} {getter}{cap}() {{\n            return {name};\n        }}\n\n        public void set{cap}({ty} {name}) {{\n            this.{name} = {name};\n        }}\n"
        ));
    }
    let head = fill(
        "
    @ConfigurationProperties(prefix = \"acme.$module$.$ek$\")
    public static class $E$Settings {

",
        v,
    );
    format!("{head}{fields}{accessors}    }}\n")
}

fn config(rng: &mut Rng, v: &mut Vars, target: usize, hazard: bool) -> String {
    item_vars(rng, v, "init");
    let mut out = fill(CONFIG_HEAD, v);
    let mut used = HashSet::new();
    used.insert("named".to_string());
    let settings_count = rng.range(4, 10);
    let settings = settings_class(rng, v, settings_count);
    if hazard {
        let weights: Vec<usize> = CONFIG_HAZARDS.iter().map(|m| m.weight).collect();
        let m = &CONFIG_HAZARDS[rng.weighted(&weights)];
        add_one(&mut out, rng, v, m, &mut used, "");
    }
    let tail = line_count(&settings) + 2;
    let weights: Vec<usize> = CONFIG_MEMBERS.iter().map(|m| m.weight).collect();
    while line_count(&out) + tail < target {
        let m = &CONFIG_MEMBERS[rng.weighted(&weights)];
        let name = member_name(rng, m, &mut used, "");
        item_vars(rng, v, &name);
        let cap = v.get("cap").unwrap_or("200").to_string();
        let queue = match rng.below(4) {
            0 | 1 => format!("new ArrayBlockingQueue<>({cap})"),
            2 => format!("new LinkedBlockingQueue<>({cap})"),
            _ => "new SynchronousQueue<>()".to_string(),
        };
        let policy = *rng.pick(&[
            "AbortPolicy",
            "AbortPolicy",
            "CallerRunsPolicy",
            "DiscardOldestPolicy",
        ]);
        v.set("queue", queue).set("policy", policy);
        out.push('\n');
        out.push_str(&fill(m.text, v));
    }
    out.push_str(&settings);
    out.push_str("}\n");
    out
}

// ------------------------------------------------------------------ entities

const ENTITY_FIELDS: &[(&str, &str, &str)] = &[
    (
        "String",
        "reference",
        "@Column(name = \"reference\", nullable = false, length = 64)",
    ),
    (
        "String",
        "region",
        "@Column(name = \"region\", length = 16)",
    ),
    (
        "String",
        "currency",
        "@Column(name = \"currency\", length = 3)",
    ),
    (
        "long",
        "amount",
        "@Column(name = \"amount_minor\", nullable = false)",
    ),
    ("int", "attempts", "@Column(name = \"attempts\")"),
    (
        "Instant",
        "createdAt",
        "@Column(name = \"created_at\", nullable = false, updatable = false)",
    ),
    ("Instant", "updatedAt", "@Column(name = \"updated_at\")"),
    (
        "String",
        "owner",
        "@Column(name = \"owner_id\", length = 64)",
    ),
    (
        "String",
        "channel",
        "@Column(name = \"channel\", length = 32)",
    ),
    (
        "String",
        "externalId",
        "@Column(name = \"external_id\", unique = true)",
    ),
    (
        "String",
        "notes",
        "@Column(name = \"notes\", length = 2000)",
    ),
    ("boolean", "flagged", "@Column(name = \"flagged\")"),
    ("Integer", "priority", "@Column(name = \"priority\")"),
    (
        "String",
        "createdBy",
        "@Column(name = \"created_by\", length = 64)",
    ),
    ("Instant", "expiresAt", "@Column(name = \"expires_at\")"),
    (
        "String",
        "source",
        "@Column(name = \"source\", length = 32)",
    ),
    ("long", "tax", "@Column(name = \"tax_minor\")"),
    ("String", "locale", "@Column(name = \"locale\", length = 8)"),
];

const ENTITY_HEAD: &str = "package com.acme.$module$.$feature$.$sub$;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/**
 * $doc$
 */
@Entity
@Table(name = \"$table$\")
public class $Class$ {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Enumerated(EnumType.STRING)
    @Column(name = \"status\", nullable = false, length = 16)
    private Status status = Status.NEW;

    @Version
    private long version;
";

const ENTITY_METHODS: &str = "
    protected $Class$() {
        // for JPA
    }

    public $Class$(String reference, Instant createdAt) {
        this.reference = Objects.requireNonNull(reference, \"reference\");
        this.createdAt = createdAt;
        this.updatedAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }

    public boolean isOpen() {
        return status == Status.NEW || status == Status.PENDING || status == Status.ACTIVE;
    }

    public boolean isOverdue(Instant now, Duration grace) {
        if (!isOpen() || updatedAt == null) {
            return false;
        }
        return updatedAt.plus(grace).isBefore(now);
    }

    public void transition(Status next, Instant at) {
        if (status == next) {
            return;
        }
        switch (status) {
            case COMPLETED:
            case CANCELLED:
                throw new IllegalStateException(\"$e$ \" + id + \" is already \" + status);
            default:
                break;
        }
        this.status = next;
        this.updatedAt = at;
    }
";

const ENTITY_TAIL: &str = "
    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof $Class$ that)) {
            return false;
        }
        return id != null && id.equals(that.id);
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }

    @Override
    public String toString() {
        return \"$Class${id=\" + id + \", status=\" + status + \", reference=\" + reference + \"}\";
    }

    public enum Status {
        NEW,
        PENDING,
        ACTIVE,
        COMPLETED,
        CANCELLED,
        FAILED
    }
}
";

fn entity(rng: &mut Rng, v: &mut Vars, target: usize) -> String {
    let e = v.get("E").unwrap_or("Item").to_string();
    v.set("table", format!("{}s", super::snake(&e)));
    let mut out = fill(ENTITY_HEAD, v);
    let methods = fill(ENTITY_METHODS, v);
    let tail = fill(ENTITY_TAIL, v);
    // reference, createdAt and updatedAt are used by the methods above.
    let mut chosen: Vec<usize> = vec![0, 5, 6];
    // Each field costs 11 lines (annotation, declaration, getter, setter).
    let fixed = line_count(&out) + line_count(&methods) + line_count(&tail);
    let wanted = (target.max(MIN_LINES + 5).saturating_sub(fixed)).div_ceil(11);
    let wanted = wanted.clamp(3, ENTITY_FIELDS.len());
    while chosen.len() < wanted {
        let i = rng.below(ENTITY_FIELDS.len());
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    let mut accessors = String::new();
    for &i in &chosen {
        let (ty, name, column) = ENTITY_FIELDS[i];
        out.push_str(&format!("\n    {column}\n    private {ty} {name};\n"));
        let cap = upper_first(name);
        let getter = if ty == "boolean" { "is" } else { "get" };
        accessors.push_str(&format!(
            "\n    public {ty} {getter}{cap}() {{\n        return {name};\n    }}\n\n    public void set{cap}({ty} {name}) {{\n        this.{name} = {name};\n    }}\n"
        ));
    }
    out.push_str(&methods);
    out.push_str(&accessors);
    out.push_str(&tail);
    out
}

/// `createdAt` -> `CreatedAt`.
fn upper_first(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
