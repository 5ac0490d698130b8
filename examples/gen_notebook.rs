//! Writes a synthetic nbformat-4.5 notebook of about N MB, mostly embedded PNG plots, for
//! benchmarking the notebook view: `gen_notebook OUT.ipynb [MB]`.

use std::fmt::Write as _;

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().expect("usage: gen_notebook OUT.ipynb [MB]");
    let mb: usize = args.next().map_or(20, |s| s.parse().expect("MB"));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut cells = Vec::new();
    let mut size = 0;
    let mut n = 0;
    while size < mb << 20 {
        n += 1;
        let md = format!(
            r###"{{"cell_type": "markdown", "id": "md{n}", "metadata": {{}}, "source": ["## Step {n}\n", "\n", "Some prose about the plot below.\n"]}}"###
        );
        let mut png = vec![0u8; 150_000 + (rng.next() % 150_000) as usize];
        png.iter_mut().for_each(|b| *b = rng.next() as u8);
        let b64 = base64(&png);
        // Half the images in the old style: base64 broken into 76-column lines.
        let image = if n % 2 == 0 {
            json(&(b64 + "\n"))
        } else {
            let lines: Vec<String> = b64
                .as_bytes()
                .chunks(76)
                .map(|l| json(&(String::from_utf8_lossy(l) + "\n")))
                .collect();
            format!("[{}]", lines.join(", "))
        };
        let mut stdout = String::new();
        for i in 0..80 {
            let _ = write!(
                stdout,
                "{}, ",
                json(&format!("epoch {i}: loss {}\n", rng.next() % 1000))
            );
        }
        stdout.truncate(stdout.len() - 2);
        let code = format!(
            r#"{{"cell_type": "code", "execution_count": {n}, "id": "c{n}", "metadata": {{}}, "outputs": [{{"name": "stdout", "output_type": "stream", "text": [{stdout}]}}, {{"data": {{"image/png": {image}, "text/plain": ["<Figure size 640x480 with 1 Axes>"]}}, "metadata": {{}}, "output_type": "display_data"}}], "source": ["import matplotlib.pyplot as plt\n", "for epoch in range(80):\n", "    print(f'epoch {{epoch}}: loss {{train()}}')\n", "plt.plot(history)\n", "plt.show()"]}}"#
        );
        size += md.len() + code.len();
        cells.push(md);
        cells.push(code);
    }
    let doc = format!(
        r#"{{"cells": [{}], "metadata": {{"kernelspec": {{"display_name": "Python 3", "language": "python", "name": "python3"}}, "language_info": {{"name": "python"}}}}, "nbformat": 4, "nbformat_minor": 5}}"#,
        cells.join(",\n")
    );
    std::fs::write(&out, doc).unwrap();
}
