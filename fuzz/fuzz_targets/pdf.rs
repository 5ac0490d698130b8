//! Fuzz target: any bytes given to the PDF text extraction come back as text or a
//! refusal, never a panic or a hang (libFuzzer's -timeout catches the latter).
//!
//! libfuzzer-sys installs a panic hook that aborts, so a panic inside lopdf is reported as
//! a crash even though `extract` would have caught it: each one is a lopdf bug worth
//! reporting upstream.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = agentread::formats::pdf::extract(data, Duration::from_secs(2)) {
        let view = agentread::formats::pdf::view(&text);
        let pages = agentread::formats::pdf::page_lines(&text);
        assert_eq!(pages.len(), text.pages.len());
        assert_eq!(pages.last().map_or(0, |p| *p.end()), view.lines().count());
    }
});
