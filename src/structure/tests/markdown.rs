//! Markdown outlines: ATX and setext headings as sections running to the next heading
//! of the same or a higher level; no heading inside code blocks or front matter.

use super::super::Language;
use super::support::check;

/// Sections of every level, front matter, code blocks.
pub(super) const SOURCE: &str = r#"
---
title: x
---
# Title

Intro.

## Install

```sh
# not a heading
```

### Linux
Text

Usage
-----

    # indented code, no heading
# Other
#no-space is no heading either
"#;

#[test]
fn sections_nest_by_level() {
    check(
        Language::Markdown,
        SOURCE,
        &[
            ("Title", "section", 4, 4, 20, 0),
            ("Title > Install", "section", 8, 8, 16, 1),
            ("Title > Install > Linux", "section", 14, 14, 16, 2),
            ("Title > Usage", "section", 17, 17, 20, 1),
            ("Other", "section", 21, 21, 22, 0),
        ],
    );
}

#[test]
fn a_deeper_first_heading_and_a_last_line_without_line_end() {
    check(
        Language::Markdown,
        "### Deep\ntext\n# Top\n## `code` *and* [link](x)\nend",
        &[
            ("Deep", "section", 1, 1, 2, 0),
            ("Top", "section", 3, 3, 5, 0),
            ("Top > code and link", "section", 4, 4, 5, 1),
        ],
    );
    check(Language::Markdown, "", &[]);
}
