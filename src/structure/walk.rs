//! The one walk over a syntax tree that turns definitions into symbols: a `TreeCursor`
//! moved by hand with an explicit stack of frames, so that no depth of nesting can
//! exhaust the thread's stack, and every node is looked at a constant number of times.

use tree_sitter::{Node, Tree};

use super::bodies::{CommentLines, Scanned};
use super::collect::Collected;
use super::deadline::Deadline;
use super::def::{Def, last_row};
use super::python_bodies::Tail;
use super::rules::{Context, Inside, Rules};
use super::symbol::{Body, OutlineError, Symbol};

/// Definitions nested deeper than this are not listed (their insides still are, as
/// children of the deepest listed one): real code never comes near, and the cap keeps
/// the qualified names of pathological nesting small.
const MAX_SYMBOL_DEPTH: usize = 64;

/// How many functions deep a curried function's body is looked for.
const MAX_CURRIED: usize = 8;

/// The deadline is looked at once every this many nodes: often enough to stop within
/// milliseconds, rarely enough to cost nothing.
const CHECK_EVERY: u32 = 1 << 12;

/// Enclosing kinds that make a `function` defined directly inside them a `method`.
const METHOD_HOSTS: &[&str] = &["class", "struct", "interface", "impl", "enum"];

/// Consecutive comment, attribute or decorator lines just above a node, with no blank
/// line between: the lines a definition right below them starts with (0-based rows).
#[derive(Clone, Copy)]
struct Run {
    first: usize,
    /// The byte column where the run starts on its first row.
    first_col: usize,
    last: usize,
}

/// The node being visited at one depth of the walk.
struct Frame<'t> {
    node: Node<'t>,
    /// The run of leading siblings that ends right before `node`, if any.
    run: Option<Run>,
    /// Whether `node` is the first thing on its line (no other token before it there).
    own_line: bool,
    /// Whether `node` defines the innermost open symbol.
    opens: bool,
}

/// A symbol still open where a piece's tree stops being used: what lists it, to be found
/// again in the next piece's tree (parsed after the bytes that open it).
#[derive(Clone, Debug)]
pub(super) struct Open {
    index: usize,
    /// The prefix its members' qualified names take.
    scope: String,
    /// The node that defines it: where it starts and its kind.
    start: usize,
    kind: u16,
}

/// The walk's state: the path from the root to the current node, and the symbols.
struct Walker<'a, 't> {
    src: &'a [u8],
    /// Whole comment lines the tree was parsed without: leading lines all the same.
    comments: &'a [CommentLines],
    /// Python: the tails of bodies the tree was parsed without.
    tails: &'a [Tail],
    /// Nodes that start before this byte were walked in an earlier piece.
    from: usize,
    /// The symbols open at `from`, outermost first.
    resume: &'a [Open],
    /// The nodes (start, kind) of the constructs open at `limit`.
    open_at_limit: &'a [(usize, u16)],
    /// The symbols they define, outermost first.
    reaching: Vec<Open>,
    rules: &'a Rules,
    separator: &'static str,
    frames: Vec<Frame<'t>>,
    /// The frames' nodes, for the rules' [`Context`].
    nodes: Vec<Node<'t>>,
    out: &'a mut Collected,
    /// Why the walk must stop early (too many symbols), if it must.
    failed: Option<OutlineError>,
    /// The open symbols, outermost first.
    open: Vec<Open>,
    /// The last row of the last token passed, to tell whether a node starts its line.
    last_token_row: Option<usize>,
    /// The first `{` at or after the last node asked about, for
    /// [`Walker::holds_no_definition`]. Nodes are asked about in pre-order, whose starts
    /// never go back, so the source is searched once over.
    next_brace: NextMatch,
    /// The first `=>` likewise, for [`Inside::InBracesOrArrows`].
    next_arrow: NextMatch,
}

/// Where a pattern next occurs in the source, kept while the positions asked about only
/// move forward.
#[derive(Default)]
struct NextMatch(Option<usize>);

impl NextMatch {
    /// The first match at or after `start` (`usize::MAX`: none); `find` searches from a
    /// position and gives the match's offset from there.
    fn at_or_after(&mut self, start: usize, find: impl Fn(usize) -> Option<usize>) -> usize {
        match self.0 {
            Some(at) if at >= start => at,
            _ => {
                let at = find(start).map_or(usize::MAX, |i| start + i);
                self.0 = Some(at);
                at
            }
        }
    }
}

/// Appends the symbols of `tree`, parsed from the file `src` without what the bodies
/// scan found to pass over (if it was), to `out` in pre-order: those
/// of the nodes that start in `from..limit` (a node that starts before `from` and defines
/// one of `resume` is that symbol again, its end moved to the node's); `Timeout` when
/// `deadline` passes first. Returns the symbols that the nodes `open_at_limit` (start,
/// kind) define.
#[allow(clippy::too_many_arguments)]
pub(super) fn symbols(
    tree: &Tree,
    (src, without): (&[u8], Option<&Scanned>),
    (from, limit): (usize, usize),
    resume: &[Open],
    open_at_limit: &[(usize, u16)],
    rules: &Rules,
    separator: &'static str,
    deadline: Deadline,
    out: &mut Collected,
) -> Result<Vec<Open>, OutlineError> {
    let mut walker = Walker {
        src,
        comments: without.map_or(&[], |s| &s.comments),
        tails: without.map_or(&[], |s| &s.tails),
        from,
        resume,
        open_at_limit,
        reaching: Vec::new(),
        rules,
        separator,
        frames: Vec::new(),
        nodes: Vec::new(),
        out,
        failed: None,
        open: Vec::new(),
        last_token_row: None,
        next_brace: NextMatch::default(),
        next_arrow: NextMatch::default(),
    };
    let mut cursor = tree.walk();
    walker.enter(cursor.node(), None);
    let mut steps = 0u32;
    loop {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(CHECK_EVERY) && deadline.passed() {
            return Err(OutlineError::Timeout);
        }
        if let Some(error) = walker.failed {
            return Err(error);
        }
        // A node that starts at `limit` or later is left out, and so are its siblings
        // after it. A node that can hold no definition is passed over whole, as a token.
        if !walker.holds_no_definition(cursor.node()) && cursor.goto_first_child() {
            if cursor.node().start_byte() < limit {
                walker.enter(cursor.node(), None);
                continue;
            }
            cursor.goto_parent();
        }
        walker.last_token_row = Some(last_row(cursor.node()));
        loop {
            let run = walker.leave();
            if cursor.goto_next_sibling() {
                if cursor.node().start_byte() < limit {
                    walker.enter(cursor.node(), run);
                    break;
                }
                if !cursor.goto_parent() {
                    break;
                }
                continue;
            }
            if !cursor.goto_parent() {
                break;
            }
        }
        if walker.frames.is_empty() {
            return walker.failed.map_or(Ok(walker.reaching), Err);
        }
    }
}

impl<'t> Walker<'_, 't> {
    /// Whether nothing below `node` can define a symbol, as its kind's [`Inside`] says
    /// (a tree with an error in it may hold anything). Statements make most of a
    /// function's nodes: an 8 MiB function of them spent a quarter of its outline's time
    /// in the walk, and a Python module of one long literal more than a third.
    fn holds_no_definition(&mut self, node: Node) -> bool {
        // The root is always walked: a file of `mod a;` lines holds no brace.
        if self.frames.len() < 2 || self.rules.may_define(node) || node.has_error() {
            return false;
        }
        let arrows = match self.rules.inside(node) {
            Inside::Anywhere => return false,
            Inside::Nowhere => return true,
            Inside::InBraces => false,
            Inside::InBracesOrArrows => true,
        };
        let (start, end) = (node.start_byte(), node.end_byte());
        let src = self.src;
        if arrows
            && self
                .next_arrow
                .at_or_after(start, |from| memchr::memmem::find(src.get(from..)?, b"=>"))
                < end
        {
            return false;
        }
        self.next_brace
            .at_or_after(start, |from| memchr::memchr(b'{', src.get(from..)?))
            >= end
    }

    /// Steps onto `node`, which `run` directly precedes, and lists it if it defines.
    fn enter(&mut self, node: Node<'t>, run: Option<Run>) {
        // A node on the first line of a parent that defines nothing follows the parent's
        // leading lines: Python's block after `class A:` (whose comment line the tree
        // hangs on the class) and the `def` that starts it, C's `struct V {` after
        // `static`, a function after `extern "C"`.
        let run = run.or_else(|| {
            self.frames
                .last()
                .filter(|parent| {
                    !parent.opens && parent.node.start_position().row == node.start_position().row
                })
                .and_then(|parent| parent.run)
        });
        let own_line = self
            .last_token_row
            .is_none_or(|row| node.start_position().row > row);
        self.frames.push(Frame {
            node,
            run,
            own_line,
            opens: false,
        });
        self.nodes.push(node);
        if node.start_byte() < self.from {
            self.resume_at(node);
            return;
        }
        if self.open.len() < MAX_SYMBOL_DEPTH
            && self.failed.is_none()
            && self.rules.may_define(node)
        {
            let depth = self.frames.len() - 1;
            let context = Context {
                src: self.src,
                ancestors: &self.nodes[..depth],
                enclosing: self.open.last().map(|open| {
                    let symbol = &self.out.symbols[open.index];
                    (symbol.kind, symbol.name.as_str())
                }),
            };
            if let Some(def) = (self.rules.classify)(node, &context) {
                self.add(def, node, depth);
            }
        }
    }

    /// A node an earlier piece walked: when it defines a symbol still open, that symbol
    /// is open again, and ends no earlier than the node.
    fn resume_at(&mut self, node: Node<'t>) {
        let Some(open) = self.resume.iter().find(|open| {
            open.start == node.start_byte()
                && open.kind == node.kind_id()
                && !self.open.iter().any(|o| o.index == open.index)
        }) else {
            return;
        };
        let end = last_row(node) as u64 + 1;
        let body = self.body(self.out.symbols[open.index].kind, node);
        let symbol = &mut self.out.symbols[open.index];
        symbol.end_line = symbol.end_line.max(end);
        // Where its body starts was seen first; where it ends, last.
        match (&mut symbol.body, body) {
            (Some(old), Some(new)) => {
                old.last = new.last;
                old.close = new.close;
            }
            (old @ None, new) => *old = new,
            _ => {}
        }
        self.open.push(open.clone());
        if self
            .open_at_limit
            .contains(&(node.start_byte(), node.kind_id()))
        {
            self.reaching.push(open.clone());
        }
        if let Some(frame) = self.frames.last_mut() {
            frame.opens = true;
        }
    }

    /// The body of a function, method or constructor that `node` defines.
    fn body(&self, kind: &str, node: Node) -> Option<Body> {
        let line = |row: usize| row as u64 + 1;
        if !matches!(kind, "function" | "method" | "constructor") {
            return None;
        }
        body_of(node).map(|mut body| {
            // A curried function (`(a) => (b) => {…}`): its body is the innermost
            // function's, whose head is the outer one's signature too.
            for _ in 0..MAX_CURRIED {
                match body.kind() {
                    "arrow_function"
                    | "function_expression"
                    | "function"
                    | "generator_function" => match body.child_by_field_name("body") {
                        Some(inner) => body = inner,
                        None => break,
                    },
                    _ => break,
                }
            }
            let (start, end) = (body.start_position().row, body.end_position().row);
            match self.src.get(body.start_byte()) == Some(&b'{') {
                true => Body {
                    open: line(start),
                    first: line(start) + 1,
                    last: line(end).saturating_sub(1),
                    close: (end > start).then(|| line(end)),
                },
                false => {
                    // Python's block: the line of the `:` before it opens it, and
                    // every line after that one is the body's, a comment or blank
                    // line before its first statement too (SPEC §18).
                    let mut colon = body.prev_sibling();
                    while let Some(comment) = colon.filter(|c| c.is_extra()) {
                        colon = comment.prev_sibling();
                    }
                    let open = colon.map_or(start, |p| p.end_position().row);
                    Body {
                        open: line(open),
                        first: line(open) + 1,
                        last: line(self.tail(last_row(body))),
                        close: None,
                    }
                }
            }
        })
    }

    /// Steps off the current node; returns the run of leading lines that ends with it,
    /// for the sibling that follows.
    fn leave(&mut self) -> Option<Run> {
        let frame = self.frames.pop()?;
        self.nodes.pop();
        if frame.opens {
            self.open.pop();
        }
        if !self.rules.is_leading(frame.node) {
            return None;
        }
        let first = frame.node.start_position().row;
        let last = last_row(frame.node);
        if !frame.own_line {
            // A comment after an attribute or another comment on the same line
            // (`#[inline] // why`, `/* a */ // b`) continues the run that line is in.
            return frame
                .run
                .filter(|run| run.last == first)
                .map(|run| Run { last, ..run });
        }
        let (top, top_col) = self.top(first, frame.node.start_position().column);
        Some(match frame.run {
            Some(run) if top <= run.last + 1 => Run { last, ..run },
            _ => Run {
                first: top,
                first_col: top_col,
                last,
            },
        })
    }

    /// The last row of a node that ends on `row`, with the tail of a body the tree was
    /// parsed without that starts on the next row.
    fn tail(&self, row: usize) -> usize {
        let next = self.tails.partition_point(|t| t.first_row <= row);
        match self.tails.get(next) {
            Some(t) if t.first_row == row + 1 => t.last_row,
            _ => row,
        }
    }

    /// The row and column where the lines of a node at `row` and `col` start with the
    /// comment lines right above it that the tree was parsed without.
    fn top(&self, row: usize, col: usize) -> (usize, usize) {
        let above = self.comments.partition_point(|c| c.last_row + 1 < row);
        match self.comments.get(above) {
            Some(c) if c.last_row + 1 == row => (c.first_row, c.first_col),
            _ => (row, col),
        }
    }

    /// Lists the definition `def` that `node`, at `depth`, makes.
    fn add(&mut self, def: Def, node: Node<'t>, depth: usize) {
        let outer = &self.frames[depth.saturating_sub(def.outer_up)];
        let outer_row = outer.node.start_position().row;
        let (top, top_col) = self.top(outer_row, outer.node.start_position().column);
        let (start, start_col) = match (def.start_row, outer.run) {
            (Some(row), _) if row > outer_row => (row, 0),
            (_, Some(run)) if top <= run.last + 1 => (run.first, run.first_col),
            _ => (top, top_col),
        };
        let end = self.tail(last_row(outer.node).max(last_row(node)));
        let (parent, prefix) = match self.open.last() {
            Some(open) => (Some(open.index), open.scope.as_str()),
            None => (None, ""),
        };
        let kind = match parent {
            Some(index)
                if def.kind == "function"
                    && METHOD_HOSTS.contains(&self.out.symbols[index].kind) =>
            {
                "method"
            }
            _ => def.kind,
        };
        let mut owner = prefix.to_string();
        if let Some(qualifier) = &def.qualifier {
            join(&mut owner, qualifier, self.separator);
        }
        let mut qualified_name = owner.clone();
        join(&mut qualified_name, &def.name, self.separator);
        let scope = match &def.scope {
            Some(scope) => {
                join(&mut owner, scope, self.separator);
                owner
            }
            None => qualified_name.clone(),
        };
        let line = |row: usize| row as u64 + 1;
        let body = self.body(kind, node);
        let mut symbol = Symbol {
            name: def.name,
            qualified_name,
            kind,
            start_line: line(start),
            start_col: start_col as u64,
            def_line: line(def.name_row),
            end_line: line(end),
            depth: self.open.len() as u32,
            parent,
            body,
        };
        // The overload signatures right above a definition of the same name are its
        // lines (SPEC §15 "More symbols").
        if let Some(overload) = self.out.take_overload(|last| {
            last.parent == symbol.parent
                && last.kind == symbol.kind
                && last.qualified_name == symbol.qualified_name
        }) {
            // Its definition starts with the first overload: the outline shows that line.
            symbol.start_line = overload.start_line;
            symbol.start_col = overload.start_col;
            symbol.def_line = overload.def_line;
        }
        let index = match self.out.push(symbol) {
            Ok(index) => index,
            Err(error) => {
                self.failed = Some(error);
                return;
            }
        };
        self.out.last_is_overload = def.overload;
        let open = Open {
            index,
            scope,
            start: node.start_byte(),
            kind: node.kind_id(),
        };
        if self
            .open_at_limit
            .contains(&(node.start_byte(), node.kind_id()))
        {
            self.reaching.push(open.clone());
        }
        self.open.push(open);
        if let Some(frame) = self.frames.last_mut() {
            frame.opens = true;
        }
    }
}

/// The body of a function defined by `node`: its `body` field, or that of the function
/// it holds (`const f = () => {…}`, `a.b = function () {…}`), a few levels down at most.
fn body_of(node: Node) -> Option<Node> {
    let mut level = vec![node];
    for _ in 0..4 {
        let mut next = Vec::new();
        for node in level {
            if let Some(body) = node.child_by_field_name("body") {
                return Some(body);
            }
            let mut cursor = node.walk();
            next.extend(node.named_children(&mut cursor));
        }
        level = next;
    }
    None
}

/// Appends `part` to the qualified name `name`, with `separator` if needed.
fn join(name: &mut String, part: &str, separator: &str) {
    if !name.is_empty() {
        name.push_str(separator);
    }
    name.push_str(part);
}
