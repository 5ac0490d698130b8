//! Temporary: pieces against whole on the big local files.
use crate::structure::Language;
use crate::structure::outline::outline_in_pieces;
use std::time::Duration;

#[test]
#[ignore]
fn big_files_pieces_equal_whole() {
    for (path, language) in [
        ("/tmp/big/big.rs", Language::Rust),
        ("/tmp/big/big.js", Language::JavaScript),
        ("/tmp/big/tsc.js", Language::JavaScript),
        ("/tmp/big/big.ts", Language::TypeScript),
        ("/tmp/big/big.go", Language::Go),
        ("/tmp/big/big.java", Language::Java),
    ] {
        let source = std::fs::read(path).unwrap();
        let whole =
            outline_in_pieces(language, &source, Duration::from_secs(600), usize::MAX).unwrap();
        for piece in [1 << 20, 1 << 14] {
            let pieces =
                outline_in_pieces(language, &source, Duration::from_secs(600), piece).unwrap();
            let differ = whole.iter().zip(&pieces).position(|(a, b)| a != b);
            println!(
                "{path} piece {piece}: whole {} pieces {} first difference {:?}",
                whole.len(),
                pieces.len(),
                differ.map(|i| (&whole[i], &pieces[i]))
            );
        }
    }
}
