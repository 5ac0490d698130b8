//! The stdio transport of the MCP server. What comes in is read a line at a time: a
//! `tools/call` request is parsed straight into its type, any other line is handed to
//! rmcp's own reader. What goes out is written here, each message serialised once with
//! `sonic-rs`.
//!
//! Why not rmcp's reader for every line: it parses a request by trying each of the
//! client's 22 request types in turn, and `tools/call` is the fourteenth: thirteen
//! failed attempts, each with its error message formatted, for nearly every line of a
//! session.
//!
//! Why not rmcp's writer: a read's answer carries the window twice (the text block and
//! `structuredContent`), and escaping those strings one byte at a time (`serde_json`)
//! and growing the frame buffer while doing it was a third of the server's time per
//! call. `sonic-rs` escapes with SIMD instructions and writes the same JSON.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequest, CallToolResult, ClientRequest, JsonRpcMessage, JsonRpcRequest,
    JsonRpcResponse, RequestId, ServerResult,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::{StdioReader, StdioWriter, Transport};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// Standard input and output, one JSON-RPC message a line.
pub struct Stdio {
    incoming: Incoming,
    out: Out,
}

/// The longest line read, as rmcp bounds it; a longer one is dropped whole.
const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// Standard input, a line at a time. `receive` may be dropped at any await (rmcp polls it
/// against its other work) and called again: every state it needs to resume is here.
struct Incoming {
    read: BufReader<StdioReader>,
    /// The line being read.
    line: Vec<u8>,
    /// Passing over the rest of a line longer than `MAX_LINE`.
    discarding: bool,
    /// rmcp's reader, over one line that is not a `tools/call` request, until it has said
    /// what that line is.
    other: Option<AsyncRwTransport<RoleServer, std::io::Cursor<Vec<u8>>, Replies>>,
    out: Out,
}

/// Standard output. Each message is written whole while the lock is held, so lines
/// from concurrent calls never interleave.
type Out = Arc<Mutex<Option<StdioWriter>>>;

impl Stdio {
    pub fn new() -> Stdio {
        let (input, output) = rmcp::transport::stdio_pipes();
        let out: Out = Arc::new(Mutex::new(Some(output)));
        Stdio {
            incoming: Incoming {
                read: BufReader::new(input),
                line: Vec::new(),
                discarding: false,
                other: None,
                out: out.clone(),
            },
            out,
        }
    }
}

impl Transport<RoleServer> for Stdio {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let frame = frame(&item);
        let out = self.out.clone();
        async move { write_line(&out, &frame?).await }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.incoming.receive()
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.incoming.other = None;
        self.out.lock().await.take();
        Ok(())
    }
}

impl Incoming {
    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(other) = &mut self.other {
                let message = other.receive().await;
                self.other = None;
                match message {
                    Some(message) => return Some(message),
                    // Not JSON (skipped), a blank line, or answered `Invalid request`.
                    None => continue,
                }
            }
            // Once a line is whole, it is handled without an await: nothing is lost if
            // this call is dropped.
            self.read_line().await?;
            if let Some(call) = tools_call(&self.line) {
                self.line.clear();
                return Some(call);
            }
            let line = std::mem::take(&mut self.line);
            let reader = std::io::Cursor::new(line);
            self.other = Some(AsyncRwTransport::new_server(
                reader,
                Replies::new(self.out.clone()),
            ));
        }
    }

    /// Reads on to the end of a line (`\n` included); None at the end of the input or
    /// when it cannot be read. A line longer than `MAX_LINE` is dropped, and the next
    /// one read, as rmcp does.
    async fn read_line(&mut self) -> Option<()> {
        loop {
            let available = self.read.fill_buf().await.ok()?;
            if available.is_empty() {
                // A last line without its `\n` is an incomplete message: nothing to read.
                return None;
            }
            let newline = memchr::memchr(b'\n', available);
            let take = newline.map_or(available.len(), |at| at + 1);
            let ended = newline.is_some();
            let done = if self.discarding {
                self.discarding = !ended;
                false
            } else if self.line.len().saturating_add(take) > MAX_LINE {
                self.line.clear();
                self.discarding = !ended;
                false
            } else {
                self.line.extend_from_slice(&available[..take]);
                ended
            };
            self.read.consume(take);
            if done {
                return Some(());
            }
        }
    }
}

/// A `tools/call` request, parsed as rmcp would parse it, straight into its type; None
/// for any other line (and for anything rmcp must look at: a byte-order mark, a request
/// that is not well formed).
fn tools_call(line: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
    memchr::memmem::find(line, b"\"tools/call\"")?;
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
    if let std::borrow::Cow::Owned(escaped) = crate::names::escape_json_controls(&line) {
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

/// Where rmcp's reader writes its own replies (`Invalid request` for a message of the
/// wrong shape): collected, then written as one line when flushed, through the same lock
/// as every other message. The reader awaits that flush before it reads on.
struct Replies {
    out: Out,
    pending: Vec<u8>,
    writing: Option<Pin<Box<dyn Future<Output = io::Result<()>> + Send>>>,
}

impl Replies {
    fn new(out: Out) -> Replies {
        Replies {
            out,
            pending: Vec::new(),
            writing: None,
        }
    }
}

impl AsyncWrite for Replies {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().pending.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.writing.is_none() && !this.pending.is_empty() {
            let line = std::mem::take(&mut this.pending);
            let out = this.out.clone();
            this.writing = Some(Box::pin(async move { write_line(&out, &line).await }));
        }
        if let Some(writing) = &mut this.writing {
            let written = std::task::ready!(writing.as_mut().poll(cx));
            this.writing = None;
            written?;
        }
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_flush(cx)
    }
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
}
