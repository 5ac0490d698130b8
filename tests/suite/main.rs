//! The integration tests: one binary, a module per area of SPEC.md, each running the
//! built `agentread` as a user or an agent would.

mod common;

mod agent;
mod beyond;
mod bounds;
mod content;
mod deny;
mod documents;
mod errors;
mod formats;
mod generated;
mod hostile;
mod internal;
mod mcp;
mod names;
mod parallel;
mod paths;
mod pdf_mutations;
mod pdf_text;
mod pipeline;
mod reach;
mod readme;
mod references;
mod regression;
mod sandbox;
mod structure;
mod structure_answers;
mod terminal;
mod tokens;
mod window;
