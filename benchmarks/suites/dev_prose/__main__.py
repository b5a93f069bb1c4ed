"""dev_prose: Chroma's chunking-evaluation prose (the two dev corpora), per corpus and per question.

The held-out scorer (``../shared/dev-data/scoring/evidence_eval.py``) scores all corpora in one
pool and prints aggregates. This suite imports its functions by path, unchanged (the same chunk
texts, the same pooled BM25 and dense rankings over ``embed_text or text``, the same reference
spans trimmed of edge whitespace), and splits the same figures by corpus: chunks, mean tokens,
references whole, complete evidence in the top 5 (BM25, dense).

``--why`` sorts every question one tool finds whole in its top 5 and the other does not by why the
other missed: ``cut`` (a reference lies in no one chunk), ``split`` (every reference whole, in
chunks not all in the top 5), ``rank`` (all in one chunk, ranked below 5). ``--explain`` prints
those questions one by one: the rank of the chunk holding each reference in each tool, and what
the top 5 hold instead.

``--unrecognized`` chunks the corpora in this interpreter as a parser that does not see their
headings reads them (the wiki's ``= = Section = =`` lines stay lines of one paragraph): prose whose
structure is invisible, the shape the held-out corpora most likely have. It is an analysis
condition, not a second scorer: the held-out figures are the scorer's.

    .benchvenv/bin/python -m benchmarks.suites.dev_prose [--dense] [--budgets 200] [--why]
      [--explain bm25|dense] [--peer semchunk] [--project NAME=CMD ...] [--unrecognized]

Run from the repository root in a venv with the scorer's dependencies (its README) and parsegate
installed (for --unrecognized). CMD is a shell template with {file}, {out} and {budget}; the
default is this checkout's ``.venv/bin/parsegate chunk``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report

DEV = harness.ROOT.parent / "shared" / "dev-data"
PEERS = ("semchunk", "chonkie")
Chunk = tuple[str, int, int, str]  # corpus, start, end, the text retrieved (embed_text or text)
Question = tuple[str, str, list[tuple[int, int]]]


def scorer(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("evidence_eval", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def unrecognized_chunks(ev: ModuleType, data: Path, budget: int) -> list[Chunk]:
    """parsegate in this interpreter, on the corpora read without their wiki headings."""
    import parsegate.parsers.markdown as markdown
    import parsegate.parsers.text as text
    from parsegate.api import parse
    from parsegate.chunkers import ChunkConfig, Chunker

    for module in (markdown, text):
        module.split_wiki_headings = lambda doc: False  # type: ignore[attr-defined]
    chunker = Chunker(ChunkConfig(max_tokens=budget))
    out = []
    for corpus in ev.CORPORA:
        for c in chunker.chunk(parse(str(data / f"{corpus}.md"))):
            out.append((corpus, c.start, c.end, c.embed_text or c.text))
    return out


def chunkings(ev: ModuleType, data: Path, budget: int, projects: dict[str, str], unseen: bool) -> dict[str, Any]:
    texts, _ = ev.load(str(data))
    out: dict[str, list[Chunk]] = {}
    for name, cmd in projects.items():
        out[name] = ev.project_chunks(cmd.replace("{budget}", str(budget)), str(data))
    if unseen:
        out["parsegate-unrecognized"] = unrecognized_chunks(ev, data, budget)
    out["semchunk"] = ev.peer_semchunk(texts, ev.tokenizer(), budget)
    out["chonkie"] = ev.peer_chonkie(texts, budget)
    return out


def full_ranks(ev: ModuleType, chunks: list[Chunk], qs: list[Question], retriever: str) -> list[list[int]]:
    """Every chunk ranked for every question (the scorer's functions, asked for all of them)."""
    rank = ev.bm25_rank if retriever == "bm25" else ev.dense_rank
    return [[int(i) for i in row] for row in rank(chunks, qs, len(chunks))]


def holder(chunks: list[Chunk], corpus: str, ref: tuple[int, int]) -> int | None:
    for n, (c, s, e, _) in enumerate(chunks):
        if c == corpus and s <= ref[0] and ref[1] <= e:
            return n
    return None


def complete(chunks: list[Chunk], corpus: str, refs: list[tuple[int, int]], top: list[int]) -> bool:
    return all(any(chunks[i][0] == corpus and chunks[i][1] <= s and e <= chunks[i][2] for i in top) for s, e in refs)


def measure(ev: ModuleType, tools: dict[str, list[Chunk]], qs: list[Question], retrievers: list[str]) -> dict[str, Any]:
    """Per tool: the full rankings, each question's hit, and per corpus (and all) the figures."""
    tok = ev.tokenizer()
    corpora = sorted({c for _, c, _ in qs})
    result: dict[str, Any] = {}
    for name, chunks in tools.items():
        ranks = {r: full_ranks(ev, chunks, qs, r) for r in retrievers}
        hits = {r: [complete(chunks, q[1], q[2], ranks[r][n][:5]) for n, q in enumerate(qs)] for r in retrievers}
        sizes = [len(tok.encode(ch[3], add_special_tokens=False).ids) for ch in chunks]
        rows = {}
        for corpus in [*corpora, "all"]:
            pick = [n for n, q in enumerate(qs) if corpus in ("all", q[1])]
            mine = [n for n, ch in enumerate(chunks) if corpus in ("all", ch[0])]
            contained, q_whole = ev.containment(chunks, [qs[n] for n in pick])
            row = {"questions": len(pick), "chunks": len(mine), "mean_tokens": sum(sizes[n] for n in mine) / len(mine),
                   "refs_whole": contained, "questions_whole": q_whole}  # fmt: skip
            for r in retrievers:
                row[f"{r}_ev5"] = sum(hits[r][n] for n in pick) / len(pick)
            rows[corpus] = row
        result[name] = {"rows": rows, "ranks": ranks, "hits": hits}
    return result


def table(measured: dict[str, Any], retrievers: list[str], budget: int) -> str:
    head = "| tool | corpus @ tokens | chunks | mean tok | refs whole | q whole | "
    lines = [head + " | ".join(f"{r} ev@5" for r in retrievers) + " |", "|" + "---|" * (6 + len(retrievers))]
    for name, found in measured.items():
        for corpus, row in found["rows"].items():
            cells = [name, f"{corpus} @{budget}", str(row["chunks"]), f"{row['mean_tokens']:.0f}",
                     f"{row['refs_whole']:.3f}", f"{row['questions_whole']:.3f}",
                     *(f"{row[f'{r}_ev5']:.3f}" for r in retrievers)]  # fmt: skip
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def why(chunks: list[Chunk], question: Question, top: list[int]) -> str:
    """Why a tool misses a question: cut, split or rank (see the module's help)."""
    _, corpus, refs = question
    held = [holder(chunks, corpus, ref) for ref in refs]
    if None in held:
        return "cut"
    return "split" if len(set(held)) > 1 else "rank"


def tally(tools: dict[str, list[Chunk]], measured: dict[str, Any], qs: list[Question], retriever: str,
          ours: str, peer: str) -> dict[str, dict[str, int]]:  # fmt: skip
    """For the questions one finds and the other does not: the loser's reason, counted."""
    out: dict[str, dict[str, int]] = {f"{ours} misses": {}, f"{peer} misses": {}}
    for n, q in enumerate(qs):
        mine, theirs = measured[ours]["hits"][retriever][n], measured[peer]["hits"][retriever][n]
        if mine == theirs:
            continue
        loser = peer if mine else ours
        reason = why(tools[loser], q, measured[loser]["ranks"][retriever][n][:5])
        counts = out[f"{loser} misses"]
        counts[reason] = counts.get(reason, 0) + 1
    return out


def _show(text: str, width: int = 160) -> str:
    flat = text.replace("\n", "⏎")
    return flat if len(flat) <= width else flat[: width // 2] + " … " + flat[-width // 2 :]


def explain(texts: dict[str, str], tools: dict[str, list[Chunk]], measured: dict[str, Any], qs: list[Question],
            retriever: str, ours: str, peer: str) -> None:  # fmt: skip
    """Each question one of the two finds whole in its top 5 and the other does not."""
    for n, (question, corpus, refs) in enumerate(qs):
        found = {name: measured[name]["hits"][retriever][n] for name in (ours, peer)}
        if found[ours] == found[peer]:
            continue
        print(f"\n=== {'LOST' if found[peer] else 'WON'} q{n} [{corpus}] {question}")
        for s, e in refs:
            print(f"  ref {s}-{e}: {_show(texts[corpus][s:e], 200)}")
        for name in (ours, peer):
            chunks, ranking = tools[name], measured[name]["ranks"][retriever][n]
            where = []
            for ref in refs:
                h = holder(chunks, corpus, ref)
                where.append("cut" if h is None else f"#{ranking.index(h) + 1} ({chunks[h][1]}-{chunks[h][2]})")
            print(f"  {name}: refs at {', '.join(where)}")
            for rank, i in enumerate(ranking[:5], 1):
                c, s, e, text = chunks[i]
                print(f"    {rank}. [{c} {s}-{e}] {_show(text)}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, default=DEV / "prose")
    p.add_argument("--scorer", type=Path, default=DEV / "scoring" / "evidence_eval.py")
    p.add_argument("--budgets", default="200")
    p.add_argument("--dense", action="store_true", help="dense all-MiniLM-L6-v2 retrieval too (torch)")
    p.add_argument("--project", action="append", default=[], help="NAME=CMD, a chunking to measure (repeatable)")
    p.add_argument("--unrecognized", action="store_true", help="also parsegate on the corpora without their headings")
    p.add_argument("--why", action="store_true", help="count the questions won and lost against --peer, by reason")
    p.add_argument("--explain", choices=["bm25", "dense"], help="print the questions won and lost against --peer")
    p.add_argument("--peer", default="semchunk")
    p.add_argument("--out", type=Path, default=None, help="results JSON (default benchmarks/results/dev_prose.json)")
    args = p.parse_args()
    projects = dict(x.split("=", 1) for x in args.project) or {
        "parsegate": f"{harness.ROOT}/.venv/bin/parsegate -q chunk {{file}} --max-tokens {{budget}} -o {{out}}"
    }
    ev = scorer(args.scorer)
    texts, qs = ev.load(str(args.data))
    retrievers = ["bm25", "dense"] if args.dense else ["bm25"]
    report = Report("dev_prose")
    for budget in (int(b) for b in args.budgets.split(",")):
        tools = chunkings(ev, args.data, budget, projects, args.unrecognized)
        measured = measure(ev, tools, qs, retrievers)
        print(table(measured, retrievers, budget))
        ours = next(iter(tools))
        for name in tools if args.why else ():
            if name != args.peer:
                for r in retrievers:
                    print(f"@{budget} {r}: {tally(tools, measured, qs, r, name, args.peer)}")
        if args.explain:
            explain(texts, tools, measured, qs, args.explain, ours, args.peer)
        for name, found in measured.items():
            for corpus, row in found["rows"].items():
                for metric, value in row.items():
                    report.add(name, f"{corpus} @{budget} tokens", metric, round(value, 4), "",
                               ratio_to=None if name in PEERS else "semchunk")  # fmt: skip
            report.details.setdefault("questions", {})[f"{name}@{budget}"] = {
                r: [int(h) for h in found["hits"][r]] for r in retrievers
            }
    subset = bool(args.project) or args.budgets != "200" or not args.dense
    out = args.out or harness.RESULTS / ("dev_prose.tmp" if subset else "dev_prose.json")
    print(f"written to {report.write(out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
