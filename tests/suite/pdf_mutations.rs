//! Mutation test (stable Rust has no cargo-fuzz): the fixtures with bytes flipped, set to
//! PDF delimiters, cut, duplicated or spliced, thousands of times. Every call must return
//! within its budget, and a panic inside the library must come back as `Damaged` (a
//! panic that escaped would fail the test).
//!
//! `PDF_MUTATIONS` sets the number of mutants per fixture (default 300, for a quick
//! `cargo test`), `PDF_MUTATION_EXTRA` adds files (paths joined with `:`) to mutate; the
//! figures are printed with `--nocapture`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use agentread::formats::pdf::{PdfError, extract};

const FIXTURES: [&str; 8] = [
    "fpdf2_two_pages.pdf",
    "reportlab_text.pdf",
    "reportlab_form.pdf",
    "reportlab_scan.pdf",
    "chromium_unicode.pdf",
    "qpdf_empty_user_password.pdf",
    "reportlab_encrypted.pdf",
    "damaged_truncated.pdf",
];

const BUDGET: Duration = Duration::from_secs(2);

/// The answer may come a little after the budget (thread hand-off, a loaded machine).
const SLACK: Duration = Duration::from_millis(500);

#[path = "../../examples/support/rng.rs"]
mod rng;
use rng::Rng;

/// Bytes that steer a PDF parser somewhere new.
const INTERESTING: &[u8] = b"()<>[]{}/%\\ \n\r0123456789-.RobjendstreamxrefTjTJBTET\x00\xff";

fn mutate(rng: &mut Rng, original: &[u8], other: &[u8]) -> Vec<u8> {
    let mut bytes = original.to_vec();
    for _ in 0..=rng.below(3) {
        let len = bytes.len().max(1);
        match rng.below(6) {
            0 => {
                for _ in 0..=rng.below(16) {
                    let at = rng.below(len);
                    if let Some(b) = bytes.get_mut(at) {
                        *b ^= 1 << rng.below(8);
                    }
                }
            }
            1 => {
                let at = rng.below(len);
                if let Some(b) = bytes.get_mut(at) {
                    *b = INTERESTING[rng.below(INTERESTING.len())];
                }
            }
            2 => bytes.truncate(rng.below(len)),
            3 => {
                let start = rng.below(len);
                let end = (start + rng.below(256)).min(bytes.len());
                let chunk = bytes.get(start..end).unwrap_or(&[]).to_vec();
                let at = rng.below(len).min(bytes.len());
                bytes.splice(at..at, chunk);
            }
            4 => {
                let start = rng.below(len).min(bytes.len());
                let end = (start + rng.below(256)).min(bytes.len());
                bytes.drain(start..end);
            }
            _ => {
                let start = rng.below(other.len()).min(other.len());
                let end = (start + rng.below(512)).min(other.len());
                let at = rng.below(len).min(bytes.len());
                bytes.splice(at..at, other[start..end].iter().copied());
            }
        }
    }
    bytes
}

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn mutated_fixtures_never_panic_hang_or_blow_up() {
    let per_fixture: usize = std::env::var("PDF_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    let fixtures: Vec<Vec<u8>> = FIXTURES
        .iter()
        .map(|name| {
            std::fs::read(format!(
                "{}/tests/data/pdf/{name}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
        })
        .chain(
            std::env::var("PDF_MUTATION_EXTRA")
                .unwrap_or_default()
                .split(':')
                .filter(|path| !path.is_empty())
                .map(|path| std::fs::read(path).unwrap()),
        )
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut outcomes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut slowest = Duration::ZERO;
    let mut times = Vec::new();
    let started = Instant::now();
    for (index, original) in fixtures.iter().enumerate() {
        let other = &fixtures[(index + 1) % fixtures.len()];
        for _ in 0..per_fixture {
            let mutant = mutate(&mut rng, original, other);
            let call = Instant::now();
            let outcome = extract(&mutant, BUDGET);
            let took = call.elapsed();
            assert!(took < BUDGET + SLACK, "took {took:?}");
            slowest = slowest.max(took);
            times.push(took);
            let kind = match outcome {
                Ok(text) if text.has_text() => "ok, text",
                Ok(_) => "ok, no text",
                Err(PdfError::Encrypted) => "encrypted",
                Err(PdfError::Damaged) => "damaged",
                Err(PdfError::TooLarge) => "too large",
                Err(PdfError::Timeout) => "timeout",
            };
            *outcomes.entry(kind).or_default() += 1;
        }
    }
    times.sort();
    let total: usize = outcomes.values().sum();
    println!(
        "mutants: {total} in {:.1?}; median {:.2?}, p99 {:.2?}, slowest {slowest:.2?}; \
         peak RSS {} MiB",
        started.elapsed(),
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        peak_rss_kib() / 1024,
    );
    println!("outcomes: {outcomes:?}");
    assert!(
        !outcomes.contains_key("timeout"),
        "a mutant ran out of time: {outcomes:?}"
    );
}
