#!/usr/bin/env bash
# Re-create sample_books/ from the Debian packages named in sample_books/README.md.
# Needs apt-get (Debian 12) and network access to the Debian mirror. Verifies each sha256.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# file | package | path inside the package | gunzip? | sha256
books=(
  "chez-csug.pdf|chezscheme-doc|./usr/share/doc/chezscheme-doc/csug.pdf.gz|gz|aa1cdf77e7b0d5cad46a58b378f54a5479057404314123df9b393aa00b1b674f"
  "debian-policy.epub|debian-policy|./usr/share/doc/debian-policy/policy.epub|-|3e47d49b3fce68c2c2c731a938c149a040887eefe11cbf50eeb8a03d19fe6ecb"
  "haskell98-report.pdf|haskell98-report|./usr/share/doc/haskell98-report/haskell98-report.pdf.gz|gz|c5773d9ea363fa57d925f64e60245fef41f8d035687df382fbab0a541c528da5"
  "lshort.pdf|texlive-lang-english|./usr/share/doc/texlive-doc/latex/lshort-english/lshort.pdf|-|ecef13f225de55549ee5214f70cca30998f3251dee65c6b00931aae18b7736c2"
  "r-intro.pdf|r-doc-pdf|./usr/share/R/doc/manual/R-intro.pdf|-|337ccd0b490b1e66f7e783b45f4588d0599730b4206c0c051edfe1419c568c51"
)

for row in "${books[@]}"; do
  IFS='|' read -r file pkg path gz sha <<<"$row"
  apt-get download "$pkg" >/dev/null 2>&1
  deb=$(ls "$pkg"_*.deb | head -n 1)
  if [ "$gz" = gz ]; then
    dpkg-deb --fsys-tarfile "$deb" | tar -xO "$path" | gunzip >"$file.tmp"
  else
    dpkg-deb --fsys-tarfile "$deb" | tar -xO "$path" >"$file.tmp"
  fi
  got=$(sha256sum "$file.tmp" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    echo "fetch.sh: $file: sha256 $got, expected $sha" >&2
    exit 1
  fi
  mv "$file.tmp" "$here/$file"
  echo "ok $file"
done
