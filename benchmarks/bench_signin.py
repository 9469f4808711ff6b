"""Sign-in bursts: how many wrong guesses reach the password hash (issue 27).

    python benchmarks/bench_signin.py [--burst 200] [--names 50]
        [--before /tmp/signin-before] [--db sqlite|postgresql ...]

Each case starts ``cardtable serve`` (its own process, 127.0.0.1, the real
argon2id cost, a fresh database) with ``--trusted-proxy 127.0.0.1`` and signs
accounts up, each from an address of its own (``X-Forwarded-For``). Then one
attacker's address sends ``--burst`` wrong sign-ins at the same moment (one
thread each, released together):

- ``one name``: every guess for one account;
- ``N names``: ``--names`` accounts, the guesses spread evenly over them.

The figures are the password checks the server made (argon2's ``verify``,
counted inside the server by a ``sitecustomize`` this script puts on its
path), of the burst, and per second of the burst (until its last answer),
with the answers' statuses. With ``--before DIR`` (a checkout of the code before, e.g. ``git
worktree add /tmp/signin-before main``) every case runs on that code too,
in the same run, and the line ends with the ratio this code / that code.
The code before ignored ``X-Forwarded-For`` at sign-in: there every request
is from 127.0.0.1, the attacker and the owners alike.

PostgreSQL is a throwaway server (tests/server/pg.py: Debian's binaries), or
skipped, saying so, where none is installed. Bounded: ``--burst`` at most
1000, ``--names`` at most 200, each request gives up after 120 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench_server import free_port

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.server.pg import binaries, fresh_database, postgres  # noqa: E402

ATTACKER = "10.66.6.6"
PASSWORD = "the owner's password"
# Put on the server's path: counts every password check, a line each in a file.
SPY = """
import os
import argon2

_verify = argon2.PasswordHasher.verify


def verify(self, hash, password):
    with open(os.environ["BENCH_SIGNIN_CHECKS"], "a") as checks:
        checks.write("checked\\n")
    return _verify(self, hash, password)


argon2.PasswordHasher.verify = verify
"""


def post(port: int, path: str, body: dict[str, str], address: str) -> int:
    """The status of one POST from ``address`` (through the trusted proxy); 0: no answer."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


@contextmanager
def serve(code: Path, db: str, checks: Path) -> Iterator[int]:
    """``cardtable serve`` of the checkout ``code`` on ``db``, writing a line
    to ``checks`` per password check; its port."""
    spy = checks.parent / "spy"
    spy.mkdir(exist_ok=True)
    (spy / "sitecustomize.py").write_text(SPY)
    port = free_port()
    command = [sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--db", db]
    process = subprocess.Popen(
        [*command, "--trusted-proxy", "127.0.0.1", "--bot-workers", "1"],
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(code), str(spy)]),
            "BENCH_SIGNIN_CHECKS": str(checks),
        },
        cwd=code,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"cardtable serve of {code} did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=60)


@dataclass(frozen=True)
class Burst:
    statuses: Counter[int]
    seconds: float
    hashed: int  # password checks the server made

    def __str__(self) -> str:
        answers = ", ".join(f"{n} x {s or 'none'}" for s, n in sorted(self.statuses.items()))
        rate = self.hashed / self.seconds
        return f"{self.hashed} hashed in {self.seconds:.2f} s ({rate:.1f}/s; {answers})"


def checked(checks: Path) -> int:
    return len(checks.read_text().splitlines()) if checks.exists() else 0


def burst(port: int, names: list[str], size: int, checks: Path) -> Burst:
    """``size`` wrong sign-ins at once from one address, spread over ``names``."""
    statuses: list[int] = []
    gate = threading.Barrier(size + 1)

    def guess(i: int) -> None:
        gate.wait()
        body = {"name": names[i % len(names)], "password": f"wrong guess {i}"}
        statuses.append(post(port, "/api/account/signin", body, ATTACKER))

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(size)]
    for thread in threads:
        thread.start()
    before = checked(checks)
    gate.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    return Burst(Counter(statuses), seconds, checked(checks) - before)


def case(code: Path, db: str, names: int, size: int, checks: Path) -> Burst:
    with serve(code, db, checks) as port:
        accounts = [f"Owner {i}" for i in range(names)]
        for i, name in enumerate(accounts):  # each from its own address: no sign-up limit
            body = {"name": name, "password": PASSWORD}
            status = post(port, "/api/account/signup", body, f"10.1.{i // 250}.{i % 250 + 1}")
            if status != 201:
                raise SystemExit(f"signing {name} up answered {status}")
        return burst(port, accounts, size, checks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=200)
    parser.add_argument("--names", type=int, default=50)
    parser.add_argument("--before", type=Path, help="a checkout of the code before")
    parser.add_argument("--db", action="append", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    if not 1 <= args.burst <= 1000 or not 1 <= args.names <= 200:
        parser.error("--burst 1…1000, --names 1…200")
    codes = {"after": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        print(f"{args.burst} wrong sign-ins at once from one address, {os.cpu_count()} cores")
        for kind in args.db or ["sqlite", "postgresql"]:
            bin_dir = binaries() if kind == "postgresql" else None
            if kind == "postgresql" and bin_dir is None:
                print("postgresql: skipped, not installed (scripts/install-test-deps.sh)")
                continue
            server = stack.enter_context(postgres(bin_dir)) if bin_dir else ""
            for names in (1, args.names):
                found: dict[str, Burst] = {}
                for label, code in codes.items():
                    if bin_dir is not None:
                        db = fresh_database(bin_dir, server).replace("+asyncpg", "")
                    else:
                        db = f"sqlite:///{folder / f'{label}-{names}.sqlite3'}"
                    checks = folder / f"{kind}-{label}-{names}.checks"
                    found[label] = case(code, db, names, args.burst, checks)
                what = "one name" if names == 1 else f"{names} names"
                line = "; ".join(f"{label}: {found[label]}" for label in found)
                if "before" in found and found["before"].hashed:
                    ratio = found["after"].hashed / found["before"].hashed
                    line += f"; hashed after/before {ratio:.3f}"
                print(f"{kind:<10} {what:<9} {line}", flush=True)


if __name__ == "__main__":
    main()
