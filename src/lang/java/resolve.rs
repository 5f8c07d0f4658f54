//! Java name resolution within one file: the package, single-type, on-demand
//! and static imports, and the types and methods the file declares itself.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;

use super::tree::Node;

use super::syntax::{text, NodeExt};

/// What simple names in one Java file refer to.
#[derive(Debug, Default)]
pub struct Names {
    /// `import a.b.C;` -> `C` => `a.b.C`.
    single: HashMap<String, String>,
    /// `import a.b.*;` -> `a.b` (packages or outer classes).
    on_demand: Vec<String>,
    /// `import static a.b.C.m;` -> `m` => `a.b.C.m`.
    static_single: HashMap<String, String>,
    /// `import static a.b.C.*;` -> `a.b.C`.
    static_on_demand: Vec<String>,
    /// Types declared in this file (any nesting level).
    declared: HashSet<String>,
    /// Methods declared in this file: an unqualified call to one of them is local.
    methods: HashSet<String>,
    /// Resolutions already made in this file, by name as written.
    cache: RefCell<HashMap<String, Option<String>>>,
}

/// Types every Java file sees without an import.
const JAVA_LANG: &[&str] = &[
    "Thread",
    "Object",
    "Integer",
    "Long",
    "Runnable",
    "ThreadLocal",
    "InheritableThreadLocal",
    "Process",
];

impl Names {
    pub fn collect(root: Node, src: &str) -> Names {
        let mut names = Names::default();
        let mut cursor = root.walk();
        for child in root.named_children(&mut cursor) {
            if child.kind_name() == "import_declaration" {
                names.import(child, src);
            }
        }
        names.declarations(root, src);
        names
    }

    fn import(&mut self, node: Node, src: &str) {
        let mut is_static = false;
        let mut star = false;
        let mut path = String::new();
        let mut cursor = node.walk();
        for c in node.children(&mut cursor) {
            match c.kind_name() {
                "static" => is_static = true,
                "asterisk" => star = true,
                "scoped_identifier" | "identifier" => path = text(c, src).to_string(),
                _ => {}
            }
        }
        let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
        let last = path.rsplit('.').next().unwrap_or("").to_string();
        match (is_static, star) {
            (false, false) => {
                self.single.insert(last, path);
            }
            (false, true) => self.on_demand.push(path),
            (true, false) => {
                self.static_single.insert(last, path);
            }
            (true, true) => self.static_on_demand.push(path),
        }
    }

    /// Iterative walk (deep files must not overflow the stack) over type and method declarations.
    fn declarations(&mut self, root: Node, src: &str) {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            match n.kind_name() {
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "annotation_type_declaration" => {
                    if let Some(name) = n.field("name") {
                        self.declared.insert(text(name, src).to_string());
                    }
                }
                "method_declaration" => {
                    if let Some(name) = n.field("name") {
                        self.methods.insert(text(name, src).to_string());
                    }
                }
                _ => {}
            }
            if matches!(
                n.kind_name(),
                "program"
                    | "class_declaration"
                    | "interface_declaration"
                    | "enum_declaration"
                    | "record_declaration"
                    | "class_body"
                    | "interface_body"
                    | "enum_body"
                    | "enum_body_declarations"
                    | "ERROR"
            ) {
                let mut cursor = n.walk();
                stack.extend(n.named_children(&mut cursor));
            }
        }
    }

    /// The fully-qualified name of a type as written (`LinkedBlockingQueue`,
    /// `ThreadPoolExecutor.CallerRunsPolicy`, `java.util.concurrent.Executors`).
    /// `known` tells which names an on-demand import may supply; it must be the
    /// catalog's (results are cached per file by name).
    pub fn resolve_type(&self, written: &str, known: &dyn Fn(&str) -> bool) -> Option<String> {
        if let Some(hit) = self.cache.borrow().get(written) {
            return hit.clone();
        }
        let resolved = self.resolve_uncached(written, known);
        self.cache
            .borrow_mut()
            .insert(written.to_string(), resolved.clone());
        resolved
    }

    fn resolve_uncached(&self, written: &str, known: &dyn Fn(&str) -> bool) -> Option<String> {
        let (first, rest) = match written.split_once('.') {
            Some((f, r)) => (f, Some(r)),
            None => (written, None),
        };
        let base = if first.starts_with(|c: char| c.is_ascii_lowercase()) {
            // A package-qualified name.
            return Some(written.to_string());
        } else if self.declared.contains(first) {
            return None;
        } else if let Some(fq) = self.single.get(first) {
            fq.clone()
        } else if JAVA_LANG.contains(&first) {
            format!("java.lang.{first}")
        } else {
            let found = self
                .on_demand
                .iter()
                .map(|p| format!("{p}.{first}"))
                .find(|fq| {
                    let full = match rest {
                        Some(r) => format!("{fq}.{r}"),
                        None => fq.clone(),
                    };
                    known(&full) || known(fq)
                })?;
            found
        };
        Some(match rest {
            Some(r) => format!("{base}.{r}"),
            None => base,
        })
    }

    /// Candidates for the fully-qualified name of a project type written `written`,
    /// in Java's lookup order: a single-type import, member types of the enclosing
    /// classes (innermost first), the file's package, on-demand imports.
    pub fn candidates(&self, written: &str, enclosing: &[String], package: &str) -> Vec<String> {
        let (first, rest) = match written.split_once('.') {
            Some((f, r)) => (f, Some(r)),
            None => (written, None),
        };
        if first.starts_with(|c: char| c.is_ascii_lowercase()) {
            return vec![written.to_string()];
        }
        if let Some(fq) = self.single.get(first) {
            return vec![match rest {
                Some(r) => format!("{fq}.{r}"),
                None => fq.clone(),
            }];
        }
        let mut out: Vec<String> = enclosing
            .iter()
            .rev()
            .map(|e| format!("{e}.{written}"))
            .collect();
        out.push(if package.is_empty() {
            written.to_string()
        } else {
            format!("{package}.{written}")
        });
        out.extend(self.on_demand.iter().map(|p| format!("{p}.{written}")));
        out
    }

    /// Whether this file declares a method with this name.
    /// Whether the file imports anything from the package `pkg` (`lombok`).
    pub fn imports_from(&self, pkg: &str) -> bool {
        let under = |p: &str| p.strip_prefix(pkg).is_some_and(|r| r.starts_with('.'));
        self.single.values().any(|p| under(p))
            || self.on_demand.iter().any(|p| under(p) || p == pkg)
    }

    /// Whether this file declares a type of that simple name.
    pub fn declares_type(&self, simple: &str) -> bool {
        self.declared.contains(simple)
    }

    pub fn declares_method(&self, name: &str) -> bool {
        self.methods.contains(name)
    }

    /// The class a method is statically imported from by name (`import static
    /// a.b.Util.load;` -> `a.b.Util`), unless this file declares a method of that name.
    pub fn static_import_class(&self, method: &str) -> Option<&str> {
        if self.methods.contains(method) {
            return None;
        }
        self.static_single
            .get(method)
            .and_then(|fq| fq.rsplit_once('.'))
            .map(|(class, _)| class)
    }

    /// The fully-qualified name of an unqualified method call resolved through a
    /// static import (`newFixedThreadPool(4)` -> `java.util.concurrent.Executors.newFixedThreadPool`).
    pub fn resolve_static(&self, method: &str, known: &dyn Fn(&str) -> bool) -> Option<String> {
        if self.methods.contains(method) {
            return None;
        }
        if let Some(fq) = self.static_single.get(method) {
            return Some(fq.clone());
        }
        self.static_on_demand
            .iter()
            .map(|c| format!("{c}.{method}"))
            .find(|fq| known(fq))
    }
}
