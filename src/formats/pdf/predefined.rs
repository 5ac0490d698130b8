//! The predefined CJK CMaps (PDF 32000-1 §9.7.5.2) and the CID → Unicode maps of their
//! character collections (Adobe-GB1, -CNS1, -Japan1, -Korea1), as poppler reads a
//! composite font that has no ToUnicode map: the font's `/Encoding` (`GBK-EUC-H`,
//! `90ms-RKSJ-H`, `UniJIS-UCS2-H`…) turns codes into CIDs, and the collection's
//! `Adobe-*-UCS2` map turns CIDs into text.
//!
//! The data is Adobe's cmap-resources (BSD-3-Clause) as the `hayro-cmap` crate bundles
//! it: one brotli-compressed blob, inflated the first time a file needs a predefined map
//! (never for the many PDFs that carry their own ToUnicode maps), each map parsed once
//! per process and shared.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use hayro_cmap::{BfString, CMap, CMapName, CidFamily};

/// The maps parsed so far, by name.
static PARSED: LazyLock<Mutex<HashMap<Vec<u8>, Arc<CMap>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// A predefined CMap by name, parsed on first use. `None` for a name that is not one
/// (an embedded CMap's name, `Identity-H`, which needs no table, or a crafted name).
pub(super) fn cmap(name: &[u8]) -> Option<Arc<CMap>> {
    let mut parsed = PARSED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = parsed.get(name) {
        return Some(Arc::clone(known));
    }
    let found = match CMapName::from_bytes(name) {
        CMapName::Custom(_) | CMapName::IdentityH | CMapName::IdentityV => None,
        known => hayro_cmap::load_embedded(known)
            .and_then(|data| CMap::parse(data, hayro_cmap::load_embedded))
            .map(Arc::new),
    };
    // A file may name a thousand made-up maps: only real names are remembered.
    if let Some(map) = &found {
        parsed.insert(name.to_vec(), Arc::clone(map));
    }
    found
}

/// The CID → Unicode map of a character collection (`Registry`/`Ordering` of a CID
/// font's `CIDSystemInfo`), or `None` for a collection that has none (`Adobe-Identity`).
pub(super) fn collection(registry: &[u8], ordering: &[u8]) -> Option<Arc<CMap>> {
    let family = CidFamily::from_registry_ordering(registry, ordering);
    cmap(family.ucs2_cmap()?.to_bytes())
}

/// The family a predefined encoding CMap belongs to (its own `CIDSystemInfo`).
pub(super) fn collection_of(encoding: &CMap) -> Option<Arc<CMap>> {
    let family = &encoding.metadata().character_collection.as_ref()?.family;
    cmap(family.ucs2_cmap()?.to_bytes())
}

/// The CID a predefined map gives a code of `len` bytes.
pub(super) fn cid(encoding: &CMap, code: u32, len: usize) -> Option<u32> {
    encoding.lookup_cid_code(code, u8::try_from(len).ok()?)
}

/// Appends the text a collection's map gives a CID; nothing for an unmapped CID.
pub(super) fn push_text(to_unicode: &CMap, cid: u32, out: &mut String) -> bool {
    match to_unicode.lookup_bf_string(cid) {
        Some(BfString::Char(c)) => out.push(c),
        Some(BfString::String(s)) => out.push_str(&s),
        None => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_maps_give_cids_and_text() {
        // GBK-EUC-H: one byte for ASCII, two for the GBK range; 中 is D6D0.
        let gbk = cmap(b"GBK-EUC-H").unwrap();
        let gb1 = collection_of(&gbk).unwrap();
        let mut text = String::new();
        for (code, len) in [(0xD6D0, 2), (0x41, 1)] {
            let cid = cid(&gbk, code, len).unwrap();
            assert!(push_text(&gb1, cid, &mut text));
        }
        assert_eq!(text, "中A");
        // 90ms-RKSJ-H (Shift-JIS): 日 is 93FA.
        let sjis = cmap(b"90ms-RKSJ-H").unwrap();
        let japan1 = collection(b"Adobe", b"Japan1").unwrap();
        let mut text = String::new();
        assert!(push_text(
            &japan1,
            cid(&sjis, 0x93FA, 2).unwrap(),
            &mut text
        ));
        assert_eq!(text, "日");
        assert!(cmap(b"Identity-H").is_none());
        assert!(cmap(b"NoSuchMap-H").is_none());
        assert!(collection(b"Adobe", b"Identity").is_none());
        // A second look-up is the same parsed map.
        assert!(Arc::ptr_eq(&gbk, &cmap(b"GBK-EUC-H").unwrap()));
    }
}
