//! The error codes and exit codes of SPEC §9, and the error value every stage returns.

use serde::Serialize;

use crate::read::WindowError;
use crate::read::sniff::Evidence;

/// One row of the exit-code table. The names are the ones printed and serialised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    Internal,
    InvalidParam,
    NotFound,
    AccessDenied,
    PermissionDenied,
    NotFile,
    BinaryFile,
    SizeLimitExceeded,
    IoError,
}

impl ErrorCode {
    /// Every code, in exit-code order (for tests and documentation).
    pub const ALL: [ErrorCode; 9] = [
        ErrorCode::Internal,
        ErrorCode::InvalidParam,
        ErrorCode::NotFound,
        ErrorCode::AccessDenied,
        ErrorCode::PermissionDenied,
        ErrorCode::NotFile,
        ErrorCode::BinaryFile,
        ErrorCode::SizeLimitExceeded,
        ErrorCode::IoError,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::InvalidParam => "INVALID_PARAM",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::AccessDenied => "ACCESS_DENIED",
            ErrorCode::PermissionDenied => "PERMISSION_DENIED",
            ErrorCode::NotFile => "NOT_FILE",
            ErrorCode::BinaryFile => "BINARY_FILE",
            ErrorCode::SizeLimitExceeded => "SIZE_LIMIT_EXCEEDED",
            ErrorCode::IoError => "IO_ERROR",
        }
    }

    pub fn exit_code(self) -> u8 {
        match self {
            ErrorCode::Internal => 1,
            ErrorCode::InvalidParam => 2,
            ErrorCode::NotFound => 3,
            ErrorCode::AccessDenied => 4,
            ErrorCode::PermissionDenied => 5,
            ErrorCode::NotFile => 6,
            ErrorCode::BinaryFile => 7,
            ErrorCode::SizeLimitExceeded => 8,
            ErrorCode::IoError => 9,
        }
    }
}

/// The process's exit status (SPEC §9): 0 without a failure, else the failure's row of
/// the table. The one place an exit status is decided.
pub fn exit_status(failure: Option<ErrorCode>) -> u8 {
    failure.map_or(0, ErrorCode::exit_code)
}

/// The detail of a refusal, serialised as `error.detail`: a binary verdict's evidence
/// (SPEC §11), the deny glob that matched (SPEC §14), or why a PDF has no text (SPEC §16).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum ErrorDetail {
    /// A NUL byte at this 0-based offset of the first 8 KiB.
    NulByte { offset: u64 },
    /// This fraction (0.42, not 42) of the first 8 KiB are control bytes.
    ControlRatio { ratio: f64 },
    /// A known binary extension whose start is not valid text.
    Extension,
    /// A deny glob matches the file or a link on the way to it.
    Denied { pattern: String },
    /// A PDF that needs a password (SPEC §16).
    PdfEncrypted,
    /// A PDF no text could be read from.
    PdfDamaged,
    /// A file with an image's signature whose header or pixels cannot be read (SPEC §16).
    ImageDamaged,
}

impl From<Evidence> for ErrorDetail {
    fn from(evidence: Evidence) -> ErrorDetail {
        match evidence {
            Evidence::NulByte { offset } => ErrorDetail::NulByte { offset },
            Evidence::ControlRatio { ratio } => ErrorDetail::ControlRatio { ratio },
            Evidence::Extension => ErrorDetail::Extension,
        }
    }
}

/// A failure of one answer: its code, a message that names the path and the reason,
/// and for NOT_FOUND the "did you mean" candidates.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    pub suggestions: Vec<String>,
    pub detail: Option<ErrorDetail>,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            code,
            message: message.into(),
            suggestions: Vec::new(),
            detail: None,
        }
    }

    pub fn invalid_param(message: impl Into<String>) -> Error {
        Error::new(ErrorCode::InvalidParam, message)
    }

    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(ErrorCode::Internal, message)
    }

    pub fn not_found(path: &str) -> Error {
        Error::new(
            ErrorCode::NotFound,
            format!("File '{path}' does not exist."),
        )
    }

    /// `path` leads outside the root. `taken`: what the root is when nobody chose it (no
    /// `--root`, no `$AGENTREAD_ROOT`): "the current directory", "the git work tree
    /// holding the current directory"; the message says so (SPEC §17).
    pub fn outside_root(path: &str, taken: Option<&str>) -> Error {
        Error::new(
            ErrorCode::AccessDenied,
            format!(
                "Access denied: '{path}' is outside the workspace root{}.",
                root_is(taken)
            ),
        )
    }

    /// The symlink `link` leads outside the root; `taken` as for [`Error::outside_root`].
    pub fn link_outside_root(link: &str, taken: Option<&str>) -> Error {
        Error::new(
            ErrorCode::AccessDenied,
            format!(
                "Access denied: '{link}' is a symlink that leads outside the workspace root{}.",
                root_is(taken)
            ),
        )
    }

    pub fn binary(path: &str, evidence: ErrorDetail) -> Error {
        Error::binary_as(path, evidence, None)
    }

    /// A binary verdict that also says what the input is and how to read it (`what`, from
    /// [`recognised`]).
    pub fn binary_as(path: &str, evidence: ErrorDetail, what: Option<String>) -> Error {
        let why = match &evidence {
            ErrorDetail::NulByte { offset } => format!("NUL byte at offset {offset}"),
            ErrorDetail::ControlRatio { ratio } => {
                format!("{:.0}% control bytes in the first 8 KiB", ratio * 100.0)
            }
            ErrorDetail::Extension => "binary file extension and its start is not text".into(),
            ErrorDetail::Denied { .. } => "a deny glob matches it".into(),
            ErrorDetail::PdfEncrypted => "an encrypted PDF".into(),
            ErrorDetail::PdfDamaged => "a damaged PDF".into(),
            ErrorDetail::ImageDamaged => "a damaged image".into(),
        };
        Error {
            detail: Some(evidence),
            ..Error::new(
                ErrorCode::BinaryFile,
                match what {
                    Some(what) => format!("File '{path}' appears to be binary ({why}): {what}."),
                    None => format!("File '{path}' appears to be binary ({why})."),
                },
            )
        }
    }

    /// A deny glob refuses `path`: `matched` (the file, or a link on the way) matches `pattern`.
    pub fn denied(path: &str, matched: &str, pattern: &str) -> Error {
        let message = match matched == path {
            true => format!("Access denied: '{path}' matches the deny glob '{pattern}'."),
            false => format!(
                "Access denied: '{path}' leads to '{matched}', which matches the deny glob '{pattern}'."
            ),
        };
        Error {
            detail: Some(ErrorDetail::Denied {
                pattern: pattern.to_string(),
            }),
            ..Error::new(ErrorCode::AccessDenied, message)
        }
    }

    /// An I/O error while reading `path`: the OS's refusals are PERMISSION_DENIED,
    /// anything else that fails once reading has begun is IO_ERROR.
    pub fn read_failed(path: &str, err: &std::io::Error) -> Error {
        match err.kind() {
            std::io::ErrorKind::PermissionDenied => return Error::permission_denied(path),
            // Opened with O_NONBLOCK, a file whose read would block says so at once (SPEC §2).
            std::io::ErrorKind::WouldBlock => return Error::would_block(path),
            _ => {}
        }
        Error::new(
            ErrorCode::IoError,
            format!("Reading '{path}' failed: {}.", os_reason(err)),
        )
    }

    /// A file that got shorter while it was read.
    pub fn shrank(path: &str) -> Error {
        Error::new(
            ErrorCode::IoError,
            format!(
                "Reading '{path}' failed: the file got shorter while it was read (truncated or rewritten); read it again."
            ),
        )
    }

    /// A file that stat calls regular but whose read would block (`/proc/kmsg`).
    pub fn would_block(path: &str) -> Error {
        Error::new(
            ErrorCode::NotFile,
            format!(
                "'{path}' cannot be read without blocking (a kernel or device interface, not a regular file); it was not read."
            ),
        )
    }

    pub fn permission_denied(path: &str) -> Error {
        Error::new(
            ErrorCode::PermissionDenied,
            format!("Permission denied: the operating system refused to read '{path}'."),
        )
    }

    pub fn with_suggestions(mut self, suggestions: Vec<String>) -> Error {
        self.suggestions = suggestions;
        self
    }

    pub fn exit_code(&self) -> u8 {
        self.code.exit_code()
    }
}

/// What the root is, when it was not chosen.
fn root_is(taken: Option<&str>) -> String {
    taken.map(|what| format!(" ({what})")).unwrap_or_default()
}

/// The words for a window that starts past its input: `one`/`many` name its units.
pub fn past_the_end(err: &WindowError, path: &str, one: &str, many: &str) -> Error {
    let message = match err {
        WindowError::StartLinePastEnd {
            start_line,
            total_lines: 0,
        } => format!("start_line {start_line} is past the end of '{path}' (0 {many}; valid: 1)."),
        WindowError::StartLinePastEnd {
            start_line,
            total_lines,
        } => format!(
            "start_line {start_line} is past the end of '{path}' ({total_lines} {}; valid: 1-{total_lines}).",
            if *total_lines == 1 { one } else { many }
        ),
        WindowError::StartCharPastEnd {
            line,
            start_char,
            chars,
        } => format!(
            "start_char {start_char} is past the end of {one} {line} of '{path}' ({chars} chars; valid: 1-{}).",
            (*chars).max(1)
        ),
        WindowError::Io(err) => return Error::read_failed(path, err),
    };
    Error::new(ErrorCode::InvalidParam, message)
}

/// The OS's words for an I/O error, without the "(os error N)" tail and without any path.
pub fn os_reason(err: &std::io::Error) -> String {
    let text = err.to_string();
    text.split(" (os error").next().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_spec_table() {
        let table: Vec<(&str, u8)> = ErrorCode::ALL
            .iter()
            .map(|c| (c.name(), c.exit_code()))
            .collect();
        assert_eq!(
            table,
            vec![
                ("INTERNAL", 1),
                ("INVALID_PARAM", 2),
                ("NOT_FOUND", 3),
                ("ACCESS_DENIED", 4),
                ("PERMISSION_DENIED", 5),
                ("NOT_FILE", 6),
                ("BINARY_FILE", 7),
                ("SIZE_LIMIT_EXCEEDED", 8),
                ("IO_ERROR", 9),
            ]
        );
    }

    #[test]
    fn the_exit_status_is_zero_without_a_failure_and_the_code_s_row_with_one() {
        assert_eq!(exit_status(None), 0);
        for code in ErrorCode::ALL {
            assert_eq!(exit_status(Some(code)), code.exit_code());
        }
    }

    #[test]
    fn binary_messages_say_the_evidence_in_words() {
        let e = Error::binary("a.dat", ErrorDetail::NulByte { offset: 1234 });
        assert_eq!(
            e.message,
            "File 'a.dat' appears to be binary (NUL byte at offset 1234)."
        );
        let e = Error::binary("b", ErrorDetail::ControlRatio { ratio: 0.42 });
        assert_eq!(
            e.message,
            "File 'b' appears to be binary (42% control bytes in the first 8 KiB)."
        );
        assert_eq!(
            serde_json::to_string(&e.detail).unwrap(),
            r#"{"reason":"control_ratio","ratio":0.42}"#
        );
    }

    #[test]
    fn a_read_that_would_block_is_not_file() {
        let err = std::io::Error::from(std::io::ErrorKind::WouldBlock);
        let e = Error::read_failed("proc/kmsg", &err);
        assert_eq!(e.code, ErrorCode::NotFile);
        assert_eq!(
            e.message,
            "'proc/kmsg' cannot be read without blocking (a kernel or device interface, not a regular file); it was not read."
        );
        let err = std::io::Error::from_raw_os_error(libc::EAGAIN);
        assert_eq!(Error::read_failed("x", &err).code, ErrorCode::NotFile);
    }

    #[test]
    fn os_reasons_carry_no_error_number() {
        let err = std::io::Error::from_raw_os_error(5);
        assert_eq!(os_reason(&err), "Input/output error");
    }
}
