"""Where a deal's time goes, by kernel and by source line: Linux ``perf`` samples of the chunk
kernel mapped through numba's line tables.

numba links a chunk's kernels into one machine-code object and ``perf`` sees no symbol in it.
This script compiles the kernels with line tables (``NUMBA_DEBUGINFO=1``, in a numba cache of
its own: ``--cache``), keeps the object code numba loads from that cache, samples its own
process with ``perf record`` while it plays whole chunks on one thread, and maps each sample
with ``addr2line`` to the kernel it falls in (kernels numba or LLVM inlined count in their
caller) and to a source line. Needs ``perf`` (``kernel.perf_event_paranoid`` at most 2) and
binutils; the first run compiles every kernel of the bot's chunk kernel (minutes).

Run: ``python benchmarks/perf_profile.py [--bots expert] [--players 4] [--seconds 15]
[--cache /tmp/canasta_sim_perf_cache]``; prints the shares of the samples by kernel, by file
and by line.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="expert")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20_000, help="deals per chunk call")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "canasta_perf"))
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    if os.environ.get("NUMBA_DEBUGINFO") != "1":  # numba reads it at import: start again
        env = dict(os.environ, NUMBA_DEBUGINFO="1", NUMBA_CACHE_DIR=args.cache)
        sys.exit(subprocess.call([sys.executable, __file__, *(argv or sys.argv[1:])], env=env))
    objects = keep_objects()
    import numba

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from throughput import deal_call

    from canasta_sim import Rules

    numba.set_num_threads(1)
    play = deal_call(Rules(players=args.players), args.bots, args.deals)
    play()  # compiled or loaded from the cache: the objects are known from here on
    with tempfile.TemporaryDirectory() as tmp:
        ranges = object_ranges(objects, Path(tmp))
        data = Path(tmp) / "perf.data"
        perf = subprocess.Popen(
            ["perf", "record", "-F", "999", "-p", str(os.getpid()), "-o", str(data)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)
        start, calls = time.perf_counter(), 0
        while time.perf_counter() - start < args.seconds:
            play()
            calls += 1
        perf.send_signal(2)
        perf.wait()
        ips = subprocess.run(
            ["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True
        ).stdout.split()
        report(ips, ranges, args.top)
    print(f"{calls} calls of {args.deals} deals ({args.bots}, {args.players} players, 1 thread)")


def keep_objects() -> list:
    """Keep the object code of every library numba loads from its cache: ``(bytes, library)``
    (numba drops the bytes once loaded)."""
    from numba.core import codegen

    kept = []
    load = codegen.CPUCodeLibrary._unserialize.__func__

    def unserialize(cls, context, state):
        library = load(cls, context, state)
        if state[1] == "object":
            kept.append((state[2][0], library))
        return library

    codegen.CPUCodeLibrary._unserialize = classmethod(unserialize)
    return kept


def object_ranges(objects, folder: Path) -> list:
    """``(start, end, object file, code section)`` of each loaded object's code in memory: the
    address numba gives one defined function, less its offset in the section."""
    ranges = []
    for i, (code, library) in enumerate(objects):
        path = folder / f"kernel{i}.o"
        path.write_bytes(code)
        sections = subprocess.run(["objdump", "-h", str(path)], capture_output=True, text=True)
        section, size = next(
            (p[1], int(p[2], 16))
            for p in (line.split() for line in sections.stdout.splitlines())
            if len(p) > 2 and p[1] in (".text", ".ltext") and int(p[2], 16) > 0
        )
        symbols = subprocess.run(
            ["nm", "--defined-only", str(path)], capture_output=True, text=True
        )
        for p in (line.split() for line in symbols.stdout.splitlines()):
            if len(p) == 3 and p[1] in "Tt" and (address := library.get_pointer_to_function(p[2])):
                start = address - int(p[0], 16)
                ranges.append((start, start + size, str(path), section))
                break
    return ranges


def locate(path: str, section: str, offsets: list) -> dict:
    """offset -> (kernel, file:line) by ``addr2line``."""
    out = subprocess.run(
        ["addr2line", "-a", "-f", "-j", section, "-e", path, *map(hex, offsets)],
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    found = {}
    for i in range(0, len(out) - 2, 3):
        where = out[i + 2].split("/canasta_sim/")[-1]
        found[int(out[i], 16)] = (kernel_name(out[i + 1]), where)
    return found


def kernel_name(symbol: str) -> str:
    """The last name of a mangled symbol (``_ZN11canasta_sim2nb...17choose_discard_nbB4v1...``:
    ``choose_discard_nb``), or its first 40 characters."""
    i = 3 if symbol.startswith("_ZN") else len(symbol)
    last = symbol[:40]
    while i < len(symbol) and symbol[i].isdigit():
        digits = re.match(r"\d+", symbol[i:])
        assert digits is not None
        size = int(digits.group())
        i += len(digits.group())
        if i + size > len(symbol):
            break
        last = symbol[i : i + size]
        i += size
    return last


def report(ips: list, ranges: list, top: int) -> None:
    """Print the shares of the samples by kernel, by file and by line."""
    per_object = collections.defaultdict(list)
    for ip in ips:
        a = int(ip, 16)
        for start, end, path, section in ranges:
            if start <= a < end:
                per_object[(path, section)].append(a - start)
                break
    kernels: collections.Counter[str] = collections.Counter()
    files: collections.Counter[str] = collections.Counter()
    lines: collections.Counter[str] = collections.Counter()
    for (path, section), offsets in per_object.items():
        where = locate(path, section, sorted(set(offsets)))
        for offset, n in collections.Counter(offsets).items():
            kernel, line = where[offset]
            kernels[kernel] += n
            files[line.split(":")[0]] += n
            lines[line] += n
    total = len(ips)
    print(f"{total} samples, {total - sum(map(len, per_object.values()))} outside the kernels")
    for title, counts in (("kernel", kernels), ("file", files), ("line", lines)):
        print(f"\n% of samples by {title}")
        for name, n in counts.most_common(top):
            print(f"{100 * n / total:5.1f}  {name}")


if __name__ == "__main__":
    main()
