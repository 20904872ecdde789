#!/usr/bin/env python3
"""Kill rounds against a Garnet server, outside KvBench: what its acknowledged writes survive.

Each round starts garnet-server (the .NET tool package's GarnetServer.dll, run with `dotnet`) on the same log and
checkpoint directories, has writer threads put records of their own over plain RESP sockets until the server is
killed with SIGKILL at a random moment, and counts the writes that got their reply. After every restart it reads back
every record acknowledged so far (or only after the last round, with --check-at-end) and prints what each earlier
round lost, and what Garnet logged while it recovered.

Only the standard library; the server listens on 127.0.0.1.
"""

import argparse
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time


def server_dll(version):
    """The tool package's entry point in NuGet's global packages folder, as `dotnet tool restore` leaves it."""
    root = os.environ.get("NUGET_PACKAGES") or os.path.expanduser("~/.nuget/packages")
    tools = os.path.join(root, "garnet-server", version, "tools")
    frameworks = sorted(os.listdir(tools), key=lambda name: int(name[3:].split(".")[0]))
    return os.path.join(tools, frameworks[-1], "any", "GarnetServer.dll")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Resp:
    """One RESP connection: commands out as arrays of bulk strings, replies parsed back."""

    def __init__(self, port, timeout=30):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""

    def close(self):
        self.sock.close()

    def send(self, *commands):
        out = []
        for args in commands:
            out.append(b"*%d\r\n" % len(args))
            for arg in args:
                arg = arg if isinstance(arg, bytes) else str(arg).encode()
                out.append(b"$%d\r\n%s\r\n" % (len(arg), arg))
        self.sock.sendall(b"".join(out))

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            return None if n < 0 else self._exact(n)
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.reply() for _ in range(n)]
        raise RuntimeError("unexpected reply %r" % line)

    def call(self, *args):
        self.send(args)
        return self.reply()


def key(round_, writer, index):
    return b"kill-%d-%d-%d" % (round_, writer, index)


def value(round_, writer, index, size):
    seed = b"v%d.%d.%d." % (round_, writer, index)
    return (seed * (size // len(seed) + 1))[:size]


class Server:
    def __init__(self, dll, data, port, extra, log):
        self.port = port
        args = ["dotnet", dll, "--bind", "127.0.0.1", "--port", str(port)]
        args += ["--storage-tier", "--logdir", os.path.join(data, "log"), "--checkpointdir", os.path.join(data, "checkpoint")]
        args += extra
        self.args = args
        self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("garnet exited with code %d before it answered" % self.proc.returncode)
            try:
                conn = Resp(self.port, timeout=2)
                try:
                    if conn.call("PING") == "PONG":
                        return
                finally:
                    conn.close()
            except (OSError, ConnectionError):
                pass
            time.sleep(0.02)
        raise RuntimeError("garnet did not answer within %d s" % timeout)

    def kill(self, how):
        if how == "term":
            self.proc.send_signal(signal.SIGTERM)
        else:
            self.proc.kill()
        self.proc.wait()


def write_until_killed(server, round_, args, rng):
    acknowledged = [0] * args.writers
    first = threading.Barrier(args.writers + 1)
    stop = threading.Event()

    def writer(w):
        conn = Resp(server.port)
        signalled = False
        try:
            for i in range(args.max_writes):
                k, v = key(round_, w, i), value(round_, w, i, args.value_bytes)
                if args.mode == "multi":
                    conn.send(["MULTI"], ["SET", k, v], ["ZADD", "index", "0", k], ["EXEC"])
                    replies = [conn.reply() for _ in range(4)]
                    if replies[-1] is None or not isinstance(replies[-1], list):
                        break
                else:
                    if conn.call("SET", k, v) != "OK":
                        break
                acknowledged[w] = i + 1
                if not signalled:
                    signalled = True
                    first.wait()
                if stop.is_set():
                    break
        except (OSError, ConnectionError, RuntimeError):
            pass  # the server is gone: this writer's last write was not acknowledged
        finally:
            conn.close()
            if not signalled:
                first.abort()

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(args.writers)]
    for t in threads:
        t.start()
    first.wait(timeout=60)
    time.sleep(rng.random() * args.max_kill_delay)
    server.kill(args.kill)
    stop.set()
    for t in threads:
        t.join(timeout=60)
    return acknowledged


def check(port, written, args):
    """Lost acknowledged records per round, over everything written so far."""
    conn = Resp(port)
    lost = {}
    try:
        for round_, acknowledged in written:
            missing = 0
            for w, count in enumerate(acknowledged):
                for i in range(count):
                    if conn.call("GET", key(round_, w, i)) != value(round_, w, i, args.value_bytes):
                        missing += 1
            lost[round_] = missing
    finally:
        conn.close()
    return lost


def recovery_complaints(path):
    """The warnings and failures the server wrote while it started: how a recovery that dropped part of the log shows."""
    with open(path, "rb") as log:
        text = log.read().decode(errors="replace")
    return [line.split("    at ", 1)[0][:300] for line in text.splitlines() if " fail: " in line or " warn: " in line]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--mode", choices=["set", "multi"], default="multi",
                        help="plain SET, or KvBench's Put: MULTI, SET, ZADD of the key to one sorted set, EXEC")
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--max-writes", type=int, default=10**9, help="writes per writer per round at most")
    parser.add_argument("--max-kill-delay", type=float, default=1.0, help="seconds after every writer's first ack")
    parser.add_argument("--kill", choices=["kill", "term"], default="kill")
    parser.add_argument("--save-after-restart", action="store_true",
                        help="take a checkpoint (SAVE) once the restarted server answers, before the round writes")
    parser.add_argument("--check-at-end", action="store_true", help="read back only after the last restart")
    parser.add_argument("--version", default="2.2.8")
    parser.add_argument("--kill-moments", type=int, default=25,
                        help="the number of the random stream each round's kill delay is drawn from")
    parser.add_argument("--keep", action="store_true", help="keep the data directory and the server logs")
    parser.add_argument("garnet_args", nargs="*",
                        help="after --: garnet's durability flags (default: the Garnet row's)")
    args = parser.parse_args()
    extra = args.garnet_args or ["--aof", "--aof-commit-wait", "--device-type", "RandomAccess", "--recover"]

    dll = server_dll(args.version)
    data = tempfile.mkdtemp(prefix="garnet-kill-")
    rng = random.Random(args.kill_moments)
    written = []
    total_lost = 0
    print("garnet %s flags: %s; data: %s" % (args.version, " ".join(extra), data), flush=True)
    try:
        for round_ in range(args.rounds + 1):
            with open(os.path.join(data, "server-%d.log" % round_), "wb") as log:
                server = Server(dll, data, free_port(), extra, log)
                try:
                    server.wait_ready()
                    log.flush()
                    for complaint in recovery_complaints(os.path.join(data, "server-%d.log" % round_)):
                        print("  restart %d: garnet said: %s" % (round_, complaint), flush=True)
                    last = round_ == args.rounds
                    if written and (last or not args.check_at_end):
                        lost = check(server.port, written, args)
                        shown = ", ".join("r%d:%d/%d" % (r, lost[r], sum(a)) for r, a in written)
                        print("  after restart %d: lost/acknowledged per round: %s" % (round_, shown), flush=True)
                        if last:
                            total_lost = sum(lost.values())
                    if last:
                        server.kill("kill")
                        break
                    if args.save_after_restart and round_ > 0:
                        conn = Resp(server.port, timeout=300)
                        try:
                            if conn.call("SAVE") != "OK":
                                raise RuntimeError("SAVE was not acknowledged")
                        finally:
                            conn.close()
                    acknowledged = write_until_killed(server, round_, args, rng)
                    written.append((round_, acknowledged))
                    print("round %d: %d acknowledged" % (round_, sum(acknowledged)), flush=True)
                finally:
                    if server.proc.poll() is None:
                        server.kill("kill")
        total = sum(sum(a) for _, a in written)
        print("RESULT rounds=%d writers=%d mode=%s acknowledged=%d lost=%d" % (args.rounds, args.writers, args.mode, total, total_lost))
    finally:
        if args.keep:
            print("kept %s" % data)
        else:
            shutil.rmtree(data, ignore_errors=True)
    return 1 if total_lost else 0


if __name__ == "__main__":
    sys.exit(main())
