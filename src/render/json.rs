//! The JSON format: one object per PATH, one per line, with the keys of SPEC §6, as the
//! typed envelope describes them.

use std::io::{self, Write};

use super::Context;
use super::envelope::Envelope;
use crate::answer::Answer;

/// The C1 and bidirectional controls, which JSON allows raw, are written `\u202e` (SPEC
/// §14), in names and content alike.
pub fn write(out: &mut impl Write, context: &Context, answer: &Answer) -> io::Result<()> {
    let json = serde_json::to_vec(&Envelope::of(context, answer))?;
    out.write_all(&crate::names::escape_json_controls(&json))?;
    out.write_all(b"\n")
}
