//! The document engines: a notebook's and a PDF's text view, and image scaling. Like the
//! other engines, they import nothing from the crate.

pub mod notebook;
pub mod pdf;
pub mod scale;
