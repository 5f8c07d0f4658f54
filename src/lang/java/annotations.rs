//! Annotations: `@SuppressWarnings("poolguard:..")`, Spring's `@Bean`, `@Async`,
//! `@Qualifier` and `@Resource(name = ..)`.

use super::tree::Node;

use super::extract::Extractor;
use super::syntax::{span, string_value, text, NodeExt};
use crate::facts::{Suppression, SuppressionScope};

/// One annotation as written: its resolved name and its string values.
pub struct Annotation<'t> {
    pub node: Node<'t>,
    /// Fully-qualified when resolvable, else as written.
    pub name: String,
    /// String literals of the value (`"a"`, `{"a", "b"}`, `name = "a"`, `value = ..`).
    pub strings: Vec<String>,
}

impl<'a> Extractor<'a> {
    /// The annotations on a declaration (its `modifiers`), or on a parameter.
    pub(super) fn annotations<'t>(&self, decl: Node<'t>) -> Vec<Annotation<'t>> {
        let mut out = Vec::new();
        if let Some(mods) = modifiers_node(decl) {
            let mut c2 = mods.walk();
            for ann in mods.children(&mut c2) {
                if !matches!(ann.kind_name(), "annotation" | "marker_annotation") {
                    continue;
                }
                let written = ann
                    .field("name")
                    .map(|n| text(n, self.src).to_string())
                    .unwrap_or_default();
                let name = self
                    .names
                    .resolve_type(&written, &|fq| self.catalog.knows(fq))
                    .unwrap_or(written);
                // Only the annotation's value (`@Bean("a")`, `value = ..`, `name = ..`):
                // not other attributes such as `destroyMethod = "shutdown"`.
                let strings = self.element_strings(ann, &["value", "name"]);
                out.push(Annotation {
                    node: ann,
                    name,
                    strings,
                });
            }
        }
        out
    }

    /// Whether a method's role annotations name only administrators' roles
    /// (`@RequiresRoles(UserRoleCode.INLONG_ADMIN)`, `@PreAuthorize("hasRole('ADMIN')")`)
    /// or only an operators' API (`apiType = ApiType.ADMIN_API`, `CONSOLE_API`).
    pub(super) fn admin_only(&self, annotations: &[Annotation]) -> bool {
        let kinds = &self.catalog.data.admin_role_annotations;
        let mut roles = Vec::new();
        for a in annotations {
            let simple = a.name.rsplit('.').next().unwrap_or(&a.name);
            if !kinds.iter().any(|k| k == simple) {
                continue;
            }
            let Some(args) = a.node.field("arguments") else {
                continue;
            };
            let mut stack = vec![args];
            while let Some(n) = stack.pop() {
                match n.kind_name() {
                    // `"hasAnyRole('ADMIN','USER')"`: the quoted roles; `"ROLE_ADMIN"`: itself.
                    "string_literal" => {
                        let v = string_value(n, self.src);
                        let quoted: Vec<&str> = v.split('\'').skip(1).step_by(2).collect();
                        if quoted.is_empty() {
                            roles.push(v);
                        } else {
                            roles.extend(quoted.into_iter().map(str::to_string));
                        }
                    }
                    // `action = ActionTypes.WRITE`: what the call does, not who may make it.
                    "element_value_pair"
                        if n.field("key").is_some_and(|k| {
                            matches!(text(k, self.src), "action" | "signType" | "logical")
                        }) => {}
                    // `INLONG_ADMIN`, `UserRoleCode.TENANT_ADMIN`; not `Logical.OR`.
                    "identifier" => {
                        let t = text(n, self.src);
                        let constant = t.len() > 3
                            && t.chars()
                                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
                        if constant {
                            roles.push(t.to_string());
                        }
                    }
                    _ => {
                        let mut c = n.walk();
                        stack.extend(n.named_children(&mut c));
                    }
                }
            }
        }
        // Nacos's `@Secured(.., apiType = ApiType.CONSOLE_API)`: the kind of API decides,
        // and the admin's and the console's serve operators, not traffic.
        let apis: Vec<&String> = roles.iter().filter(|r| r.ends_with("_API")).collect();
        if !apis.is_empty() {
            return apis
                .iter()
                .all(|r| r.contains("ADMIN") || r.contains("CONSOLE"));
        }
        !roles.is_empty()
            && roles
                .iter()
                .all(|r| r.to_ascii_lowercase().contains("admin"))
    }

    /// A handler whose body opens by turning away everyone but administrators:
    /// `if (!isAdmin()) { throw .. }` or `aclEvaluate.checkIsGlobalAdmin();` among its
    /// first statements.
    pub(super) fn admin_guarded(&self, method: Node) -> bool {
        let Some(body) = method.field("body") else {
            return false;
        };
        let admin_call = |n: Node, prefixes: &[&str]| {
            n.kind_name() == "method_invocation"
                && n.field("name").is_some_and(|m| {
                    let m = self.text(m).to_ascii_lowercase();
                    m.contains("admin") && prefixes.iter().any(|p| m.starts_with(p))
                })
        };
        const GUARDS: [&str; 6] = ["check", "require", "assert", "ensure", "verify", "validate"];
        // `verifyAccess(new AdminAccessRequest(Privilege.ADMIN_PURGE), ..)`: a guard
        // given an administrator's privilege.
        let admin_privilege = |n: Node| {
            let guard = n.kind_name() == "method_invocation"
                && n.field("name").is_some_and(|m| {
                    let m = self.text(m).to_ascii_lowercase();
                    GUARDS.iter().any(|p| m.starts_with(p))
                });
            let Some(args) = n.field("arguments").filter(|_| guard) else {
                return false;
            };
            let mut stack = vec![args];
            while let Some(x) = stack.pop() {
                if x.kind_name() == "identifier" {
                    let t = self.text(x);
                    let constant = t.chars().all(|c| c.is_ascii_uppercase() || c == '_');
                    if constant && t.split('_').any(|w| w == "ADMIN") {
                        return true;
                    }
                }
                let mut c = x.walk();
                stack.extend(x.named_children(&mut c));
            }
            false
        };
        let mut c = body.walk();
        // Argument checks come first; the access check follows within a few statements.
        let first: Vec<Node> = body.named_children(&mut c).take(4).collect();
        first.into_iter().any(|stmt| match stmt.kind_name() {
            "expression_statement" => stmt
                .named_child(0)
                .is_some_and(|e| admin_call(e, &GUARDS) || admin_privilege(e)),
            "if_statement" => {
                let negated = stmt
                    .field("condition")
                    .and_then(|c| c.named_child(0))
                    .filter(|u| {
                        u.kind_name() == "unary_expression"
                            && u.field("operator").is_some_and(|o| self.text(o) == "!")
                    })
                    .and_then(|u| u.field("operand"));
                let turns_away = stmt.field("consequence").is_some_and(|t| {
                    let t = if t.kind_name() == "block" {
                        t.named_child(0)
                    } else {
                        Some(t)
                    };
                    t.is_some_and(|t| t.kind_name() == "throw_statement")
                });
                turns_away && negated.is_some_and(|n| admin_call(n, &["is", "has"]))
            }
            _ => false,
        })
    }

    /// A handler served under an `admin` or `console` path segment, its own or (unless
    /// it names a role of its own) that of a class named for it (`@Path("admin") class
    /// AdminResource`): an operators' API, a few calls by hand, not traffic.
    pub(super) fn admin_route(&self, method: Node, own: &[Annotation]) -> bool {
        let admin =
            |anns: &[Annotation]| route_paths(anns).any(|v| v.split('/').any(operators_segment));
        if admin(own) {
            return true;
        }
        // A handler that names a role of its own is judged by that role.
        // The class's path must be named for operators by the class too
        // (`@Path("admin") class AdminResource`): `/eventmesh/admin` on a class
        // `HttpServer` is a component's name, whose peers call it per task.
        let named = |class: Node| {
            class.field("name").is_some_and(|n| {
                let n = self.text(n);
                n.contains("Admin") || n.contains("Console") || ops_word(n)
            })
        };
        !self.has_role(own)
            && method
                .parent()
                .filter(|b| matches!(b.kind_name(), "class_body" | "interface_body"))
                .and_then(|b| b.parent())
                .is_some_and(|class| {
                    self.class_admin_root() || named(class) && admin(&self.annotations(class))
                })
    }

    /// Whether the class being extracted has an operators' route (`operators_root`).
    fn class_admin_root(&self) -> bool {
        self.classes
            .last()
            .and_then(|c| c.decl)
            .is_some_and(|d| self.facts.types[d].admin_root)
    }

    /// A handler with no role annotation of its own in a class whose role annotation
    /// admits only administrators (`@PreAuthorize(IS_ADMIN_ROLE)` on the controller).
    pub(super) fn admin_class(&self, method: Node, own: &[Annotation]) -> bool {
        if self.has_role(own) {
            return false;
        }
        let Some(class) = method
            .parent()
            .filter(|b| b.kind_name() == "class_body")
            .and_then(|b| b.parent())
        else {
            return false;
        };
        let anns = self.annotations(class);
        self.has_role(&anns) && self.admin_only(&anns)
    }

    /// Whether one of these annotations is a role annotation (`admin_role_annotations`).
    fn has_role(&self, anns: &[Annotation]) -> bool {
        let kinds = &self.catalog.data.admin_role_annotations;
        anns.iter().any(|a| {
            let simple = a.name.rsplit('.').next().unwrap_or(&a.name);
            kinds.iter().any(|k| k == simple)
        })
    }

    /// `@SuppressWarnings("poolguard:rule")` on a class, method or field.
    pub(super) fn suppress_annotations(&mut self, decl: Node) {
        let written =
            modifiers_node(decl).is_some_and(|m| text(m, self.src).contains("SuppressWarnings"));
        if !written {
            return; // most declarations: no annotation to resolve
        }
        for ann in self.annotations(decl) {
            if !ann.name.ends_with("SuppressWarnings") {
                continue;
            }
            let mut rules = Vec::new();
            let mut all = false;
            for v in &ann.strings {
                if v == "poolguard" {
                    all = true;
                } else if let Some(rule) = v.strip_prefix("poolguard:") {
                    rules.push(rule.to_string());
                }
            }
            if all || !rules.is_empty() {
                self.facts.suppressions.push(Suppression {
                    rules: if all { Vec::new() } else { rules },
                    scope: SuppressionScope::Range(span(decl)),
                    span: span(ann.node),
                });
            }
        }
    }

    /// Bean names of an `@Bean` method (its `name`/`value` strings, else the method name).
    pub(super) fn bean_names(&self, method: Node, method_name: &str) -> Option<Vec<String>> {
        let spring = &self.catalog.data.spring;
        let ann = self
            .annotations(method)
            .into_iter()
            .find(|a| a.name == spring.bean || spring.providers.contains(&a.name))?;
        let mut names = ann.strings;
        names.push(method_name.to_string());
        Some(names)
    }

    /// The bean name a field or parameter is injected by (`@Qualifier("x")`, `@Resource(name = "x")`).
    pub(super) fn qualifier(&self, decl: Node) -> Option<String> {
        self.qualifier_in(&self.annotations(decl))
    }

    /// [`Self::qualifier`] among annotations already read.
    pub(super) fn qualifier_in(&self, anns: &[Annotation]) -> Option<String> {
        let q = &self.catalog.data.spring.qualifiers;
        anns.iter()
            .find(|a| q.contains(&a.name))
            .and_then(|a| a.strings.first().cloned())
    }

    /// A method's annotations as marks a pointcut may select, and, for an aspect's
    /// advice, the annotation its pointcut selects methods by.
    pub(super) fn marks_and_advice(
        &mut self,
        method: Node,
        ctx: crate::facts::CtxId,
        anns: &[Annotation],
    ) {
        if anns.is_empty() {
            return;
        }
        for a in anns {
            if matches!(
                a.name.as_str(),
                "Override" | "Deprecated" | "SuppressWarnings" | "SafeVarargs"
            ) {
                continue;
            }
            let t = self.type_ref(&named_type(&a.name));
            self.facts.method_marks.push((ctx, t, span(a.node)));
        }
        let aspect = self.classes.last().is_some_and(|c| {
            c.annotations
                .iter()
                .any(|a| a == "org.aspectj.lang.annotation.Aspect" || a == "Aspect")
        });
        if !aspect {
            return;
        }
        let Some(pointcut) = anns
            .iter()
            .find(|a| {
                let simple = a.name.rsplit('.').next().unwrap_or(&a.name);
                ADVICE.contains(&simple)
            })
            .and_then(|a| self.pointcut_text(a.node))
        else {
            return;
        };
        let pointcut = self.expand_pointcut(method, &pointcut, 0);
        for target in annotation_designators(&pointcut) {
            // `@annotation(audited)` binds the advice's parameter of that type.
            let t = param_type(method, target, self.src)
                .and_then(|ty| self.jtype(ty))
                .unwrap_or_else(|| named_type(target));
            let t = self.type_ref(&t);
            self.facts.advice.push((ctx, t));
        }
    }

    /// The pointcut of an advice or `@Pointcut` annotation: its value or `pointcut`
    /// element, string literals joined (`"a" + "b"`).
    fn pointcut_text(&self, annotation: Node) -> Option<String> {
        let out = self
            .element_strings(annotation, &["value", "pointcut"])
            .concat();
        (!out.is_empty()).then_some(out)
    }

    /// The string literals of an annotation's unnamed value and of its elements named
    /// in `keys`, in source order.
    fn element_strings(&self, annotation: Node, keys: &[&str]) -> Vec<String> {
        let mut strings = Vec::new();
        let Some(args) = annotation.field("arguments") else {
            return strings;
        };
        let mut c = args.walk();
        for arg in args.named_children(&mut c) {
            let value = if arg.kind_name() == "element_value_pair" {
                let key = arg.field("key").map(|k| text(k, self.src)).unwrap_or("");
                if !keys.contains(&key) {
                    continue;
                }
                arg.field("value")
            } else {
                Some(arg)
            };
            let mut stack: Vec<Node> = value.into_iter().collect();
            let mut found = Vec::new();
            while let Some(n) = stack.pop() {
                if n.kind_name() == "string_literal" {
                    found.push(string_value(n, self.src));
                    continue;
                }
                // `@Async(Pools.AUDIT)`: a constant, named for the linker to resolve.
                let whole = value == Some(n)
                    || n.parent()
                        .is_some_and(|p| p.kind_name() == "element_value_array_initializer");
                if let Some(c) = whole.then(|| self.constant_ref(n)).flatten() {
                    found.push(c);
                    continue;
                }
                let mut c2 = n.walk();
                stack.extend(n.named_children(&mut c2));
            }
            found.reverse();
            strings.extend(found);
        }
        strings
    }

    /// A `String` constant named in an annotation, as `const:<class fq>.<NAME>`
    /// (`Pools.AUDIT`, or `AUDIT` of the enclosing class), for
    /// [`crate::facts::FileFacts::string_constants`] to resolve across files.
    fn constant_ref(&self, n: Node) -> Option<String> {
        let (class, name) = match n.kind_name() {
            "field_access" => {
                let class = self.text(n.field("object")?);
                let class = self
                    .names
                    .resolve_type(class, &|fq| self.catalog.knows(fq))
                    .unwrap_or_else(|| match self.package.as_str() {
                        "" => class.to_string(),
                        p => format!("{p}.{class}"),
                    });
                (class, self.text(n.field("field")?))
            }
            "identifier" => (self.classes.last()?.fq.clone(), self.text(n)),
            _ => return None,
        };
        Some(format!("const:{class}.{name}"))
    }

    /// A pointcut with the named pointcuts of its class (`auditable()`, declared by a
    /// `@Pointcut` method) replaced by their expressions, three levels deep.
    fn expand_pointcut(&self, method: Node, pointcut: &str, depth: u8) -> String {
        let Some(body) = method.parent().filter(|_| depth < 3) else {
            return pointcut.to_string();
        };
        let mut out = pointcut.to_string();
        let mut c = body.walk();
        for m in body.named_children(&mut c) {
            if m.kind_name() != "method_declaration" {
                continue;
            }
            let Some(name) = m.field("name").map(|n| text(n, self.src)) else {
                continue;
            };
            let call = format!("{name}()");
            if !out.contains(&call) {
                continue;
            }
            let inner = self
                .annotations(m)
                .into_iter()
                .find(|a| a.name.rsplit('.').next() == Some("Pointcut"))
                .and_then(|a| self.pointcut_text(a.node));
            if let Some(inner) = inner {
                let inner = self.expand_pointcut(method, &inner, depth + 1);
                out = out.replace(&call, &format!("({inner})"));
            }
        }
        out
    }

    /// `@Async("executor")` on a method: `Some(Some(name))`, or `Some(None)` for the default executor.
    pub(super) fn async_executor(&self, method: Node) -> Option<Option<String>> {
        let name = &self.catalog.data.spring.r#async;
        self.annotations(method)
            .into_iter()
            .find(|a| &a.name == name)
            .map(|a| a.strings.into_iter().next())
    }
}

/// AspectJ's advice annotations.
const ADVICE: [&str; 5] = [
    "Around",
    "Before",
    "After",
    "AfterReturning",
    "AfterThrowing",
];

/// A type named in text: fully qualified when dotted (`com.acme.Audited`).
fn named_type(name: &str) -> super::types::JType {
    if name.contains('.') {
        super::types::JType::known(name)
    } else {
        super::types::JType {
            fq: None,
            simple: name.to_string(),
            args: Vec::new(),
        }
    }
}

/// The arguments of a pointcut's `@annotation(..)` designators.
fn annotation_designators(pointcut: &str) -> Vec<&str> {
    pointcut
        .match_indices("@annotation(")
        .filter_map(|(i, m)| {
            let rest = &pointcut[i + m.len()..];
            let arg = rest[..rest.find(')')?].trim();
            let ok = !arg.is_empty()
                && arg
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$');
            ok.then_some(arg)
        })
        .collect()
}

/// The declared type of a method's parameter named `name`.
fn param_type<'t>(method: Node<'t>, name: &str, src: &str) -> Option<Node<'t>> {
    let params = method.field("parameters")?;
    let mut c = params.walk();
    let found = params
        .named_children(&mut c)
        .find(|p| p.field("name").is_some_and(|n| text(n, src) == name))
        .and_then(|p| p.field("type"));
    found
}

/// A declaration's `modifiers` (annotations and keywords): its first child other
/// than a comment, when there is one.
pub(super) fn modifiers_node(decl: Node) -> Option<Node> {
    // The first child, past comments (rare there): no cursor for the common case.
    let mut first = decl.child(0)?;
    while matches!(first.kind_name(), "line_comment" | "block_comment") {
        first = first.next_sibling()?;
    }
    (first.kind_name() == "modifiers").then_some(first)
}

/// A class whose own route starts with an operators' segment (`@RequestMapping
/// ("/admin/article")`, `@Path("console/jobs")`): a back office, whatever the class
/// is named (a later segment, `/eventmesh/admin`, may name a component its peers call).
pub(super) fn operators_root(anns: &[Annotation]) -> bool {
    route_paths(anns).any(|v| {
        v.split('/')
            .find(|s| !s.is_empty())
            .is_some_and(operators_segment)
    })
}

/// The strings of route annotations (`@Path`, `@RequestMapping`, `@GetMapping`, ..).
fn route_paths<'s>(anns: &'s [Annotation]) -> impl Iterator<Item = &'s String> {
    anns.iter()
        .filter(|a| {
            let simple = a.name.rsplit('.').next().unwrap_or(&a.name);
            simple == "Path" || simple.ends_with("Mapping")
        })
        .flat_map(|a| &a.strings)
}

/// A path segment that serves operators, not traffic: `admin`, `console` (a product's
/// management UI, as `apiType = CONSOLE_API`), `op`/`ops` (an operations API).
fn operators_segment(seg: &str) -> bool {
    ["admin", "console", "op", "ops"]
        .iter()
        .any(|w| seg.eq_ignore_ascii_case(w))
}

/// A class named for operations as a word: `OpResource`, `FlowControlOpResource`,
/// `OpsController` (not `Option`, `OpenApi`, `Operation`).
fn ops_word(name: &str) -> bool {
    let b = name.as_bytes();
    ["Op", "Ops"].iter().any(|w| {
        name.match_indices(w)
            .any(|(i, _)| b.get(i + w.len()).is_none_or(u8::is_ascii_uppercase))
    })
}
