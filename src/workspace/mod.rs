//! The workspace: the root nothing is read outside of (`sandbox`), the read policy
//! (`deny`), directory listings (`dir`) and the suggestions for a name that is not there
//! (`suggest`).

pub mod deny;
pub mod dir;
pub mod sandbox;
pub mod suggest;
