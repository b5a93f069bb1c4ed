"""What a run is asked to do: ``RunSettings``, typed and frozen. The command line and
``parsegate.run()`` both build one from their own arguments; ``run_corpus`` takes nothing else
(no environment, no global state)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from parsegate.chunkers import ChunkConfig
from parsegate.engines.base import Limits
from parsegate.parsers.options import ParseOptions
from parsegate.quality_gates.sample import GateSample
from parsegate.quality_gates.thresholds import GateConfig
from parsegate.store.schema import DEFAULT_STORE

Engine = Literal["local", "ray"]
OutputFormat = Literal["jsonl", "parquet"]


@dataclass(frozen=True)
class RunSettings:
    corpus: Path  # a folder, searched recursively, or one file
    out: Path  # the output folder (OUTDIR)
    chunking: ChunkConfig = field(default_factory=ChunkConfig)
    gate: GateConfig = field(default_factory=GateConfig)
    # The documents that get the gate's expensive references (docling's export): all by default.
    gate_sample: GateSample = field(default_factory=GateSample)
    parsing: ParseOptions = field(default_factory=ParseOptions)
    # Which files: gitignore-style patterns; the corpus's .gitignore files; hidden paths; symlinks out.
    glob: tuple[str, ...] = ("*",)
    exclude: tuple[str, ...] = ()
    gitignore: bool = True
    include_hidden: bool = False
    follow_symlinks: bool = False
    root: Path | None = None  # document ids are paths relative to it (default: the corpus folder)
    workers: int = 0  # 0: as many as the corpus is worth (runner.process.choose_workers)
    limits: Limits = field(default_factory=Limits)
    # The chunk store: None is the default place (.parsegate/store.sqlite beside OUTDIR); off with use_store.
    store: Path | None = None
    use_store: bool = True
    engine: Engine = "local"
    ray_address: str | None = None
    output_format: OutputFormat = "jsonl"
    allow_failures: bool = False  # a failed gate still gives exit code 0
    allow_empty: bool = False  # a run that read no document passes
    allow_over_model_max: bool = False  # a budget above the tokenizer model's maximum is accepted

    @property
    def store_path(self) -> Path | None:
        if not self.use_store:
            return None
        return self.store or self.out.parent / DEFAULT_STORE

    @property
    def doc_root(self) -> Path:
        return (self.root or (self.corpus.parent if self.corpus.is_file() else self.corpus)).resolve()
