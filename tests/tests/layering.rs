//! The firmware's files import one another without a circle: each stage (sense → gesture →
//! rules → screen → journal) stands above what it uses, so a newcomer reads the house from the
//! ground up. The referee once had such a circle (the journal's records named every game's
//! adapter, and the adapters wrote the records), and it came back once after it was removed;
//! this test keeps it out. The simulator's files (`host/src`) and the rules' (`boards/src`) are
//! held to the same.
//!
//! Every `.rs` file of `firmware/src` is parsed (with `syn`), its test modules left out. Every
//! path it names (in a `use`, a type, an expression, a pattern) is followed through the module
//! tree to the file that defines the item, through re-exports (`pub use`) and through the names
//! a `use` brought into scope. Paths inside a macro's body are not read.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module path from the crate's root: `["referee", "games", "napoleon"]`.
type ModPath = Vec<String>;

/// One module: the file that holds it, and what its `use` items bring into scope (a name, to
/// the path it stands for, from the root).
#[derive(Default)]
struct Module {
    file: PathBuf,
    names: BTreeMap<String, Vec<String>>,
    /// The paths the module's own code names, as written (resolved once every module is known).
    named: Vec<Vec<String>>,
}

/// Whether an item is compiled only for tests.
fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// Every path of a `use` tree, with the name it binds (`None` for a glob).
fn use_paths(tree: &syn::UseTree, prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut prefix = prefix.to_vec();
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, &prefix, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                let bound = prefix.last().cloned();
                out.push((prefix.to_vec(), bound));
            } else {
                let mut path = prefix.to_vec();
                path.push(name.clone());
                out.push((path, Some(name)));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.to_vec();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((path, Some(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix.to_vec(), None)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

/// Reads one module's items: its `use`s, the paths its code names, its child modules (inline
/// ones read at once, file ones queued).
struct Reader<'a> {
    modules: &'a mut BTreeMap<ModPath, Module>,
    queue: &'a mut Vec<(ModPath, PathBuf)>,
    path: ModPath,
    /// The folder a file child module of `path` lives in.
    dir: PathBuf,
    file: PathBuf,
}

impl Reader<'_> {
    fn module(&mut self) -> &mut Module {
        let file = self.file.clone();
        self.modules
            .entry(self.path.clone())
            .or_insert_with(|| Module {
                file,
                ..Module::default()
            })
    }

    fn items(&mut self, items: &[syn::Item]) {
        self.module();
        for item in items {
            match item {
                syn::Item::Mod(m) if test_only(&m.attrs) => {}
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let mut path = self.path.clone();
                    path.push(name.clone());
                    match &m.content {
                        Some((_, inner)) => {
                            let mut child = Reader {
                                modules: self.modules,
                                queue: self.queue,
                                path,
                                dir: self.dir.join(&name),
                                file: self.file.clone(),
                            };
                            child.items(inner);
                        }
                        None => {
                            let flat = self.dir.join(format!("{name}.rs"));
                            let nested = self.dir.join(&name).join("mod.rs");
                            let file = if flat.exists() { flat } else { nested };
                            self.queue.push((path, file));
                        }
                    }
                }
                syn::Item::Use(u) if !test_only(&u.attrs) => {
                    let mut found = Vec::new();
                    use_paths(&u.tree, &[], &mut found);
                    // A `pub use` only hands a name on (a module's face): it is followed
                    // for whoever names it, and is an import of this file only where this
                    // file's own code names it.
                    let hands_on = !matches!(u.vis, syn::Visibility::Inherited);
                    let module = self.module();
                    for (path, bound) in found {
                        match bound {
                            Some(name) => {
                                module.names.insert(name, path.clone());
                            }
                            None if hands_on => {}
                            None => module.named.push(path.clone()),
                        }
                        if !hands_on {
                            module.named.push(path);
                        }
                    }
                }
                syn::Item::Fn(f) if test_only(&f.attrs) => {}
                syn::Item::Impl(i) if test_only(&i.attrs) => {}
                other => {
                    let mut paths = Paths::default();
                    paths.visit_item(other);
                    self.module().named.extend(paths.0);
                }
            }
        }
    }
}

/// The paths an item's code names (not its `use`s, not inside macros).
#[derive(Default)]
struct Paths(Vec<Vec<String>>);

impl<'ast> Visit<'ast> for Paths {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            self.0
                .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut found = Vec::new();
        use_paths(&u.tree, &[], &mut found);
        self.0.extend(found.into_iter().map(|(path, _)| path));
    }

    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {}

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
}

/// The crate's modules, read from `lib.rs` down.
fn read_crate(src: &Path) -> BTreeMap<ModPath, Module> {
    let mut modules = BTreeMap::new();
    let mut queue = vec![(Vec::new(), src.join("lib.rs"))];
    while let Some((path, file)) = queue.pop() {
        let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let folder = file.parent().unwrap_or(src).to_path_buf();
        let dir = if matches!(stem, "lib" | "mod" | "main") {
            folder
        } else {
            folder.join(stem)
        };
        let mut reader = Reader {
            modules: &mut modules,
            queue: &mut queue,
            path,
            dir,
            file,
        };
        reader.items(&parsed.items);
    }
    modules
}

/// The file that defines what `path` names, seen from module `from`; `None` for another crate,
/// a local name, or a module itself.
fn resolve(
    modules: &BTreeMap<ModPath, Module>,
    from: &ModPath,
    path: &[String],
) -> Option<PathBuf> {
    let mut path = path.to_vec();
    let mut from = from.clone();
    for _ in 0..16 {
        let (base, rest) = absolute(modules, &from, &path)?;
        // The deepest module the path enters.
        let mut module = base;
        let mut rest = rest.as_slice();
        while let Some((first, tail)) = rest.split_first() {
            let mut deeper = module.clone();
            deeper.push(first.clone());
            if !modules.contains_key(&deeper) {
                break;
            }
            module = deeper;
            rest = tail;
        }
        let (item, tail) = rest.split_first()?;
        match modules[&module].names.get(item) {
            // A name the module brought in: follow it from there.
            Some(target) => {
                path = target.iter().chain(tail).cloned().collect();
                from = module;
            }
            None => return Some(modules[&module].file.clone()),
        }
    }
    None
}

/// `path` seen from `from` as a module of the crate and the segments after it; `None` when it
/// names another crate or a local name.
fn absolute(
    modules: &BTreeMap<ModPath, Module>,
    from: &ModPath,
    path: &[String],
) -> Option<(ModPath, Vec<String>)> {
    let (first, rest) = path.split_first()?;
    match first.as_str() {
        "crate" => Some((Vec::new(), rest.to_vec())),
        "self" => Some((from.clone(), rest.to_vec())),
        "super" => {
            let mut base = from.clone();
            base.pop();
            let mut rest = rest;
            while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
                base.pop();
                rest = tail;
            }
            Some((base, rest.to_vec()))
        }
        name => {
            let mut child = from.clone();
            child.push(name.to_string());
            if modules.contains_key(&child) || modules[from].names.contains_key(name) {
                Some((from.clone(), path.to_vec()))
            } else {
                None
            }
        }
    }
}

/// Each file's imports: the files it names, each with the names it takes.
fn imports(
    modules: &BTreeMap<ModPath, Module>,
) -> BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>> {
    let mut edges: BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>> = BTreeMap::new();
    for (path, module) in modules {
        let entry = edges.entry(module.file.clone()).or_default();
        for named in &module.named {
            if let Some(to) = resolve(modules, path, named) {
                if to != module.file {
                    let name = named.last().cloned().unwrap_or_default();
                    entry.entry(to).or_default().insert(name);
                }
            }
        }
    }
    edges
}

/// The circles of a graph: its strongly connected components of two files or more (Tarjan).
fn circles(edges: &BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>>) -> Vec<Vec<PathBuf>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        found: Vec<Vec<PathBuf>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a PathBuf) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.edges.get(v).into_iter().flat_map(BTreeMap::keys) {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn src(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src")
}

fn firmware_src() -> PathBuf {
    src("firmware")
}

#[test]
fn the_firmware_has_no_circle_of_imports() {
    no_circle(&firmware_src());
}

#[test]
fn the_simulator_has_no_circle_of_imports() {
    no_circle(&src("host"));
}

#[test]
fn the_rules_have_no_circle_of_imports() {
    no_circle(&src("boards"));
}

fn no_circle(src: &Path) {
    let modules = read_crate(src);
    let edges = imports(&modules);
    let found = circles(&edges);
    let show = |p: &Path| p.strip_prefix(src).unwrap_or(p).display().to_string();
    let mut words = String::new();
    for circle in &found {
        words.push_str("a circle:\n");
        for a in circle {
            for (b, names) in &edges[a] {
                if circle.contains(b) {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    words.push_str(&format!(
                        "  {} -> {}: {}\n",
                        show(a),
                        show(b),
                        names.join(", ")
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "files of {} import one another in a circle; move what both need below both:\n{words}",
        src.display()
    );
}

/// The reader follows what it must, or the test above could pass by reading nothing: the
/// referee's phases import its games, the adapters the generic table and the journal's
/// records, the service the pipeline; the records import no game.
#[test]
fn the_reader_sees_the_imports_it_must() {
    let src = firmware_src();
    let edges = imports(&read_crate(&src));
    let imports = |from: &str, to: &str| {
        edges
            .get(&src.join(from))
            .is_some_and(|e| e.contains_key(&src.join(to)))
    };
    for (from, to) in [
        ("referee/phases.rs", "referee/games/mod.rs"),
        ("referee/games/napoleon.rs", "referee/table/mod.rs"),
        ("referee/games/stratego.rs", "referee/record.rs"),
        ("referee/games/mod.rs", "referee/games/waterloo.rs"),
        ("service.rs", "pipeline.rs"),
        ("service.rs", "inputs.rs"),
        ("scan_thread.rs", "inputs.rs"),
    ] {
        assert!(imports(from, to), "{from} should import {to}");
    }
    for (from, to) in [
        ("referee/record.rs", "referee/games/mod.rs"),
        ("referee/record.rs", "referee/games/waterloo.rs"),
        ("referee/table/mod.rs", "referee/phases.rs"),
    ] {
        assert!(!imports(from, to), "{from} imports {to}");
    }
    assert!(edges.len() > 60, "only {} files read", edges.len());
}
