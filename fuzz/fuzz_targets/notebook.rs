//! Fuzz target: any bytes give a notebook view or None (read as text), never a panic;
//! every cell's lines lie inside the view, in order.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(view) = agentread::formats::notebook::view(data) {
        let lines = view.text.lines().count() as u64;
        let mut last = 0;
        for cell in &view.cells {
            assert!(last < cell.start_line && cell.start_line <= cell.end_line);
            assert!(cell.end_line <= lines);
            last = cell.end_line;
        }
        assert!(view.text.is_empty() || view.text.ends_with('\n'));
    }
});
