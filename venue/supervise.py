"""Venue mode's processes: web (gunicorn), worker and beat started together and stopped
together, within a bound (no Django here: it runs before and beside them).

- Each process runs in a process group of its own, so the terminal's Ctrl-C reaches only this
  supervisor, which then decides: SIGTERM to every group (gunicorn and the worker finish what
  they are doing), and after `STOP_SECONDS` SIGKILL to whatever is left, a worker stuck in a
  long task or a machine too loaded to let it finish included. A second Ctrl-C kills them at
  once.
- If one of them dies on its own, the others are stopped too (a venue with no worker has no
  clocks and no backups; it must not look as if it ran).
- Each child is asked to die with the supervisor (`PR_SET_PDEATHSIG`), so even a supervisor
  killed with -9 leaves no web server holding the port.
- While serving, the laptop is announced on the LAN under the event's name (venue.announce).
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from venue import announce, launch

#: Seconds between the first Ctrl-C and SIGKILL to what still runs (the bound is 10 s in all);
#: VENUE_STOP_SECONDS sets another.
STOP_SECONDS = 7.0
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the stop signals still reach every group
        pass


def commands(bin_dir: Path, var: Path, port: str, bind: str, web_workers: str) -> dict[str, list[str]]:
    """The three processes of venue mode."""
    # Gossip, mingle and heartbeats talk to other workers; venue mode has one, on a file broker.
    quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    return {
        "worker": [str(bin_dir / "celery"), "-A", "config", "worker", "--loglevel=warning", "--concurrency=1",
                   "--hostname", "venue@%h", *quiet],
        "beat": [str(bin_dir / "celery"), "-A", "config", "beat", "--loglevel=warning",
                 "-s", str(var / "celerybeat-schedule")],
        "web": [str(bin_dir / "gunicorn"), "config.wsgi:application", "--bind", f"{bind}:{port}",
                "--workers", web_workers, "--threads", "4", "--worker-class", "gthread", "--timeout", "60",
                "--graceful-timeout", str(int(STOP_SECONDS) - 2),
                "--access-logfile", "-", "--access-logformat", '%(h)s "%(r)s" %(s)s %(M)sms'],
    }


@dataclass
class Supervisor:
    commands: Mapping[str, Sequence[str]]
    stop_seconds: float = STOP_SECONDS
    env: Mapping[str, str] | None = None
    say: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr, flush=True))
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    _interrupts: int = 0
    _wake: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        for name, argv in self.commands.items():
            self.processes[name] = subprocess.Popen(
                list(argv), env=dict(self.env) if self.env is not None else None, start_new_session=True,
                preexec_fn=_die_with_parent,  # noqa: PLW1509 - only prctl, no locks taken
            )

    def _signal(self, signum: int, _frame: FrameType | None) -> None:
        self._interrupts += 1
        self._wake.set()

    def _send(self, signum: int) -> None:
        for process in self.processes.values():
            try:
                os.killpg(process.pid, signum)
            except ProcessLookupError:
                pass

    def running(self) -> list[str]:
        return [name for name, process in self.processes.items() if process.poll() is None]

    def _groups_alive(self) -> bool:
        for process in self.processes.values():
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                continue
            return True
        return False

    def serve(self, until: Callable[[], bool] = lambda: False) -> int:
        """Run until Ctrl-C (SIGINT), SIGTERM, `until()` or a process dying; then stop all.
        Returns 0 for a requested stop, 1 when a process died on its own."""
        previous = {s: signal.signal(s, self._signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            if not self.processes:
                self.start()
            died: list[str] = []
            while not self._interrupts and not until():
                died = [name for name in self.processes if name not in self.running()]
                if died:
                    self.say(f"venue: {', '.join(died)} stopped on its own; stopping the others")
                    break
                self._wake.wait(0.5)
            self.stop()
            return 1 if died else 0
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def stop(self) -> None:
        """SIGTERM to every group, SIGKILL after `stop_seconds` or at a second Ctrl-C."""
        seen = self._interrupts
        self.say(f"venue: stopping web, worker and beat (at most {self.stop_seconds:.0f} s; Ctrl-C again stops at once)")
        self._send(signal.SIGTERM)
        deadline = time.monotonic() + self.stop_seconds
        while self._groups_alive() and time.monotonic() < deadline and self._interrupts <= seen:
            self._wake.clear()
            self._wake.wait(0.1)
        if self._groups_alive():
            late = self.running() or ["their children"]
            self.say(f"venue: killing {', '.join(late)}")
            self._send(signal.SIGKILL)
        for process in self.processes.values():
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass


def main(argv: Sequence[str], environ: Mapping[str, str] = os.environ) -> int:
    """`python -m venue.supervise` (bin/venue): serve until Ctrl-C."""
    bin_dir = Path(environ.get("VENV_BIN") or Path(sys.executable).parent)
    var = launch.var_dir(environ)
    supervisor = Supervisor(commands(bin_dir, var, environ.get("PORT", "8000"), environ.get("VENUE_BIND", "0.0.0.0"),  # noqa: S104
                                     environ.get("WEB_WORKERS", "3")),
                            stop_seconds=float(environ.get("VENUE_STOP_SECONDS") or STOP_SECONDS))
    supervisor.start()
    launch.main(["launch", "banner"])
    try:
        with announce.announced(environ):
            return supervisor.serve()
    except announce.NameTaken as taken:
        print(f"venue: {taken}", file=sys.stderr, flush=True)
        supervisor.stop()
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
