//! `agentread --mcp` (SPEC §12): the `read` tool over the Model Context Protocol on
//! stdio, with the official SDK (`rmcp`). A call goes through the same `Request` →
//! answer → renderers path as the command line; only the roots and images are new here.
//! The async runtime starts only in this mode.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use base64::Engine as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, ServerInitializeError};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt};
use tokio::sync::{Mutex, Semaphore};

use crate::args::cli::Format;
use crate::args::params::Wording;
use crate::args::request::{Request, Settings};
use crate::args::schema;
use crate::error::{Error, ErrorCode};
use crate::outcome::Answer;
use crate::outcome::Success;
use crate::render::{self, Printer, Style};
use crate::workspace::sandbox::Root;
use crate::{answer, names, target};

pub(crate) mod transport;

/// Serves until standard input closes; the first failure is one of starting up.
pub fn serve(settings: Settings, fixed: Option<Root>) -> Option<ErrorCode> {
    keep_freed_memory();
    crate::structure::long_lived();
    // One thread serves the protocol and reads small files (see `QUICK_READ`); other
    // reads run on blocking threads (each holds at most a few hundred KiB), so they
    // never wait for one another. (The multi-thread scheduler would also link libm into
    // every start of the command line, for its statistics.)
    let runtime = tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(32)
        .enable_all()
        .build();
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(e) => return startup_failed(&format!("the runtime did not start: {e}")),
    };
    let server = Server {
        heavy: Arc::new(Semaphore::new(HEAVY_AT_ONCE)),
        small_parses: Arc::new(Semaphore::new(SMALL_PARSES_AT_ONCE)),
        settings: Arc::new(settings),
        fixed: fixed.map(Served::new),
        roots: Mutex::new(None),
    };
    let served = runtime.block_on(async {
        let service = match server.serve(transport::Stdio::new()).await {
            Ok(service) => service,
            // The client left (closed our stdin or stdout) before the handshake ended:
            // as on the command line, a closed output ends the run quietly.
            Err(
                ServerInitializeError::ConnectionClosed(_)
                | ServerInitializeError::TransportError { .. }
                | ServerInitializeError::Cancelled,
            ) => return Ok(()),
            Err(e) => return Err(e.to_string()),
        };
        service.waiting().await.map(drop).map_err(|e| e.to_string())
    });
    // Calls still reading when stdin closed have no one to answer to.
    runtime.shutdown_background();
    served.err().and_then(|reason| startup_failed(&reason))
}

/// glibc gives the top of its heap back to the kernel as soon as 128 KiB of it is free,
/// and the next call takes it again: a read's answer (its window, its text, its JSON:
/// ~30 KB each for a 300-line file) crossed that line at every call, which cost two `brk`
/// calls and ten page faults a read, over a third of the server's time. The server keeps up
/// to 16 MiB of freed memory for the next calls; blocks of 1 MiB and more still get their
/// own mapping, given back when freed.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's thresholds; it is called before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 16 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

fn startup_failed(reason: &str) -> Option<ErrorCode> {
    eprintln!("agentread: IO_ERROR: The MCP server stopped: {reason}.");
    Some(ErrorCode::IoError)
}

struct Server {
    /// The turns of heavy reads (`HEAVY_AT_ONCE`).
    heavy: Arc<Semaphore>,
    /// The turns of parses of small source files (`SMALL_PARSES_AT_ONCE`).
    small_parses: Arc<Semaphore>,
    settings: Arc<Settings>,
    /// `--root` or `AGENTREAD_ROOT`: the only root, and the client is not asked.
    fixed: Option<Arc<Served>>,
    /// The roots as last found (the client's, or the default root for a client
    /// without roots), or why none serves; None when they must be asked (again).
    roots: Mutex<Option<Result<Vec<Arc<Served>>, Error>>>,
}

/// A root calls are answered in, with `context.cwd` for it: the server never changes
/// its directory, so that is found once, not at every call.
struct Served {
    root: Arc<Root>,
    cwd: Option<String>,
}

impl Served {
    fn new(root: Root) -> Arc<Served> {
        let cwd = std::env::current_dir()
            .ok()
            .and_then(|dir| root.relative(&dir));
        Arc::new(Served {
            root: Arc::new(root),
            cwd,
        })
    }
}

impl Server {
    /// The roots a call is answered in: the fixed root, else the client's (asked once,
    /// and again after `notifications/roots/list_changed`), else, for a client that does
    /// not declare roots, the default root (the git work tree holding the current
    /// directory, else the current directory: SPEC §17). A client that declares roots but gives
    /// no usable one (none, only missing directories or other URIs, or no answer) gets
    /// ACCESS_DENIED: the server never falls back to its own directory for it (SPEC §12).
    // Roots are deprecated by a newer protocol revision (SEP-2577), but SPEC §12 and
    // today's hosts use them.
    #[allow(deprecated)]
    async fn roots(&self, peer: &rmcp::Peer<RoleServer>) -> Result<Vec<Arc<Served>>, Error> {
        if let Some(root) = &self.fixed {
            return Ok(vec![root.clone()]);
        }
        let mut roots = self.roots.lock().await;
        if let Some(found) = roots.as_ref() {
            return found.clone();
        }
        let client_has_roots = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        let no_usable_root = |why: String| {
            Error::new(
                ErrorCode::AccessDenied,
                format!(
                    "The client's roots give no usable directory ({why}); the server does not fall back to its own directory. Start it with --root DIR."
                ),
            )
        };
        let found = match client_has_roots {
            false => Root::by_default().map(|root| vec![Served::new(root)]),
            // A client that declares roots but never answers must not hang every call.
            // How long its answer is awaited is `--roots-timeout`; without one, every read is
            // refused until the client says its roots changed.
            true => {
                match tokio::time::timeout(self.settings.roots_timeout, peer.list_roots()).await {
                    Err(_) => Err(no_usable_root(format!(
                        "it did not answer roots/list within {} s",
                        self.settings.roots_timeout.as_secs_f64()
                    ))),
                    Ok(Err(e)) => Err(no_usable_root(format!(
                        "its answer to roots/list failed: {e}"
                    ))),
                    Ok(Ok(listed)) => {
                        let given = listed.roots.len();
                        // Each root holds a descriptor: one for each directory, and at
                        // most MAX_ROOTS (a list of 300 roots took every descriptor a
                        // process has on macOS, and every read failed).
                        let mut seen = std::collections::HashSet::new();
                        let usable: Vec<Arc<Served>> = listed
                            .roots
                            .iter()
                            .filter_map(|root| file_uri_path(&root.uri))
                            .filter(|dir| seen.insert(dir.clone()))
                            .filter_map(|dir| {
                                Root::open(Path::new(OsStr::from_bytes(&dir)), "root").ok()
                            })
                            .take(MAX_ROOTS)
                            .map(Served::new)
                            .collect();
                        match (usable.is_empty(), given) {
                            (false, _) => Ok(usable),
                            (true, 0) => Err(no_usable_root("it lists no roots".to_string())),
                            (true, 1) => Err(no_usable_root(
                                "its one root is not an existing directory named by a file:// URI"
                                    .to_string(),
                            )),
                            (true, n) => Err(no_usable_root(format!(
                                "none of its {n} roots is an existing directory named by a file:// URI"
                            ))),
                        }
                    }
                }
            }
        };
        // A current directory that cannot be opened is tried again at the next call.
        if client_has_roots || found.is_ok() {
            *roots = Some(found.clone());
        }
        found
    }
    /// Answers one call: its arguments are checked once, then the root is chosen by its
    /// path, the target resolved, and the read done here or on a blocking thread.
    async fn answer(
        &self,
        arguments: JsonObject,
        peer: &rmcp::Peer<RoleServer>,
        started: Instant,
        cancelled: Arc<AtomicBool>,
    ) -> CallToolResult {
        let settings = &self.settings;
        let roots = match self.roots(peer).await {
            Ok(roots) => roots,
            Err(error) => return failed(&arguments, error, started, settings),
        };
        let call = match Request::tool_call(&arguments) {
            Ok(call) => call,
            Err(error) => {
                // Refused before any path was looked at: answered in the first root.
                let answer = refused(&arguments, error, started);
                return result(&answer, settings, roots.first());
            }
        };
        let Some(root) = root_for(call.path(), &roots).cloned() else {
            let error = Error::internal("No root to answer in.");
            return failed(&arguments, error, started, settings);
        };
        let request = call.request(arguments, settings.clone(), root.root.clone());
        if request.shared_budget() {
            return self.answer_several(request, root, started, cancelled).await;
        }
        let target = request.targets[0].clone();
        let plan = match target::resolve(&request, &target, request.budget()) {
            Ok(plan) => plan,
            Err(error) => {
                let answer = answer::finish(&request, &target, started, Err(error));
                return result(&answer, settings, Some(&root));
            }
        };
        // A small regular file is read here: that takes a few dozen microseconds, less
        // than handing the call to another thread and back. Anything else (a size of 0
        // proves nothing: /proc files; a parse or a PDF can take seconds) runs off the
        // runtime's thread, so that no read holds up the others.
        if plan
            .file_size()
            .is_some_and(|size| size > 0 && size <= QUICK_READ)
            && !answer::parses(&request, &plan)
        {
            let read = answer::read(&request, plan, None);
            let answer = answer::finish(&request, &target, started, read);
            return result(&answer, settings, Some(&root));
        }
        // A heavy read waits for its turn (without holding a thread): the server's memory
        // is then bounded by a few heavy reads, not by the calls in flight.
        // With its turn, it also waits while the answers not written yet are many: a
        // client that does not read them would otherwise have the server hold every heavy
        // answer in flight.
        // The structure of a small source file has turns of its own: its parse takes
        // milliseconds, and it does not wait behind a PDF's ten seconds (SPEC §12: no
        // read, however slow, stops the server from answering the others).
        let turn = if answer::small_source_parse(&request, &plan, QUICK_READ) {
            self.small_parses.clone().acquire_owned().await.ok()
        } else if answer::heavy(&request, &plan) {
            let turn = self.heavy.clone().acquire_owned().await.ok();
            transport::room_to_answer().await;
            turn
        } else {
            None
        };
        let served = root.clone();
        let settings = settings.clone();
        let params = request.params.for_target(&target);
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            answer::document::cancellable(cancelled, || {
                let read = answer::read(&request, plan, None);
                let answer = answer::finish(&request, &target, started, read);
                result(&answer, &settings, Some(&served))
            })
        })
        .await
        .unwrap_or_else(|_| {
            let error =
                Error::internal("agentread failed unexpectedly; please report this as a bug.");
            failed(&params, error, started, &self.settings)
        })
    }
}

impl Server {
    /// A call with `paths`: every target in turn off the runtime's thread, in one result.
    async fn answer_several(
        &self,
        request: Request,
        root: Arc<Served>,
        started: Instant,
        cancelled: Arc<AtomicBool>,
    ) -> CallToolResult {
        let settings = self.settings.clone();
        let params = request.params.for_target(&request.targets[0]);
        // Its targets are not resolved yet, and any may be heavy: the call takes a turn.
        let turn = self.heavy.clone().acquire_owned().await.ok();
        transport::room_to_answer().await;
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            answer::document::cancellable(cancelled, || {
                let answers: Vec<Answer> = answer::answer_all(&request);
                several_results(&answers, &settings, &root)
            })
        })
        .await
        .unwrap_or_else(|_| {
            let error =
                Error::internal("agentread failed unexpectedly; please report this as a bug.");
            failed(&params, error, started, &self.settings)
        })
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("agentread", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![read_tool()]))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == schema::TOOL_NAME).then(read_tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != schema::TOOL_NAME {
            return Err(McpError::invalid_params(
                format!(
                    "Unknown tool '{}': this server has one tool, 'read'.",
                    request.name
                ),
                None,
            ));
        }
        let started = Instant::now();
        let arguments = request.arguments.unwrap_or_default();
        // `notifications/cancelled`: rmcp cancels the call's token, the transport drops
        // its answer, and here the work stops: a call waiting for its turn never starts,
        // one reading sees its flag (`answer::document::cancellable`).
        let cancelled = Arc::new(AtomicBool::new(false));
        tokio::select! {
            biased;
            () = context.ct.cancelled() => {
                cancelled.store(true, Ordering::Relaxed);
                Err(McpError::new(rmcp::model::ErrorCode(-32800), "Request cancelled.", None))
            }
            answer = self.answer(arguments, &context.peer, started, cancelled.clone()) => {
                Ok(answer.into())
            }
        }
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        *self.roots.lock().await = None;
    }
}

/// The `read` tool: the definition `--tool-schema` prints, with its hints.
fn read_tool() -> Tool {
    // The parameters' schema is an object: `--tool-schema` prints the same one.
    let schema = schema::parameters()
        .as_object()
        .cloned()
        .unwrap_or_default();
    Tool::new(schema::TOOL_NAME, schema::TOOL_DESCRIPTION, schema).with_annotations(
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
}

/// The most roots of a client's that are served: real clients list a few.
const MAX_ROOTS: usize = 64;

/// Heavy reads (`answer::heavy`) run at most this many at once: each may take up to the
/// 256 MiB its kind is bounded by, so the server stays under 1 GiB with 64 calls in
/// flight, whatever they read.
const HEAVY_AT_ONCE: usize = 2;

/// Parses of source files up to `QUICK_READ` run at most this many at once, beside the
/// heavy reads: each holds at most 112 MiB (a dense minified file; real code of that size
/// a few MiB), so two keep the server under its 1 GiB with two heavy reads running.
const SMALL_PARSES_AT_ONCE: usize = 2;

/// Files up to this size are read on the protocol's thread (see `Server::answer`).
const QUICK_READ: u64 = 256 * 1024;

/// The root a call is answered in: the one that holds an absolute path, else the first
/// (`roots` holds one root at least: the default root when nothing else).
fn root_for<'a>(path: Option<&OsStr>, roots: &'a [Arc<Served>]) -> Option<&'a Arc<Served>> {
    let holds = |r: &&Arc<Served>| {
        path.is_some_and(|p| p.as_bytes().starts_with(b"/") && r.root.holds(p.as_bytes()))
    };
    roots.iter().find(holds).or(roots.first())
}

/// A call refused before any file was read, outside any root.
fn failed(
    arguments: &JsonObject,
    error: Error,
    started: Instant,
    settings: &Settings,
) -> CallToolResult {
    result(&refused(arguments, error, started), settings, None)
}

fn refused(arguments: &JsonObject, error: Error, started: Instant) -> Answer {
    Answer {
        label: String::new(),
        params_input: arguments.clone(),
        time_ms: started.elapsed().as_millis() as u64,
        result: Err(error),
    }
}

/// How the server renders: the tool's wording, no colour, no terminal.
fn context(format: Format, settings: &Settings, root: Option<&Arc<Served>>) -> Style {
    Style {
        format,
        max_bytes: settings.max_bytes,
        hint: true,
        color: false,
        terminal: false,
        stderr_terminal: false,
        cwd: root.and_then(|r| r.cwd.clone()),
        several: false,
        context_lines: false,
        wording: Wording::Tool,
    }
}

/// The tool result: the text mode's words, the JSON envelope, and for an image its bytes.
fn result(answer: &Answer, settings: &Settings, root: Option<&Arc<Served>>) -> CallToolResult {
    let json_context = context(Format::Json, settings, root);
    let envelope = render::envelope::Envelope::of(&json_context, answer);
    let structured = transport::raw_json(&envelope);
    let (text, image) = answer_text(answer, settings, root);
    let mut content = vec![ContentBlock::text(text)];
    content.extend(image);
    let mut result = match answer.result.is_err() {
        true => CallToolResult::error(content),
        false => CallToolResult::success(content),
    };
    result.structured_content = Some(structured);
    result
}

/// The most image data (decoded bytes, before base64) the images of one call with `paths`
/// carry (SPEC §16); an image past it is answered with its text block only.
const MAX_CALL_IMAGE_BYTES: usize = 20 << 20;

/// The result of a call with `paths` (SPEC §16): one text block with each answer under
/// its `==> target <==` header, any images after it, and `{"results": [...]}`; an error
/// only when every target failed.
fn several_results(answers: &[Answer], settings: &Settings, root: &Arc<Served>) -> CallToolResult {
    let json_context = context(Format::Json, settings, Some(root));
    let mut text = String::new();
    let mut images = Vec::new();
    let mut structured = Vec::new();
    // The image data (decoded, before base64) sent so far in this call.
    let mut image_bytes = 0usize;
    for answer in answers {
        let envelope = render::envelope::Envelope::of(&json_context, answer);
        // Nested, so not the transport's pre-serialised carrier (which stands alone).
        let mut result = serde_json::to_value(&envelope).unwrap_or_default();
        let (mut body, mut image) = answer_text(answer, settings, Some(root));
        if let Ok(Success::Image(sent, facts)) = &answer.result
            && image.is_some()
        {
            if image_bytes.saturating_add(sent.bytes.len()) <= MAX_CALL_IMAGE_BYTES {
                image_bytes += sent.bytes.len();
            } else {
                image = None;
                let note = format!(
                    "[Not sent: the images of one call carry at most {} MiB. Read it in a call of its own (path='{}') to see it.]",
                    MAX_CALL_IMAGE_BYTES >> 20,
                    facts.path
                );
                body.push('\n');
                body.push_str(&note);
                // Its result says so too: partial, nothing sent, the note in its text.
                result["status"] = "partial".into();
                result["data"]["sent_width"] = serde_json::Value::Null;
                result["data"]["sent_height"] = serde_json::Value::Null;
                if let Some(text) = result["text"].as_str() {
                    result["text"] = format!("{text}\n{note}").into();
                }
            }
        }
        structured.push(result);
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!(
            "==> {} <==\n",
            names::visible(&answer.label, false)
        ));
        text.push_str(&body);
        if !body.ends_with('\n') {
            text.push('\n');
        }
        images.extend(image);
    }
    let mut content = vec![ContentBlock::text(text)];
    content.extend(images);
    let mut result = match answers.iter().all(|a| a.result.is_err()) {
        true => CallToolResult::error(content),
        false => CallToolResult::success(content),
    };
    result.structured_content = Some(serde_json::json!({ "results": structured }));
    result
}

/// What the text block says of one answer, and an image's block.
fn answer_text(
    answer: &Answer,
    settings: &Settings,
    root: Option<&Arc<Served>>,
) -> (String, Option<ContentBlock>) {
    match &answer.result {
        Err(error) => {
            let mut text = Vec::new();
            let _ = render::text::write_error_body(&mut text, error);
            (render::utf8(&text).into_owned(), None)
        }
        Ok(Success::Image(image, facts)) => {
            let data = base64::engine::general_purpose::STANDARD.encode(&image.bytes);
            (
                render::envelope::image_summary(image, facts),
                Some(ContentBlock::image(data, image.mime_type)),
            )
        }
        Ok(_) => {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let text_context = context(Format::Text, settings, root);
            let _ = Printer::new(&text_context).print(&mut out, &mut err, answer);
            (render::utf8(&out).into_owned(), None)
        }
    }
}

/// The directory a `file://` URI names, percent-decoded; None for any other URI.
fn file_uri_path(uri: &str) -> Option<Vec<u8>> {
    let rest = uri.strip_prefix("file://")?;
    let path = match rest.find('/') {
        Some(0) => rest,
        Some(at) if rest[..at].eq_ignore_ascii_case("localhost") => &rest[at..],
        _ => return None,
    };
    Some(percent_encoding::percent_decode_str(path).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(file_uri_path("file:///home/a%20b").unwrap(), b"/home/a b");
        assert_eq!(file_uri_path("file://localhost/srv").unwrap(), b"/srv");
        assert_eq!(file_uri_path("file://other/srv"), None);
        assert_eq!(file_uri_path("https://x/y"), None);
    }
}
