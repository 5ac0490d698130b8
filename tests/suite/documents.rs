//! SPEC §16: notebooks and PDFs read as views, `--raw`, and `paths` in `--call`.

use serde_json::{Value, json};

use crate::common;

use common::{Workspace, code, json_lines, stderr, stdout};

/// A notebook of nbformat 4.2 shapes: `source` as a string and as a list, cells without
/// `id`, every kind of output.
const NOTEBOOK: &str = r##"{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": "# Analysis\nIntro text."},
  {"cell_type": "code", "execution_count": 1, "metadata": {},
   "outputs": [
    {"name": "stdout", "output_type": "stream", "text": ["loading\n", "done\n"]},
    {"data": {"text/plain": ["42"]}, "execution_count": 1, "metadata": {}, "output_type": "execute_result"},
    {"data": {"image/png": "AAAAAAAA", "text/plain": ["<Figure>"]}, "metadata": {}, "output_type": "display_data"},
    {"data": {"image/png": "iVBORw0KGgoAAAANSUhEUg=="}, "metadata": {}, "output_type": "display_data"},
    {"ename": "ZeroDivisionError", "evalue": "division by zero", "output_type": "error",
     "traceback": ["\u001b[0;31m---------\u001b[0m", "\u001b[0;31mZeroDivisionError\u001b[0m: division by zero"]}
   ],
   "source": ["x = 42\n", "x"]},
  {"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": "print('no output')"}
 ],
 "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
 "nbformat": 4, "nbformat_minor": 2
}"##;

/// The view of [`NOTEBOOK`], byte for byte.
const VIEW: &str = "# %% [markdown] cell-1
# Analysis
Intro text.

# %% [code] cell-2
x = 42
x
# %% [output] cell-2
loading
done
42
<Figure>
[image/png output, 6 bytes]
[image/png output, 16 bytes]
ZeroDivisionError: division by zero
---------
ZeroDivisionError: division by zero

# %% [code] cell-3
print('no output')
";

/// nbformat 4.5: cells with an `id`.
const NOTEBOOK_45: &str = r##"{"cells": [
  {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["# Title\n", "Text"]},
  {"cell_type": "code", "id": "load-data", "execution_count": 1, "metadata": {}, "outputs": [], "source": ["import os\n", "os.getcwd()"]}
 ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"##;

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| format!("{:>4} | {line}\n", i + 1))
        .collect()
}

fn pdf(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/pdf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn workspace() -> Workspace {
    let ws = Workspace::new();
    ws.file("nb.ipynb", NOTEBOOK);
    ws.file("ids.ipynb", NOTEBOOK_45);
    for name in [
        "fpdf2_two_pages.pdf",
        "reportlab_text.pdf",
        "chromium_unicode.pdf",
        "reportlab_scan.pdf",
        "reportlab_encrypted.pdf",
        "damaged_truncated.pdf",
        "qpdf_empty_user_password.pdf",
    ] {
        ws.file(name, pdf(name));
    }
    ws
}

#[test]
fn a_notebook_is_read_as_its_view_byte_for_byte() {
    let ws = workspace();
    let out = ws.run(&["nb.ipynb"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), numbered(VIEW));
    let v = ws.json(&["nb.ipynb"]);
    assert_eq!(v["data"]["type"], "notebook");
    assert_eq!(v["stats"]["total_lines"], VIEW.lines().count());
    assert_eq!(v["stats"]["file_size_bytes"], NOTEBOOK.len());
    // Paged like any text.
    let out = ws.run(&["nb.ipynb", "-s", "5", "-n", "3"]);
    assert_eq!(
        stdout(&out),
        "   5 | # %% [code] cell-2\n   6 | x = 42\n   7 | x\n\n\
         [Truncated: showing lines 5-7 of 20. Use --start-line 8 to continue. Use --outline to list its cells.]\n"
    );
}

#[test]
fn long_outputs_keep_fifty_lines_and_say_how_many_more() {
    let ws = Workspace::new();
    let text: String = (0..60).map(|i| format!("{i}\n")).collect();
    let nb = json!({
        "cells": [{"cell_type": "code", "execution_count": 1, "metadata": {},
                   "source": "for i in range(60): print(i)",
                   "outputs": [{"output_type": "stream", "name": "stdout", "text": text}]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 4
    });
    ws.file("long.ipynb", nb.to_string());
    let out = ws.run(&["long.ipynb", "--numbers", "none"]);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines[0], "# %% [code] cell-1");
    assert_eq!(lines[2], "# %% [output] cell-1");
    assert_eq!(lines[3], "0");
    assert_eq!(lines[52], "49");
    assert_eq!(lines[53], "[… 10 more lines]");
    assert_eq!(lines.len(), 54);
}

/// A markdown cell without a heading is named by its first line; blank lines are passed
/// over; a cell with no source is named by its kind alone.
#[test]
fn an_outline_names_each_cell_by_what_it_holds() {
    let ws = Workspace::new();
    ws.file(
        "nb.ipynb",
        r###"{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
          {"cell_type": "markdown", "metadata": {}, "source": ["Plain words first.\n", "\n", "## A later heading"]},
          {"cell_type": "markdown", "metadata": {}, "source": ["no heading here\n", "at all"]},
          {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": ["\n", "   \n", "  y = 2"],
           "outputs": [{"output_type": "stream", "name": "stdout", "text": ["# not source\n"]}]},
          {"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [], "source": []},
          {"cell_type": "raw", "metadata": {}, "source": "raw text"}]}"###,
    );
    let out = ws.run(&["nb.ipynb", "--outline"]);
    let outline = stdout(&out);
    let titles: Vec<&str> = outline
        .lines()
        .map(|l| l.split_once(" | ").unwrap().1)
        .collect();
    assert_eq!(
        titles,
        [
            "cell-1 [markdown] ## A later heading",
            "cell-2 [markdown] no heading here",
            "cell-3 [code] y = 2",
            "cell-4 [code]",
            "cell-5 [raw] raw text",
        ]
    );
    // The symbols keep their names: `nb.ipynb#cell-3` reads the cell.
    let v = ws.json(&["nb.ipynb", "--outline"]);
    assert_eq!(v["data"]["symbols"][2]["name"], "cell-3");
    // Each title is found in its own lines: 20,000 cells (the most read as a view) took
    // 10 s of titles, each looked for from the view's first line, for a 3-line window.
    let cells: Vec<Value> = (0..20_000)
        .map(|i| json!({"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [], "source": format!("x = {i}")}))
        .collect();
    let notebook = json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells});
    ws.file("many.ipynb", notebook.to_string());
    let started = std::time::Instant::now();
    let v = ws.json(&["many.ipynb", "--outline", "-s", "59998"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(v["data"]["symbols"][0]["name"], "cell-20000", "{v}");
    assert_eq!(
        v["data"]["content"],
        "59998-59999 | cell-20000 [code] x = 19999\n"
    );
}

#[test]
fn cells_are_symbols_by_number_or_id() {
    let ws = workspace();
    // Each cell by its name, kind and what it holds (a markdown cell's first
    // heading, a code cell's first line), not by its bare `# %% [kind] cell-N` header.
    let out = ws.run(&["nb.ipynb", "--outline"]);
    assert_eq!(
        stdout(&out),
        "  1-3 | cell-1 [markdown] # Analysis\n 5-17 | cell-2 [code] x = 42\n19-20 | cell-3 [code] print('no output')\n"
    );
    let v = ws.json(&["nb.ipynb", "--outline"]);
    assert_eq!(v["data"]["symbols"][1]["name"], "cell-2");
    assert_eq!(v["data"]["symbols"][1]["kind"], "cell");
    assert_eq!(v["data"]["total_symbols"], 3);
    let out = ws.run(&["nb.ipynb#cell-3", "--no-hint"]);
    assert_eq!(
        stdout(&out),
        "  19 | # %% [code] cell-3\n  20 | print('no output')\n"
    );
    // By the cell's id (nbformat 4.5).
    let v = ws.json(&["ids.ipynb#load-data"]);
    assert_eq!(v["data"]["type"], "notebook");
    assert_eq!(v["data"]["symbol"]["name"], "cell-2");
    assert_eq!(v["data"]["language"], "notebook");
    assert_eq!(
        v["data"]["content"],
        "   5 | # %% [code] cell-2\n   6 | import os\n   7 | os.getcwd()\n"
    );
    // An id two cells share names neither: the answer lists them by number, which works;
    // a number wins over an id that is another cell's name.
    let cell = |i: u32, id: &str| json!({"cell_type": "code", "id": id, "metadata": {}, "source": format!("x = {i}"), "outputs": [], "execution_count": null});
    ws.file(
        "dup.ipynb",
        json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
               "cells": [cell(1, "dup"), cell(2, "dup"), cell(3, "cell-1")]})
        .to_string(),
    );
    let v = ws.json(&["dup.ipynb#dup"]);
    assert_eq!(v["error"]["code"], "INVALID_PARAM", "{v}");
    assert_eq!(
        v["error"]["suggestions"],
        json!(["dup.ipynb#cell-1", "dup.ipynb#cell-2"])
    );
    let v = ws.json(&["dup.ipynb#cell-1"]);
    assert_eq!(
        v["data"]["content"],
        "   1 | # %% [code] cell-1\n   2 | x = 1\n"
    );
    // The cell that holds a line.
    let out = ws.run(&["nb.ipynb:9", "--enclosing", "--no-hint"]);
    assert!(stdout(&out).starts_with("   5 | # %% [code] cell-2\n"));
    assert!(stdout(&out).ends_with("  17 | ZeroDivisionError: division by zero\n"));
    // A cell that is not there: the nearest ones.
    let out = ws.run(&["nb.ipynb#cell-9"]);
    assert_eq!(code(&out), 3);
    assert!(stderr(&out).contains("No cell 'cell-9' in 'nb.ipynb' (3 cells)."));
    assert!(stderr(&out).contains("  nb.ipynb#cell-3\n"));
}

/// `--fit`'s outline step is `--outline`'s view: a notebook's cells by their titles, not
/// by their bare headers.
#[test]
fn fit_outlines_a_notebook_as_outline_does() {
    let ws = workspace();
    let outline = stdout(&ws.run(&["nb.ipynb", "--outline", "--no-hint"]));
    let out = ws.run(&["nb.ipynb", "--fit", "--max-tokens", "60", "--no-hint"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), outline);
    let v = ws.json(&["nb.ipynb", "--fit", "--max-tokens", "60"]);
    assert_eq!(v["data"]["view"], "outline");
    assert!(
        v["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("  1-3 | cell-1 [markdown] # Analysis\n"),
        "{}",
        v["data"]["content"]
    );
}

#[test]
fn what_is_not_a_notebook_is_read_as_text() {
    let ws = Workspace::new();
    ws.file("bad.ipynb", "{\"cells\": [ not json\n");
    ws.file("v3.ipynb", "{\"nbformat\": 3, \"worksheets\": []}\n");
    let out = ws.run(&["bad.ipynb", "--no-hint"]);
    assert_eq!(stdout(&out), "   1 | {\"cells\": [ not json\n");
    let v = ws.json(&["v3.ipynb"]);
    assert_eq!(v["data"]["type"], "file");
}

#[test]
fn raw_reads_the_bytes_as_before() {
    let ws = workspace();
    let v = ws.json(&["nb.ipynb", "--raw"]);
    assert_eq!(v["data"]["type"], "file");
    assert_eq!(v["stats"]["total_lines"], NOTEBOOK.lines().count());
    let out = ws.run(&["fpdf2_two_pages.pdf", "--raw"]);
    assert_eq!(code(&out), 7, "{}", stdout(&out));
    let v = ws.json(&["--call", r#"{"path":"nb.ipynb","raw":true}"#]);
    assert_eq!(v["data"]["type"], "file");
}

#[test]
fn the_hash_is_the_files_not_the_views() {
    let ws = workspace();
    let hash = blake3::hash(NOTEBOOK.as_bytes()).to_hex().to_string();
    let v = ws.json(&["nb.ipynb", "--hash"]);
    assert_eq!(v["stats"]["content_hash"], hash);
    let v = ws.json(&["nb.ipynb", "--if-changed", &hash]);
    assert_eq!(v["status"], "unchanged");
}

#[test]
fn a_notebooks_line_endings_are_its_files() {
    let ws = Workspace::new();
    // One line of JSON whose cell source holds a CRLF: the file has no line end at all.
    let notebook = r#"{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "execution_count": 1, "source": ["a = 1\r\n", "c"], "outputs": []}]}"#;
    ws.file("one.ipynb", notebook);
    ws.file("crlf.ipynb", notebook.replace(", \"", ",\r\n\""));
    for (name, endings) in [("one.ipynb", "none"), ("crlf.ipynb", "crlf")] {
        for target in [name.to_string(), format!("{name}#cell-1")] {
            let v = ws.json(&[&target]);
            assert_eq!(v["data"]["type"], "notebook", "{v}");
            assert_eq!(v["stats"]["line_endings"], endings, "{target}");
        }
    }
}

/// A NUL a kernel printed is a JSON escape, no NUL in the file: the view shows its
/// picture, and the notebook is no binary file.
#[test]
fn a_nul_in_a_notebooks_output_is_shown_as_its_picture() {
    let ws = Workspace::new();
    let notebook = r#"{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "execution_count": 1, "source": ["print(b)"], "outputs": [{"output_type": "stream", "name": "stdout", "text": ["abc\u0000def\n"]}]}]}"#;
    ws.file("nul.ipynb", notebook);
    let v = ws.json(&["nul.ipynb"]);
    assert_eq!(v["status"], "success", "{v}");
    assert!(
        v["data"]["content"]
            .as_str()
            .unwrap()
            .contains("abc\u{2400}def"),
        "{v}"
    );
}

#[test]
fn a_notebook_over_64_mib_is_refused() {
    let ws = Workspace::new();
    let file = std::fs::File::create(ws.path().join("huge.ipynb")).unwrap();
    file.set_len((64 << 20) + 1).unwrap();
    let out = ws.run(&["huge.ipynb"]);
    assert_eq!(code(&out), 8, "{}", stderr(&out));
    assert!(stderr(&out).contains("larger than 64 MiB"));
    assert!(stderr(&out).contains("--raw"));
}

#[test]
fn pdfs_of_several_producers_are_read_page_by_page() {
    let ws = workspace();
    let out = ws.run(&["fpdf2_two_pages.pdf"]);
    assert_eq!(
        stdout(&out),
        numbered(
            "--- page 1 ---\nFirst page of the fpdf2 fixture.\nIt has two lines of text.\n\
             --- page 2 ---\nSecond page: numbers 12345 and symbols (a+b)=c.\n"
        )
    );
    let out = ws.run(&["reportlab_text.pdf", "--numbers", "none"]);
    assert_eq!(
        stdout(&out),
        "--- page 1 ---\nReportlab fixture\nAccents from WinAnsi: déjà vu, naïve, Übermut.\n\
         A second line, then a gap.\n\nA paragraph after the gap. Same baseline\n\
         --- page 2 ---\nPage two of reportlab.\n"
    );
    let out = ws.run(&["chromium_unicode.pdf", "--numbers", "none"]);
    assert!(stdout(&out).contains("Unicode: café, αβγ, ≤ ∞.\n"));
    // Encrypted with an empty user password: opens as a viewer opens it.
    let out = ws.run(&["qpdf_empty_user_password.pdf", "--numbers", "none"]);
    assert!(stdout(&out).starts_with("--- page 1 ---\nFirst page of the fpdf2 fixture.\n"));
    let v = ws.json(&["fpdf2_two_pages.pdf"]);
    assert_eq!(v["data"]["type"], "pdf");
    assert_eq!(v["stats"]["total_lines"], 5);
}

#[test]
fn pages_are_symbols() {
    let ws = workspace();
    let out = ws.run(&["reportlab_text.pdf", "--outline"]);
    assert_eq!(stdout(&out), "1-6 | --- page 1 ---\n7-8 | --- page 2 ---\n");
    let v = ws.json(&["reportlab_text.pdf#page-2"]);
    assert_eq!(v["data"]["type"], "pdf");
    assert_eq!(v["data"]["symbol"]["kind"], "page");
    assert_eq!(
        v["data"]["content"],
        "   7 | --- page 2 ---\n   8 | Page two of reportlab.\n"
    );
    let v = ws.json(&[
        "--call",
        r#"{"path":"reportlab_text.pdf","symbol":"page-1"}"#,
    ]);
    assert_eq!(v["data"]["end_line"], 6);
}

#[test]
fn a_pdf_without_text_says_so() {
    let ws = workspace();
    let out = ws.run(&["reportlab_scan.pdf"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "   1 | --- page 1 ---\n   2 | --- page 2 ---\n\n\
         [This PDF has no text layer (scanned or drawn pages): only its page lines are shown.]\n"
    );
    let v = ws.json(&["--call", r#"{"path":"reportlab_scan.pdf"}"#]);
    assert!(v["text"].as_str().unwrap().contains("no text layer"));
}

#[test]
fn encrypted_and_damaged_pdfs_are_binary_with_a_reason() {
    let ws = workspace();
    for (name, reason) in [
        ("reportlab_encrypted.pdf", "pdf_encrypted"),
        ("damaged_truncated.pdf", "pdf_damaged"),
    ] {
        let out = ws.run(&[name, "--format", "json"]);
        assert_eq!(code(&out), 7, "{name}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["error"]["code"], "BINARY_FILE");
        assert_eq!(v["error"]["detail"], json!({ "reason": reason }), "{name}");
    }
}

/// A PDF of `objects` (object 1 the catalog), with its cross-reference table: object
/// `n` is `objects[n - 1]`, and an empty string is an object the file does not have.
fn handmade_pdf(objects: &[&str]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push((!body.is_empty()).then_some(out.len()));
        if !body.is_empty() {
            out.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).bytes());
        }
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for offset in offsets {
        out.extend(
            match offset {
                Some(at) => format!("{at:010} 00000 n \n"),
                None => "0000000000 00000 f \n".to_string(),
            }
            .bytes(),
        );
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}

/// A page's content stream showing `text` in Helvetica (`/F1`).
fn page_content(text: &str) -> String {
    let ops = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET");
    format!("<< /Length {} >>\nstream\n{ops}\nendstream", ops.len())
}

const HELVETICA: &str = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/// A page whose content, font or page object the file lost (a file cut short keeps its pages' tree
/// and loses what its end held) says so on its last line, and the footer counts such
/// pages: it is never an empty page that looks whole, nor "no text layer".
#[test]
fn a_pdf_page_whose_content_is_lost_says_so() {
    let ws = Workspace::new();
    let page = |contents: u32, font: &str| {
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {contents} 0 R /Resources << /Font << /F1 {font} >> >> >>"
        )
    };
    let (p3, p4, p5) = (page(6, "7 0 R"), page(9, "7 0 R"), page(8, "10 0 R"));
    ws.file(
        "cut.pdf",
        handmade_pdf(&[
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R 11 0 R] /Count 4 >>",
            &p3,
            &p4,
            &p5,
            &page_content("Page one text"),
            HELVETICA,
            &page_content("Page three text"),
            "",
            "",
            "",
        ]),
    );
    let out = ws.run(&["cut.pdf"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lost = "[Some of this page's content could not be read: the file is damaged.]";
    assert_eq!(
        stdout(&out),
        format!(
            "{}\n[3 pages of this PDF were not read whole: the last line of each says why.]\n",
            numbered(&format!(
                "--- page 1 ---\nPage one text\n--- page 2 ---\n{lost}\n--- page 3 ---\n{lost}\n--- page 4 ---\n{lost}\n"
            ))
        )
    );
    let v = ws.json(&["cut.pdf#page-2"]);
    assert_eq!(
        v["data"]["content"],
        format!("   3 | --- page 2 ---\n   4 | {lost}\n")
    );
    // Every page lost: the file is damaged, not a scan.
    ws.file(
        "gone.pdf",
        handmade_pdf(&[
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            "",
        ]),
    );
    let v = ws.json(&["gone.pdf"]);
    assert_eq!(
        v["error"]["detail"],
        json!({"reason": "pdf_damaged"}),
        "{v}"
    );
}

/// A page tree whose `/Kids` lead back to a node already entered is read as poppler
/// reads it: each page once, none made up and none lost.
#[test]
fn a_pdf_page_tree_with_a_loop_gives_each_page_once() {
    let ws = Workspace::new();
    let leaf = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 6 0 R >> >> >>";
    for (name, kids, inner) in [
        // A second node whose kids lead back to the root.
        (
            "cycle.pdf",
            "[3 0 R 4 0 R]",
            "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>",
        ),
        // The root among its own kids.
        (
            "self.pdf",
            "[2 0 R 3 0 R]",
            "<< /Type /Pages /Kids [] /Count 0 >>",
        ),
    ] {
        let root = format!("<< /Type /Pages /Kids {kids} /Count 1 >>");
        ws.file(
            name,
            handmade_pdf(&[
                "<< /Type /Catalog /Pages 2 0 R >>",
                &root,
                leaf,
                inner,
                &page_content("Only page text"),
                HELVETICA,
            ]),
        );
        let out = ws.run(&[name]);
        assert_eq!(
            stdout(&out),
            numbered("--- page 1 ---\nOnly page text\n"),
            "{name}: {}",
            stderr(&out)
        );
    }
}

/// A page object the tree lists twice is two pages, as poppler counts them (`pdfinfo`
/// says `Pages: 2`); only a node that leads back into its own branch is passed over.
#[test]
fn a_pdf_page_listed_twice_is_two_pages() {
    let ws = Workspace::new();
    let leaf = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>";
    ws.file(
        "twice.pdf",
        handmade_pdf(&[
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R 3 0 R] /Count 2 >>",
            leaf,
            &page_content("Same page"),
            HELVETICA,
        ]),
    );
    let out = ws.run(&["twice.pdf"]);
    assert_eq!(
        stdout(&out),
        numbered("--- page 1 ---\nSame page\n--- page 2 ---\nSame page\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn paths_answers_each_target_in_turn() {
    let ws = workspace();
    ws.file("a.txt", "one\ntwo\nthree\n");
    let out = ws
        .cmd()
        .args([
            "--call",
            r#"{"paths":["a.txt:2-2","nope.txt","nb.ipynb#cell-3"]}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 3);
    let answers = json_lines(&out);
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[0]["data"]["content"], "   2 | two\n");
    assert_eq!(answers[1]["error"]["code"], "NOT_FOUND");
    assert_eq!(answers[2]["data"]["symbol"]["name"], "cell-3");
}

#[test]
fn paths_share_one_byte_budget() {
    let ws = Workspace::new();
    let lines: String = (1..=40).map(|n| format!("line {n:02}\n")).collect();
    ws.file("a.txt", &lines);
    ws.file("b.txt", &lines);
    ws.file("c.txt", &lines);
    // Each line prints as 15 bytes: `   1 | line 01\n`.
    let call = r#"{"paths":["a.txt","b.txt","c.txt"]}"#;
    let out = ws
        .cmd()
        .args(["--call", call, "--max-bytes", "400"])
        .output()
        .unwrap();
    let answers = json_lines(&out);
    let shown: Vec<u64> = answers
        .iter()
        .map(|a| a["stats"]["lines_read"].as_u64().unwrap())
        .collect();
    assert_eq!(shown, [26, 1, 1], "{answers:?}");
    assert_eq!(answers[1]["data"]["truncated_by"], "bytes");
    // The same files as separate PATHs each get the whole budget.
    let out = ws
        .cmd()
        .args(["a.txt", "b.txt", "--max-bytes", "400", "--format", "json"])
        .output()
        .unwrap();
    let each: Vec<u64> = json_lines(&out)
        .iter()
        .map(|a| a["stats"]["lines_read"].as_u64().unwrap())
        .collect();
    assert_eq!(each, [26, 26]);
}

#[test]
fn paths_are_checked() {
    let ws = workspace();
    let many: Vec<String> = (0..51).map(|i| format!("f{i}")).collect();
    for (call, says) in [
        (
            json!({"path": "a", "paths": ["b"]}),
            "path and paths cannot be combined",
        ),
        (json!({"paths": []}), "one call reads 1 to 50"),
        (json!({ "paths": many }), "one call reads 1 to 50"),
        (json!({"paths": "a.txt"}), "expected an array"),
        (json!({"paths": [1]}), "expected an array"),
    ] {
        let v = ws.json(&["--call", &call.to_string()]);
        assert_eq!(v["error"]["code"], "INVALID_PARAM", "{call}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(says),
            "{call}: {}",
            v["error"]["message"]
        );
    }
}

#[test]
fn all_cuts_no_line_of_a_notebook() {
    // SPEC §16 "Notebook figures": `--all` cuts no line of a notebook either (a file's
    // lines are never cut by `--all`, whatever their length; 1,000,000 is the most a
    // window keeps).
    let ws = Workspace::new();
    let long = "a".repeat(1_200_000);
    let nb = json!({
        "cells": [{"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "x",
                   "outputs": [{"output_type": "stream", "name": "stdout", "text": format!("{long}\nend\n")}]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 4
    });
    ws.file("long-line.ipynb", nb.to_string());
    let out = ws.run(&["long-line.ipynb", "--all", "--numbers", "none"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        format!("# %% [code] cell-1\nx\n# %% [output] cell-1\n{long}\nend\n")
    );
}

/// A PDF is known by its `%PDF-` header whatever its name (SPEC §16): on standard input
/// too, it is read as its text, as the same file is.
#[test]
fn a_pdf_on_standard_input_is_read_as_its_text() {
    let ws = Workspace::new();
    let pdf = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pdf/fpdf2_two_pages.pdf"
    ))
    .unwrap();
    ws.file("doc.pdf", &pdf);
    let file = ws.run(&["doc.pdf"]);
    assert_eq!(code(&file), 0);
    let out = ws.cmd().arg("-").write_stdin(pdf.clone()).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        stdout(&file).replace("'doc.pdf'", "'<stdin>'"),
    );
    assert!(stdout(&out).contains("First page of the fpdf2 fixture."));
    // In a tool call too; with raw, its bytes are refused as any binary input is.
    let v = &json_lines(
        &ws.cmd()
            .args(["--call", r#"{"path":"-"}"#])
            .write_stdin(pdf.clone())
            .output()
            .unwrap(),
    )[0];
    assert_eq!(v["data"]["type"], "pdf", "{v}");
    assert_eq!(v["stats"]["total_lines"], 5);
    let out = ws
        .cmd()
        .args(["-", "--raw"])
        .write_stdin(pdf)
        .output()
        .unwrap();
    assert_eq!(code(&out), 7, "{}", stderr(&out));
    // An uncompressed PDF (text bytes only) is read as a PDF as well, not as its source.
    // A one-page PDF written by hand, with no compressed stream: text bytes only.
    let content = b"BT /F1 12 Tf 20 100 Td (Hello from stdin) Tj ET".to_vec();
    let plain = common::pdf(&[(format!("<< /Length {} >>", content.len()), Some(content))]);
    let out = ws.cmd().arg("-").write_stdin(plain).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Hello from stdin"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains("%PDF-"), "{}", stdout(&out));
}
