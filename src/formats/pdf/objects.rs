//! Reading lopdf's objects safely: references followed, numbers that are finite, and the
//! bound on one inflated stream.

use lopdf::{Dictionary, Document, Object};

/// The most any one stream may inflate to, 32 MiB. Object and cross-reference streams,
/// fonts' ToUnicode maps and page contents are all far smaller; lopdf's default (256 MiB)
/// lets a 1 MiB file allocate that much per stream.
pub(super) const MAX_STREAM_BYTES: usize = 32 << 20;

/// A number operand; anything else, or a number that is not finite, is 0 (a crafted
/// NaN would otherwise poison every position after it).
pub(super) fn number(object: Option<&Object>) -> f32 {
    let value = match object {
        Some(Object::Integer(i)) => *i as f32,
        Some(Object::Real(r)) => *r,
        _ => 0.0,
    };
    if value.is_finite() { value } else { 0.0 }
}

pub(super) fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, object)| object)
}

pub(super) fn get<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    dict.get(key).ok().and_then(|object| resolve(doc, object))
}

/// Whether `dict[key]` refers to an object the file does not have: in a file that was
/// whole, every reference leads somewhere (a truncated file loses what its end held).
pub(super) fn dangling(doc: &Document, dict: &Dictionary, key: &[u8]) -> bool {
    matches!(dict.get(key), Ok(object @ Object::Reference(_)) if resolve(doc, object).is_none())
}
