//! Differential fuzzing of the window reader against a naive reference that decodes the
//! whole input at once, with random options: read as a stream in random read sizes, or as
//! a file with parallel tallies in tiny chunks and a tiny read buffer.
#![no_main]

use agentread::read::metered::tail_offset;
use agentread::read::numbers::NumberStyle;
use agentread::read::reference::{Trickle, naive_lines};
use agentread::read::source::{Input, LineSource};
use agentread::read::tally::Parallel;
use agentread::read::window::{Start, Window, WindowError, WindowSpec, read_window, tail_from, window_from};
use libfuzzer_sys::fuzz_target;

fn render(number: u64, line: &[u8], skip: u64, keep: u64, numbers: NumberStyle) -> String {
    let mut out = Vec::new();
    numbers.write_prefix(&mut out, number);
    let mut text = String::from_utf8(out).unwrap();
    let chars: Vec<char> = String::from_utf8_lossy(line).chars().collect();
    let from = (skip as usize).min(chars.len());
    let to = from.saturating_add(keep as usize).min(chars.len());
    text.extend(&chars[from..to]);
    if to < chars.len() {
        text.push_str(&format!(" … [+{} chars]", chars.len() - to));
    }
    text.push('\n');
    text
}

/// The expected content, total and truncation, or None where the reader must refuse.
fn naive(data: &[u8], spec: &WindowSpec) -> Option<(String, u64, bool)> {
    let lines = naive_lines(data);
    let total = lines.len() as u64;
    let budget = spec.max_bytes as usize;
    match spec.start {
        Start::Line(start) => {
            if start > total && !(start == 1 && total == 0) {
                return None;
            }
            let mut content = String::new();
            let mut shown = 0;
            for (i, line) in lines.iter().enumerate().skip(start as usize - 1) {
                if shown == spec.limit {
                    break;
                }
                let number = i as u64 + 1;
                let skip = if number == start { spec.start_char - 1 } else { 0 };
                let chars = String::from_utf8_lossy(line).chars().count() as u64;
                if skip > 0 && chars < spec.start_char {
                    return None;
                }
                let text = render(number, line, skip, spec.max_line_chars, spec.numbers);
                if shown > 0 && content.len() + text.len() > budget {
                    break;
                }
                content.push_str(&text);
                shown += 1;
            }
            Some((content, total, start - 1 + shown < total))
        }
        Start::Tail(n) => {
            let first = total.saturating_sub(n);
            let mut texts: Vec<String> = (first..total)
                .map(|i| render(i + 1, lines[i as usize], 0, spec.max_line_chars, spec.numbers))
                .collect();
            while texts.len() > 1 && texts.iter().map(String::len).sum::<usize>() > budget {
                texts.remove(0);
            }
            Some((texts.concat(), total, false))
        }
    }
}

/// Reads `data` as a file (a memfd), every skip and count by a parallel tally.
fn read_as_file(data: &[u8], spec: &WindowSpec, chunk: u64, buffer: usize) -> Result<Window, WindowError> {
    use std::io::Write;
    let fd = rustix::fs::memfd_create("window", rustix::fs::MemfdFlags::CLOEXEC).unwrap();
    let mut file = std::fs::File::from(fd);
    file.write_all(data).unwrap();
    let end = data.len() as u64;
    let input: Input<'_, std::io::Empty> = Input::File { file: &file, start: 0, end };
    let source = LineSource::tuned(input, Parallel { min: 0, chunk }, buffer);
    match spec.start {
        Start::Tail(n) => tail_from(source, tail_offset(&file, 0, end, n).unwrap(), n, spec),
        Start::Line(_) => window_from(source, spec),
    }
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 8 {
        return;
    }
    let (options, rest) = input.split_at(8);
    let split = (options[7] as usize).min(rest.len());
    let (sizes, data) = rest.split_at(split.min(16));
    let numbers = [NumberStyle::Pipe, NumberStyle::Tab, NumberStyle::Colon, NumberStyle::None]
        [options[0] as usize % 4];
    let start = match options[1] % 4 {
        0 => Start::Tail(options[2] as u64 % 20 + 1),
        _ => Start::Line(options[2] as u64 % 40 + 1),
    };
    let spec = WindowSpec {
        start,
        limit: options[3] as u64 % 30 + 1,
        start_char: match start {
            Start::Line(_) => options[4] as u64 % 10 + 1,
            Start::Tail(_) => 1,
        },
        max_line_chars: options[5] as u64 % 40 + 1,
        max_bytes: options[6] as u64 * 4 + 1,
        numbers,
        line_endings: options[0] / 8 % 2 == 1,
    };
    let got = match options[0] / 4 % 2 {
        0 => read_window(Input::Stream(Trickle::new(data, sizes.iter().map(|&s| s as usize + 1).collect())), &spec),
        _ => read_as_file(data, &spec, options[1] as u64 / 4 % 16 + 1, options[5] as usize / 40 % 16 + 1),
    };
    match (got, naive(data, &spec)) {
        (Ok(window), Some((content, total, truncated))) => {
            assert_eq!(String::from_utf8(window.content.clone()).unwrap(), content, "{spec:?}");
            assert_eq!(window.total_lines, total, "{spec:?}");
            assert_eq!(window.truncated(), truncated, "{spec:?}");
        }
        (Err(WindowError::StartLinePastEnd { .. } | WindowError::StartCharPastEnd { .. }), None) => {}
        (got, want) => panic!("reader {got:?} but reference {want:?} for {spec:?}"),
    }
});
