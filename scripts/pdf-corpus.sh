#!/bin/bash
# pdf-corpus.sh — gathers real-world PDFs (none made for agentread) into one folder per
# origin, for scripts/pdf-recall.py: the test PDFs of six public repositories (PDF
# readers' and writers' regression files: pdf.js, pdfminer.six, pdfplumber, PyMuPDF,
# qpdf, py-pdf's samples) and the manuals of eleven Debian documentation packages (TeX,
# LuaTeX, XeTeX, CJK, R, Octave, GLPK, gnuplot, Asymptote).
#
# Usage: scripts/pdf-corpus.sh [DIR]     (default /tmp/pdfcorpus)
#   MIRRORS=DIR  take each repository from DIR/<owner>+<name>/repo (a bare git
#                directory) instead of cloning it
# Needs git, apt-get (run `apt-get update` first) and dpkg-deb. Then:
#   scripts/pdf-recall.py --cache /tmp/pdfcache /tmp/pdfcorpus
set -euo pipefail
OUT=${1:-/tmp/pdfcorpus}
mkdir -p "$OUT"
REPOS="py-pdf/sample-files jsvine/pdfplumber pdfminer/pdfminer.six mozilla/pdf.js pymupdf/PyMuPDF qpdf/qpdf"
DEBS="texlive-luatex texlive-xetex texlive-fonts-recommended-doc texlive-lang-cjk texlive-lang-chinese
      r-doc-pdf gnuplot-doc glpk-doc asymptote-doc octave-doc texlive-latex-recommended-doc"
WORK=$(mktemp -d /tmp/pdf-corpus.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

for repo in $REPOS; do
  dir="$OUT/${repo/\//+}"
  mkdir -p "$dir"
  git_dir=${MIRRORS:+$MIRRORS/${repo/\//+}/repo}
  if [[ -z $git_dir || ! -d $git_dir ]]; then
    git_dir="$WORK/${repo/\//+}.git"
    git clone --quiet --bare --depth 1 "https://github.com/$repo" "$git_dir"
  fi
  # Every blob whose name ends in .pdf and that is a PDF (pdf.js keeps some as links).
  git --git-dir="$git_dir" ls-tree -r HEAD | while IFS=$'\t' read -r meta path; do
    [[ ${path,,} == *.pdf ]] || continue
    sha=$(awk '{print $3}' <<< "$meta")
    target="$dir/${path//\//__}"
    git --git-dir="$git_dir" cat-file blob "$sha" > "$target"
    head -c 1024 "$target" | grep -aq '%PDF-' || rm -f "$target"
  done
  echo "$repo: $(ls "$dir" | wc -l) PDFs"
done

(cd "$WORK" && apt-get download $DEBS > /dev/null)
for deb in "$WORK"/*.deb; do
  package=$(basename "$deb"); package=${package%%_*}
  dir="$OUT/debian+$package"
  mkdir -p "$dir"
  rm -rf "$WORK/x" && mkdir "$WORK/x" && dpkg-deb -x "$deb" "$WORK/x"
  find "$WORK/x" -name '*.pdf' -type f | while read -r f; do
    name=${f#"$WORK"/x/usr/share/}
    name=${name//\//_}
    cp "$f" "$dir/${name: -120}"
  done
  echo "debian $package: $(ls "$dir" | wc -l) PDFs"
done
echo "corpus: $(find "$OUT" -name '*.pdf' | wc -l) PDFs in $OUT"
