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
        let PdfText { pages, unread } = extract(&fixture(name), BUDGET).unwrap();
        assert!(unread.is_empty(), "{name}");
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

// PDF text as poppler reads it (SPEC §16). Each fixture is made by
// tests/data/pdf/make_decoder_fixtures.py and shows one fault alone; the expected text is what
// `pdftotext` prints for it, laid out in our lines.

#[test]
fn differences_with_notdef_keep_their_ligatures() {
    assert_eq!(
        pages("tex_notdef_ligatures.pdf"),
        ["first flow effort office baffle"]
    );
}

#[test]
fn tounicode_with_luatex_tokens_is_still_read() {
    assert_eq!(pages("cmap_luatex_tokens.pdf"), ["Texy\nOK"]);
}

#[test]
fn identity_codes_are_two_bytes_whatever_the_codespacerange() {
    assert_eq!(pages("cmap_codespace_identity.pdf"), ["Groups"]);
}

#[test]
fn empty_tounicode_falls_back_to_the_encoding() {
    assert_eq!(pages("tounicode_empty.pdf"), ["Café crème\nQartial map"]);
}

#[test]
fn indirect_filter_and_decode_parms_are_followed() {
    let text = extract(&fixture("indirect_filter.pdf"), BUDGET).unwrap();
    assert_eq!(
        text.pages,
        ["Indirect filter text", "Indirect parameters text"]
    );
}

#[test]
fn rotated_text_is_read_along_its_direction() {
    assert_eq!(
        pages("rotated_text.pdf"),
        ["DOCUMENT TITLE\nSecond line\nUpside down words\nnext line\nUpright footer"]
    );
}

#[test]
fn standard_fonts_without_widths_use_their_metrics() {
    assert_eq!(
        pages("standard14_no_widths.pdf"),
        ["efficient r1c1\n\nNarrow gap\n\nmono space\n\nkerned"]
    );
}

#[test]
fn symbol_and_zapf_dingbats_use_their_builtin_encodings() {
    assert_eq!(
        pages("symbol_zapf.pdf"),
        ["\u{2126}\u{2264}\u{2211}\u{3b1}\u{3b2}\u{3c0}\n\u{2713}\u{2714}\u{25a0}"]
    );
}

#[test]
fn password_protected_files_are_encrypted_not_damaged() {
    for name in [
        "enc_user_aes256.pdf",
        "enc_user_aes128.pdf",
        "enc_user_rc4_128.pdf",
        "enc_user_rc4_40.pdf",
        // The /Encrypt dictionary in the trailer: lopdf loads it undecrypted, pageless.
        "enc_user_trailer_dict.pdf",
    ] {
        assert_eq!(
            extract(&fixture(name), BUDGET),
            Err(PdfError::Encrypted),
            "{name}"
        );
    }
}

#[test]
fn files_that_open_with_the_empty_password_are_read() {
    for name in [
        "enc_empty_aes256_restricted.pdf",
        "enc_empty_aes256_no_id.pdf",
        "enc_empty_rc4_40.pdf",
        "enc_empty_rc4_no_id.pdf",
        "enc_attachments_only.pdf",
        // Attachments under a password that is not empty; the pages in the clear.
        "enc_attachments_password.pdf",
        // A 40-bit RC4 key under V4, and crypt filters written as references: lopdf
        // undoes neither as it loads the file.
        "enc_v4_rc4_40.pdf",
        "enc_indirect_crypt_filters.pdf",
        // An /Encrypt that is no dictionary is no encryption (the pages are in the clear).
        "enc_not_a_dictionary.pdf",
    ] {
        assert_eq!(
            extract(&fixture(name), BUDGET).map(|text| text.pages),
            Ok(vec!["Secret text of the encrypted fixtures".to_string()]),
            "{name}"
        );
    }
}

#[test]
fn predefined_cjk_cmaps_map_fonts_without_tounicode() {
    // GBK-EUC-H's one-byte codes are Adobe-GB1's proportional Latin (pdftotext prints
    // their full-width forms, the same letters under NFKC); its space is an en space.
    assert_eq!(
        pages("cjk_predefined_cmaps.pdf"),
        ["中文\u{2002}GBK\n日本語\u{2002}SJIS"]
    );
}

#[test]
fn form_field_values_and_free_text_are_read_after_the_page() {
    assert_eq!(
        pages("form_fields.pdf"),
        ["Page text\n\nFilled in value\n\nValue without appearance\n\nA free text note"]
    );
}

#[test]
fn actual_text_replaces_the_glyphs_it_spans() {
    assert_eq!(
        pages("actual_text.pdf"),
        ["Before \u{1f600} after\nsecond line"]
    );
}

#[test]
fn right_to_left_text_drawn_as_seen_is_read_in_logical_order() {
    assert_eq!(pages("rtl_visual_order.pdf"), ["שלום עולם 2024"]);
}

#[test]
fn a_space_encoded_as_notdef_still_parts_words() {
    assert_eq!(pages("notdef_space.pdf"), ["Words that have spaces."]);
}

#[test]
fn type3_glyphs_named_for_shapes_stand_for_their_codes() {
    assert_eq!(pages("type3_shape_names.pdf"), ["abba"]);
}

#[test]
fn glyphs_past_the_page_edge_are_dropped() {
    // The 25th W of 24-point Helvetica from x = 72 starts past x = 612; a line drawn
    // above the page is not on it.
    assert_eq!(
        pages("page_edge.pdf"),
        [format!("{}\nInside", "W".repeat(24))]
    );
}

#[test]
fn a_stream_without_length_is_read_to_its_endstream() {
    assert_eq!(
        pages("stream_without_length.pdf"),
        ["A stream without a length"]
    );
}

#[test]
fn content_is_read_past_what_lopdf_stops_at() {
    assert_eq!(
        pages("content_tolerated.pdf"),
        ["extensively\nGrandes Clients\nLast line"]
    );
}

#[test]
fn unicode_cids_mapped_by_a_cidtogidmap_stream_are_read_as_text() {
    assert_eq!(pages("cid_unicode.pdf"), ["Výbava na přání"]);
}

#[test]
fn text_drawn_twice_over_itself_is_read_once() {
    assert_eq!(pages("fake_bold.pdf"), ["Bold\nShadow\nall"]);
}

#[test]
fn a_lost_cross_reference_entry_is_found_by_rebuilding_the_table() {
    assert_eq!(
        pages("xref_offset_wrong.pdf"),
        ["Found by the rebuilt table"]
    );
}

#[test]
fn vertical_writing_runs_down_the_page() {
    // Each column is a line; the pen ends below the column, so "after" stays on the page.
    assert_eq!(pages("vertical_writing.pdf"), ["ABCD\nEF\n\nA\nafter"]);
}

#[test]
fn a_form_cannot_restore_or_leave_its_page_states() {
    assert_eq!(
        pages("form_unbalanced_q.pdf"),
        ["In the form\n\nAfter the form"]
    );
}

#[test]
fn an_embedded_cmap_gives_cids_their_widths() {
    assert_eq!(
        pages("cmap_cid_widths.pdf"),
        ["An embedded CMap maps codes to CIDs, and widths follow the CIDs."]
    );
}

#[test]
fn an_appearance_box_written_as_a_reference_is_followed() {
    assert_eq!(
        pages("annotation_indirect_bbox.pdf"),
        ["Page text\n\nStamp text"]
    );
}

#[test]
fn inline_image_data_that_runs_into_its_end_is_skipped() {
    assert_eq!(pages("inline_image_glued_ei.pdf"), ["After the image"]);
}

#[test]
fn a_page_tree_whose_root_is_a_page_has_that_page() {
    assert_eq!(pages("pages_root_is_page.pdf"), ["The only page"]);
}

#[test]
fn a_gap_of_an_eighth_of_the_size_parts_words() {
    assert_eq!(pages("word_break.pdf"), ["Contents . . . 1\n\nkern x"]);
}
