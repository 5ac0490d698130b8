//! Arguments: the command line, a `--call` object or an MCP call, each made into one
//! [`request::Request`] by the one table of parameters (`params`).

pub mod cli;
pub(crate) mod params;
pub(crate) mod request;
pub(crate) mod schema;
