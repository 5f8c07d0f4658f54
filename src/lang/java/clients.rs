//! Network clients for `missing_client_timeout`: follow a client (or builder)
//! from where it is created through its call chain and the variable that holds
//! it, collect the settings made, and let `lang::clients` judge them.

use super::tree::Node;

use super::extract::Extractor;
use super::queues::{enclosing_body, enclosing_class_body};
use super::syntax::{call_args, enclosing_method, short, span, NodeExt};
use crate::catalog::ClientEntry;
use crate::facts::{Client, ClientBean, ClientField, ClientSource, CtxId};
use crate::lang::clients::{describe, message, missing, Observed};
use crate::source::Span;

/// What happens to a client after it is created.
struct Use<'t> {
    calls: Vec<Observed<Node<'t>>>,
    /// Passed to one of the entry's `sent_by` methods.
    sent: bool,
    /// Requests made on the field it is stored in, anywhere in its class (`rest.exchange(..)`).
    request_calls: Vec<Node<'t>>,
    /// Argument lists it is passed in (`factory.setHttpClient(client)`).
    passed: Vec<Node<'t>>,
    /// Method calls the field it is stored in is passed to (`Registry.fetch(client, ..)`):
    /// helpers that make its requests where they are called.
    handed: Vec<Node<'t>>,
    /// Held in a local that only receives calls in its own method (never passed,
    /// returned, stored or captured): its requests run where it is made.
    confined: bool,
    /// Sent by a call of the chain that makes it (`Request.Get(url).execute()`): it
    /// never leaves that expression.
    sent_in_chain: bool,
}

impl<'a> Extractor<'a> {
    /// Check every client entry that starts at `kind:name` against `node`.
    pub(super) fn clients_at(&mut self, node: Node, kind: &str, name: &str) {
        if !self.catalog.may_start_client(name) {
            return;
        }
        if kind == "type" && self.made_here(node) {
            return;
        }
        let entries: Vec<ClientEntry> = self
            .catalog
            .clients_starting(kind, name)
            .into_iter()
            .filter(|e| !e.internal)
            .cloned()
            .collect();
        for entry in entries {
            self.check_client(&entry, node);
        }
    }

    /// A loopback host: `"127.0.0.1"`, `"localhost"`, `"::1"`, `InetAddress.getLoopbackAddress()`,
    /// `InetAddress.getByName("127.0.0.1")`, or `new InetSocketAddress(<one of these>, port)`.
    fn loopback(&self, n: Node) -> bool {
        match n.kind_name() {
            "string_literal" => {
                let t = self.text(n).trim_matches('"');
                matches!(t, "127.0.0.1" | "localhost" | "::1" | "0:0:0:0:0:0:0:1")
            }
            "method_invocation" | "object_creation_expression" => {
                let name = n
                    .field("name")
                    .or_else(|| n.field("type"))
                    .map(|m| self.text(m))
                    .unwrap_or_default();
                match name {
                    "getLoopbackAddress" => true,
                    "getByName" | "InetSocketAddress" | "createUnresolved" => {
                        call_args(n).first().is_some_and(|a| self.loopback(*a))
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// A URL read from disk: `getResource(..)` (of a class or class loader),
    /// `file.toURI().toURL()` or `path.toUri().toURL()`, a `"file:"`/`"jar:"` literal or `new URL(<one of these>)`,
    /// or a local initialized with one.
    fn local_url(&self, n: Node) -> bool {
        match n.kind_name() {
            "string_literal" => {
                let t = self.text(n).trim_start_matches('"');
                t.starts_with("file:") || t.starts_with("jar:")
            }
            "identifier" => self
                .local_initializer(n)
                .is_some_and(|v| v.kind_name() != "identifier" && self.local_url(v)),
            "method_invocation" => {
                let name = n.field("name").map(|m| self.text(m)).unwrap_or_default();
                match name {
                    "getResource" => true,
                    "toURL" => n
                        .field("object")
                        .and_then(|o| o.field("name"))
                        .is_some_and(|m| matches!(self.text(m), "toURI" | "toUri")),
                    _ => false,
                }
            }
            "object_creation_expression" => {
                n.field("type").is_some_and(|t| self.text(t) == "URL")
                    && call_args(n).first().is_some_and(|a| self.local_url(*a))
            }
            _ => false,
        }
    }

    /// An argument known to be a `java.net.URL`: `new URL(..)`, `uri.toURL()`, or a
    /// local, parameter or field declared as one.
    fn is_url(&self, n: Node) -> bool {
        match n.kind_name() {
            "object_creation_expression" => n.field("type").is_some_and(|t| self.text(t) == "URL"),
            "method_invocation" => n.field("name").is_some_and(|m| self.text(m) == "toURL"),
            "identifier" => self
                .lookup(self.text(n))
                .and_then(|v| v.ty)
                .is_some_and(|t| t.simple == "URL"),
            _ => false,
        }
    }

    /// An argument that cannot be a timeout: a string, an object made here, or a
    /// local, parameter or field declared of a type that is not a number (`Map`,
    /// `StreamProgress`). Unknown types may be numbers.
    fn not_a_number(&self, arg: Node) -> bool {
        match arg.kind_name() {
            "object_creation_expression" | "string_literal" | "lambda_expression" => true,
            "identifier" => {
                let ty = self.lookup(self.text(arg)).and_then(|v| v.ty);
                ty.is_some_and(|t| {
                    let numbers = ["int", "Integer", "long", "Long", "short", "Short", "Number"];
                    !numbers.contains(&t.simple.as_str())
                })
            }
            _ => false,
        }
    }

    fn check_client(&mut self, entry: &ClientEntry, start: Node) {
        let given = call_args(start);
        let count = given.len();
        // Past `max_args` the overload takes a timeout: a literal `-1` or `0` is none;
        // a last argument in its place that is no number is another overload's
        // (`HttpUtil.get(url, paramMap)`, not `get(url, paramMap, 3000)`).
        let untimed = || {
            let arg = entry.untimed_arg.and_then(|i| given.get(i));
            let last = entry.untimed_arg.is_some_and(|i| i + 1 == count);
            arg.is_some_and(|a| {
                matches!(self.text(*a).replace(' ', "").as_str(), "-1" | "0")
                    || last && self.not_a_number(*a)
            })
        };
        if count < entry.min_args || entry.max_args.is_some_and(|m| count > m) && !untimed() {
            return;
        }
        let host = entry.loopback_arg.and_then(|i| given.get(i).copied());
        if host.is_some_and(|h| self.loopback(h)) {
            return;
        }
        let url = entry.url_arg.and_then(|i| given.get(i).copied());
        if url.is_some_and(|u| self.local_url(u)) {
            return;
        }
        if entry.url_typed && !url.is_some_and(|u| self.is_url(u)) {
            return;
        }
        if let Some(cast) = &entry.cast {
            if !self.becomes(start, cast) {
                return;
            }
        }
        // `if (timeoutMs <= 0) s.connect(addr); else s.connect(addr, timeoutMs);`: in
        // a branch on a timeout value, going without one is the caller's choice.
        if self.frame.timeout_branch > 0
            || self.overwritten_unused(start)
            || self.returns_unbuilt(start)
            || self.forwards(start)
            || self.borrowed_from(start)
            || self.keeps_contract(entry)
        {
            return;
        }
        let mut used = self.observe(start, &entry.sent_by);
        if entry.helpers_configure && self.helper_configures(entry, &used.passed) {
            return;
        }
        // `new Transport(HttpClients.custom())`: a builder handed on before it is built
        // is configured and built by the project code it goes to.
        if let Some(build) = &entry.built_by {
            let built = used.calls.iter().any(|c| &c.method == build);
            if !built && self.builder_handed_on(entry, &used.passed) {
                return;
            }
        }
        if start.kind_name() == "method_invocation" {
            // The creating call may configure too (`builder.connectTimeout(..)` on a typed builder).
            used.calls.insert(0, self.observed(start));
        }
        // `timed.rootUri(..).build()` where `timed` was built from a configured chain.
        if let Some(obj) = start
            .field("object")
            .filter(|o| o.kind_name() == "identifier")
        {
            self.initializer_calls(obj, &mut used.calls, 0);
        }
        // Sent by a call made on it (`Request.Post(url).execute()`) or by passing it.
        used.sent |= used.calls.iter().any(|c| entry.sent_by.contains(&c.method));
        if !entry.sent_by.is_empty() && !used.sent {
            return;
        }
        if let Some(end) = &entry.ends {
            if !used.calls.iter().any(|c| &c.method == end) {
                return;
            }
        }
        // `new HttpComponentsClientHttpRequestFactory(client)` then `f.setConnectTimeout(..)`:
        // what the factory it is handed to sets, as `<id>.<method>` (needs may name it).
        let handed = self.handed_values(entry, &used.passed);
        for (factory, calls) in &handed {
            used.calls.extend(calls.iter().map(|c| Observed {
                method: format!("{}.{}", factory.id, c.method),
                first_arg: None,
                first_arg_text: String::new(),
            }));
        }
        let Some(lacks) = self.lacks(entry, start, &used.calls) else {
            return;
        };
        // A connection nothing connects, reads or writes, kept in a local that never
        // leaves its method (`conn = open..(); return send(..);`, then only
        // `conn.disconnect()`): it makes no request.
        if !entry.reads.is_empty()
            && used.passed.is_empty()
            && !used
                .calls
                .iter()
                .any(|c| c.method == "connect" || entry.reads.contains(&c.method))
            && self.unused_local(start)
        {
            return;
        }
        // A probe that only connects, lacking only the read timeout: that would bound
        // reads it never makes.
        let probe = entry.read_need.as_deref().is_some_and(|read| {
            used.confined
                && lacks == describe(read)
                && !used.calls.iter().any(|c| entry.reads.contains(&c.method))
        });
        if probe {
            return;
        }
        if idle(entry, &lacks, &used.calls) && !self.remote_receiver(entry, start) {
            return;
        }
        let local = in_resource(start)
            || used.confined
            || used.sent_in_chain
            || !entry.reads.is_empty() && self.returned_to_own_callers(start);
        if self.bounds_each_request(entry, start, &used.request_calls, local)
            || self.handed_to_bound(entry, &used.passed, &handed)
            || self.configured_by_callers(entry, start)
        {
            return;
        }
        let sender = self.sender_made(entry, &used.passed);
        let more = || {
            format!(
                "; the request it sends lacks {} too: {}",
                entry.missing, entry.default
            )
        };
        if let Some(i) =
            sender.and_then(|made| self.facts.clients.iter().position(|c| c.span == made))
        {
            let more = more();
            let client = &mut self.facts.clients[i];
            if !client.message.ends_with(&more) {
                client.message.push_str(&more);
            }
            return;
        }
        let s = self.start_span(start);
        // A request built before the client that sends it (`HttpRequest req = ..;
        // HttpClient client = HttpClient.newHttpClient(); client.send(req, ..)`): one
        // finding with the client's if that is reported too.
        if let Some(made) = sender.filter(|m| m.start > s.start) {
            self.sent_before
                .push((self.facts.clients.len(), made, more()));
        }
        // A receiver named on the line before (`HttpClients\n    .custom()`) is shown.
        let receiver = start
            .field("object")
            .filter(|o| o.end_byte() <= s.start)
            .filter(|o| {
                matches!(
                    o.kind_name(),
                    "identifier" | "field_access" | "scoped_identifier"
                )
            })
            .map_or(String::new(), |o| format!("{}.", self.text(o)));
        let what = format!(
            "`{}`",
            short(&format!("{receiver}{}", &self.src[s.start..s.end]))
        );
        let mut text = message(&what, entry, &lacks);
        if let Some(k) = self.sent_before.iter().position(|p| p.1 == s) {
            let (i, _, more) = self.sent_before.remove(k);
            text.push_str(&more);
            self.facts.clients.remove(i);
            for p in &mut self.sent_before {
                p.0 -= usize::from(p.0 > i);
            }
        }
        let bean = entry
            .per_request
            .is_empty()
            .then(|| self.returned_bean(start))
            .flatten();
        self.facts.clients.push(Client {
            span: s,
            ctx: self.current_ctx(),
            message: text,
            help: entry.help.clone(),
            // A try-with-resources client opens and closes its connection in the method:
            // its requests run there, at that method's heat (a tool's probe in `main`, an
            // admin-only handler); so does a request sent where it is made. (A dedicated
            // worker's client stays reported: a hang there stops the worker's job, as the
            // Doris sink's flush thread showed.)
            local: local && !self.in_dedicated_entry(),
            requests: used
                .request_calls
                .iter()
                .chain(&used.handed)
                .map(|n| span(*n))
                .collect(),
            serves: false,
            os_bounded: false,
            in_default: false,
            default_ctor: self.convenience_default(start, entry),
            bean,
            built_by: None,
            returned_by: self.returned_by(start, &entry.id),
            made_with: match entry.interceptor {
                Some(_) => self.made_in_method(start),
                None => Vec::new(),
            },
            unbuilt: None,
            static_item: None,
            handed_to: None,
        });
    }

    /// A client a constructor makes for itself when its class has another constructor
    /// that takes one of that type (`Store(host)` beside `Store(host, CloseableHttpClient
    /// client)`): a library's default, for its users to replace with a configured client.
    fn convenience_default(&self, start: Node, entry: &ClientEntry) -> bool {
        let Some(ctor) = super::syntax::enclosing_constructor(start) else {
            return false;
        };
        let made: Vec<&str> = (entry.makes.iter().map(String::as_str))
            .chain(entry.starts.iter().filter_map(|s| s.strip_prefix("new:")))
            .collect();
        let Some(class) = ctor.parent() else {
            return false;
        };
        super::syntax::named_children(class).into_iter().any(|c| {
            c.kind_name() == "constructor_declaration"
                && c.id() != ctor.id()
                && super::syntax::formal_params(c).into_iter().any(|p| {
                    p.field("type")
                        .and_then(|t| self.jtype(t))
                        .is_some_and(|t| t.fq().is_some_and(|fq| made.contains(&fq)))
                })
        })
    }

    /// The project classes a class implementing a client entry's `interceptor` type
    /// is (by `supers`), with the names of that entry's `needs` its `body` calls.
    pub(super) fn interceptor_sets(
        &self,
        supers: &[super::types::JType],
        body: Option<Node>,
    ) -> Vec<Box<str>> {
        let Some(body) = body.filter(|_| !supers.is_empty()) else {
            return Vec::new();
        };
        let mut out: Vec<Box<str>> = Vec::new();
        for entry in &self.catalog.data.clients {
            let Some(t) = entry.interceptor.as_deref() else {
                continue;
            };
            if !supers.iter().any(|s| s.fq() == Some(t)) {
                continue;
            }
            let text = self.text(body);
            for need in entry.needs.iter().flat_map(|n| n.split('|')) {
                if text.contains(&format!(".{need}(")) && !out.iter().any(|o| &**o == need) {
                    out.push(need.into());
                }
            }
        }
        out
    }

    /// The classes of the objects made (`new X(..)`) in the method around `start`.
    fn made_in_method(&self, start: Node) -> Vec<std::sync::Arc<crate::facts::TypeRef>> {
        let Some(body) = enclosing_body(start) else {
            return Vec::new();
        };
        super::syntax::own_nodes(body, "object_creation_expression")
            .into_iter()
            .filter_map(|n| n.field("type").and_then(|t| self.jtype(t)))
            .map(|t| self.type_ref(&t))
            .collect()
    }

    /// `static CloseableHttpClient create(..) { return HttpClients.custom()...build(); }`
    /// (also one branch of a returned conditional): the method that hands the client to
    /// its callers, as `Class.method`, with the entry id; only for entries a request
    /// can bound one by one.
    fn returned_by(&self, start: Node, entry: &str) -> Option<(Box<str>, Box<str>)> {
        if !self.catalog.client(entry)?.configured_per_request() {
            return None;
        }
        let top = super::syntax::outermost(
            chain_root_up(start),
            &["ternary_expression", "parenthesized_expression"],
        );
        let ret = top
            .parent()
            .filter(|p| p.kind_name() == "return_statement")?;
        let name = self.text(enclosing_method(ret)?.field("name")?);
        let class = self.class_name()?;
        Some((format!("{class}.{name}").into(), entry.into()))
    }

    /// Where the client a request is sent through is made (`client.send(request, ..)`
    /// with `client = HttpClient.newHttpClient()` in the method): its creation's span.
    /// When the file reports that client too (a JDK client lacks its connect timeout
    /// only when none of the class's requests is timed), the two are one hazard, one
    /// finding: the client's.
    fn sender_made(&self, entry: &ClientEntry, passed: &[Node]) -> Option<Span> {
        passed.iter().find_map(|args| {
            let call = args
                .parent()
                .filter(|c| c.kind_name() == "method_invocation")?;
            let sends = call
                .field("name")
                .is_some_and(|m| entry.sent_by.iter().any(|s| s == self.text(m)));
            // `client.send(req)` on a local, or `HttpClient.newHttpClient().send(req)`.
            let object = call.field("object").filter(|_| sends)?;
            let made = if object.kind_name() == "identifier" {
                self.local_initializer(object)?
            } else {
                object
            };
            Some(self.start_span(chain_root(made)))
        })
    }

    /// A client made in a method whose API contract makes it so (catalog `contract_of`).
    fn keeps_contract(&self, entry: &ClientEntry) -> bool {
        let Some(class) = self.classes.last() else {
            return false;
        };
        entry.contract_of.iter().any(|c| {
            c.rsplit_once('.').is_some_and(|(ty, method)| {
                method == self.frame.method && class.supers.iter().any(|s| s == ty)
            })
        })
    }

    /// `new RestTemplate().getMessageConverters()`: a client made only to read its
    /// defaults, then dropped; it never sends a request.
    fn borrowed_from(&self, start: Node) -> bool {
        let Some(call) = start
            .parent()
            .filter(|p| p.kind_name() == "method_invocation")
        else {
            return false;
        };
        let name = call.field("name").map_or("", |n| self.text(n));
        call.field("object") == Some(start) && name.starts_with("get") && !requests(name)
    }

    /// `return HttpClientBuilder.create().setRequestExecutor(..);` from a method
    /// declared to return a builder: no client is built here; the caller configures
    /// and builds it (a builder never built is not a client).
    fn returns_unbuilt(&self, start: Node) -> bool {
        let top = chain_root_up(start);
        let mut n = top;
        while n.id() != start.id() {
            if n.field("name").is_some_and(|m| self.text(m) == "build") {
                return false;
            }
            match n.field("object") {
                Some(o) => n = o,
                None => break,
            }
        }
        top.parent()
            .filter(|p| p.kind_name() == "return_statement")
            .and_then(enclosing_method)
            .and_then(|m| m.field("type"))
            .is_some_and(|t| self.text(t).ends_with("Builder"))
    }

    /// The client bean an `@Bean` method of a client type makes when it returns the
    /// client, directly or through a local (`return builder.build();`).
    fn returned_bean(&self, start: Node) -> Option<u32> {
        let top = chain_root_up(start);
        let parent = top.parent()?;
        let method = enclosing_method(parent)?;
        let returned = match parent.kind_name() {
            "return_statement" => true,
            "variable_declarator" => {
                let var = self.text(parent.field("name")?);
                let body = method.field("body")?;
                let mut c = body.walk();
                let returns_var = body.named_children(&mut c).any(|st| {
                    st.kind_name() == "return_statement"
                        && st.named_child(0).is_some_and(|v| self.text(v) == var)
                });
                returns_var
            }
            _ => false,
        };
        if !returned {
            return None;
        }
        self.bean_at.get(&method.start_byte()).copied()
    }

    /// An `@Bean` method whose declared type (`fq`) is a client bean type: recorded,
    /// whatever it returns, as a bean a field of that type may receive.
    pub(super) fn client_bean(&mut self, method: Node, name: &str, fq: &str) {
        let Some(mut names) = self.bean_names(method, name) else {
            return;
        };
        names.dedup();
        self.bean_at
            .insert(method.start_byte(), self.facts.client_beans.len() as u32);
        self.facts.client_beans.push(ClientBean {
            ty: fq.into(),
            names: names.into_iter().map(Box::from).collect(),
        });
    }

    /// Fields of client types the class never gives a value of its own (injected, or
    /// assigned from a constructor's parameter), with the requests made on them.
    pub(super) fn client_fields(&mut self, body: Node, fields: Vec<(String, ClientField)>) {
        let (names, fields): (Vec<String>, Vec<ClientField>) = fields.into_iter().unzip();
        // Each field with its requests, and whether the class leaves its value to others.
        let mut found: Vec<(ClientField, bool)> = fields.into_iter().map(|f| (f, true)).collect();
        // Per field: its request calls, and the project method call that gives its value.
        let mut request_calls: Vec<Vec<Node>> = vec![Vec::new(); found.len()];
        let mut sources: Vec<Option<(String, Node)>> = vec![None; found.len()];
        let field_of = |t: &str| -> Option<usize> {
            let t = t.strip_prefix("this.").unwrap_or(t);
            names.iter().position(|n| n == t)
        };
        self.each_below(body, |n| {
            match n.kind_name() {
                "method_invocation" => {
                    let on = n
                        .field("object")
                        .and_then(|o| field_of(self.text(o)).filter(|_| !self.shadowed(o)));
                    let name = n.field("name").map(|m| self.text(m));
                    if let (Some(i), Some(m)) = (on, name) {
                        if requests(m) {
                            found[i].0.requests.push(span(n));
                            request_calls[i].push(n);
                        } else if self.catalog.per_call_needs().any(|n| n == m) {
                            found[i].0.per_call = true;
                        }
                    }
                    // `support.call("op", stub, s -> s.get(q))`: handed to a method.
                    if n.field("object").is_some() {
                        for (j, a) in call_args(n).into_iter().enumerate() {
                            let field = field_of(self.text(a)).filter(|_| !self.shadowed(a));
                            if let (Some(i), Ok(j)) = (field, u8::try_from(j)) {
                                found[i].0.handed.push((self.call_span(n), j));
                            }
                        }
                    }
                }
                // `this.rest = new RestTemplate()`: the class makes its own (judged where
                // it is made); `this.rest = rest` takes the caller's.
                "assignment_expression" => {
                    let on = n.field("left").and_then(|l| field_of(self.text(l)));
                    let own = n
                        .field("right")
                        .is_some_and(|r| r.kind_name() != "identifier");
                    if let (Some(i), true) = (on, own) {
                        found[i].1 = false;
                        sources[i] = n
                            .field("right")
                            .and_then(|r| self.factory_call(r))
                            .map(|k| (k, n));
                    }
                }
                _ => {}
            }
            true
        });
        // `this.client = Factory.create(p)`: the client entries whose per-request
        // bounds the class sets on every request it makes through the field.
        for (i, source) in sources.iter().enumerate() {
            let Some((from, at)) = source else { continue };
            if request_calls[i].is_empty() {
                continue;
            }
            let bounded = self
                .catalog
                .data
                .clients
                .iter()
                .filter(|e| e.configured_per_request())
                .filter(|e| self.bounds_each_request(e, *at, &request_calls[i], false))
                .map(|e| Box::from(e.id.as_str()))
                .collect();
            self.facts.client_sources.push(ClientSource {
                from: from.as_str().into(),
                bounded,
                span: span(*at),
            });
        }
        self.facts.client_fields.extend(
            found
                .into_iter()
                .filter(|(f, injected)| {
                    *injected && !(f.requests.is_empty() && f.handed.is_empty() && !f.per_call)
                })
                .filter(|(f, _)| self.catalog.bean_client_type(&f.ty))
                .map(|(f, _)| f),
        );
    }

    /// A method's parameters it sets a per-call client entry's every `needs` on
    /// (`stub.withDeadlineAfter(..)`), in its body or in a helper of its class it hands
    /// the parameter to (`withDeadline(stub)`): a client a caller hands in there gets
    /// them on that call ([`crate::facts::Keeper`], `timed`).
    pub(super) fn param_deadlines(&mut self, formal: &[Node], body: Node, id: CtxId) {
        if !self.names_per_call_needs {
            return;
        }
        for (i, p) in formal.iter().enumerate() {
            let (Some(name), Ok(param)) = (p.field("name"), u8::try_from(i)) else {
                continue;
            };
            let mut sets = Vec::new();
            self.param_calls(body, self.text(name), 1, &mut sets);
            if self.catalog.sets_per_call_needs(&sets) {
                self.facts.keepers.push(crate::facts::Keeper {
                    ctx: id,
                    param,
                    timed: true,
                    span: span(*p),
                    sender: None,
                });
            }
        }
    }

    /// The names of the methods `body` calls on its parameter `param`, and those the
    /// helpers of this class it hands `param` to call on theirs, `depth` levels down.
    fn param_calls(&self, body: Node, param: &str, depth: u8, out: &mut Vec<&'a str>) {
        self.each_below(body, |n| {
            if n.kind_name() != "method_invocation" {
                return true;
            }
            let Some(name) = n.field("name").map(|m| self.text(m)) else {
                return true;
            };
            match n.field("object") {
                Some(o) if o.kind_name() == "identifier" && self.text(o) == param => {
                    out.push(name);
                }
                Some(o) if self.text(o) != "this" => {}
                _ if depth > 0 => {
                    let given = call_args(n);
                    let Some(index) = given
                        .iter()
                        .position(|a| a.kind_name() == "identifier" && self.text(*a) == param)
                    else {
                        return true;
                    };
                    for m in self.own_methods(name) {
                        let params = super::syntax::formal_params(m);
                        let inner = (params.len() == given.len())
                            .then(|| params[index].field("name"))
                            .flatten();
                        if let (Some(q), Some(b)) = (inner, m.field("body")) {
                            self.param_calls(b, self.text(q), depth - 1, out);
                        }
                    }
                }
                _ => {}
            }
            true
        });
    }

    /// The simple name of the class being walked (`Outer$Inner` -> `Inner`): how a
    /// factory's callers name it (`PartnerClients.pooled(..)`).
    fn class_name(&self) -> Option<&str> {
        self.classes.last()?.fq.rsplit(['.', '$']).next()
    }

    /// `Factory.create(p)` (a static call on a class named by its simple name) or
    /// `create(p)` of this class: the method, as `Class.method`.
    fn factory_call(&self, value: Node) -> Option<String> {
        if value.kind_name() != "method_invocation" {
            return None;
        }
        let name = self.text(value.field("name")?);
        let class = match value.field("object") {
            o if o.is_none_or(|o| o.kind_name() == "this") => self.class_name()?.to_string(),
            Some(o)
                if o.kind_name() == "identifier"
                    && self.text(o).starts_with(char::is_uppercase) =>
            {
                self.text(o).to_string()
            }
            _ => return None,
        };
        // `HttpClients.createDefault()` is a client of its own, judged where it is made.
        let key = format!("{class}.{name}");
        (!self.catalog.may_start_client(&key)).then_some(key)
    }

    /// `CloseableHttpClient c = HttpClients.createDefault(); .. c = secureClient(..);`:
    /// the local's first use after its declaration replaces it, unconditionally (only
    /// blocks and `try` bodies between), so the first client is never used.
    fn overwritten_unused(&self, start: Node) -> bool {
        let top = chain_root_up(start);
        let Some(decl) = top
            .parent()
            .filter(|p| p.kind_name() == "variable_declarator")
        else {
            return false;
        };
        let (Some(name), Some(body)) = (decl.field("name"), enclosing_body(decl)) else {
            return false;
        };
        let var = self.text(name);
        let mut first: Option<Node> = None;
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind_name() == "identifier"
                && self.text(n) == var
                && n.start_byte() > decl.end_byte()
                && first.is_none_or(|f| n.start_byte() < f.start_byte())
            {
                first = Some(n);
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        let Some(first) = first else {
            return false;
        };
        let Some(assign) = first.parent().filter(|p| {
            p.kind_name() == "assignment_expression"
                && p.field("left").is_some_and(|l| l.id() == first.id())
                && p.field("operator").is_some_and(|o| self.text(o) == "=")
                // `c = wrap(c)` keeps the first client.
                && p.field("right").is_some_and(|r| !self.text(r).contains(var))
        }) else {
            return false;
        };
        // Unconditional: only statements, blocks and `try` bodies up to the declaration's block.
        let home = decl.parent().and_then(|d| d.parent());
        let mut n = assign.parent();
        while let Some(p) = n {
            if Some(p.id()) == home.map(|h| h.id()) {
                return true;
            }
            if !matches!(
                p.kind_name(),
                "expression_statement" | "block" | "try_statement"
            ) {
                return false;
            }
            n = p.parent();
        }
        false
    }

    /// Whether the client's class bounds its requests one by one: a `per_request`
    /// call (`httpPost.setConfig(rc)`) whose argument is a configured entry, inline
    /// or through a local or field; or a bare `per_request` setting (`timeout`) made,
    /// on every path, in each method that sends a request on it (in the creating
    /// method when it is no field). The `per_request` call may be anywhere in the
    /// client's class; for a `local` client (one method's), in that method or in an own
    /// method it calls (the helper that builds its requests), not in a sibling method
    /// that bounds its own client.
    fn bounds_each_request(
        &self,
        entry: &ClientEntry,
        start: Node,
        requests: &[Node],
        local: bool,
    ) -> bool {
        if entry.per_request.is_empty() {
            return false;
        }
        let bare: Vec<&str> = entry
            .per_request
            .iter()
            .filter(|p| !p.contains('='))
            .map(String::as_str)
            .collect();
        if !bare.is_empty() {
            let sites = if requests.is_empty() {
                std::slice::from_ref(&start)
            } else {
                requests
            };
            let sets = |site: &Node| {
                enclosing_body(*site).is_some_and(|body| {
                    super::syntax::any_node(body, |n| {
                        n.kind_name() == "method_invocation"
                            && n.field("name")
                                .is_some_and(|m| bare.contains(&self.text(m)))
                            && !conditional(n)
                    })
                })
            };
            if sites.iter().all(sets) {
                return true;
            }
        }
        let Some(class) = enclosing_class_body(start) else {
            return false;
        };
        let mut stack = match enclosing_body(start).filter(|_| local) {
            Some(body) => {
                let mut scope = vec![body];
                super::syntax::any_node(body, |n| {
                    let own = n.kind_name() == "method_invocation"
                        && n.field("object").is_none_or(|o| o.kind_name() == "this");
                    if let Some(m) = n.field("name").filter(|_| own) {
                        scope.extend(self.methods_named(class, self.text(m)));
                    }
                    false
                });
                scope
            }
            None => vec![class],
        };
        while let Some(n) = stack.pop() {
            if n.kind_name() == "method_invocation" {
                let name = n.field("name").map(|m| self.text(m)).unwrap_or_default();
                let arg = call_args(n).first().copied();
                let bounded = entry.per_request.iter().any(|p| {
                    p.split_once('=').is_some_and(|(m, id)| {
                        m == name && arg.is_some_and(|a| self.configures(id, a))
                    })
                });
                if bounded {
                    return true;
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        false
    }

    /// Whether the code runs on a thread dedicated to a loop (its entry says so).
    fn in_dedicated_entry(&self) -> bool {
        let mut ctx = Some(self.current_ctx());
        while let Some(c) = ctx.and_then(|c| self.facts.contexts.get(c)) {
            if let Some(e) = &c.entry {
                return e.heat == crate::facts::Heat::Cold && e.why.contains("dedicated");
            }
            if c.kind == crate::facts::CtxKind::Function {
                return false;
            }
            ctx = c.parent;
        }
        false
    }

    /// Whether a project method the command is handed to may configure it: one of that
    /// name in this file names one of the entry's `needs`, or none is in this file
    /// (unknown). `call` runs it, no configuration.
    fn helper_configures(&self, entry: &ClientEntry, passed: &[Node]) -> bool {
        passed.iter().any(|args| {
            // A project method (not one that sends it): `Utils.append(req)`.
            let Some(name) = self
                .project_helper(*args)
                .and_then(|call| call.field("name"))
                .map(|n| self.text(n))
            else {
                return false;
            };
            !entry.sent_by.iter().any(|s| s == name)
                && self.declared_here_configures(entry, "method_declaration", name)
        })
    }

    /// Whether an unbuilt builder goes to a project constructor or method that may
    /// configure it: one declared in this file whose text names one of the entry's
    /// `needs`, or one declared elsewhere (unknown).
    fn builder_handed_on(&self, entry: &ClientEntry, passed: &[Node]) -> bool {
        passed.iter().filter_map(|args| args.parent()).any(|call| {
            let (kind, name) = match call.kind_name() {
                "object_creation_expression" => {
                    let Some(ty) = call.field("type").and_then(|t| self.jtype(t)) else {
                        return false;
                    };
                    if !self.may_be_project_class(&ty) {
                        return false;
                    }
                    ("constructor_declaration", ty.simple)
                }
                "method_invocation"
                    if self
                        .project_helper(call.field("arguments").unwrap_or(call))
                        .is_some() =>
                {
                    let Some(n) = call.field("name") else {
                        return false;
                    };
                    ("method_declaration", self.text(n).to_string())
                }
                _ => return false,
            };
            self.declared_here_configures(entry, kind, &name)
        })
    }

    /// Whether a `kind` declaration named `name` (a method, a constructor) that a value
    /// is handed to may configure it: one in this file names one of the entry's
    /// `needs` (a setter, with or without its `=id`), or none is in this file (unknown).
    fn declared_here_configures(&self, entry: &ClientEntry, kind: &str, name: &str) -> bool {
        let names_need = |d: Node| {
            let text = self.text(d);
            entry.needs.iter().any(|need| {
                need.split('|')
                    .filter_map(|alt| alt.split('=').next())
                    .any(|m| text.contains(m))
            })
        };
        let mut found = false;
        let configures = super::syntax::any_node(self.root, |d| {
            let declares =
                d.kind_name() == kind && d.field("name").is_some_and(|n| self.text(n) == name);
            found |= declares;
            declares && names_need(d)
        });
        configures || !found
    }

    /// Whether the client is handed to a value whose timeouts bound its requests
    /// (`factory.setHttpClient(client)`, `new HttpComponentsClientHttpRequestFactory(client)`
    /// on a factory given connect and read timeouts; `handed`: the values it is handed
    /// to at their construction, from [`Self::handed_values`]).
    fn handed_to_bound(
        &self,
        entry: &ClientEntry,
        passed: &[Node],
        handed: &[(&ClientEntry, Vec<Observed<Node>>)],
    ) -> bool {
        // Its own setters: the client it is given is no configuration.
        let made_configured = handed.iter().any(|(factory, calls)| {
            missing(factory, calls, &mut |id, arg| self.arg_lacks(id, *arg)).is_none()
        });
        made_configured
            || passed.iter().filter_map(|args| args.parent()).any(|call| {
                call.kind_name() == "method_invocation"
                    && entry.handed_to.iter().any(|h| {
                        h.split_once('=').is_some_and(|(m, id)| {
                            m != "new"
                                && call.field("name").is_some_and(|n| self.text(n) == m)
                                && call.field("object").is_some_and(|o| self.configures(id, o))
                        })
                    })
            })
    }

    /// The values a client is handed to at their construction (`new
    /// HttpComponentsClientHttpRequestFactory(client)`, an entry's `new=id` in
    /// `handed_to`), each with its entry and the calls made on it.
    fn handed_values<'t>(
        &self,
        entry: &ClientEntry,
        passed: &[Node<'t>],
    ) -> Vec<(&'a ClientEntry, Vec<Observed<Node<'t>>>)>
    where
        'a: 't,
    {
        let made = passed
            .iter()
            .filter_map(|args| args.parent())
            .filter(|call| call.kind_name() == "object_creation_expression");
        let ids = || {
            entry
                .handed_to
                .iter()
                .filter_map(|h| h.strip_prefix("new="))
        };
        let catalog = self.catalog;
        made.flat_map(|call| {
            ids().filter_map(move |id| {
                let factory = catalog.client(id)?;
                let start = self.config_start(factory, call)?;
                Some((factory, self.observe(start, &[]).calls))
            })
        })
        .collect()
    }

    /// Whether an argument is a visible `id` entry with everything it needs.
    fn configures(&self, id: &str, arg: Node) -> bool {
        let Some(entry) = self.catalog.client(id) else {
            return false;
        };
        self.configures_entry(entry, arg, 0)
    }

    fn configures_entry(&self, entry: &ClientEntry, arg: Node, depth: u8) -> bool {
        if let Some(start) = self.config_start(entry, arg) {
            return self.config_lacks(entry, start).is_none();
        }
        // `req.setConfig(settings.requestConfig())`: a configuration made by a project
        // method. One of this class (`buildConfig()`) is followed to what it returns;
        // another class's is taken as bounded (what poolguard cannot see lacks
        // nothing), unlike the library's own defaults (`RequestConfig.DEFAULT`).
        let Some(root) = self
            .config_value(arg)
            .map(chain_root)
            .filter(|r| r.kind_name() == "method_invocation")
        else {
            return false;
        };
        match root.field("object") {
            Some(o) if o.kind_name() != "this" => {
                let t = self.text(o);
                return o.kind_name() != "identifier"
                    || !t.ends_with("Config") && !t.ends_with("Builder");
            }
            _ => {}
        }
        let (Some(name), Some(class)) = (root.field("name"), enclosing_class_body(root)) else {
            return false;
        };
        let returned: Vec<Node> = self
            .methods_named(class, self.text(name))
            .iter()
            .filter_map(|m| m.field("body"))
            .flat_map(super::flow::returns_of)
            .filter_map(|r| r.named_child(0))
            .collect();
        depth < 2
            && !returned.is_empty()
            && returned
                .iter()
                .all(|r| self.configures_entry(entry, *r, depth + 1))
    }

    /// The value a configuration argument names: inline, the local or field it names
    /// (`setConfig(requestConfig)`, `setConfig(this.requestConfig)`): its initializer,
    /// or, for a field declared without one, the only value its class assigns it
    /// (`this.requestConfig = RequestConfig.custom()..build()` in the constructor).
    fn config_value<'t>(&self, arg: Node<'t>) -> Option<Node<'t>>
    where
        'a: 't,
    {
        let name = match arg.kind_name() {
            // A local first (it may shadow a field), then the class's fields.
            "identifier" => match self.local_initializer(arg) {
                Some(v) => return Some(v),
                None => arg,
            },
            "field_access" if arg.field("object").is_some_and(|o| o.kind_name() == "this") => {
                arg.field("field")?
            }
            _ => return Some(arg),
        };
        let class = enclosing_class_body(arg)?;
        let var = self.text(name);
        let mut c = class.walk();
        let declarator = class
            .named_children(&mut c)
            .filter(|f| f.kind_name() == "field_declaration")
            .find_map(|f| {
                let mut c = f.walk();
                let found = f.named_children(&mut c).find(|d| {
                    d.kind_name() == "variable_declarator"
                        && d.field("name").is_some_and(|v| self.text(v) == var)
                });
                found
            })?;
        if let Some(value) = declarator.field("value") {
            return Some(value);
        }
        // Every assignment to the field in its class (not in nested classes): exactly one.
        let mut found = None;
        let mut stack = vec![class];
        while let Some(n) = stack.pop() {
            if n.kind_name() == "assignment_expression" {
                let target = n.field("left").and_then(|l| match l.kind_name() {
                    "field_access"
                        if l.field("object").is_some_and(|o| o.kind_name() == "this") =>
                    {
                        l.field("field")
                    }
                    "identifier" => Some(l),
                    _ => None,
                });
                if target.is_some_and(|t| self.text(t) == var) {
                    if found.is_some() {
                        return None;
                    }
                    found = n.field("right");
                }
            }
            if n.id() != class.id() && n.kind_name() == "class_body" {
                continue;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        found
    }

    /// Where an argument (inline, or the local or field it names) starts an `entry` value.
    fn config_start<'t>(&self, entry: &ClientEntry, arg: Node<'t>) -> Option<Node<'t>>
    where
        'a: 't,
    {
        let expr = self.config_value(arg)?;
        let mut start = chain_root(expr);
        // `rcb.build()` on a local builder (`RequestConfig.Builder rcb =
        // RequestConfig.custom(); rcb.setConnectTimeout(..);`): the builder's start.
        let builder = (start.kind_name() == "method_invocation")
            .then(|| start.field("object"))
            .flatten()
            .filter(|o| o.kind_name() == "identifier");
        if let Some(init) = builder.and_then(|b| self.local_initializer(b)) {
            start = chain_root(init);
        }
        let is_start = self.start_keys(start).iter().any(|(kind, name)| {
            self.catalog
                .clients_starting(kind, name)
                .iter()
                .any(|e| e.id == entry.id)
        });
        is_start.then_some(start)
    }

    /// Whether a created value is cast to `fq`, or stored in a variable declared as `fq`.
    fn becomes(&self, start: Node, types: &str) -> bool {
        let is = |t: Option<&str>| t.is_some_and(|t| types.split('|').any(|x| x == t));
        let mut cur = start;
        while let Some(p) = cur.parent() {
            match p.kind_name() {
                "parenthesized_expression" => cur = p,
                "cast_expression" => {
                    let cast = p.field("type").and_then(|t| self.jtype(t));
                    return is(cast.and_then(|t| t.fq).as_deref());
                }
                "variable_declarator" => {
                    let declared = p
                        .parent()
                        .and_then(|d| d.field("type"))
                        .and_then(|t| self.jtype(t));
                    return is(declared.and_then(|t| t.fq).as_deref());
                }
                _ => return false,
            }
        }
        false
    }

    /// `HttpURLConnection open() { return (HttpURLConnection) url.openConnection(); }`,
    /// a helper tests override: its callers in the class configure what it returns
    /// (`conn = open(); conn.setConnectTimeout(..); ..`, or through a helper of the
    /// class, `configure(conn)`). True when the class calls it and every such call's
    /// variable meets the entry's needs; a call whose value its method returns
    /// unconfigured (`return https ? secure(url) : plain(url);` in `open`) is judged by
    /// that method's callers, two methods up at most.
    fn configured_by_callers(&self, entry: &ClientEntry, start: Node) -> bool {
        self.returned_configured(entry, start, start, 0)
    }

    /// `configured_by_callers` for `value`, returned by its method, `depth` methods up.
    fn returned_configured(
        &self,
        entry: &ClientEntry,
        start: Node,
        value: Node,
        depth: u8,
    ) -> bool {
        let Some((_, calls)) = self.returned_to(value) else {
            return false;
        };
        !calls.is_empty()
            && calls.into_iter().all(|n| {
                // `c = https ? secure(url) : plain(url)`: the variable the branch goes to.
                let at = super::syntax::outermost(
                    n,
                    &["parenthesized_expression", "ternary_expression"],
                );
                self.lacks(entry, start, &self.observe(at, &[]).calls)
                    .is_none()
                    || depth < 2 && self.returned_configured(entry, start, at, depth + 1)
            })
    }

    /// A connection a private method of the class returns to the class's own callers
    /// (`private static HttpURLConnection open(String url)`): its requests run there,
    /// at that method's heat (every caller's when all are cold).
    fn returned_to_own_callers(&self, start: Node) -> bool {
        self.returned_to(start).is_some_and(|(method, calls)| {
            !calls.is_empty() && self.modifiers(method).contains(&"private")
        })
    }

    /// The method that returns `value`, and its class's own calls of it.
    fn returned_to<'t>(&self, value: Node<'t>) -> Option<(Node<'t>, Vec<Node<'t>>)>
    where
        'a: 't,
    {
        let method = self.returned_from(value)?;
        let name = self.text(method.field("name")?);
        let class = enclosing_class_body(method)?;
        Some((method, self.own_calls(class, name)))
    }

    /// The method that returns `value`: `return value;`, or a local set to it that
    /// the method returns (`HttpsURLConnection c = (..) url.openConnection(); ..
    /// return c;`).
    fn returned_from<'t>(&self, value: Node<'t>) -> Option<Node<'t>> {
        let mut ignored = Vec::new();
        let top = self.chain_up(value, &mut ignored);
        let parent = top.parent()?;
        let returned = match parent.kind_name() {
            "return_statement" => true,
            "variable_declarator" => parent.field("name").is_some_and(|v| {
                let var = self.text(v);
                enclosing_body(parent).is_some_and(|body| {
                    super::syntax::own_nodes(body, "return_statement")
                        .iter()
                        .any(|r| r.named_child(0).is_some_and(|e| self.text(e) == var))
                })
            }),
            _ => false,
        };
        returned.then(|| enclosing_method(parent)).flatten()
    }

    /// What a client lacks (`None` when bounded): its own needs, or those of the
    /// configuration object its constructor was given.
    fn lacks(&self, entry: &ClientEntry, start: Node, calls: &[Observed<Node>]) -> Option<String> {
        if let (Some(id), Some(first), false) =
            (&entry.config_arg, call_args(start).first(), entry.fixed)
        {
            return match id.as_str() {
                "any" => None,
                _ => self.arg_lacks(id, *first),
            };
        }
        missing(entry, calls, &mut |id, arg| self.arg_lacks(id, *arg))
    }

    /// What an argument that must be a configured `id` (a factory, a `RequestConfig`)
    /// lacks: inline, or through a local; what poolguard cannot see lacks nothing.
    fn arg_lacks(&self, id: &str, arg: Node) -> Option<String> {
        let entry = self.catalog.client(id)?;
        let lacks = match self.config_start(entry, arg) {
            Some(start) => self.config_lacks(entry, start),
            None => self.param_config_lacks(entry, arg),
        };
        lacks.map(|what| {
            format!(
                "{what} on its {}",
                entry
                    .name
                    .trim_start_matches("an ")
                    .trim_start_matches("a ")
            )
        })
    }

    /// What a configuration parameter lacks (`ldapContext(Hashtable env, ..)` that puts
    /// the provider URL into `env` and connects): what the fresh object each call of
    /// the method in this class passes lacks, with what the method sets on it (its
    /// calls on the parameter). A caller that passes anything else, or no caller in
    /// the class, lacks nothing poolguard can see.
    fn param_config_lacks(&self, entry: &ClientEntry, arg: Node) -> Option<String> {
        if arg.kind_name() != "identifier" {
            return None;
        }
        let method = enclosing_method(arg)?;
        let name = self.text(arg);
        let params = super::syntax::formal_params(method);
        let index = params
            .iter()
            .position(|p| p.field("name").is_some_and(|n| self.text(n) == name))?;
        let method_name = self.text(method.field("name")?);
        let class = enclosing_class_body(method)?;
        let mut lacks = None;
        let mut callers = 0;
        for call in self.own_calls(class, method_name) {
            let given = call_args(call);
            if given.len() == params.len() {
                callers += 1;
                // The caller's fresh object: its set-up includes the method's calls
                // on the parameter (`observe` follows a helper of this class).
                let start = self.config_start(entry, *given.get(index)?)?;
                lacks = lacks.or(self.config_lacks(entry, start));
            }
        }
        (callers > 0).then_some(lacks).flatten()
    }

    /// What a configuration object lacks. One handed to a project method that may
    /// set its timeouts (`ParseUtil.parseConfigOptions(options, builder)` in another
    /// file, or one here that names a need) lacks nothing poolguard can see.
    fn config_lacks(&self, entry: &ClientEntry, start: Node) -> Option<String> {
        let used = self.observe(start, &[]);
        let helpers: Vec<Node> = (used.passed.iter())
            .filter(|args| self.project_helper(**args).is_some())
            .copied()
            .collect();
        if self.helper_configures(entry, &helpers) {
            return None;
        }
        // (Nothing set may configure no network client at all: JavaMail properties
        // naming no server make a session for messages in memory.)
        self.lacks(entry, start, &used.calls)
            .filter(|lacks| !idle(entry, lacks, &used.calls))
    }

    /// Calls made in the initializer chain of the local an identifier names (and of
    /// the local at its root, a few levels deep).
    fn initializer_calls<'t>(
        &self,
        ident: Node<'t>,
        calls: &mut Vec<Observed<Node<'t>>>,
        depth: usize,
    ) where
        'a: 't,
    {
        let Some(mut v) = self.local_initializer(ident).filter(|_| depth < 3) else {
            return;
        };
        while v.kind_name() == "method_invocation" {
            calls.push(self.observed(v));
            match v.field("object") {
                Some(o) if o.kind_name() == "identifier" => {
                    return self.initializer_calls(o, calls, depth + 1)
                }
                Some(o) => v = o,
                None => return,
            }
        }
    }

    /// A call on a variable of a client type that this code made itself
    /// (`builder = new RestTemplateBuilder()`, then `builder = builder.defaultHeader(..)`):
    /// the creation is the client's start and sees these calls; only a variable that
    /// came from elsewhere (an injected builder) starts a client at its calls.
    fn made_here(&self, call: Node) -> bool {
        let Some(obj) = call.field("object") else {
            return false;
        };
        let ident = match obj.kind_name() {
            "identifier" => obj,
            "field_access" if obj.field("object").is_some_and(|o| o.kind_name() == "this") => {
                match obj.field("field") {
                    Some(f) => f,
                    None => return false,
                }
            }
            _ => return false,
        };
        let Some(init) = self.local_initializer(ident) else {
            return false;
        };
        init.kind_name() == "object_creation_expression"
            && init
                .field("type")
                .and_then(|t| self.jtype(t))
                .and_then(|t| t.fq().map(str::to_string))
                .is_some_and(|fq| !self.catalog.clients_starting("new", &fq).is_empty())
    }

    /// A bare identifier that names a local or parameter, not the field of that name.
    fn shadowed(&self, o: Node) -> bool {
        o.kind_name() == "identifier" && super::syntax::names_local(o, self.text(o), self.src)
    }

    /// The first declarator of a local named `name` in `body` (one with an initializer
    /// only, when `with_value`).
    pub(super) fn local_declarator<'t>(
        &self,
        body: Node<'t>,
        name: &str,
        with_value: bool,
    ) -> Option<Node<'t>>
    where
        'a: 't,
    {
        let mut found = None;
        self.each_below(body, |n| {
            if found.is_none()
                && n.kind_name() == "variable_declarator"
                && n.field("name").is_some_and(|v| self.text(v) == name)
                && (!with_value || n.field("value").is_some())
            {
                found = Some(n);
            }
            found.is_none()
        });
        found
    }

    /// The initializer of the local (or field) an identifier names.
    pub(super) fn local_initializer<'t>(&self, ident: Node<'t>) -> Option<Node<'t>>
    where
        'a: 't,
    {
        let name = self.text(ident);
        // The method's locals first, then the class's fields.
        let local = enclosing_body(ident).and_then(|b| self.local_declarator(b, name, true));
        if let Some(d) = local {
            return d.field("value");
        }
        let class = enclosing_class_body(ident)?;
        let field = super::syntax::named_children(class)
            .into_iter()
            .filter(|f| f.kind_name() == "field_declaration")
            .flat_map(super::syntax::named_children)
            .find(|d| {
                d.kind_name() == "variable_declarator"
                    && d.field("name").is_some_and(|v| self.text(v) == name)
            })?;
        if let Some(value) = field.field("value") {
            return Some(value);
        }
        // A field the class assigns once (`this.rcb = RequestConfig.custom()` in its
        // constructor): that value.
        self.assigned_once(class, name)
    }

    /// The catalog client type a class of this file named `simple` extends, when its
    /// body names no timeout and calls none of that client's needs (`NoRedirectFactory extends
    /// SimpleClientHttpRequestFactory`, overriding only `prepareConnection`): a new one
    /// is that client, as unconfigured as the catalog's own.
    fn plain_client_subclass(&self, simple: &str) -> Option<String> {
        let mut found = None;
        self.each_below(self.root, |n| {
            if found.is_some() {
                return false;
            }
            if n.kind_name() == "class_declaration"
                && n.field("name").is_some_and(|m| self.text(m) == simple)
            {
                found = Some(n);
                return false;
            }
            true
        });
        let class = found?;
        let sup = class
            .field("superclass")
            .and_then(|s| s.named_child(0))
            .and_then(|t| self.jtype(t))
            .and_then(|t| t.fq)?;
        let body = self.text(class);
        let entries = self.catalog.clients_starting("new", &sup);
        // (`setRequestFactory(..)` in a `RestTemplate` subclass's constructor: set up there.)
        let sets_need = entries.iter().flat_map(|e| &e.needs).any(|need| {
            need.split('|')
                .map(|n| n.split(['=', '(']).next().unwrap_or(n))
                .any(|n| !n.is_empty() && body.contains(n))
        });
        let timed = sets_need || body.to_ascii_lowercase().contains("timeout");
        (!timed && !entries.is_empty()).then_some(sup)
    }

    /// Whether `start`'s receiver is made by one of `entry.remote_from` from a value,
    /// not a literal (`new URL(url)`, not `new URL("file:..")`); through `.toURL()`, and
    /// through a variable assigned once.
    fn remote_receiver(&self, entry: &ClientEntry, start: Node) -> bool {
        if entry.remote_from.is_empty() {
            return false;
        }
        let mut value = start.field("object");
        for _ in 0..4 {
            let Some(v) = value.map(super::syntax::unparen) else {
                return false;
            };
            match v.kind_name() {
                "identifier" => {
                    value = self.local_initializer(v).or_else(|| {
                        let class = super::queues::enclosing_class_body(v)?;
                        self.assigned_once(class, self.text(v))
                    });
                }
                "method_invocation" if v.field("name").is_some_and(|n| self.text(n) == "toURL") => {
                    value = v.field("object");
                }
                _ => {
                    let made = self
                        .start_keys(v)
                        .into_iter()
                        .any(|(kind, name)| entry.remote_from.contains(&format!("{kind}:{name}")));
                    let first = v
                        .field("arguments")
                        .and_then(|a| super::syntax::argument(a, 0));
                    return made && first.is_some_and(|a| a.kind_name() != "string_literal");
                }
            }
        }
        false
    }

    /// The `kind:name` keys a start node could match (`new:..`, `call:..`).
    fn start_keys(&self, node: Node) -> Vec<(&'static str, String)> {
        match node.kind_name() {
            "object_creation_expression" => {
                let Some(t) = node.field("type").and_then(|t| self.jtype(t)) else {
                    return Vec::new();
                };
                let own = self.names.declares_type(&t.simple);
                let mut keys: Vec<_> = t.fq.into_iter().map(|fq| ("new", fq)).collect();
                if let Some(sup) = own.then(|| self.plain_client_subclass(&t.simple)).flatten() {
                    keys.push(("new", sup));
                }
                keys
            }
            "method_invocation" => {
                let (Some(obj), Some(name)) = (node.field("object"), node.field("name")) else {
                    return Vec::new();
                };
                self.static_class(obj)
                    .map(|c| vec![("call", format!("{c}.{}", self.text(name)))])
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    /// The calls made on a created object: along its chain, and on the variable
    /// (local or field) it is stored in; and whether it is handed to `sent_by`.
    fn observe<'t>(&self, start: Node<'t>, sent_by: &[String]) -> Use<'t>
    where
        'a: 't,
    {
        self.observe_at(start, sent_by, 0)
    }

    /// A call of a project method (unqualified, on `this`, or a static call on a
    /// class the catalog does not know) whose argument list is `args`.
    fn project_helper<'t>(&self, args: Node<'t>) -> Option<Node<'t>> {
        let call = args
            .parent()
            .filter(|c| c.kind_name() == "method_invocation")?;
        let own = match call.field("object") {
            None => true,
            Some(o) if self.text(o) == "this" => true,
            Some(o) => self
                .static_class(o)
                .is_some_and(|c| !self.catalog.knows(&c)),
        };
        own.then_some(call)
    }

    /// Calls a helper of this class makes on the parameter that receives `arg` in
    /// `call` (`stub.withDeadlineAfter(..)` in `withParams(T stub, Config c)`).
    fn helper_param_calls<'t>(
        &self,
        call: Node<'t>,
        arg: Node<'t>,
        calls: &mut Vec<Observed<Node<'t>>>,
    ) where
        'a: 't,
    {
        let Some(name) = call.field("name") else {
            return;
        };
        let given = call_args(call);
        let Some(index) = given.iter().position(|a| a.id() == arg.id()) else {
            return;
        };
        for m in self.own_methods(self.text(name)) {
            let params = super::syntax::formal_params(m);
            let param = (params.len() == given.len())
                .then(|| params.get(index).and_then(|p| p.field("name")))
                .flatten();
            let (Some(param), Some(body)) = (param, m.field("body")) else {
                continue;
            };
            let param = self.text(param);
            let mut inner = vec![body];
            while let Some(n) = inner.pop() {
                let on_param = n.kind_name() == "method_invocation"
                    && n.field("object").is_some_and(|o| self.text(o) == param);
                if on_param {
                    self.chain_up_from(n, calls);
                }
                let mut c = n.walk();
                inner.extend(n.named_children(&mut c));
            }
        }
    }

    /// `observe`, following a helper's result `depth` helpers deep (at most 2).
    fn observe_at<'t>(&self, start: Node<'t>, sent_by: &[String], depth: u8) -> Use<'t>
    where
        'a: 't,
    {
        let mut used = Use {
            calls: Vec::new(),
            sent: false,
            request_calls: Vec::new(),
            passed: Vec::new(),
            handed: Vec::new(),
            confined: false,
            sent_in_chain: false,
        };
        let top = self.chain_up(start, &mut used.calls);
        used.sent_in_chain = used.calls.iter().any(|c| sent_by.contains(&c.method));
        // `s.connect(addr);` on a local socket (a call made for its effect on the
        // receiver, its result unused): confined when the local never leaves the
        // method (`Socket s = null; try { s = new Socket(); s.connect(..) } ..`).
        let statement = top
            .parent()
            .is_some_and(|p| p.kind_name() == "expression_statement");
        if let Some(obj) = (start.kind_name() == "method_invocation" && statement)
            .then(|| start.field("object"))
            .flatten()
            .filter(|o| o.kind_name() == "identifier")
        {
            let var = self.text(obj);
            used.confined = self.field(var).is_none()
                && enclosing_body(start).is_some_and(|scope| self.confined_local(var, scope));
        }
        let Some(parent) = top.parent() else {
            return used;
        };
        let var = match parent.kind_name() {
            "variable_declarator" | "resource" => {
                parent.field("name").map(|n| self.text(n).to_string())
            }
            "assignment_expression" => parent
                .field("left")
                .map(|l| self.text(l).trim_start_matches("this.").to_string()),
            "argument_list" => {
                used.sent |= self.sends(parent, sent_by);
                used.passed.push(parent);
                // `stub = withParams(XGrpc.newBlockingStub(ch), cfg)`: a project helper
                // that sets up its parameter (in this class) and hands it back.
                if let Some(call) = self.project_helper(parent) {
                    self.helper_param_calls(call, top, &mut used.calls);
                    if depth < 2 {
                        let more = self.observe_at(call, sent_by, depth + 1);
                        used.calls.extend(more.calls);
                        used.request_calls.extend(more.request_calls);
                        used.sent |= more.sent;
                    }
                }
                None
            }
            _ => None,
        };
        let Some(var) = var else {
            return used;
        };
        // A declared local (or resource) is no field, whatever its name; an assigned
        // name is the field unless a local of that name shadows it.
        let is_field = match parent.kind_name() {
            "variable_declarator" => parent
                .parent()
                .is_some_and(|d| d.kind_name() == "field_declaration"),
            "resource" => false,
            _ => {
                self.field(&var).is_some()
                    && !parent.field("left").is_some_and(|l| self.shadowed(l))
            }
        };
        let scope = if is_field {
            enclosing_class_body(parent)
        } else {
            enclosing_body(parent)
        };
        let Some(scope) = scope else {
            return used;
        };
        used.confined = !is_field && parent.kind_name() == "variable_declarator";
        // A local of the same type set from a call on it (`HttpRequest req =
        // post.body(..)`: a fluent setter returns the same request) is the same value.
        let declared = (!is_field && parent.kind_name() == "variable_declarator")
            .then(|| parent.parent().and_then(|d| d.field("type")))
            .flatten()
            .map(|t| self.text(t))
            .filter(|t| *t != "var");
        // The client's local and at most two such aliases.
        let mut names = vec![var];
        let mut next = 0;
        while let Some(var) = names.get(next).cloned() {
            next += 1;
            let found = self.observe_name(&var, scope, is_field, sent_by, &mut used, declared);
            for alias in found {
                if names.len() < 3 && !names.contains(&alias) {
                    names.push(alias);
                }
            }
        }
        used
    }

    /// Records the uses of `var` in `scope` for `observe_at`; returns the locals of
    /// the `declared` type that a call on it sets (its aliases).
    fn observe_name<'t>(
        &self,
        var: &str,
        scope: Node<'t>,
        is_field: bool,
        sent_by: &[String],
        used: &mut Use<'t>,
        declared: Option<&str>,
    ) -> Vec<String>
    where
        'a: 't,
    {
        let mut aliases = Vec::new();
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if used.confined
                && n.kind_name() == "identifier"
                && self.text(n) == var
                && !self.confined_use(n, scope)
            {
                used.confined = false;
            }
            let on_var = |o: Node| {
                let t = self.text(o);
                t == var && !(is_field && self.shadowed(o)) || t.strip_prefix("this.") == Some(var)
            };
            match n.kind_name() {
                "method_invocation" if n.field("object").is_some_and(on_var) => {
                    if is_field && n.field("name").is_some_and(|m| requests(self.text(m))) {
                        used.request_calls.push(n);
                    }
                    let mut calls = Vec::new();
                    let top = self.chain_up_from(n, &mut calls);
                    // `HttpConnectionManagerParams p = client.getHttpConnectionManager()
                    // .getParams()`: a view of its settings, which a local holds and sets.
                    let getters = calls
                        .iter()
                        .all(|c| c.method.starts_with("get") && c.first_arg.is_none());
                    used.calls.extend(calls);
                    if let Some(args) = top.parent().filter(|p| p.kind_name() == "argument_list") {
                        used.sent |= self.sends(args, sent_by);
                        // `withHttpClient(builder.build())`: the client it makes is handed on.
                        if top.field("name").is_some_and(|m| self.text(m) == "build") {
                            used.passed.push(args);
                        }
                    }
                    let decl = top
                        .parent()
                        .filter(|p| p.kind_name() == "variable_declarator");
                    let local_type = decl
                        .and_then(|d| d.parent())
                        .and_then(|d| d.field("type"))
                        .map(|t| self.text(t));
                    let same_type = local_type.is_some_and(|t| declared == Some(t));
                    let view = getters && local_type.is_some_and(settings_type);
                    if let Some(name) = decl
                        .and_then(|d| d.field("name"))
                        .filter(|_| same_type || view)
                    {
                        aliases.push(self.text(name).to_string());
                    }
                }
                // `opt.ifPresent(builder::connectTimeout)`: a setter called through a
                // method reference (its argument unseen, as a set value's often is).
                "method_reference" if n.named_child(0).is_some_and(on_var) => {
                    if let Some(m) = n.named_child(n.named_child_count().saturating_sub(1) as u32) {
                        used.calls.push(Observed {
                            method: self.text(m).to_string(),
                            first_arg: None,
                            first_arg_text: String::new(),
                        });
                    }
                }
                "identifier" if self.text(n) == var => {
                    if let Some(args) = n.parent().filter(|p| p.kind_name() == "argument_list") {
                        used.sent |= self.sends(args, sent_by);
                        used.passed.push(args);
                        // `configure(conn)`: a helper of this class that sets it up.
                        if let Some(call) = self.project_helper(args) {
                            self.helper_param_calls(call, n, &mut used.calls);
                        }
                        // (Not a constructor's: an object that keeps it for later.)
                        let call = args
                            .parent()
                            .filter(|c| c.kind_name() == "method_invocation");
                        used.handed.extend(call.filter(|_| is_field));
                    }
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        aliases
    }

    /// Whether `call` forwards its method's own call in a subclass of the receiver's
    /// type: `delegate.connect(endpoint)` in `connect(SocketAddress endpoint)` of a
    /// `Socket` subclass, every argument a parameter. The override's callers choose
    /// the bound.
    fn forwards(&self, call: Node) -> bool {
        if call.kind_name() != "method_invocation" {
            return false;
        }
        let receiver = call
            .field("object")
            .and_then(|o| self.value_of(o).ty)
            .and_then(|t| t.fq);
        let superclass = enclosing_class_body(call)
            .and_then(|b| b.parent())
            .and_then(|c| c.field("superclass"))
            .and_then(|s| s.named_child(0))
            .and_then(|t| self.jtype(t))
            .and_then(|t| t.fq);
        if receiver.is_none() || receiver != superclass {
            return false;
        }
        let Some(body) = enclosing_body(call) else {
            return false;
        };
        let Some(method) = body
            .parent()
            .filter(|m| m.kind_name() == "method_declaration")
        else {
            return false;
        };
        let named = |n: Node, field: &str| n.field(field).map(|x| self.text(x));
        if named(method, "name") != named(call, "name") {
            return false;
        }
        let params: Vec<&str> = method
            .field("parameters")
            .map(|ps| {
                let mut c = ps.walk();
                ps.named_children(&mut c)
                    .filter_map(|p| named(p, "name"))
                    .collect()
            })
            .unwrap_or_default();
        let given = call_args(call);
        !given.is_empty()
            && given
                .iter()
                .all(|a| a.kind_name() == "identifier" && params.contains(&self.text(*a)))
    }

    /// Whether every mention of local `var` in `scope` is a confined use.
    fn confined_local(&self, var: &str, scope: Node) -> bool {
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if n.kind_name() == "identifier" && self.text(n) == var && !self.confined_use(n, scope)
            {
                return false;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        true
    }

    /// Whether this mention of a local client only receives a call (`conn.connect()`),
    /// declares it, is assigned (`s = new Socket()`) or is checked against `null`,
    /// outside any lambda or class body nested in its method.
    fn confined_use(&self, ident: Node, scope: Node) -> bool {
        let Some(p) = ident.parent() else {
            return false;
        };
        let receives = p.kind_name() == "method_invocation" && p.field("object") == Some(ident);
        let declares = p.kind_name() == "variable_declarator" && p.field("name") == Some(ident);
        let assigned = p.kind_name() == "assignment_expression" && p.field("left") == Some(ident);
        let null_check = p.kind_name() == "binary_expression"
            && [p.field("left"), p.field("right")]
                .into_iter()
                .flatten()
                .any(|o| o.kind_name() == "null_literal");
        if !receives && !declares && !assigned && !null_check {
            return false;
        }
        // `this.client = builder.build()`: what it builds leaves with the result.
        let builds = receives && p.field("name").is_some_and(|m| self.text(m) == "build");
        if builds
            && p.parent()
                .is_some_and(|s| s.kind_name() != "expression_statement")
        {
            return false;
        }
        let mut cur = p.parent();
        while let Some(n) = cur.filter(|n| n.id() != scope.id()) {
            if matches!(n.kind_name(), "lambda_expression" | "class_body") {
                return false;
            }
            cur = n.parent();
        }
        true
    }

    /// Whether an argument list belongs to a call of one of `methods`.
    /// Whether `args` are those of a call to one of `methods`, on a receiver not known
    /// to be a project wrapper (`faultTolerantClient.send(request, ..)`, which may set
    /// the request's bound itself, is not the library's `send`).
    fn sends(&self, args: Node, methods: &[String]) -> bool {
        let Some(call) = args.parent() else {
            return false;
        };
        let named = call
            .field("name")
            .is_some_and(|n| methods.iter().any(|m| m == self.text(n)));
        let wrapper = |t: &super::types::JType| {
            t.simple != "HttpClient"
                && t.fq()
                    .is_none_or(|fq| !fq.starts_with("java.") && !self.catalog.knows(fq))
        };
        named
            && call.field("object").is_none_or(|o| {
                let ty = self.value_of(o).ty;
                let sender = ty
                    .as_ref()
                    .and_then(|t| t.fq())
                    .is_some_and(|fq| self.catalog.in_group("request_senders", fq));
                !ty.as_ref().is_some_and(wrapper) && (!sender || self.shared_client_sender(o))
            })
    }

    /// Whether a library sender (a fluent `Executor`) sends with the library's shared
    /// client: made here by `Executor.newInstance()` with no client, directly or in
    /// the local or field it is read from. One made over a client
    /// (`Executor.newInstance(client)`) or handed in sends with that client's
    /// bounds, so a request's own missing ones are that client's, reported where
    /// the client is made (or unknown).
    fn shared_client_sender(&self, sender: Node) -> bool {
        let made = match sender.kind_name() {
            "identifier" => self.local_initializer(sender),
            _ => Some(sender),
        };
        made.map(chain_root).is_some_and(|root| {
            root.kind_name() == "method_invocation"
                && root
                    .field("name")
                    .is_some_and(|n| self.text(n) == "newInstance")
                && root
                    .field("arguments")
                    .is_some_and(|a| a.named_child_count() == 0)
        })
    }

    /// Walk up from a start through `x.m(..)` calls made on it; returns the chain's top.
    fn chain_up<'t>(&self, start: Node<'t>, calls: &mut Vec<Observed<Node<'t>>>) -> Node<'t> {
        let mut cur = start;
        while let Some(p) = cur.parent() {
            match p.kind_name() {
                "method_invocation" if p.field("object") == Some(cur) => {
                    calls.push(self.observed(p));
                    cur = p;
                }
                "parenthesized_expression" | "cast_expression" => cur = p,
                _ => break,
            }
        }
        cur
    }

    /// Whether `start` is kept in a local of its method (declared with it, or assigned
    /// to one) that only receives calls, is assigned or is checked against `null`.
    fn unused_local(&self, start: Node) -> bool {
        let top = self.chain_up(start, &mut Vec::new());
        let Some(parent) = top.parent() else {
            return false;
        };
        let var = match parent.kind_name() {
            "variable_declarator" => parent.field("name"),
            "assignment_expression" => parent
                .field("left")
                .filter(|l| l.kind_name() == "identifier"),
            _ => None,
        };
        let Some(var) = var.map(|v| self.text(v)) else {
            return false;
        };
        self.field(var).is_none()
            && enclosing_body(parent).is_some_and(|body| self.confined_local(var, body))
    }

    /// Like `chain_up`, starting with the call `first` itself.
    fn chain_up_from<'t>(&self, first: Node<'t>, calls: &mut Vec<Observed<Node<'t>>>) -> Node<'t> {
        calls.push(self.observed(first));
        self.chain_up(first, calls)
    }

    fn observed<'t>(&self, call: Node<'t>) -> Observed<Node<'t>> {
        let first = call_args(call).first().copied();
        Observed {
            method: call
                .field("name")
                .map(|n| self.text(n).to_string())
                .unwrap_or_default(),
            first_arg: first,
            first_arg_text: first.map(|f| self.text(f).to_string()).unwrap_or_default(),
        }
    }

    /// Where a client finding points: the creating call, on one line.
    fn start_span(&self, start: Node) -> Span {
        let s = match start.kind_name() {
            "method_invocation" => self.call_span(start),
            _ => span(start),
        };
        let line_end = self.src[s.start..s.end]
            .bytes()
            .position(|b| b == b'\n')
            .map_or(s.end, |i| s.start + i);
        Span::new(s.start, line_end)
    }
}

/// Whether a type holds settings (`HttpConnectionManagerParams`, `ClientConfig`).
fn settings_type(ty: &str) -> bool {
    [
        "Params",
        "Parameters",
        "Config",
        "Configuration",
        "Settings",
        "Options",
    ]
    .iter()
    .any(|s| ty.ends_with(s))
}

/// Whether a call on a client may send a request: not its set-up (`setRequestFactory`,
/// `addInterceptor`, `getInterceptors`) or tear-down (`close`).
fn requests(method: &str) -> bool {
    let setup = ["set", "add", "with", "register"].iter().any(|p| {
        method
            .strip_prefix(p)
            .is_some_and(|r| r.starts_with(char::is_uppercase))
    });
    !setup
        && !matches!(
            method,
            "close" | "shutdown" | "getInterceptors" | "getMessageConverters" | "getRequestFactory"
        )
}

/// Whether `n` runs only on some paths of its method: inside an `if`, a `switch` or
/// a conditional expression.
fn conditional(n: Node) -> bool {
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind_name() {
            "if_statement" | "ternary_expression" | "switch_expression" | "switch_block" => {
                return true
            }
            "method_declaration" | "constructor_declaration" | "lambda_expression" => return false,
            _ => cur = p.parent(),
        }
    }
    false
}

/// The outermost call of the method chain `start` begins (`HttpClients.custom()` ->
/// `HttpClients.custom().setX(..).build()`), or `start` itself.
fn chain_root_up(start: Node) -> Node {
    let mut top = start;
    while let Some(p) = top.parent().filter(|p| {
        p.kind_name() == "method_invocation"
            && p.field("object").is_some_and(|o| o.id() == top.id())
    }) {
        top = p;
    }
    top
}

/// The innermost receiver of a call chain: `A.custom().x().build()` -> `A.custom()`.
fn chain_root(mut n: Node) -> Node {
    while n.kind_name() == "method_invocation" {
        match n.field("object") {
            Some(o)
                if matches!(
                    o.kind_name(),
                    "method_invocation" | "object_creation_expression"
                ) =>
            {
                n = o
            }
            _ => break,
        }
    }
    n
}

/// A client held by a try-with-resources resource (`try (Socket s = new Socket(h, p))`):
/// closed when the block ends, so its requests run where it is created.
fn in_resource(start: Node) -> bool {
    let mut n = start;
    while let Some(p) = n.parent() {
        match p.kind_name() {
            "resource" => return true,
            "method_invocation" if p.field("object") == Some(n) => n = p,
            "parenthesized_expression" | "cast_expression" => n = p,
            _ => return false,
        }
    }
    false
}

/// A `when_partly_set` value with none of its needs met and none of its `remote_by`
/// calls: nothing shows it talks to a network (a `URLConnection` to a `file:` URL,
/// JavaMail properties naming no server).
fn idle(entry: &ClientEntry, lacks: &str, calls: &[Observed<Node>]) -> bool {
    entry.when_partly_set
        && lacks == entry.missing
        && !calls.iter().any(|c| entry.remote_by.contains(&c.method))
}
