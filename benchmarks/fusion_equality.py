"""Whether two versions of the code give ``fusion`` the same features and predictions on every page.

For every page of the given sets it records, per regime, a digest of each feature column, of the
probabilities, of the blocks' texts and of the cleaned text: ``single`` (no site evidence),
``siteK`` (the site's first K pages fitted, every page of the site cleaned as a fresh page),
``siteK-sample`` (the fitted pages themselves cleaned, the very objects the fit saw) and ``train``
(the training rows: page features and role words); the cleaned text and explanations of every 10th page.
Two recordings are equal only if every value is bit for bit the same (NaNs and zero signs
canonicalised); the first differing columns are named.

    python benchmarks/fusion_equality.py ../shared/datasets --against main   # this tree against a revision
    python benchmarks/fusion_equality.py ../shared/datasets --save ref.npz   # record this tree
    python benchmarks/fusion_equality.py ../shared/datasets --compare a.npz b.npz

A revision older than fusion's feature registry is recorded with its own copy of this script
(``--save`` in a checkout of it), then compared with ``--compare``.

Each recording runs in its own process under ``PYTHONHASHSEED=0`` (the order of a set of strings,
and so of some float sums, depends on it).  A differing page is then found with ``model.score``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

SETS = ("dragnet", "cleaneval", "chaos", "readability")


def _digest(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def _column_digests(matrix: np.ndarray) -> list[int]:
    canonical = np.where(np.isnan(matrix), np.nan, matrix + 0.0)  # one NaN, no negative zero
    return [_digest(np.ascontiguousarray(column).tobytes()) for column in canonical.T]


def _texts_digest(texts: list[str]) -> int:
    return _digest("\x1e".join(texts).encode("utf-8", "surrogatepass"))


class Recorder:
    """Rows of (key, digests): the column digests, then probabilities, block texts, clean, extra."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.rows: list[list[int]] = []

    def add(self, key: str, columns: list[int], *more: int) -> None:
        self.keys.append(key)
        self.rows.append([len(columns), *more, *columns])


def _record_clean(recorder: Recorder, key: str, model, page, explain: bool) -> None:
    """The page's features, probabilities and block texts; with ``explain`` its clean too."""
    scored = model.score(page)
    blocks, matrix, probability = scored.blocks, scored.matrix, scored.probability
    text = reasons = 0
    if explain:
        cleaned = model.clean(page)
        text, reasons = _texts_digest([cleaned.text]), _texts_digest([d.reason for d in cleaned.decisions])
    recorder.add(
        key,
        _column_digests(matrix),
        _digest(np.ascontiguousarray(probability).tobytes()),
        _texts_digest([b.text for b in blocks]),
        text,
        reasons,
    )


def record(datasets: Path, sets: list[str], sample_sizes: list[int], every: int, out: Path) -> None:
    """Write the digests of this tree's fusion on every ``every``-th site of ``sets`` to ``out``."""
    import scrapy_boilerplate
    from scrapy_boilerplate.corpus import find_sites
    from scrapy_boilerplate.models import create_model
    from scrapy_boilerplate.models.fusion.inputs import PageInputs
    from scrapy_boilerplate.models.fusion.layout import FeatureLayout
    from scrapy_boilerplate.offline import load_page
    from scrapy_boilerplate.page import Page

    print(f"recording {scrapy_boilerplate.__file__}", file=sys.stderr)
    recorder = Recorder()
    training = FeatureLayout.for_training()
    single = create_model("fusion").fit([])
    count = 0
    for name in sets:
        for number, site in enumerate(find_sites(datasets / name)):
            if number % every:
                continue
            pages = []
            for path in site.pages:
                try:
                    pages.append((str(path.relative_to(datasets)), load_page(path)))
                except (OSError, ValueError):
                    continue
            for path, page in pages:
                count += 1
                _record_clean(recorder, f"single\t{path}", single, Page(page.html, page.url), count % 10 == 0)
                values = training.compute(PageInputs.of(Page(page.html, page.url)))
                roles = [" ".join(sorted(words)) for words in values["role_words"]]
                recorder.add(f"train\t{path}", _column_digests(values["block_cues"]), _texts_digest(roles), 0, 0, 0)
            if len(pages) < 2:
                continue
            for size in sample_sizes:
                sample = [Page(page.html, page.url).parse() for _, page in pages[:size]]
                model = create_model("fusion").fit(sample)
                for (path, _), fitted in zip(pages, sample, strict=False):
                    _record_clean(recorder, f"site{size}-sample\t{path}", model, fitted, False)
                for number, (path, page) in enumerate(pages):
                    fresh = Page(page.html, page.url)
                    _record_clean(recorder, f"site{size}\t{path}", model, fresh, number % 10 == 0)
    width = max(len(row) for row in recorder.rows)
    table = np.zeros((len(recorder.rows), width), dtype=np.uint64)
    for i, row in enumerate(recorder.rows):
        table[i, : len(row)] = row
    names = create_model("fusion").loaded_weights.names
    np.savez_compressed(out, keys=np.array(recorder.keys), table=table, names=np.array(names))
    print(f"{len(recorder.keys)} page records ({count} pages) written to {out}", file=sys.stderr)


def compare(first: Path, second: Path) -> bool:
    """Print the differences between two recordings; True when there are none."""
    a, b = np.load(first), np.load(second)
    if list(a["names"]) != list(b["names"]):
        print("the feature lists differ: record both with the same features")
        return False
    names = list(a["names"])
    rows_a = dict(zip(a["keys"].tolist(), a["table"], strict=True))
    rows_b = dict(zip(b["keys"].tolist(), b["table"], strict=True))
    if set(rows_a) != set(rows_b):
        print(f"the recordings cover different pages: {len(set(rows_a) ^ set(rows_b))} records differ")
        return False
    fields = ["probabilities", "block texts", "cleaned text", "explanations"]
    differing: dict[str, int] = {}
    examples: list[str] = []
    for key, row in rows_a.items():
        other = rows_b[key]
        if np.array_equal(row, other):
            continue
        n = int(row[0])
        labels = [*fields, *names[:n]] if n == len(names) else [*fields, *(f"column {i}" for i in range(n))]
        for i in np.flatnonzero(row[1:] != other[1:]).tolist():
            label = labels[i] if i < len(labels) else f"field {i}"
            differing[label] = differing.get(label, 0) + 1
        if len(examples) < 10:
            examples.append(key)
    records = len(rows_a)
    if not differing:
        print(f"identical: {records} page records, {len(names)} feature columns, probabilities, texts")
        return True
    print(f"DIFFERENT on {len(differing)} fields of {records} page records:")
    for label, times in sorted(differing.items(), key=lambda item: -item[1]):
        print(f"  {label}: {times} records")
    print("first records: " + ", ".join(examples))
    return False


def _record_in(tree: Path, args: argparse.Namespace, out: Path) -> None:
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    command = [sys.executable, str(Path(__file__).resolve()), str(args.datasets.resolve()), "--save", str(out)]
    command += ["--sets", ",".join(args.sets)]
    command += ["--sample-sizes", ",".join(map(str, args.sample_sizes)), "--every", str(args.every)]
    subprocess.run(command, env=env, cwd=tree, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("datasets", type=Path, help="the directory holding the development sets")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--against", metavar="REV", help="compare this tree with a git revision")
    action.add_argument("--save", type=Path, metavar="FILE", help="record this tree")
    action.add_argument("--compare", type=Path, nargs=2, metavar="FILE")
    parser.add_argument("--sets", type=lambda s: s.split(","), default=list(SETS))
    parser.add_argument("--sample-sizes", type=lambda s: [int(x) for x in s.split(",")], default=[3, 20])
    parser.add_argument("--every", type=int, default=1, help="every N-th site of each set only")
    args = parser.parse_args()
    if args.compare:
        sys.exit(0 if compare(*args.compare) else 1)
    if args.save:
        if os.environ.get("PYTHONHASHSEED") != "0":
            os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
        record(args.datasets, args.sets, args.sample_sizes, args.every, args.save)
        return
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "tree"
        subprocess.run(
            ["git", "-C", str(here), "worktree", "add", "-q", "--detach", str(old), args.against], check=True
        )
        try:
            _record_in(old, args, Path(scratch) / "before.npz")
        finally:
            subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(old)], check=True)
        _record_in(here, args, Path(scratch) / "after.npz")
        sys.exit(0 if compare(Path(scratch) / "before.npz", Path(scratch) / "after.npz") else 1)


if __name__ == "__main__":
    main()
