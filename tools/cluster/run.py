#!/usr/bin/env python3
"""Run one of ply's sharded batch commands as Ray tasks, one shard a task.

    python tools/cluster/run.py --binary target/release/ply-chess --shards 8 --out data/ \\
        -- datagen --games 8000 --seed 1 --book /data/8mvs_+90_+99.epd

Shard K of N runs `BINARY <command> --shard K/N --out <dir>/shard-K-of-N.<ext>`. Any ply command
that takes `--shard K/N` and `--out FILE` and whose shards together are the unsharded run
(`ply-chess datagen` and the other datagen/labelling commands) can be run this way.

Where the output goes:
- by default a shard writes into a scratch folder on the worker that ran it, and its file comes
  back to the driver through Ray's object store, which writes it to `--out DIR`; nothing needs to
  be shared between the machines;
- with `--shared-out`, `--out DIR` is a path every worker sees (NFS and the like) and the shards
  write there directly; a shard that failed half way is resumed by its retry, since ply's batch
  commands resume an existing output file.

A shard is complete when `DIR/shard-K-of-N.<ext>` exists and `DIR/manifest.json` records it with
that size; a second run with the same arguments skips complete shards, so an interrupted run is
resumed by running it again. A shard whose command fails is retried (`--retries`, default 2)
before it counts as failed; the driver exits with status 1 when any shard failed.

The binary must exist at the same path on every worker, or be shipped with `--ship-binary`: the
driver then puts its bytes in Ray's object store and each task writes them to a scratch file on
its worker before it runs (one copy per task; fine for binaries of a few MiB).

`--address` picks the cluster: absent, the driver starts a local Ray instance (`--num-cpus`
CPUs, default all); `auto` or `ray://head:10001` joins an existing one.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MANIFEST = "manifest.json"


def shard_name(k: int, n: int, ext: str) -> str:
    """The file name of shard k of n."""
    return f"shard-{k}-of-{n}.{ext}"


def shard_args(command: list[str], k: int, n: int, out: str) -> list[str]:
    """The command of shard k of n, writing to `out`."""
    return [*command, "--shard", f"{k}/{n}", "--out", out]


def count_records(path: Path, record_bytes: int | None) -> int:
    """Lines of a text output, or records of a fixed-size binary one."""
    if record_bytes:
        return path.stat().st_size // record_bytes
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def load_manifest(out: Path) -> dict:
    try:
        with open(out / MANIFEST) as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def save_manifest(out: Path, manifest: dict) -> None:
    tmp = out / (MANIFEST + ".tmp")
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    os.replace(tmp, out / MANIFEST)


def merge(target: str | None, out: Path, n: int, ext: str) -> None:
    """Writes the shards' concatenation in shard order to `target` (when given)."""
    if not target:
        return
    with open(target, "wb") as merged:
        for k in range(n):
            with open(out / shard_name(k, n, ext), "rb") as f:
                while chunk := f.read(1 << 20):
                    merged.write(chunk)


def run_shard(
    binary: str | None,
    binary_bytes: bytes | None,
    command: list[str],
    k: int,
    n: int,
    ext: str,
    shared_out: str | None,
    cwd: str,
) -> dict:
    """Runs shard k of n on this worker; returns its status, stderr tail and (local mode) bytes."""
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="ply-shard-") as scratch:
        if binary_bytes is not None:
            binary = os.path.join(scratch, "ply-binary")
            with open(binary, "wb") as f:
                f.write(binary_bytes)
            os.chmod(binary, 0o755)
        folder = shared_out if shared_out is not None else scratch
        out = os.path.join(folder, shard_name(k, n, ext))
        workdir = cwd if os.path.isdir(cwd) else scratch
        proc = subprocess.run(
            [binary, *shard_args(command, k, n, out)],
            cwd=workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            check=False,
        )
        result = {
            "shard": k,
            "status": proc.returncode,
            "stderr": proc.stderr.decode(errors="replace")[-2000:],
            "seconds": time.time() - start,
            "host": os.uname().nodename,
            "data": None,
        }
        if proc.returncode == 0 and shared_out is None:
            try:
                with open(out, "rb") as f:
                    result["data"] = f.read()
            except OSError as e:
                result["status"] = -1
                result["stderr"] += f"\nno output file {out}: {e}"
        return result


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--binary", required=True, help="the ply binary (ply-chess, ply-othello)")
    parser.add_argument("--shards", type=int, required=True, help="number of shards N")
    parser.add_argument("--out", required=True, help="folder of the shard outputs")
    parser.add_argument(
        "--address", help="an existing Ray cluster (auto, ray://head:10001); absent: start one"
    )
    parser.add_argument("--ext", default="txt", help="extension of the shard files (txt)")
    parser.add_argument("--cpus-per-task", type=float, default=1.0, help="CPUs a shard takes (1)")
    parser.add_argument("--num-cpus", type=int, help="CPUs of the local instance (default all)")
    parser.add_argument("--retries", type=int, default=2, help="retries of a failed shard (2)")
    parser.add_argument(
        "--shared-out", action="store_true", help="--out is visible to every worker: write there"
    )
    parser.add_argument(
        "--ship-binary", action="store_true", help="send the binary to the workers through Ray"
    )
    parser.add_argument("--merge", help="also write the shards' concatenation (shard order) here")
    parser.add_argument(
        "--record-bytes", type=int, help="count fixed-size records of this size, not lines"
    )
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    if not command:
        parser.error("no ply command: run.py [options] -- <ply subcommand and its flags>")
    if args.shards < 1:
        parser.error("--shards must be at least 1")
    if "--shard" in command or "--out" in command:
        parser.error("the command gets --shard and --out from the driver; leave them out")
    return args, command


def main(argv: list[str]) -> int:
    args, command = parse_args(argv)
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"error: {binary} is not an executable file")
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    n = args.shards
    key = shlex.join(command)

    manifest = load_manifest(out)
    if manifest.get("command") not in (None, key) or manifest.get("shards") not in (None, n):
        sys.exit(
            f"error: {out} holds shards of another run ({manifest.get('command')!r}, "
            f"{manifest.get('shards')} shards); use another --out"
        )
    manifest.update({"command": key, "shards": n})
    done = manifest.setdefault("done", {})
    todo = []
    for k in range(n):
        path = out / shard_name(k, n, args.ext)
        entry = done.get(str(k))
        if entry and path.is_file() and path.stat().st_size == entry.get("bytes"):
            continue
        done.pop(str(k), None)
        todo.append(k)
    save_manifest(out, manifest)
    skipped = n - len(todo)
    if not todo:
        merge(args.merge, out, n, args.ext)
        print(f"{n} shards: all {n} already complete in {out}", file=sys.stderr)
        return 0

    import ray  # imported late so that --help and argument errors work without Ray

    started = time.time()
    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    init_seconds = time.time() - started
    cpus = int(ray.cluster_resources().get("CPU", 0))

    task = ray.remote(num_cpus=args.cpus_per_task)(run_shard)
    binary_ref = None
    if args.ship_binary:
        with open(binary, "rb") as f:
            binary_ref = ray.put(f.read())
    shared = str(out) if args.shared_out else None
    cwd = os.getcwd()

    def submit(k: int):
        return task.remote(
            None if binary_ref is not None else binary,
            binary_ref,
            command,
            k,
            n,
            args.ext,
            shared,
            cwd,
        )

    try:
        from tqdm import tqdm

        bar = tqdm(total=n, initial=skipped, unit="shard", disable=not sys.stderr.isatty())
    except ImportError:
        bar = None

    pending = {submit(k): (k, 0) for k in todo}
    failed: dict[int, str] = {}
    retried = 0
    task_seconds = 0.0
    run_started = time.time()
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        ref = ready[0]
        k, tries = pending.pop(ref)
        try:
            result = ray.get(ref)
        except Exception as e:  # a worker or node lost: Ray raises instead of returning
            result = {"status": -1, "stderr": f"{type(e).__name__}: {e}", "seconds": 0.0}
        task_seconds += result["seconds"]
        if result["status"] != 0:
            if tries < args.retries:
                retried += 1
                pending[submit(k)] = (k, tries + 1)
                continue
            failed[k] = result["stderr"].strip().splitlines()[-1:] or ["(no message)"]
            print(f"shard {k}/{n} failed: {failed[k][0]}", file=sys.stderr)
        else:
            path = out / shard_name(k, n, args.ext)
            if result["data"] is not None:
                tmp = path.with_suffix(path.suffix + ".part")
                tmp.write_bytes(result["data"])
                os.replace(tmp, path)
            done[str(k)] = {"bytes": path.stat().st_size, "host": result["host"]}
            save_manifest(out, manifest)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    wall = time.time() - run_started
    ray.shutdown()

    records = new_records = 0
    for k in range(n):
        path = out / shard_name(k, n, args.ext)
        if str(k) in done:
            count = count_records(path, args.record_bytes)
            records += count
            if k in todo:
                new_records += count
    if not failed:
        merge(args.merge, out, n, args.ext)
    rate = new_records / wall if wall > 0 else 0.0
    print(
        f"{n} shards: {len(todo) - len(failed)} run, {skipped} already complete, "
        f"{len(failed)} failed, {retried} retries; {records} records in {out}; "
        f"{wall:.1f} s on {cpus} CPUs (Ray start {init_seconds:.1f} s, "
        f"{task_seconds:.1f} task-seconds), {rate:.1f} new records/s",
        file=sys.stderr,
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
