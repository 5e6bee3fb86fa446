//! The layer order of `src/`, checked: every `crate::X` path in `src/**/*.rs` (code only:
//! comments and string literals are skipped) is an edge from the file's top-level module to `X`,
//! and no edge may point up the order in [`LEVELS`]. Run it alone with
//! `cargo test --release --test layers -- --nocapture` to see the table and every edge.
//!
//! An edge that points up would have to be listed in [`ALLOWED`], with its reason; the list is
//! empty, as the order holds without exception. The test fails on any edge up that is not
//! listed, and also on a listed edge that is gone or no longer against the order (delete its
//! line then, so the list stays the list of debts). Modules on one level
//! may import each other, but not in a cycle. The binaries (`src/main.rs`, `src/bin/`) are the top
//! and are not read; `src/lib.rs` only declares the modules, and every module it declares must
//! have a level here (and every level entry a module). A module listed in [`ONLY`] (the
//! protocol) may import only the modules listed there, whatever its level allows.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Every top-level module of `src/` and its level; a module may import only modules of a lower
/// level, or of its own level without a cycle. From `src/lib.rs`'s order,
/// `types`/`score` <- `notation` <- `rules` <- `eval`/`threat` <- `search` <- `engine` <-
/// `protocol` <- binaries, with the tools, the trainer and the match runner beside the protocol:
const LEVELS: &[(&str, u32)] = &[
    // Value types: colours, points, rules. Imports nothing of the crate.
    ("types", 0),
    // What a score means: mate scores, win rate, score text. Imports nothing of the crate;
    // the search makes these scores, and the engine, protocol and tools read them.
    ("score", 0),
    // Text notation of points and positions: imports only `types`, and `rules` uses it (a
    // helper below the rules, not a tool).
    ("notation", 1),
    // The board, wins, renju fouls, the opening protocols' rules.
    ("rules", 2),
    // The incremental position and its evaluation.
    ("eval", 3),
    // The VCF/VCT provers, which run on that position with make/undo.
    ("threat", 4),
    // The alpha-beta search.
    ("search", 5),
    // Everything that decides a move above the search: the facade the protocol talks to, and
    // the Swap2 and renju-opening decisions under it (`engine/swap2.rs`, `engine/opening/`).
    ("engine", 6),
    // The protocol loop and the tools beside it: the other commands of `pbrain-lianzhu`
    // (`tools`), the match runner, the trainer.
    ("protocol", 7),
    ("tools", 7),
    ("train", 7),
    ("arena", 7),
];

/// The edges against [`LEVELS`] that exist today: (from, to, why). None: the last one (the
/// engine calling the renju opening decisions above it) went when the decisions moved under
/// the engine. A new one must not be added without a reason; each listed must still exist and
/// still be against the order.
const ALLOWED: &[(&str, &str, &str)] = &[];

/// Modules held to a narrower set than their level allows: (module, what it may import, why).
/// The protocol talks to the engine's front door, not past it to the search or the rules.
const ONLY: &[(&str, &[&str], &str)] = &[(
    "protocol",
    &["engine", "types", "notation", "score"],
    "the protocol reaches the search, the rules and the tools only through the engine (issue 15 step 1)",
)];

/// The edges of `refs` that leave a module's [`ONLY`] list, one message each.
fn narrow_problems(refs: &[Ref], only: &[(&str, &[&str], &str)]) -> Vec<String> {
    let mut problems = Vec::new();
    for &(module, may, why) in only {
        let mut bad: BTreeMap<&str, Vec<&Ref>> = BTreeMap::new();
        for r in refs.iter().filter(|r| r.from == module) {
            if !may.contains(&r.to.as_str()) {
                bad.entry(r.to.as_str()).or_default().push(r);
            }
        }
        for (to, at) in bad {
            problems.push(format!(
                "{module} -> {to} at {}: {module} may import only {} ({why})",
                where_(&at),
                may.join(", ")
            ));
        }
    }
    problems
}

/// One `crate::X` path in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ref {
    /// The file, relative to the repository (`src/engine/mod.rs`).
    file: String,
    /// 1-based line.
    line: usize,
    /// The file's top-level module.
    from: String,
    /// The top-level module the path names.
    to: String,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `src` with comments, string literals and char literals blanked (newlines kept, so line
/// numbers stay true). Lifetimes and labels are kept.
fn code_only(src: &str) -> Vec<char> {
    let s: Vec<char> = src.chars().collect();
    let mut out = s.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in out.iter_mut().take(to.min(s.len())).skip(from) {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == '/' && at(i + 1) == '/' {
            let mut j = i;
            while j < s.len() && s[j] != '\n' {
                j += 1;
            }
            blank(&mut out, i, j);
            i = j;
        } else if c == '/' && at(i + 1) == '*' {
            let (mut j, mut depth) = (i + 2, 1);
            while j < s.len() && depth > 0 {
                if s[j] == '/' && at(j + 1) == '*' {
                    depth += 1;
                    j += 2;
                } else if s[j] == '*' && at(j + 1) == '/' {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if c == 'r'
            && (i == 0
                || !is_ident(s[i - 1])
                || (s[i - 1] == 'b' && (i < 2 || !is_ident(s[i - 2]))))
            && (at(i + 1) == '"' || at(i + 1) == '#')
        {
            // A raw string r"..." / r#"..."# (or br...), else an identifier starting with r.
            let mut j = i + 1;
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) != '"' {
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= s.len() {
                    break;
                }
                if s[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            blank(&mut out, i, j);
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != '"' {
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if c == '\'' && at(i + 1) == '\\' {
            // An escaped char literal: '\n', '\'', '\u{..}'.
            let mut j = i + 3;
            while j < s.len() && s[j] != '\'' {
                j += 1;
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if c == '\'' && at(i + 2) == '\'' {
            blank(&mut out, i, i + 3);
            i += 3;
        } else {
            i += 1;
        }
    }
    out
}

/// The top-level modules named by `crate::X` (and `$crate::X`, `crate::{X::.., Y}`) in the code
/// of `src`, with their 1-based lines.
fn crate_paths(src: &str) -> Vec<(usize, String)> {
    let s = code_only(src);
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let line_of = |i: usize| 1 + s[..i].iter().filter(|&&c| c == '\n').count();
    let skip_ws = |mut i: usize| {
        while at(i).is_whitespace() {
            i += 1;
        }
        i
    };
    let ident = |i: usize| {
        let mut j = i;
        while is_ident(at(j)) {
            j += 1;
        }
        (s[i..j].iter().collect::<String>(), j)
    };
    let mut found = Vec::new();
    let word: Vec<char> = "crate".chars().collect();
    let mut i = 0;
    while i + word.len() <= s.len() {
        if s[i..i + word.len()] != word[..]
            || (i > 0 && is_ident(s[i - 1]))
            || is_ident(at(i + word.len()))
        {
            i += 1;
            continue;
        }
        let start = i;
        i = skip_ws(i + word.len());
        if !(at(i) == ':' && at(i + 1) == ':') {
            continue;
        }
        i = skip_ws(i + 2);
        if at(i) == '{' {
            // A group: the first name of every item at depth 1.
            let mut depth = 1;
            i += 1;
            let mut item_start = true;
            while i < s.len() && depth > 0 {
                let c = s[i];
                if item_start && depth == 1 && is_ident(c) {
                    let (name, j) = ident(i);
                    if name != "self" {
                        found.push((line_of(i), name));
                    }
                    item_start = false;
                    i = j;
                    continue;
                }
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => item_start = true,
                    _ => {}
                }
                i += 1;
            }
        } else if is_ident(at(i)) {
            let (name, j) = ident(i);
            found.push((line_of(start), name));
            i = j;
        }
    }
    found
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The modules `src/lib.rs` declares (`pub mod x;` / `mod x;`).
fn declared_modules(lib_rs: &str) -> BTreeSet<String> {
    let code: String = code_only(lib_rs).into_iter().collect();
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l).trim_start();
            let name = l.strip_prefix("mod ")?.trim().strip_suffix(';')?.trim();
            Some(name.to_string())
        })
        .collect()
}

/// The top-level module of a file under `src/` (`score.rs` -> score, `engine/swap2.rs` ->
/// engine), or `None` for the crate roots and the binaries.
fn module_of(rel: &Path) -> Option<String> {
    let mut parts = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    let first = parts.next()?;
    if first == "bin" || first == "lib.rs" || first == "main.rs" {
        return None;
    }
    Some(first.strip_suffix(".rs").unwrap_or(&first).to_string())
}

/// Every `crate::X` path of the library's modules, X one of `modules` and not the file's own.
fn references(src_dir: &Path, modules: &BTreeSet<String>) -> (Vec<Ref>, Vec<String>) {
    let mut files = Vec::new();
    rust_files(src_dir, &mut files);
    let mut refs = Vec::new();
    let mut problems = Vec::new();
    for path in files {
        let rel = path.strip_prefix(src_dir).unwrap();
        let Some(from) = module_of(rel) else { continue };
        let file = format!("src/{}", rel.display());
        if !modules.contains(&from) {
            problems.push(format!(
                "{file} belongs to no module that src/lib.rs declares ({from})"
            ));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (line, to) in crate_paths(&text) {
            if to != from && modules.contains(&to) {
                refs.push(Ref {
                    file: file.clone(),
                    line,
                    from: from.clone(),
                    to,
                });
            }
        }
    }
    (refs, problems)
}

/// Whether `graph` leads from `a` to `b` without the edge `skip`.
fn reaches(graph: &BTreeMap<&str, Vec<&str>>, a: &str, b: &str, skip: (&str, &str)) -> bool {
    let mut seen = BTreeSet::from([a]);
    let mut todo = vec![a];
    while let Some(m) = todo.pop() {
        for &n in graph.get(m).into_iter().flatten() {
            if (m, n) == skip {
                continue;
            }
            if n == b {
                return true;
            }
            if seen.insert(n) {
                todo.push(n);
            }
        }
    }
    false
}

fn where_(refs: &[&Ref]) -> String {
    let mut places: Vec<String> = refs
        .iter()
        .map(|r| format!("{}:{}", r.file, r.line))
        .collect();
    places.dedup();
    places.join(", ")
}

/// What is wrong with `refs` under `levels` and `allowed`, one message per problem; also the
/// report of the allowed edges still present.
fn check(
    refs: &[Ref],
    modules: &BTreeSet<String>,
    levels: &[(&str, u32)],
    allowed: &[(&str, &str, &str)],
) -> (Vec<String>, String) {
    let mut problems = Vec::new();
    let mut report = String::new();
    let level: BTreeMap<&str, u32> = levels.iter().copied().collect();
    for m in modules {
        if !level.contains_key(m.as_str()) {
            problems.push(format!(
                "module `{m}` (src/lib.rs) has no level: add it to LEVELS in tests/layers.rs"
            ));
        }
    }
    for (m, _) in levels {
        if !modules.contains(*m) {
            problems.push(format!(
                "LEVELS names `{m}`, which src/lib.rs no longer declares: remove it from LEVELS"
            ));
        }
    }
    let mut edges: BTreeMap<(&str, &str), Vec<&Ref>> = BTreeMap::new();
    for r in refs {
        edges
            .entry((r.from.as_str(), r.to.as_str()))
            .or_default()
            .push(r);
    }
    let is_allowed = |from: &str, to: &str| allowed.iter().any(|&(f, t, _)| f == from && t == to);
    // Edges up the order.
    for (&(from, to), at) in &edges {
        let (Some(&lf), Some(&lt)) = (level.get(from), level.get(to)) else {
            continue;
        };
        if lt > lf && !is_allowed(from, to) {
            problems.push(format!(
                "new back-edge {from} (level {lf}) -> {to} (level {lt}) at {}: a layer must not \
                 import a higher one; move the code down, pass it in, or (only with a reason) \
                 add (\"{from}\", \"{to}\", why) to ALLOWED in tests/layers.rs",
                where_(at)
            ));
        }
    }
    // Cycles among the other edges (they go down or sideways, so a cycle is within a level).
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    // The edges within a level, allowed or not (an allowed one is needed only on a cycle).
    let mut sideways: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for &(from, to) in edges.keys() {
        let (Some(lf), Some(lt)) = (level.get(from), level.get(to)) else {
            continue;
        };
        if lt <= lf && !is_allowed(from, to) {
            next.entry(from).or_default().push(to);
        }
        if lt == lf {
            sideways.entry(from).or_default().push(to);
        }
    }
    let mut cycles = BTreeSet::new();
    for &start in next.keys() {
        // Depth-first from `start`, looking for a way back to it.
        let mut stack = vec![(start, vec![start])];
        let mut seen = BTreeSet::new();
        while let Some((node, path)) = stack.pop() {
            for &n in next.get(node).into_iter().flatten() {
                if n == start {
                    let mut cycle = path.clone();
                    // One report per cycle, whichever module it is found from.
                    let k = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap();
                    cycle.rotate_left(k);
                    cycles.insert(cycle);
                } else if seen.insert(n) {
                    let mut p = path.clone();
                    p.push(n);
                    stack.push((n, p));
                }
            }
        }
    }
    for cycle in cycles {
        let mut text = String::new();
        for (k, m) in cycle.iter().enumerate() {
            let to = cycle[(k + 1) % cycle.len()];
            let _ = write!(text, "{m} -> {to} ({}); ", where_(&edges[&(*m, to)]));
        }
        problems.push(format!(
            "cycle within level {}: {}modules of one level may import each other, not in a circle",
            level[cycle[0]], text
        ));
    }
    // The allowlist stays honest.
    for &(from, to, why) in allowed {
        match (edges.get(&(from, to)), level.get(from), level.get(to)) {
            (None, _, _) => problems.push(format!(
                "allowed edge {from} -> {to} is gone (no crate::{to} in {from} any more): \
                 remove it from ALLOWED in tests/layers.rs"
            )),
            (Some(_), Some(lf), Some(lt))
                if lt < lf || (lt == lf && !reaches(&sideways, to, from, (from, to))) =>
            {
                problems.push(format!(
                    "allowed edge {from} -> {to} is no longer against the order (levels {lf} -> \
                     {lt}, no cycle): remove it from ALLOWED in tests/layers.rs"
                ))
            }
            (Some(at), _, _) => {
                let _ = writeln!(
                    report,
                    "  {from} -> {to} at {}\n      why: {why}",
                    where_(at)
                );
            }
        }
    }
    (problems, report)
}

fn levels_table(levels: &[(&str, u32)]) -> String {
    let mut by_level: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
    for &(m, l) in levels {
        by_level.entry(l).or_default().push(m);
    }
    by_level
        .iter()
        .map(|(l, ms)| format!("  {l}: {}\n", ms.join(", ")))
        .collect()
}

#[test]
fn layers_point_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let modules = declared_modules(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let (refs, mut problems) = references(&src, &modules);
    let (more, report) = check(&refs, &modules, LEVELS, ALLOWED);
    problems.extend(more);
    problems.extend(narrow_problems(&refs, ONLY));

    let mut edges: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for r in &refs {
        *edges.entry((r.from.as_str(), r.to.as_str())).or_default() += 1;
    }
    eprintln!("layer levels (a module imports only lower levels, or its own without a cycle):");
    eprint!("{}", levels_table(LEVELS));
    eprintln!(
        "{} crate:: paths between modules, {} module edges:",
        refs.len(),
        edges.len()
    );
    for ((from, to), n) in &edges {
        eprintln!("  {from} -> {to} ({n})");
    }
    eprintln!("allowed back-edges ({}):", ALLOWED.len());
    eprint!("{report}");
    if problems.is_empty() {
        eprintln!("layer order: ok");
    } else {
        for p in &problems {
            eprintln!("LAYER ORDER: {p}");
        }
        panic!(
            "the layer order is broken: {} problem(s), listed above",
            problems.len()
        );
    }
}

fn refs_of(file: &str, from: &str, src: &str) -> Vec<Ref> {
    crate_paths(src)
        .into_iter()
        .filter(|(_, to)| to != from)
        .map(|(line, to)| Ref {
            file: file.into(),
            line,
            from: from.into(),
            to,
        })
        .collect()
}

fn test_modules() -> BTreeSet<String> {
    LEVELS.iter().map(|(m, _)| m.to_string()).collect()
}

#[test]
fn the_parser_finds_paths_in_code_only() {
    let src = r##"
//! Docs may name [`crate::engine::Engine`] freely.
use crate::types::Pos;
use crate::{rules::Board, search::{Limits, Searcher}, self};
/* a block /* nested */ crate::protocol */
fn f<'a>(x: &'a str) -> char {
    let _ = "crate::protocol::run";
    let _ = r#"crate::arena "quoted" "#;
    let _ = '"'; let _ = '\''; let _ = b'x';
    let _ = crate :: eval::EvalBoard::new;
    let _ = $crate::threat::vcf; // crate::bench in a comment
    let _ = pub(crate) + my_crate::x + crate_of::y;
    '{'
}
"##;
    let names: Vec<(usize, String)> = crate_paths(src);
    let expect = [
        (3, "types"),
        (4, "rules"),
        (4, "search"),
        (10, "eval"),
        (11, "threat"),
    ];
    let expect: Vec<(usize, String)> = expect.iter().map(|&(l, m)| (l, m.to_string())).collect();
    assert_eq!(names, expect);
}

#[test]
fn a_synthetic_back_edge_fails_the_check() {
    let modules = test_modules();
    // The rules layer reaching up into the search and the engine.
    let refs = refs_of(
        "src/rules/board.rs",
        "rules",
        "use crate::types::Pos;\nuse crate::{search::Searcher, engine::Engine};\n",
    );
    let (problems, _) = check(&refs, &modules, LEVELS, &[]);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(problems[0]
        .starts_with("new back-edge rules (level 2) -> engine (level 6) at src/rules/board.rs:2"));
    assert!(problems[1]
        .starts_with("new back-edge rules (level 2) -> search (level 5) at src/rules/board.rs:2"));
    // The same edge, allowed, passes; an allowed edge that is gone fails.
    let allowed = [
        ("rules", "search", "test"),
        ("rules", "engine", "test"),
        ("rules", "protocol", "gone"),
    ];
    let (problems, _) = check(&refs, &modules, LEVELS, &allowed);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].starts_with("allowed edge rules -> protocol is gone"));
    // An allowed edge that points down is no longer a debt.
    let (problems, _) = check(&refs, &modules, LEVELS, &[("rules", "types", "down")]);
    assert!(problems
        .iter()
        .any(|p| p.starts_with("allowed edge rules -> types is no longer against the order")));
}

#[test]
fn a_cycle_within_a_level_fails_the_check() {
    let modules = test_modules();
    let mut refs = refs_of("src/arena/mod.rs", "arena", "use crate::tools::bench;\n");
    refs.extend(refs_of(
        "src/tools/mod.rs",
        "tools",
        "\n\nuse crate::arena::Referee;\n",
    ));
    let (problems, _) = check(&refs, &modules, LEVELS, &[]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].starts_with(
        "cycle within level 7: arena -> tools (src/arena/mod.rs:1); tools -> arena (src/tools/mod.rs:3);"
    ));
    // One edge of the cycle allowed: passes, and the allowance is needed.
    let (problems, _) = check(&refs, &modules, LEVELS, &[("arena", "tools", "test")]);
    assert!(problems.is_empty(), "{problems:#?}");
    // A sideways edge without a cycle needs no allowance.
    let (problems, _) = check(&refs[1..], &modules, LEVELS, &[("tools", "arena", "test")]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].starts_with("allowed edge tools -> arena is no longer against the order"));
}

#[test]
fn modules_and_levels_match() {
    let modules: BTreeSet<String> =
        declared_modules("pub mod types;\nmod rules;\n// mod old;\npub mod extra;\n");
    let (problems, _) = check(
        &[],
        &modules,
        &[("types", 0), ("rules", 1), ("gone", 2)],
        &[],
    );
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(problems[0].starts_with("module `extra` (src/lib.rs) has no level"));
    assert!(problems[1].starts_with("LEVELS names `gone`"));
}

#[test]
fn the_protocol_imports_only_the_front_door() {
    let refs = refs_of(
        "src/protocol/mod.rs",
        "protocol",
        "use crate::engine::Engine;\nuse crate::search::RootEvent;\nuse crate::types::Pos;\n",
    );
    let problems = narrow_problems(&refs, ONLY);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].starts_with("protocol -> search at src/protocol/mod.rs:2"));
    assert!(narrow_problems(&refs[..1], ONLY).is_empty());
}
