//! The stdio transport of the MCP server. What comes in is read a line at a time: a
//! `tools/call` request is parsed straight into its type, any other line is looked at
//! here (every request gets an answer, with JSON-RPC's code for what is wrong with it)
//! and parsed into rmcp's types. What goes out is written here, each message serialised
//! once with `sonic-rs`.
//!
//! Why not rmcp's reader: it parses a request by trying each of the client's 22 request
//! types in turn, and `tools/call` is the fourteenth: thirteen failed attempts, each with
//! its error message formatted, for nearly every line of a session. And it answers a line
//! that is not JSON, or a request of the wrong shape, with `Invalid request` and no id.
//!
//! Why not rmcp's writer: a read's answer carries the window twice (the text block and
//! `structuredContent`), and escaping those strings one byte at a time (`serde_json`)
//! and growing the frame buffer while doing it was a third of the server's time per
//! call. `sonic-rs` escapes with SIMD instructions and writes the same JSON.
//!
//! Backpressure (SPEC §12): at most `MAX_IN_FLIGHT` requests are handed to rmcp at once.
//! Each takes a permit, held by its handler while it runs and by the transport until its
//! answer is written, so a client that stops reading its answers stops the server from
//! reading requests instead of growing it: rmcp starts one task per answer to write, and
//! without the permits those tasks, each holding its answer, would pile up without end.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::read::bytes;
use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, GetExtensions,
    JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, RequestId, ServerResult,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::{StdioReader, StdioWriter, Transport};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, Notify, OwnedSemaphorePermit, Semaphore};

/// Bytes of answers made and not yet written: a client that does not read its answers
/// holds them in the server. Heavy reads wait while they pass [`MAX_UNWRITTEN`], so that
/// 64 calls in flight of 20 MiB images each hold no gigabytes (SPEC §12: backpressure).
static UNWRITTEN: AtomicUsize = AtomicUsize::new(0);
/// Told each time an answer is written.
static WRITTEN: Notify = Notify::const_new();
const MAX_UNWRITTEN: usize = 128 << 20;

/// Waits until the answers not yet written take at most [`MAX_UNWRITTEN`] bytes.
pub async fn room_to_answer() {
    loop {
        let written = WRITTEN.notified();
        tokio::pin!(written);
        // Listening before looking: a write between the two is not missed.
        written.as_mut().enable();
        if UNWRITTEN.load(Ordering::Acquire) <= MAX_UNWRITTEN {
            return;
        }
        written.await;
    }
}

/// Standard input and output, one JSON-RPC message a line.
pub struct Stdio {
    incoming: Incoming,
    out: Out,
    flight: Arc<InFlight>,
}

/// The longest line read, as rmcp bounds it; a longer one is answered with an error.
const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// Requests handed to rmcp and not yet answered (SPEC §12).
pub const MAX_IN_FLIGHT: usize = 64;

/// Requests read while every permit is taken, kept in order until one is free. Reading on
/// past them lets an answer the server waits for (the client's roots, which every call
/// needs) arrive behind many calls; past this many (or these many bytes), reading stops.
const MAX_QUEUED: usize = 64;
const MAX_QUEUED_BYTES: usize = 8 << 20;

/// Standard input, a line at a time. `receive` may be dropped at any await (rmcp polls it
/// against its other work) and called again: every state it needs to resume is here.
struct Incoming {
    read: BufReader<StdioReader>,
    /// The line being read.
    line: Vec<u8>,
    /// Passing over the rest of a line longer than `MAX_LINE`.
    discarding: bool,
    /// The line in `line` is the start of one longer than `MAX_LINE`.
    overlong: bool,
    /// Standard input has ended.
    ended: bool,
    /// Requests read and waiting for a permit, in order, with their line's length.
    queued: VecDeque<(RequestId, RxJsonRpcMessage<RoleServer>, usize)>,
    queued_bytes: usize,
    /// An answer of the transport's own (to a line that is not a valid request) being
    /// written: nothing more is read until it is.
    replying: Option<Pin<Box<dyn Future<Output = io::Result<()>> + Send>>>,
    out: Out,
    flight: Arc<InFlight>,
}

/// Standard output. Each message is written whole while the lock is held, so lines
/// from concurrent calls never interleave.
type Out = Arc<Mutex<Option<StdioWriter>>>;

/// The permits of the requests in flight.
struct InFlight {
    permits: Arc<Semaphore>,
    /// The permits of requests other than `tools/call` (`ping`, `tools/list`, ...): they
    /// read nothing, so they never wait behind reads, however slow, and are
    /// bounded on their own.
    control: Arc<Semaphore>,
    /// The transport's share of each unanswered request's permit, by id: given back once
    /// its answer is written, or when the client cancels it (rmcp then drops the answer).
    unanswered: std::sync::Mutex<HashMap<RequestId, Arc<OwnedSemaphorePermit>>>,
}

impl InFlight {
    fn unanswered(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<RequestId, Arc<OwnedSemaphorePermit>>> {
        self.unanswered.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The handler's share of its request's permit, carried in the request's extensions into
/// the handler's context: a call keeps its permit while it runs, even once cancelled.
#[derive(Clone)]
struct HandlerPermit(#[allow(dead_code)] Arc<OwnedSemaphorePermit>);

impl Stdio {
    pub fn new() -> Stdio {
        let (input, output) = rmcp::transport::stdio_pipes();
        let out: Out = Arc::new(Mutex::new(Some(output)));
        let flight = Arc::new(InFlight {
            permits: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            control: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            unanswered: std::sync::Mutex::new(HashMap::new()),
        });
        Stdio {
            incoming: Incoming {
                read: BufReader::new(input),
                line: Vec::new(),
                discarding: false,
                overlong: false,
                ended: false,
                queued: VecDeque::new(),
                queued_bytes: 0,
                replying: None,
                out: out.clone(),
                flight: flight.clone(),
            },
            out,
            flight,
        }
    }
}

impl Transport<RoleServer> for Stdio {
    type Error = io::Error;

    /// An answer is written only while its request holds a permit: an answer to a
    /// request the client cancelled is dropped (as rmcp drops most of them itself).
    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let answered = match &item {
            JsonRpcMessage::Response(JsonRpcResponse { id, .. }) => Some(id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        let (frame, permit) = match answered.map(|id| self.flight.unanswered().remove(id)) {
            Some(None) => (None, None),
            Some(permit) => (Some(frame(&item)), permit),
            None => (Some(frame(&item)), None),
        };
        let out = self.out.clone();
        let frame = frame.map(|frame| {
            let frame = frame?;
            UNWRITTEN.fetch_add(frame.len(), Ordering::AcqRel);
            Ok::<_, io::Error>(frame)
        });
        async move {
            let Some(frame) = frame else {
                return Ok(());
            };
            let frame = frame?;
            let written = write_line(&out, &frame).await;
            UNWRITTEN.fetch_sub(frame.len(), Ordering::AcqRel);
            WRITTEN.notify_waiters();
            drop(permit);
            written
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.incoming.receive()
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.out.lock().await.take();
        Ok(())
    }
}

/// What `receive` woke for while a request waited for a permit.
enum Woke {
    Permit(OwnedSemaphorePermit),
    Line,
    Ended,
}

impl Incoming {
    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(reply) = &mut self.replying {
                let _ = reply.as_mut().await;
                self.replying = None;
            }
            if !self.queued.is_empty() {
                let permits = self.flight.permits.clone();
                if let Ok(permit) = permits.clone().try_acquire_owned() {
                    return self.hand_over_queued(permit);
                }
                let full = self.queued.len() >= MAX_QUEUED || self.queued_bytes >= MAX_QUEUED_BYTES;
                let woke = match self.ended || full {
                    true => Woke::Permit(permits.acquire_owned().await.ok()?),
                    // Wait for a permit, reading on meanwhile: answers and notifications
                    // need none.
                    false => tokio::select! {
                        biased;
                        permit = permits.acquire_owned() => Woke::Permit(permit.ok()?),
                        read = read_line(&mut self.read, &mut self.line, &mut self.discarding, &mut self.overlong) => {
                            match read {
                                Some(()) => Woke::Line,
                                None => Woke::Ended,
                            }
                        }
                    },
                };
                match woke {
                    Woke::Permit(permit) => return self.hand_over_queued(permit),
                    Woke::Ended => {
                        self.ended = true;
                        continue;
                    }
                    Woke::Line => {}
                }
            } else {
                if self.ended {
                    return None;
                }
                if read_line(
                    &mut self.read,
                    &mut self.line,
                    &mut self.discarding,
                    &mut self.overlong,
                )
                .await
                .is_none()
                {
                    self.ended = true;
                    return None;
                }
            }
            // Once a line is whole, it is handled without an await: nothing is lost if
            // this call is dropped.
            let classified = if std::mem::take(&mut self.overlong) {
                let id = salvage_id(&self.line).unwrap_or(Value::Null);
                let why = format!(
                    "Invalid Request: the message is longer than {} MiB, the most that is read.",
                    MAX_LINE >> 20
                );
                Line::Reply(error_line(&id, INVALID_REQUEST, &why))
            } else {
                classify(&self.line)
            };
            let len = self.line.len();
            self.line.clear();
            match classified {
                Line::Skip => {}
                Line::Reply(answer) => self.reply(answer),
                Line::Request(id, message) => {
                    if self.is_unanswered(&id) {
                        let answer = error_line(
                            &id.into_json_value(),
                            INVALID_REQUEST,
                            "Invalid Request: a request with this id is still being answered.",
                        );
                        self.reply(answer);
                        continue;
                    }
                    if !is_tools_call(&message)
                        && let Ok(permit) = self.flight.control.clone().try_acquire_owned()
                    {
                        return Some(self.hand_over(id, message, permit));
                    }
                    if self.queued.is_empty()
                        && let Ok(permit) = self.flight.permits.clone().try_acquire_owned()
                    {
                        return Some(self.hand_over(id, message, permit));
                    }
                    self.queued_bytes += len;
                    self.queued.push_back((id, message, len));
                }
                Line::Other(message) => {
                    if let Some(id) = cancelled_request(&message) {
                        self.forget(&id);
                    }
                    return Some(message);
                }
            }
        }
    }

    fn reply(&mut self, answer: Vec<u8>) {
        let out = self.out.clone();
        self.replying = Some(Box::pin(async move { write_line(&out, &answer).await }));
    }

    /// Whether a request with this id was read and is not answered yet.
    fn is_unanswered(&self, id: &RequestId) -> bool {
        self.queued.iter().any(|(queued, ..)| queued == id)
            || self.flight.unanswered().contains_key(id)
    }

    /// A cancelled request: one still queued is never handed over (nor answered); for
    /// one in flight, the transport gives back its share of the permit, since rmcp drops
    /// the answer (the handler keeps its share until it ends).
    fn forget(&mut self, id: &RequestId) {
        if let Some(at) = self.queued.iter().position(|(queued, ..)| queued == id) {
            if let Some((_, _, len)) = self.queued.remove(at) {
                self.queued_bytes -= len;
            }
            return;
        }
        self.flight.unanswered().remove(id);
    }

    /// The first queued request, handed over with `permit`.
    fn hand_over_queued(
        &mut self,
        permit: OwnedSemaphorePermit,
    ) -> Option<RxJsonRpcMessage<RoleServer>> {
        let (id, message, len) = self.queued.pop_front()?;
        self.queued_bytes -= len;
        Some(self.hand_over(id, message, permit))
    }

    /// A request goes to rmcp with its permit, shared by its handler and the transport.
    fn hand_over(
        &mut self,
        id: RequestId,
        mut message: RxJsonRpcMessage<RoleServer>,
        permit: OwnedSemaphorePermit,
    ) -> RxJsonRpcMessage<RoleServer> {
        let permit = Arc::new(permit);
        if let JsonRpcMessage::Request(request) = &mut message {
            request
                .request
                .extensions_mut()
                .insert(HandlerPermit(permit.clone()));
        }
        self.flight.unanswered().insert(id, permit);
        message
    }
}

/// Reads on to the end of a line (`\n` included) into `line`; None at the end of the
/// input or when it cannot be read. Of a line longer than `MAX_LINE` only the first
/// `OVERLONG_KEPT` bytes are kept, and `overlong` is set when it ends (the line is then
/// answered with an error, carrying its id if those bytes name it). Cancel-safe: what was
/// read stays in `line`.
async fn read_line(
    read: &mut BufReader<StdioReader>,
    line: &mut Vec<u8>,
    discarding: &mut bool,
    overlong: &mut bool,
) -> Option<()> {
    loop {
        let available = read.fill_buf().await.ok()?;
        if available.is_empty() {
            // A last line without its `\n` is a message all the same (a client that
            // writes its last request and closes): every request gets an answer. A line
            // being passed over (too long) ends as the others do, answered.
            if *discarding {
                *discarding = false;
                *overlong = true;
                return Some(());
            }
            return (!line.is_empty()).then_some(());
        }
        let newline = bytes::find(b'\n', available);
        let take = newline.map_or(available.len(), |at| at + 1);
        let ended = newline.is_some();
        let done = if *discarding {
            *discarding = !ended;
            *overlong = ended;
            ended
        } else if line.len().saturating_add(take) > MAX_LINE {
            let keep = OVERLONG_KEPT.saturating_sub(line.len()).min(take);
            line.extend_from_slice(&available[..keep]);
            line.truncate(OVERLONG_KEPT);
            line.shrink_to(OVERLONG_KEPT);
            *discarding = !ended;
            *overlong = ended;
            ended
        } else {
            line.extend_from_slice(&available[..take]);
            ended
        };
        read.consume(take);
        if done {
            return Some(());
        }
    }
}

/// What is kept of a line longer than `MAX_LINE`, to find its id.
const OVERLONG_KEPT: usize = 64 << 10;

/// JSON-RPC's error codes.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

/// What one line of input is.
enum Line {
    /// Nothing to answer: a blank line, a notification or a response rmcp cannot use.
    Skip,
    /// A line to write back: the error that answers a request that cannot be served.
    Reply(Vec<u8>),
    Request(RequestId, RxJsonRpcMessage<RoleServer>),
    /// A notification, or a response to the server's own request.
    Other(RxJsonRpcMessage<RoleServer>),
}

/// The requests rmcp knows by their method: one of them whose params do not fit its type
/// falls through to rmcp's custom request (answered "method not found"); it is answered
/// "invalid params" here instead.
const KNOWN_METHODS: &[&str] = {
    use rmcp::model::*;
    &[
        PingRequestMethod::VALUE,
        InitializeResultMethod::VALUE,
        DiscoverRequestMethod::VALUE,
        CompleteRequestMethod::VALUE,
        SetLevelRequestMethod::VALUE,
        GetPromptRequestMethod::VALUE,
        ListPromptsRequestMethod::VALUE,
        ListResourcesRequestMethod::VALUE,
        ListResourceTemplatesRequestMethod::VALUE,
        ReadResourceRequestMethod::VALUE,
        SubscriptionsListenRequestMethod::VALUE,
        SubscribeRequestMethod::VALUE,
        UnsubscribeRequestMethod::VALUE,
        CallToolRequestMethod::VALUE,
        ListToolsRequestMethod::VALUE,
        GetTaskMethod::VALUE,
        UpdateTaskMethod::VALUE,
        CancelTaskMethod::VALUE,
        ListSkillsRequestMethod::VALUE,
        GetSkillRequestMethod::VALUE,
        ReadResourceDirectoryRequestMethod::VALUE,
    ]
};

/// Says what a line is, and answers what is wrong with a request (SPEC §12): a line that
/// is not JSON gets -32700 (id null), a message that is not a request object -32600, a
/// request whose params are not an object or do not fit its method -32602. An unknown
/// method goes on to rmcp, which answers -32601.
fn classify(line: &[u8]) -> Line {
    if let Some(call) = tools_call(line) {
        return match &call {
            JsonRpcMessage::Request(request) => Line::Request(request.id.clone(), call),
            _ => Line::Other(call),
        };
    }
    let body = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Line::Skip;
    }
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        // JSON that is well formed (as serde reads it when it keeps no value) but holds a
        // value serde cannot (a lone surrogate `"\ud800"`, `1e400`) names its id: the
        // answer carries it, so the caller is not left waiting. A line that is not JSON
        // at all is answered with a null id.
        Err(_) => {
            let well_formed = serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok();
            let id = well_formed.then(|| salvage_id(body)).flatten();
            return Line::Reply(error_line(
                &id.unwrap_or(Value::Null),
                PARSE_ERROR,
                "Parse error",
            ));
        }
    };
    let Value::Object(object) = value else {
        return Line::Reply(error_line(
            &Value::Null,
            INVALID_REQUEST,
            "Invalid Request: a message is a JSON object (batches are not served).",
        ));
    };
    let id = object.get("id");
    // The id to answer with: as given when it may be one, else null.
    let echo = match id {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let invalid = |why: &str| Line::Reply(error_line(&echo, INVALID_REQUEST, why));
    let method = match object.get("method") {
        Some(Value::String(method)) => method.clone(),
        Some(_) => return invalid("Invalid Request: the method is not a string."),
        None if object.contains_key("result") || object.contains_key("error") => {
            // A response to one of the server's requests; one that rmcp cannot read is
            // dropped (a response is never answered).
            return match serde_json::from_value(Value::Object(object)) {
                Ok(message) => Line::Other(message),
                Err(_) => Line::Skip,
            };
        }
        None => return invalid("Invalid Request: the message has no method."),
    };
    let Some(id) = id else {
        // A notification: never answered, even when it cannot be read.
        return match serde_json::from_value(Value::Object(object)) {
            Ok(message) => Line::Other(message),
            Err(_) => Line::Skip,
        };
    };
    let Ok(request_id) = serde_json::from_value::<RequestId>(id.clone()) else {
        return invalid("Invalid Request: the id is not a string or an integer.");
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("Invalid Request: jsonrpc is not \"2.0\".");
    }
    let params = object.get("params");
    if params.is_some_and(|p| !p.is_object()) {
        return Line::Reply(error_line(
            &echo,
            INVALID_PARAMS,
            &format!("Invalid params: the params of {method} are not an object."),
        ));
    }
    let params_fail = |why: String| {
        Line::Reply(error_line(
            &echo,
            INVALID_PARAMS,
            &format!("Invalid params for {method}: {why}."),
        ))
    };
    let why_not = |params: Option<&Value>| match method.as_str() {
        "tools/call" => match params {
            None => "it needs params".to_string(),
            Some(params) => serde_json::from_value::<CallToolRequestParams>(params.clone())
                .err()
                .map_or_else(|| "they do not fit".to_string(), |e| e.to_string()),
        },
        _ => "they do not fit its parameters".to_string(),
    };
    let params = params.cloned();
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(Value::Object(object)) {
        Ok(JsonRpcMessage::Request(request))
            if matches!(&request.request, ClientRequest::CustomRequest(custom)
                if KNOWN_METHODS.contains(&custom.method.as_str())) =>
        {
            params_fail(why_not(params.as_ref()))
        }
        Ok(message @ JsonRpcMessage::Request(_)) => Line::Request(request_id, message),
        Ok(_) => invalid("Invalid Request."),
        Err(_) if KNOWN_METHODS.contains(&method.as_str()) => params_fail(why_not(params.as_ref())),
        Err(_) => invalid("Invalid Request."),
    }
}

/// The `id` member of a line that is a JSON object but cannot be parsed whole: found by
/// walking the top level of the object (strings skipped, nesting counted), taken when its
/// value is a string without escapes or an integer.
pub fn salvage_id(line: &[u8]) -> Option<Value> {
    let mut at = line.iter().position(|b| !b.is_ascii_whitespace())?;
    if line[at] != b'{' {
        return None;
    }
    at += 1;
    let mut depth = 1usize;
    // Whether the next string at depth 1 is a key (after `{` or `,`).
    let mut key_next = true;
    while at < line.len() {
        match line[at] {
            b'"' => {
                let start = at + 1;
                let mut end = start;
                while end < line.len() && line[end] != b'"' {
                    end += if line[end] == b'\\' { 2 } else { 1 };
                }
                let string = line.get(start..end)?;
                at = end + 1;
                if depth == 1 && key_next && string == b"id" {
                    let rest = &line[at..];
                    let colon = rest.iter().position(|b| !b.is_ascii_whitespace())?;
                    if rest[colon] != b':' {
                        return None;
                    }
                    let value = &rest[colon + 1..];
                    let from = value.iter().position(|b| !b.is_ascii_whitespace())?;
                    let value = &value[from..];
                    let len = match value.first()? {
                        b'"' => value[1..].iter().position(|&b| b == b'"' || b == b'\\')? + 2,
                        _ => value
                            .iter()
                            .position(|b| !(b.is_ascii_digit() || *b == b'-'))
                            .unwrap_or(value.len()),
                    };
                    return serde_json::from_slice::<Value>(&value[..len])
                        .ok()
                        .filter(|id| id.is_string() || id.is_i64() || id.is_u64());
                }
                key_next = false;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            b',' if depth == 1 => key_next = true,
            _ => {}
        }
        at += 1;
    }
    None
}

/// Whether a request reads (`tools/call`), and so takes a permit of the calls in flight.
fn is_tools_call(message: &RxJsonRpcMessage<RoleServer>) -> bool {
    matches!(message, JsonRpcMessage::Request(request)
        if matches!(request.request, ClientRequest::CallToolRequest(_)))
}

/// The id of the request a `notifications/cancelled` names.
fn cancelled_request(message: &RxJsonRpcMessage<RoleServer>) -> Option<RequestId> {
    match message {
        JsonRpcMessage::Notification(notification) => match &notification.notification {
            rmcp::model::ClientNotification::CancelledNotification(cancelled) => {
                cancelled.params.request_id.clone()
            }
            _ => None,
        },
        _ => None,
    }
}

/// A JSON-RPC error answer as a line.
fn error_line(id: &Value, code: i64, message: &str) -> Vec<u8> {
    let answer = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    let mut line =
        crate::render::json::escape_json_controls(&serde_json::to_vec(&answer).unwrap_or_default())
            .into_owned();
    line.push(b'\n');
    line
}

/// A `tools/call` request, parsed as rmcp would parse it, straight into its type; None
/// for any other line (and for anything rmcp must look at: a byte-order mark, a request
/// that is not well formed).
fn tools_call(line: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
    bytes::find_str(b"\"tools/call\"", line)?;
    let call: JsonRpcRequest<CallToolRequest> = serde_json::from_slice(line).ok()?;
    Some(JsonRpcMessage::Request(JsonRpcRequest {
        jsonrpc: call.jsonrpc,
        id: call.id,
        request: ClientRequest::CallToolRequest(call.request),
    }))
}

/// One message as a line of JSON.
fn frame(item: &TxJsonRpcMessage<RoleServer>) -> io::Result<Vec<u8>> {
    let mut line = Vec::with_capacity(1024);
    match tool_result_with_raw_json(item) {
        Some((id, result, raw)) => write_tool_result(&mut line, id, result, raw),
        None => sonic_rs::to_writer(&mut line, item),
    }
    .map_err(io::Error::other)?;
    // The C1 and bidirectional controls, which JSON allows raw, are written `\u202e`.
    if let std::borrow::Cow::Owned(escaped) = crate::render::json::escape_json_controls(&line) {
        line = escaped;
    }
    line.push(b'\n');
    Ok(line)
}

/// The key of the one-entry object that carries a `structuredContent` already written
/// as JSON text (see [`raw_json`]). A NUL cannot begin a key of agentread's envelope.
const RAW_JSON: &str = "\0agentread:raw-json";

/// `value` as `structuredContent` that the transport writes out as it is: serialised
/// once, straight from its type, instead of built as a `serde_json::Value` tree first
/// (building, writing and dropping that tree was a seventh of a small read's
/// instructions).
/// The carrier is an object, as rmcp expects `structuredContent` to be.
pub fn raw_json<T: serde::Serialize>(value: &T) -> Value {
    match sonic_rs::to_string(value) {
        Ok(json) => Value::Object(Map::from_iter([(
            RAW_JSON.to_string(),
            Value::String(json),
        )])),
        Err(_) => serde_json::to_value(value).unwrap_or_default(),
    }
}

/// The JSON text a [`raw_json`] carrier holds.
fn raw_json_of(value: &Value) -> Option<&str> {
    let object = value.as_object().filter(|o| o.len() == 1)?;
    object.get(RAW_JSON)?.as_str()
}

fn tool_result_with_raw_json(
    item: &TxJsonRpcMessage<RoleServer>,
) -> Option<(&RequestId, &CallToolResult, &str)> {
    match item {
        JsonRpcMessage::Response(JsonRpcResponse {
            id,
            result: ServerResult::CallToolResult(result),
            ..
        }) => Some((
            id,
            result,
            raw_json_of(result.structured_content.as_ref()?)?,
        )),
        _ => None,
    }
}

/// A tool result's response, field for field as rmcp's types serialise it
/// (`JsonRpcResponse`, then `CallToolResult`), with `structuredContent` written as given.
fn write_tool_result(
    line: &mut Vec<u8>,
    id: &RequestId,
    result: &CallToolResult,
    structured: &str,
) -> sonic_rs::Result<()> {
    line.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    sonic_rs::to_writer(&mut *line, id)?;
    line.extend_from_slice(b",\"result\":{");
    if let Some(kind) = &result.result_type {
        line.extend_from_slice(b"\"resultType\":");
        sonic_rs::to_writer(&mut *line, kind)?;
        line.push(b',');
    }
    line.extend_from_slice(b"\"content\":");
    sonic_rs::to_writer(&mut *line, &result.content)?;
    line.extend_from_slice(b",\"structuredContent\":");
    line.extend_from_slice(structured.as_bytes());
    if let Some(is_error) = result.is_error {
        line.extend_from_slice(b",\"isError\":");
        sonic_rs::to_writer(&mut *line, &is_error)?;
    }
    if let Some(meta) = &result.meta {
        line.extend_from_slice(b",\"_meta\":");
        sonic_rs::to_writer(&mut *line, meta)?;
    }
    line.extend_from_slice(b"}}");
    Ok(())
}

async fn write_line(out: &Out, line: &[u8]) -> io::Result<()> {
    let mut out = out.lock().await;
    let Some(out) = out.as_mut() else {
        return Err(io::Error::new(
            io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    out.write_all(line).await?;
    out.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{
        CallToolResult, ContentBlock, NumberOrString, ServerJsonRpcMessage, ServerResult,
    };

    /// Every character class that JSON escapes, and some it does not.
    fn awkward() -> String {
        let mut text: String = (0u8..0x20).map(char::from).collect();
        text.push_str("\"\\/\u{7f} é 漢 🎉 </script> \u{2028}\u{2029} line\r\n");
        text.repeat(40)
    }

    #[test]
    fn frames_are_the_json_serde_json_writes() {
        let text = awkward();
        let mut result = CallToolResult::success(vec![ContentBlock::text(text.clone())]);
        result.structured_content = Some(serde_json::json!({
            "status": "success", "n": 12345678901234u64, "neg": -3, "ok": true,
            "none": null, "list": [1, "two", {"three": text}],
        }));
        let item: ServerJsonRpcMessage = ServerJsonRpcMessage::response(
            ServerResult::CallToolResult(result),
            NumberOrString::Number(7),
        );
        let line = frame(&item).unwrap();
        let mut expected = serde_json::to_vec(&item).unwrap();
        expected.push(b'\n');
        assert_eq!(
            String::from_utf8(line).unwrap(),
            String::from_utf8(expected).unwrap()
        );
    }

    #[test]
    fn a_tools_call_is_parsed_as_rmcp_parses_it() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.rs","limit":5}}}"#,
            r#"{"method":"tools/call","id":"x-9","jsonrpc":"2.0","params":{"name":"read","arguments":{"path":"a"},"_meta":{"progressToken":3}},"extra":true}"#,
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"other\"}}\r\n",
        ] {
            let fast = tools_call(line.as_bytes()).expect("a tools/call request");
            let general: RxJsonRpcMessage<RoleServer> = serde_json::from_str(line).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{general:?}"));
            assert_eq!(
                serde_json::to_value(&fast).unwrap(),
                serde_json::to_value(&general).unwrap()
            );
        }
        // Everything else is left to rmcp's reader.
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"read\"}}",
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"read"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read"}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"read"}}"#,
        ] {
            assert!(tools_call(line.as_bytes()).is_none(), "{line}");
        }
    }

    /// The id and code of the error a line is answered with, or None when it goes on.
    fn answer(line: &str) -> Option<(Value, i64)> {
        match classify(line.as_bytes()) {
            Line::Reply(reply) => {
                assert_eq!(reply.last(), Some(&b'\n'));
                let v: Value = serde_json::from_slice(&reply).unwrap();
                assert_eq!(v["jsonrpc"], "2.0");
                Some((v["id"].clone(), v["error"]["code"].as_i64().unwrap()))
            }
            _ => None,
        }
    }

    #[test]
    fn every_request_that_cannot_be_served_gets_its_json_rpc_error() {
        use serde_json::json;
        for (line, id, code) in [
            ("not json", Value::Null, PARSE_ERROR),
            ("{\"jsonrpc\":\"2.0\",\"id\":1", Value::Null, PARSE_ERROR),
            // Well-formed JSON with a value serde cannot hold: the answer carries its id.
            (
                r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read","arguments":{"path":"\ud800"}}}"#,
                json!(8),
                PARSE_ERROR,
            ),
            (
                r#"{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"limit":1e400,"id":3}},"id":"k"}"#,
                json!("k"),
                PARSE_ERROR,
            ),
            (r#"{"x":{"id":1},"y":1e400}"#, Value::Null, PARSE_ERROR),
            ("[]", Value::Null, INVALID_REQUEST),
            ("\"x\"", Value::Null, INVALID_REQUEST),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}"#,
                json!(1),
                INVALID_PARAMS,
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}"#,
                json!(2),
                INVALID_PARAMS,
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":7}}"#,
                json!(3),
                INVALID_PARAMS,
            ),
            (
                r#"{"jsonrpc":"2.0","id":"q","method":"initialize","params":{}}"#,
                json!("q"),
                INVALID_PARAMS,
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":null}"#,
                json!(4),
                INVALID_REQUEST,
            ),
            (
                r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#,
                json!(5),
                INVALID_REQUEST,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                json!(1.5),
                INVALID_REQUEST,
            ),
            (
                r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
                Value::Null,
                INVALID_REQUEST,
            ),
            (r#"{"jsonrpc":"2.0","id":6}"#, json!(6), INVALID_REQUEST),
        ] {
            assert_eq!(answer(line), Some((id, code)), "{line}");
        }
    }

    #[test]
    fn well_formed_messages_go_on_to_rmcp() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method","params":{"x":1}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"path":"a"}}}"#,
            "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\r\n",
        ] {
            assert!(
                matches!(classify(line.as_bytes()), Line::Request(..)),
                "{line}"
            );
        }
        for line in [
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
            r#"{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}"#,
        ] {
            assert!(
                matches!(classify(line.as_bytes()), Line::Other(_)),
                "{line}"
            );
        }
        for line in ["", "  \r\n"] {
            assert!(matches!(classify(line.as_bytes()), Line::Skip), "{line:?}");
        }
        // A notification is never answered, whatever its shape.
        for line in [
            r#"{"jsonrpc":"2.0","method":"x","params":5}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[]}"#,
            r#"{"method":"notifications/initialized"}"#,
        ] {
            assert_eq!(answer(line), None, "{line}");
        }
        let cancel =
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r-9"}}"#;
        let Line::Other(message) = classify(cancel.as_bytes()) else {
            panic!("a notification");
        };
        assert_eq!(
            cancelled_request(&message),
            Some(RequestId::String("r-9".into()))
        );
    }

    #[derive(serde::Serialize)]
    struct Envelope {
        status: &'static str,
        text: String,
        stats: Vec<Option<u64>>,
    }

    #[test]
    fn a_raw_structured_content_is_written_as_the_value_would_be() {
        let envelope = Envelope {
            status: "success",
            text: awkward(),
            stats: vec![Some(u64::MAX), None],
        };
        let value = serde_json::to_value(&envelope).unwrap();
        let meta = rmcp::model::MetaObject(
            serde_json::json!({"k": {"structuredContent": null}})
                .as_object()
                .cloned()
                .unwrap(),
        );
        for (kind, is_error, meta) in [
            (Some(rmcp::model::ResultType::COMPLETE), Some(false), None),
            (None, Some(true), Some(meta)),
            (None, None, None),
        ] {
            let item = |structured| {
                let mut result = CallToolResult::success(vec![ContentBlock::text(awkward())]);
                result.result_type = kind.clone();
                result.is_error = is_error;
                result.meta = meta.clone();
                result.structured_content = Some(structured);
                let item: ServerJsonRpcMessage = ServerJsonRpcMessage::response(
                    ServerResult::CallToolResult(result),
                    NumberOrString::String("call-7".into()),
                );
                item
            };
            let raw = item(raw_json(&envelope));
            assert!(tool_result_with_raw_json(&raw).is_some());
            let written = String::from_utf8(frame(&raw).unwrap()).unwrap();
            let mut expected = serde_json::to_string(&item(value.clone())).unwrap();
            expected.push('\n');
            assert_eq!(written, expected);
        }
        // An object that merely looks like a carrier is written as it is.
        let lookalike = serde_json::json!({RAW_JSON: "{}", "other": 1});
        assert_eq!(raw_json_of(&lookalike), None);
        assert_eq!(raw_json_of(&serde_json::json!({RAW_JSON: 1})), None);
    }

    /// The field names of a value's `Debug` form, at its top level.
    fn debug_fields(debug: &str) -> Vec<String> {
        let body = &debug[debug.find('{').unwrap() + 1..];
        let (mut depth, mut fields, mut name) = (0i32, Vec::new(), String::new());
        let mut in_string = false;
        for c in body.chars() {
            match c {
                '"' => in_string = !in_string,
                _ if in_string => {}
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' => depth -= 1,
                ':' if depth == 0 && !name.trim().is_empty() => {
                    fields.push(name.trim().to_string());
                    name.clear();
                }
                ',' if depth == 0 => name.clear(),
                _ if depth == 0 => name.push(c),
                _ => {}
            }
        }
        fields
    }

    /// `write_tool_result` copies rmcp's serialisation of these two types field by field:
    /// a field rmcp adds to either (both are `non_exhaustive`) must fail here rather than
    /// be dropped from every answer.
    #[test]
    fn the_hand_written_response_knows_every_field_of_rmcps_types() {
        let result = CallToolResult::success(vec![ContentBlock::text("x")]);
        assert_eq!(
            debug_fields(&format!("{result:?}")),
            [
                "result_type",
                "content",
                "structured_content",
                "is_error",
                "meta"
            ]
        );
        let response = JsonRpcResponse {
            jsonrpc: Default::default(),
            id: NumberOrString::Number(1),
            result: ServerResult::CallToolResult(result),
        };
        assert_eq!(
            debug_fields(&format!("{response:?}")),
            ["jsonrpc", "id", "result"]
        );
    }
}
