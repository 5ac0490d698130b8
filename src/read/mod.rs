//! The reading core, and its one entry: [`text`] reads a window of a text input (a file
//! or a stream), choosing how to read it; [`entries_page`] pages a directory's names.
//!
//! The parts, in the order bytes flow through them:
//! - `buffer`: page-aligned buffers the kernel reads into;
//! - `metered`: every input's byte count, hash and size limit; the head for sniffing;
//!   the backward scan that finds where `--tail` begins;
//! - `sniff`: whether the head is binary, and how to decode the input;
//! - `transcode`: other encodings into a UTF-8 stream;
//! - `source`: a byte stream seen as lines, through one fixed buffer;
//! - `tally`: counting the lines of a file's range on every core;
//! - `line`: cutting one line to its shown part, counting the rest;
//! - `endings`: what line endings the whole input uses;
//! - `numbers`: line-number prefixes;
//! - `tokens`: exact `o200k_base` counts, for `stats.tokens` and `--max-tokens`;
//! - `window`: skip, take, cut, count: the window itself.

pub mod buffer;
pub mod bytes;
pub mod endings;
pub mod line;
pub mod metered;
pub mod numbers;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
pub mod sniff;
pub mod source;
pub mod tally;
pub mod tokens;
pub mod transcode;
pub mod window;

use std::fs::File;
use std::io::{Cursor, Read};

use encoding_rs::UTF_8;

use metered::Metered;
use sniff::EncodingChoice;
use transcode::Transcoder;
pub use window::{Budget, LineSink, Start, Window, WindowError, WindowSpec};

/// How a text input is read: the window, the encoding and what to do with the bytes.
#[derive(Debug, Clone, Copy)]
pub struct TextOptions<'a> {
    pub window: &'a WindowSpec,
    pub encoding: EncodingChoice,
    /// Every byte is hashed (BLAKE3), for `--hash` or `--if-changed`.
    pub hash: bool,
    /// A stream stops with SIZE_LIMIT_EXCEEDED once it passes this many bytes.
    pub stream_limit: Option<u64>,
}

/// A text input read: its window and what was found about the whole input.
#[derive(Debug)]
pub struct TextWindow {
    pub window: Window,
    /// The encoding's name for `stats.encoding`.
    pub encoding: String,
    pub bom: bool,
    pub content_hash: Option<String>,
    /// Bytes read from a stream, a file whose size read 0 included (a file's size
    /// otherwise comes from its stat).
    pub bytes_read: u64,
    /// When strict UTF-8 fell back: the legacy encoding `--encoding auto` would choose.
    pub suggested_encoding: Option<String>,
}

/// What went wrong in a read, before it is worded for a path.
#[derive(Debug)]
pub enum ReadError {
    /// Binary, and what its first bytes say it is, when they do.
    Binary(sniff::Evidence, Option<sniff::Recognised>),
    /// A stream passed `stream_limit`.
    SizeLimitPassed,
    Io(std::io::Error),
    /// The window's start lies past the input (`StartLinePastEnd`, `StartCharPastEnd`).
    Window(WindowError),
}

/// Where a text input's bytes come from.
pub enum TextInput<'f, R> {
    /// A regular file of this size: read at offsets, its tail found from its end. A size
    /// of 0 proves nothing (`/proc`, `/sys`): such a file is read as a stream, to its end.
    File(&'f File, u64),
    Stream(R),
}

/// Reads the window `options` asks for from `input`. With a `sink` (`--all`), every line
/// from the start line on is written to it as it is read, and the window only counts
/// them.
///
/// A regular file read as UTF-8 is read at offsets (so that large skips and counts run
/// on every core) unless its bytes must be hashed in order; its tail is found by reading
/// backwards from its end. Anything else is one stream, decoded when it is not UTF-8:
/// also a file whose size reads 0, which is read to its end within `stream_limit` (the
/// kernel's files in `/proc` and `/sys` have content and no size).
pub fn text<R: Read>(
    input: TextInput<'_, R>,
    file_name: &str,
    options: TextOptions<'_>,
    sink: Option<&mut dyn LineSink>,
) -> Result<TextWindow, ReadError> {
    match input {
        TextInput::File(file, 0) => {
            let metered = Metered::new(file, options.hash, options.stream_limit);
            text_from(metered, None, file_name, options, sink)
        }
        TextInput::File(file, size) => {
            let metered = Metered::new(file, options.hash, None);
            text_from(metered, Some((file, size)), file_name, options, sink)
        }
        TextInput::Stream(reader) => {
            let metered = Metered::new(reader, options.hash, options.stream_limit);
            text_from(metered, None, file_name, options, sink)
        }
    }
}

fn text_from<R: Read>(
    mut metered: Metered<R>,
    file: Option<(&File, u64)>,
    file_name: &str,
    options: TextOptions<'_>,
    sink: Option<&mut dyn LineSink>,
) -> Result<TextWindow, ReadError> {
    let head_len = options.encoding.head_len();
    let head = metered.read_head(head_len).map_err(io_error)?;
    let complete = head.len() < head_len;
    let mut decoding = sniff::classify(&head, complete, file_name, options.encoding)
        .map_err(|evidence| ReadError::Binary(evidence, sniff::recognise(&head)))?;
    // `--encoding auto` on a file whose head is UTF-8: the rest must be too (SPEC §5
    // "UTF-8 if valid"), else the legacy encoding of the bytes that are not.
    if let Some((file, size)) = file
        && options.encoding == EncodingChoice::Auto
        && !complete
        && decoding.encoding == UTF_8
        && decoding.bom_len == 0
        && let Some(invalid) = sniff::first_invalid_utf8(file, utf8_prefix(&head), size, u64::MAX)
    {
        decoding.encoding = sniff::guess_at(file, invalid);
    }
    let bom = decoding.bom_len;
    let body = Cursor::new(&head[bom.min(head.len())..]).chain(&mut metered);
    let spec = options.window;
    let start = bom as u64;
    let direct = !options.hash;
    let at_offsets = |file, size| window::Input::File::<std::io::Empty> {
        file,
        start,
        end: size,
    };
    let utf8 = decoding.encoding == UTF_8;
    if let Some(sink) = sink {
        // `--all` reads from a start line (the request refuses it with `--tail`).
        let from = match spec.start {
            Start::Line(line) => line,
            Start::Tail(_) => 1,
        };
        let result = match (utf8, file) {
            (true, Some((file, size))) if direct => {
                window::stream_all(at_offsets(file, size), from, spec, sink)
            }
            (true, _) => window::stream_all(window::Input::Stream(body), from, spec, sink),
            (false, _) => window::stream_all(
                window::Input::Stream(Transcoder::new(body, decoding.encoding)),
                from,
                spec,
                sink,
            ),
        };
        return finish(result, metered, file, &decoding, &head, complete, options);
    }
    let result = match (utf8, file, spec.start) {
        (true, Some((file, size)), Start::Tail(n)) => metered::tail_offset(file, start, size, n)
            .map_err(WindowError::Io)
            .and_then(|offset| match direct {
                true => window::read_tail_from(at_offsets(file, size), offset - start, n, spec),
                false => {
                    window::read_tail_from(window::Input::Stream(body), offset - start, n, spec)
                }
            }),
        (true, Some((file, size)), Start::Line(_)) if direct => {
            window::read_window(at_offsets(file, size), spec)
        }
        (true, _, _) => window::read_window(window::Input::Stream(body), spec),
        (false, _, _) => window::read_window(
            window::Input::Stream(Transcoder::new(body, decoding.encoding)),
            spec,
        ),
    };
    finish(result, metered, file, &decoding, &head, complete, options)
}

/// The window read, with what was found about the whole input.
fn finish<R: Read>(
    result: Result<Window, WindowError>,
    metered: Metered<R>,
    file: Option<(&File, u64)>,
    decoding: &sniff::Decoding,
    head: &[u8],
    complete: bool,
    options: TextOptions<'_>,
) -> Result<TextWindow, ReadError> {
    let window = result.map_err(|err| match err {
        WindowError::Io(err) => io_error(err),
        other => ReadError::Window(other),
    })?;
    let suggested_encoding = match window.replaced() && options.encoding == EncodingChoice::Utf8 {
        // A head of valid UTF-8 tells nothing: the bytes where the file stops being UTF-8.
        true => sniff::legacy_guess(head, complete).or_else(|| {
            let (file, size) = file.filter(|_| !complete && decoding.bom_len == 0)?;
            // A suggestion is worth a look at 64 MiB, not at a whole file of gigabytes.
            let invalid = sniff::first_invalid_utf8(file, utf8_prefix(head), size, 64 << 20)?;
            let guess = sniff::guess_at(file, invalid);
            (guess != UTF_8).then(|| guess.name().to_ascii_lowercase())
        }),
        false => None,
    };
    Ok(TextWindow {
        suggested_encoding,
        window,
        encoding: decoding.name(),
        bom: decoding.bom(),
        content_hash: metered.hash(),
        bytes_read: metered.bytes_read(),
    })
}

/// How far a head that is UTF-8 (but for a character its end cuts) is known to be: the
/// scan of the rest starts there, not at the file's start.
fn utf8_prefix(head: &[u8]) -> u64 {
    match std::str::from_utf8(head) {
        Ok(_) => head.len() as u64,
        Err(error) => error.valid_up_to() as u64,
    }
}

fn io_error(err: std::io::Error) -> ReadError {
    match metered::is_size_limit(&err) {
        true => ReadError::SizeLimitPassed,
        false => ReadError::Io(err),
    }
}

/// Reads `input` to its end when it holds at most `bound` bytes; None when it holds
/// more (then `bound + 1` bytes were read). Read to the end, not by a size: a size of 0
/// proves nothing (`/proc`). `size` is what it is expected to hold (a file's size from
/// its `stat`): room for that much is made once, where a vector grown by doubling copied
/// a file's bytes about once more, and wrote them to pages faulted in for each copy.
pub fn up_to(input: impl Read, bound: u64, size: u64) -> std::io::Result<Option<Vec<u8>>> {
    let room = size.min(bound.saturating_add(1));
    let mut bytes = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    input
        .take(bound.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= bound).then_some(bytes))
}

/// `bytes` split at each `\n`, as `bytes.split(|&b| b == b'\n')` splits it (the piece
/// after the last one too, empty or not), with a vector search instead of a test of every
/// byte: a kept map's megabyte is split at every page.
pub fn split_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(bytes);
    std::iter::from_fn(move || {
        let text = rest?;
        match bytes::find(b'\n', text) {
            Some(end) => {
                rest = Some(&text[end + 1..]);
                Some(&text[..end])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// Pages one page of a directory's listing like the lines of a file: `page` holds the
/// entries from the `first`-th (0-based) on, of `total` in all, each a name with no line
/// break in it. The entries outside the page are never held: they stand as blank lines,
/// which the window skips and counts as it skips and counts a file's lines, so that
/// numbering, the limit, the byte budget and the errors past the end are a file's.
pub fn entries_page(
    page: &[String],
    first: u64,
    total: u64,
    spec: &WindowSpec,
) -> Result<Window, WindowError> {
    let mut text = Vec::new();
    for name in page {
        text.extend_from_slice(name.as_bytes());
        text.push(b'\n');
    }
    let after = total.saturating_sub(first + page.len() as u64);
    let input = std::io::repeat(b'\n')
        .take(first)
        .chain(&text[..])
        .chain(std::io::repeat(b'\n').take(after));
    window::read_window(window::Input::Stream(input), spec)
}

#[cfg(test)]
mod tests {
    use super::numbers::NumberStyle;
    use super::*;
    use std::io::{Seek, SeekFrom, Write};

    fn options(window: &WindowSpec) -> TextOptions<'_> {
        TextOptions {
            window,
            encoding: EncodingChoice::Utf8,
            hash: true,
            stream_limit: Some(64),
        }
    }

    /// `split_lines` gives what `split` at `\n` gives: empty pieces, the piece after
    /// the last newline, and one empty piece for no bytes.
    #[test]
    fn split_lines_is_split() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "\n\na\nbc\n\n",
            "a\r\nb",
            "no newline at all",
        ] {
            let ours: Vec<&[u8]> = split_lines(text.as_bytes()).collect();
            let split: Vec<&[u8]> = text.as_bytes().split(|&b| b == b'\n').collect();
            assert_eq!(ours, split, "{text:?}");
        }
    }

    fn spec(start: Start) -> WindowSpec {
        WindowSpec {
            start,
            limit: 500,
            start_char: 1,
            max_line_chars: 2000,
            max_bytes: 51200,
            max_tokens: None,
            numbers: NumberStyle::Pipe,
            line_endings: true,
        }
    }

    /// A file whose size reads 0 (as `/proc` files do) is read to its end, hashed, and
    /// held to the size limit as a stream is.
    #[test]
    fn a_file_whose_size_reads_zero_is_read_as_a_stream() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"one\ntwo\nthree\n").unwrap();
        for start in [Start::Line(1), Start::Tail(2)] {
            file.seek(SeekFrom::Start(0)).unwrap();
            let spec = spec(start);
            let input = TextInput::<std::io::Empty>::File(&file, 0);
            let read = text(input, "status", options(&spec), None).unwrap();
            assert_eq!(read.window.total_lines, 3);
            assert_eq!(read.bytes_read, 14);
            assert_eq!(
                read.content_hash.unwrap(),
                blake3::hash(b"one\ntwo\nthree\n").to_hex().to_string()
            );
            let shown = String::from_utf8(read.window.content).unwrap();
            match start {
                Start::Line(_) => assert_eq!(shown, "   1 | one\n   2 | two\n   3 | three\n"),
                Start::Tail(_) => assert_eq!(shown, "   2 | two\n   3 | three\n"),
            }
        }
        file.write_all(&[b'x'; 100]).unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        let spec = spec(Start::Line(1));
        let input = TextInput::<std::io::Empty>::File(&file, 0);
        assert!(matches!(
            text(input, "status", options(&spec), None),
            Err(ReadError::SizeLimitPassed)
        ));
    }

    /// A read that says it would block ends the read with that error, at once.
    #[test]
    fn a_read_that_would_block_is_an_error() {
        struct WouldBlock;
        impl Read for WouldBlock {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::WouldBlock.into())
            }
        }
        let spec = spec(Start::Line(1));
        match text(TextInput::Stream(WouldBlock), "kmsg", options(&spec), None) {
            Err(ReadError::Io(err)) => assert_eq!(err.kind(), std::io::ErrorKind::WouldBlock),
            other => panic!("{other:?}"),
        }
    }
}
