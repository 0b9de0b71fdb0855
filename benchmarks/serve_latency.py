"""How long a request waits on an idle `sitegen serve`: the server started on a built site, asked for a small file again and again.

    python benchmarks/serve_latency.py SITE                     # 100 s of requests, one every 100 ms
    python benchmarks/serve_latency.py SITE --look-on-loop      # the look while idle run on the server's loop, as before 0c684df

While idle, the server looks at the inputs and at output/ now and then (at most
5 % of the time); on a large site a look takes seconds. This prints the
median and worst wait of the requests made while it serves. Build the site
first with the same Python (`python -m sitegen build --site SITE`): the cache
key covers the installed libraries, and a server that starts with a cold build
of a large site spends minutes on it and then seconds collecting its garbage.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import free_port, patched_sitegen

LOOK_ON_LOOP = """
from sitegen import serve
serve.IdleLook.start = lambda self: self._look()  # the look in place: the server's loop waits for it
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path)
    parser.add_argument("--seconds", type=float, default=100.0)
    parser.add_argument("--look-on-loop", action="store_true", help="run the look while idle on the server's loop")
    args = parser.parse_args()
    port = free_port()
    start = [sys.executable, *patched_sitegen(LOOK_ON_LOOP)] if args.look_on_loop else [sys.executable, "-m", "sitegen"]
    server = subprocess.Popen(
        [*start, "serve", "--site", str(args.site), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    serving = threading.Event()

    def read() -> None:
        assert server.stderr is not None
        for line in server.stderr:
            if line.startswith("Serving "):
                serving.set()

    threading.Thread(target=read, daemon=True).start()
    began = time.monotonic()
    while not serving.wait(0.5):
        if server.poll() is not None:
            raise SystemExit("sitegen serve stopped before it served")
    print(f"serving after {time.monotonic() - began:.1f} s", flush=True)
    waits = []
    try:
        until = time.monotonic() + args.seconds
        while time.monotonic() < until:
            asked = time.monotonic()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/robots.txt", timeout=120) as response:
                response.read()
            waits.append(time.monotonic() - asked)
            time.sleep(0.1)
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(300)
    waits.sort()
    print(
        f"look {'on the loop' if args.look_on_loop else 'in a thread'}: {len(waits)} requests, median {waits[len(waits) // 2] * 1000:.1f} ms, "
        f"worst {waits[-1]:.2f} s, {sum(1 for wait in waits if wait > 0.5)} over 0.5 s"
    )


if __name__ == "__main__":
    main()
