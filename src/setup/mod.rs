//! What agentread prints about itself, then exits: completions and the man page
//! (`generate`) and the configuration of each MCP host (`hosts`).

pub mod generate;
pub(crate) mod hosts;
