//! The JSON format: one object per PATH, one per line, with the keys of SPEC §6, as the
//! typed envelope describes them.

use std::io::{self, Write};

use super::Context;
use super::envelope::Envelope;
use crate::answer::Answer;

pub fn write(out: &mut impl Write, context: &Context, answer: &Answer) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &Envelope::of(context, answer))?;
    out.write_all(b"\n")
}
