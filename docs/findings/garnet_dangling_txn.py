#!/usr/bin/env python3
"""One dangling MULTI/EXEC in Garnet's append-only file, and what it does to the writes of a later server process.

1. A fresh server: one client queues a long MULTI of SETs and sends EXEC; the server is killed with SIGKILL while
   EXEC runs, so the file holds the transaction's start and some of its operations but not its commit.
2. Restarted with --recover: a client whose session id (CLIENT ID) is the killed transaction's, or with --control one
   whose id is not, runs MULTI/SET/EXEC and then a plain SET, both acknowledged; the server is killed again.
3. Restarted with --recover: are those two acknowledged writes there?

Garnet numbers its sessions from the start in every process, so the new process's session can carry the id of the
killed one. Only the standard library; the server listens on 127.0.0.1.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

from garnet_kill_rounds import Resp, Server, free_port, recovery_complaints, server_dll


def start(dll, data, extra, name):
    log = open(os.path.join(data, name + ".log"), "wb")
    server = Server(dll, data, free_port(), extra, log)
    try:
        server.wait_ready()
    except BaseException:
        if server.proc.poll() is None:
            server.kill("kill")
        raise
    log.flush()
    for complaint in recovery_complaints(log.name):
        print("  %s: garnet said: %s" % (name, complaint), flush=True)
    return server


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--control", action="store_true", help="step 2 uses a session whose id differs from the killed one's")
    parser.add_argument("--queued", type=int, default=200_000, help="SETs queued in the transaction that is killed")
    parser.add_argument("--kill-after", type=float, default=0.3, help="seconds after EXEC is sent")
    parser.add_argument("--save", action="store_true", help="step 2's client takes a checkpoint (SAVE) before it writes")
    parser.add_argument("--version", default="2.2.8")
    parser.add_argument("garnet_args", nargs="*", help="after --: garnet's durability flags (default: the Garnet row's)")
    args = parser.parse_args()
    extra = args.garnet_args or ["--aof", "--aof-commit-wait", "--device-type", "RandomAccess", "--recover"]
    dll = server_dll(args.version)
    data = tempfile.mkdtemp(prefix="garnet-txn-")
    server = None
    try:
        server = start(dll, data, extra, "first")
        client = Resp(server.port)
        killed_id = client.call("CLIENT", "ID")
        client.send(["MULTI"], *(["SET", "queued-%d" % i, "x" * 100] for i in range(args.queued)), ["EXEC"])
        for _ in range(args.queued + 1):
            client.reply()  # +OK for MULTI, +QUEUED for each SET
        time.sleep(args.kill_after)
        server.kill("kill")
        client.close()
        print("step 1: session %d's EXEC of %d SETs killed while it ran" % (killed_id, args.queued))

        server = start(dll, data, extra, "second")
        sessions = []
        while True:
            conn = Resp(server.port)
            sessions.append(conn)
            session_id = conn.call("CLIENT", "ID")
            if (session_id == killed_id) != args.control:
                break
            if session_id > killed_id:
                raise RuntimeError("the new process numbered its sessions past %d before this client asked" % killed_id)
        if args.save:
            print("  SAVE: %s" % conn.call("SAVE"))
        conn.send(["MULTI"], ["SET", "after-multi", "1"], ["EXEC"])
        acknowledged = [conn.reply() for _ in range(3)][-1] == ["OK"]
        acknowledged &= conn.call("SET", "after-plain", "1") == "OK"
        print("step 2: session %d (%s the killed one's) wrote MULTI/SET/EXEC and a SET: acknowledged %s"
              % (session_id, "not" if args.control else "the same as", acknowledged))
        server.kill("kill")
        for conn in sessions:
            conn.close()

        server = start(dll, data, extra, "third")
        check = Resp(server.port)
        found = [check.call("GET", key) is not None for key in ("after-multi", "after-plain")]
        applied = check.call("EXISTS", "queued-0")
        print("  the killed transaction's first key exists: %d (0: not applied, as it was not acknowledged)" % applied)
        check.close()
        server.kill("kill")
        lost = found.count(False)
        print("step 3: after the second restart, of the 2 acknowledged writes of step 2, found %d, lost %d" % (found.count(True), lost))
        print("RESULT control=%s acknowledged=%d lost=%d" % (args.control, 2 if acknowledged else 0, lost))
        return 1 if lost else 0
    finally:
        if server is not None and server.proc.poll() is None:
            server.kill("kill")  # a step that failed leaves no server behind
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
