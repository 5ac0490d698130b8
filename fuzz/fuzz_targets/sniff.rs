//! Fuzzing of the sniffer and the transcoder: any bytes, any encoding choice, any file name
//! give a verdict without panicking, and transcoded output is UTF-8 but for 0xFF marks.
#![no_main]

use std::io::Read;

use agentread::read::transcode::Transcoder;
use agentread::sniff::{EncodingChoice, classify};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 5] = ["a.txt", "logo.png", "data.bin", ".png", "noext"];

fuzz_target!(|input: &[u8]| {
    let Some((&selector, data)) = input.split_first() else { return };
    let choice = match selector % 6 {
        0 => EncodingChoice::Utf8,
        1 => EncodingChoice::Auto,
        2 => EncodingChoice::Named(encoding_rs::GBK),
        3 => EncodingChoice::Named(encoding_rs::UTF_16LE),
        4 => EncodingChoice::Named(encoding_rs::SHIFT_JIS),
        _ => EncodingChoice::Named(encoding_rs::ISO_2022_JP),
    };
    let name = NAMES[(selector as usize / 6) % NAMES.len()];
    let complete = selector & 0x80 == 0;
    if let Ok(decoding) = classify(data, complete, name, choice) {
        assert!(decoding.bom_len <= data.len());
        let body = &data[decoding.bom_len..];
        let mut out = Vec::new();
        Transcoder::new(body, decoding.encoding).read_to_end(&mut out).unwrap();
        // Everything but the malformed-input marks is valid UTF-8.
        for piece in out.split(|&b| b == 0xFF) {
            assert!(std::str::from_utf8(piece).is_ok());
        }
    }
});
