//! The PDF view on committed fixtures from several producers, and its refusals.

use std::time::Duration;

use agentread::formats::pdf::{PdfError, PdfText, extract, view};

const BUDGET: Duration = Duration::from_secs(10);

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/pdf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn pages(name: &str) -> Vec<String> {
    extract(&fixture(name), BUDGET).expect(name).pages
}

#[test]
fn fpdf2_pages_come_apart_with_their_lines() {
    assert_eq!(
        pages("fpdf2_two_pages.pdf"),
        [
            "First page of the fpdf2 fixture.\nIt has two lines of text.",
            "Second page: numbers 12345 and symbols (a+b)=c.",
        ]
    );
}

#[test]
fn reportlab_text_keeps_accents_gaps_and_words_apart() {
    let pages = pages("reportlab_text.pdf");
    assert_eq!(pages.len(), 2);
    assert_eq!(
        pages[0],
        "Reportlab fixture\n\
         Accents from WinAnsi: déjà vu, naïve, Übermut.\n\
         A second line, then a gap.\n\
         \n\
         A paragraph after the gap. Same baseline"
    );
    assert_eq!(pages[1], "Page two of reportlab.");
}

#[test]
fn chromium_composite_font_is_decoded_through_its_unicode_map() {
    let pages = pages("chromium_unicode.pdf");
    assert_eq!(pages.len(), 1);
    let lines: Vec<&str> = pages[0].lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines,
        [
            "Chromium fixture",
            "Unicode: café, αβγ, ≤ ∞.",
            "Second paragraph."
        ]
    );
}

#[test]
fn text_inside_forms_is_placed_where_each_use_draws_it() {
    assert_eq!(
        pages("reportlab_form.pdf"),
        ["Before the form.\n\nText inside a form\n\nText inside a form\n\nAfter the form."]
    );
}

#[test]
fn empty_user_password_opens_as_any_viewer_opens_it() {
    assert_eq!(
        pages("qpdf_empty_user_password.pdf"),
        pages("fpdf2_two_pages.pdf")
    );
}

#[test]
fn scan_has_pages_but_no_text_layer() {
    let text = extract(&fixture("reportlab_scan.pdf"), BUDGET).unwrap();
    assert_eq!(text.pages, ["", ""]);
    assert!(!text.has_text());
    assert_eq!(view(&text), "--- page 1 ---\n--- page 2 ---\n");
}

#[test]
fn view_numbers_pages() {
    let text = extract(&fixture("fpdf2_two_pages.pdf"), BUDGET).unwrap();
    assert!(text.has_text());
    assert_eq!(
        view(&text),
        "--- page 1 ---\nFirst page of the fpdf2 fixture.\nIt has two lines of text.\n\
         --- page 2 ---\nSecond page: numbers 12345 and symbols (a+b)=c.\n"
    );
}

#[test]
fn password_protected_is_encrypted() {
    assert_eq!(
        extract(&fixture("reportlab_encrypted.pdf"), BUDGET),
        Err(PdfError::Encrypted)
    );
}

#[test]
fn truncated_empty_and_foreign_files_are_damaged() {
    let damaged = |bytes: &[u8]| extract(bytes, BUDGET);
    assert_eq!(
        damaged(&fixture("damaged_truncated.pdf")),
        Err(PdfError::Damaged)
    );
    assert_eq!(damaged(b""), Err(PdfError::Damaged));
    assert_eq!(damaged(b"%PDF-1.7\n"), Err(PdfError::Damaged));
    assert_eq!(damaged(b"PK\x03\x04 a zip file"), Err(PdfError::Damaged));
}

#[test]
fn a_zero_budget_times_out_without_waiting() {
    let started = std::time::Instant::now();
    let outcome = extract(&fixture("chromium_unicode.pdf"), Duration::ZERO);
    assert_eq!(outcome, Err(PdfError::Timeout));
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[test]
fn output_has_no_control_characters_or_trailing_spaces() {
    for name in [
        "fpdf2_two_pages.pdf",
        "reportlab_text.pdf",
        "chromium_unicode.pdf",
    ] {
        let PdfText { pages } = extract(&fixture(name), BUDGET).unwrap();
        for page in pages {
            assert!(
                !page
                    .chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t')
            );
            assert!(page.lines().all(|l| l == l.trim_end()), "{name}");
            assert!(!page.contains("\n\n\n") && !page.ends_with('\n'), "{name}");
        }
    }
}
