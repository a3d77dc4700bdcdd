"""Where the plugin's crawl CPU goes: garbage collection, thread-pool work (fits) and the reactor thread.

``python benchmarks/crawl_cpu_breakdown.py DRAGNET_DIR [--case 40-sites-c16] [--model SPEC] [--modes off,plugin]
[--repeat N]``

Runs a case of ``bench_crawl.py`` in each mode (by default with the plugin off and on; ``fields``:
on, with every Markdown and metadata field).  Each child crawl
records the time its garbage collector spent per generation (``gc.callbacks``) and the CPU time
of every thread (``/proc/self/task``, Linux only), so the on-minus-off CPU can be split into the
reactor thread (cleaning, drift measuring, per-item work), the thread pool (fitting, storing) and
the collector (a bigger heap makes every full collection slower).
"""

from __future__ import annotations

import argparse
import atexit
import gc
import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import bench_crawl
from bench_crawl_server import serve_sites

POLL_SECONDS = 0.2  # thread CPU is read this often: pool threads live until the crawl ends


def _probe(report: Path) -> None:
    """Install the collector timer and the thread poller in the child; write their figures at exit."""
    gc_seconds: dict[int, list[float]] = {}
    started = [0.0]

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.thread_time()
        else:
            entry = gc_seconds.setdefault(info["generation"], [0, 0.0])
            entry[0] += 1
            entry[1] += time.thread_time() - started[0]

    threads: dict[int, tuple[str, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")

    def poll() -> None:
        while True:
            names = {t.native_id: t.name for t in threading.enumerate()}
            for tid in os.listdir("/proc/self/task"):
                try:
                    fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                name = names.get(int(tid)) or threads.get(int(tid), ("?", 0.0))[0]
                threads[int(tid)] = (name, (int(fields[11]) + int(fields[12])) / tick)
            time.sleep(POLL_SECONDS)

    def write() -> None:
        groups: dict[str, float] = {}
        for name, cpu in threads.values():
            group = "reactor" if name == "MainThread" else "pool" if name.startswith("PoolThread") else "other"
            groups[group] = groups.get(group, 0.0) + cpu
        report.write_text(json.dumps({"gc": {str(g): v for g, v in gc_seconds.items()}, "threads": groups}))

    gc.callbacks.append(on_gc)
    threading.Thread(target=poll, daemon=True, name="probe").start()
    atexit.register(write)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path, nargs="?", help="the Dragnet data set")
    parser.add_argument("--case", default="40-sites-c16", choices=list(bench_crawl.CASES))
    parser.add_argument("--model", default="style_tree", help="BOILERPLATE_MODEL spec")
    parser.add_argument("--modes", default="off,plugin", help="bench_crawl.py modes, e.g. off,plugin,fields")
    parser.add_argument("--repeat", type=int, default=1, help="crawls per mode (medians are shown)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _probe(Path(args.child).with_suffix(".probe.json"))
        bench_crawl.child(args.child)
        return
    if args.data_dir is None:
        parser.error("DATA_DIR is required")
    modes = args.modes.split(",")
    runs: dict[str, list[dict[str, float]]] = {mode: [] for mode in modes}
    case = bench_crawl.CASES[args.case]
    with tempfile.TemporaryDirectory() as tmp, serve_sites(args.data_dir, case) as (proxy, fronts, _):
        workdir = Path(tmp)
        for _ in range(args.repeat):
            for mode in modes:  # alternated, so a change of the machine's load falls on every mode
                extra = {"BOILERPLATE_MODEL": args.model}
                run = bench_crawl.crawl(case, mode, fronts, proxy, workdir, extra, script=__file__)
                runs[mode].append(_figures(run, json.loads((workdir / "spec.probe.json").read_text())))
    print(f"case {args.case}; model {args.model}; {args.repeat} crawl(s) per mode, medians")
    columns = ("cpu", "reactor", "pool", "other", "gc", "gc0", "gc1", "gc2")
    print(f"{'':10}{'items':>6}" + "".join(f"{name:>8}" for name in columns) + f"{'ms/item':>9}")
    for mode, figures in runs.items():
        med = {name: statistics.median(f[name] for f in figures) for name in (*columns, "items")}
        line = f"{mode:10}{med['items']:6.0f}" + "".join(f"{med[name]:8.2f}" for name in columns)
        print(line + f"{1000 * med['cpu'] / med['items']:9.2f}")
    print(
        f"thread CPU is sampled every {POLL_SECONDS:.1f} s (a thread's last slice may be missed); gc time is CPU of the "
        "collecting thread; ms/item is the crawl process's CPU per item"
    )


def _figures(run: dict, probe: dict) -> dict[str, float]:
    """One crawl's CPU seconds: in all, by thread group and by collector generation; and its items."""
    per_gen = [probe["gc"].get(str(g), [0, 0.0])[1] for g in range(3)]
    threads = probe["threads"]
    return {
        "cpu": run["cpu"],
        "items": len(run["items"]),
        **{group: threads.get(group, 0.0) for group in ("reactor", "pool", "other")},
        "gc": sum(per_gen),
        **{f"gc{g}": seconds for g, seconds in enumerate(per_gen)},
    }


if __name__ == "__main__":
    main()
