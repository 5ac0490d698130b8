//! agentread: print a numbered, bounded window of a file for agents, people and pipelines.

pub mod endings;
pub mod error;
pub mod line;
pub mod numbers;
pub mod window;
