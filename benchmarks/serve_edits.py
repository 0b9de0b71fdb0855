"""Save to rebuilt in `sitegen serve` itself: seconds from saving one record to the server's "built" line.

    python benchmarks/serve_edits.py SITE                      # 10 edits, one a second
    python benchmarks/serve_edits.py SITE --poll-at-ticks      # a change looked at only at the server's next tick

Unlike the dev-server row of run.py (the rebuild, from the poll that notices
the change), this includes the waiting: for the poll that notices the change,
and for the one that sees it hold still. `--poll-at-ticks` switches off the
poll the file system's events start at once (`RebuildingWatcher._poll_now`),
as before it. Build the site first with the same Python
(`python -m sitegen build --site SITE`), so the server starts up to date.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import code_under_test, load_average, patched_sitegen, real_serve_edits

POLL_AT_TICKS = """
from sitegen import serve
serve.RebuildingWatcher._poll_now = lambda self, poll: None  # changes wait for the next tick
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--poll-at-ticks", action="store_true", help="look at a change only at the server's next tick")
    parser.add_argument("--first", type=int, default=3000, help="the number the first edited title carries")
    args = parser.parse_args()
    code = code_under_test(None, args.site)
    start = patched_sitegen(POLL_AT_TICKS) if args.poll_at_ticks else ("-m", "sitegen")
    print(f"load {load_average():.1f} at start", flush=True)
    runs = real_serve_edits(args.site.resolve(), args.edits, code, Path.cwd(), first=args.first, start=start)
    seconds = [run.seconds for run in runs]
    later = seconds[1:] or seconds  # the first edit after the start reads every record file once
    print(
        f"{'at the next tick' if args.poll_at_ticks else 'polled on the event'}: save to built, {len(seconds)} edits: "
        f"median {statistics.median(later):.3f} s (min {min(later):.3f}, max {max(later):.3f}) without the first; first {seconds[0]:.3f} s"
    )


if __name__ == "__main__":
    main()
