#!/usr/bin/env python3
"""The daemon-side attacks of the hardening issue, rebuilt from their descriptions, against a cockpitd binary.
Python 3 standard library only; every loop is bounded in count and time and talks to loopback only.

    Scripts/hardening-check.py --binary .build/debug/cockpitd [--cockpitctl .build/debug/cockpitctl] [--only NAME]

Each check prints one line of numbers: what a pilot would see during the attack (the control socket's answer time,
the core's 1 Hz tick, what the pilot's own client gets). Run it on two builds to compare before and after a fix.
Exit status 0; the numbers are the result (the regression tests hold the pass/fail rules).
"""
import argparse, json, os, random, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hardening_support import Daemon, FLIGHT, status   # noqa: E402
from hardening_daemon_checks import control_watchers, flight_log_truncated, gdl90_broadcast, gdl90_spoofer   # noqa: E402


def watch_ticks(daemon, seconds):
    """Polls the status every 0.2 s for `seconds`: (worst answer time, worst wall gap between two core ticks)."""
    worst_answer, worst_gap, last_utc, last_change = 0.0, 0.0, None, time.monotonic()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        took, body = status(daemon.socket)
        worst_answer = max(worst_answer, took)
        utc = body and body.get("utc")
        now = time.monotonic()
        if utc != last_utc:
            worst_gap = max(worst_gap, now - last_change)
            last_utc, last_change = utc, now
        time.sleep(0.2)
    return worst_answer, max(worst_gap, time.monotonic() - last_change)


def flarm_garbage(args, work):
    daemon = Daemon(args.binary, work)
    time.sleep(3)
    base_answer, base_gap = watch_ticks(daemon, 5)
    stop, sent = threading.Event(), [0]

    def python_writer():
        # 64 KiB of random bytes a send, in a loop: on the debug builds here this held the tick longest.
        garbage = bytes(random.Random(1).getrandbits(8) for _ in range(65536))
        while not stop.is_set():
            try:
                connection = socket.create_connection(("127.0.0.1", daemon.flarm_port), timeout=2)
                sent[0] += 1
                while not stop.is_set():
                    connection.send(garbage)
            except OSError:
                time.sleep(0.05)   # disconnected: come back, as an attacker would

    def cat_writer():
        # cat(1) writing /dev/zero into the connection: as fast as the kernel takes it, no interpreter in the way.
        while not stop.is_set():
            try:
                connection = socket.create_connection(("127.0.0.1", daemon.flarm_port), timeout=2)
                connection.settimeout(None)   # a blocking descriptor: cat must wait when the socket is full, not give up
                cat = subprocess.Popen(["cat", "/dev/zero"], stdout=connection.fileno(), stderr=subprocess.DEVNULL)
                while not stop.is_set() and cat.poll() is None:
                    time.sleep(0.05)
                if cat.poll() is None:
                    cat.kill()
                    cat.wait()
                sent[0] += 1
                connection.close()
            except OSError:
                time.sleep(0.05)   # disconnected: come back, as an attacker would

    thread = threading.Thread(target=cat_writer if args.flarm_writer == "cat" else python_writer, daemon=True)
    thread.start()
    answer, gap = watch_ticks(daemon, 15)
    stop.set()
    thread.join(5)
    flarm = (status(daemon.socket)[1] or {}).get("outputs", {}).get("flarm", {})
    daemon.stop()
    print(f"flarm-garbage: before the writer: status answered in ≤ {base_answer*1000:.0f} ms, longest tick gap {base_gap:.2f} s; "
          f"15 s of a garbage writer ({sent[0]} connection(s)): status ≤ {answer*1000:.0f} ms, longest tick gap {gap:.2f} s; "
          f"droppedFlooding {flarm.get('droppedFlooding')}, bytesDiscarded {flarm.get('bytesDiscarded')}")


def flarm_slots(args, work):
    daemon = Daemon(args.binary, work)
    stuck = []
    for host in range(2, 10):
        client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.bind((f"127.0.0.{host}", 0))
        client.connect(("127.0.0.1", daemon.flarm_port))
        stuck.append(client)
        time.sleep(1.2)
    time.sleep(30)
    pilot = socket.create_connection(("127.0.0.1", daemon.flarm_port), timeout=5)
    pilot.settimeout(0.5)
    received, end = 0, time.monotonic() + 5
    while time.monotonic() < end:
        try:
            chunk = pilot.recv(65536)
            if not chunk:
                break
            received += len(chunk)
        except socket.timeout:
            pass
    flarm = (status(daemon.socket)[1] or {}).get("outputs", {}).get("flarm", {})
    peers = [client.get("peer", "") for client in flarm.get("clients", [])]
    open_stuck = sum(1 for peer in peers if not peer.startswith("127.0.0.1:"))
    daemon.stop()
    print(f"flarm-slots: 8 connections that never read, 30 s later and after the pilot's came: {open_stuck} still served; the pilot's client got "
          f"{received} bytes in 5 s; evicted {flarm.get('evicted')}, clients {len(flarm.get('clients', []))}")


def gdl90(args, work):
    daemon = Daemon(args.binary, work)
    time.sleep(2)
    capture = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    capture.bind(("127.0.0.1", 0))
    capture.settimeout(0.2)
    announcement = json.dumps({"App": "ForeFlight", "GDL90": {"port": capture.getsockname()[1]}}).encode()
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.sendto(announcement, ("127.0.0.1", daemon.discovery_port))
    count = size = 0
    end = time.monotonic() + 25
    while time.monotonic() < end:
        try:
            count += 1
            size += len(capture.recv(4096))
        except socket.timeout:
            count -= 1
    service_port = 0
    try:
        service = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        service.bind(("127.0.0.1", 0))
        service.settimeout(0.2)
        sender.sendto(json.dumps({"App": "X", "GDL90": {"port": 53}}).encode(), ("127.0.0.1", daemon.discovery_port))
        time.sleep(3)
        gdl = (status(daemon.socket)[1] or {}).get("outputs", {}).get("gdl90", {})
        service_port = sum(1 for d in gdl.get("destinations", []) if d.get("destination", "").endswith(":53") and d.get("sent", 0) > 0)
    except OSError:
        pass
    # 64 forged apps (127.0.0.10…73) announcing every 5 s, then a genuine one (127.0.0.200).
    forged = []
    for host in range(10, 74):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((f"127.0.0.{host}", 0))
        forged.append(s)
    tablet = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tablet.bind(("127.0.0.200", 0))
    tablet_capture = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tablet_capture.bind(("127.0.0.200", 0))
    tablet_capture.settimeout(0.2)
    tablet_port = tablet_capture.getsockname()[1]
    got, end, next_round = 0, time.monotonic() + 20, 0.0
    while time.monotonic() < end:
        if time.monotonic() >= next_round:
            for s in forged:
                s.sendto(json.dumps({"App": "X", "GDL90": {"port": 4000}}).encode(), ("127.0.0.1", daemon.discovery_port))
            if time.monotonic() + 15 < end:
                tablet.sendto(json.dumps({"App": "ForeFlight", "GDL90": {"port": tablet_port}}).encode(), ("127.0.0.1", daemon.discovery_port))
            next_round = time.monotonic() + 5
        try:
            got += len(tablet_capture.recv(4096)) > 0
        except socket.timeout:
            pass
    daemon.stop()
    print(f"gdl90: one {len(announcement)}-byte announcement: {count} datagrams, {size} bytes ({size/len(announcement):.0f}x) in 25 s; "
          f"announced port 53 sent to: {'yes' if service_port else 'no'}; with 64 forged apps the genuine tablet got {got} datagrams in 20 s")


def control(args, work):
    daemon = Daemon(args.binary, work)
    stop = threading.Event()

    def dribbler():
        while not stop.is_set():
            try:
                client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                client.connect(daemon.socket)
                client.send(b"{")
                client.settimeout(10)
                client.recv(4096)   # wait to be closed, then come back
                client.close()
            except OSError:
                time.sleep(0.01)

    threads = [threading.Thread(target=dribbler, daemon=True) for _ in range(70)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    answered = refused = 0
    worst = 0.0
    for _ in range(20):
        took, body = status(daemon.socket, 5)
        worst = max(worst, took)
        answered += body is not None
        refused += body is None
        time.sleep(0.5)
    stop.set()
    daemon.stop()
    print(f"control: 70 clients that send one byte and reconnect: the pilot's status answered {answered} of 20 "
          f"(worst {worst*1000:.0f} ms)")


def end_of_clock(args, work):
    path = os.path.join(work, "end.jsonl")
    header = {"format": "cockpitd-recording", "formatVersion": 1, "software": "check", "timeUnit": "monotonic nanoseconds",
              "devices": {}, "core": {"tickIntervalSeconds": 1}}
    fix = lambda t, utc: {"t": t, "k": "fix", "fix": {"utc": utc, "mode": 3, "lat": 46.2, "lon": 12.8, "altMSL": 1000, "altHAE": 1046,
                                                      "speed": 10, "track": 240, "climb": 0, "eph": None, "epv": None}}
    with open(path, "w") as out:
        for line in [header, fix(0, 1712145600), fix(2**63 - 500_000_000, 1712145601)]:
            out.write(json.dumps(line) + "\n")
    started = time.monotonic()
    try:
        result = subprocess.run([args.binary, "replay", path, "--json"], capture_output=True, timeout=20)
        outcome = f"exit {result.returncode}"
    except subprocess.TimeoutExpired:
        outcome = "still running after 20 s (killed)"
    print(f"end-of-clock: an event at 2^63 ns - 0.5 s: {outcome} in {time.monotonic() - started:.1f} s")


def flight_log(args, work):
    log = os.path.join(work, "log.sqlite")
    subprocess.run([args.binary, "replay", FLIGHT, "--speed", "max", "--profile", "glider", "--flight-log", log],
                   capture_output=True, timeout=300)
    subprocess.run(["sqlite3", log, "PRAGMA wal_checkpoint(TRUNCATE)"], capture_output=True)
    size = os.path.getsize(log)
    rng = random.Random(20261127)
    crashed = hung = 0
    rounds = 20
    for _ in range(rounds):
        damaged = os.path.join(work, "damaged.sqlite")
        with open(log, "rb") as source, open(damaged, "wb") as target:
            target.write(source.read())
        with open(damaged, "r+b") as target:
            target.seek(rng.randrange(0, size - 64))
            target.write(bytes(rng.getrandbits(8) for _ in range(64)))
        daemon = Daemon(args.binary, work, ["--flight-log", damaged])
        for request in [["flights"], ["history"]] + [["export", "1", "--format", f] for f in ("igc", "gpx", "kml", "svg")]:
            try:
                subprocess.run([args.cockpitctl] + request + ["--socket", daemon.socket], capture_output=True, timeout=15)
            except subprocess.TimeoutExpired:
                hung += 1
            if daemon.process.poll() is not None:
                crashed += 1
                break
        daemon.stop()
        for leftover in (damaged, damaged + "-wal", damaged + "-shm"):
            if os.path.exists(leftover):
                os.unlink(leftover)
    print(f"flight-log: 64 random bytes over the log, {rounds} rounds of flights/history/export x4 through a replaying daemon: "
          f"the daemon died in {crashed}, a request hung {hung} times")


CHECKS = {"flarm-garbage": flarm_garbage, "flarm-slots": flarm_slots, "gdl90": gdl90, "control": control,
          "end-of-clock": end_of_clock, "flight-log": flight_log, "gdl90-spoofer": gdl90_spoofer,
          "gdl90-broadcast": gdl90_broadcast, "control-watchers": control_watchers, "flight-log-truncated": flight_log_truncated}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--cockpitctl")
    parser.add_argument("--only", choices=sorted(CHECKS), action="append")
    parser.add_argument("--flarm-writer", choices=["python", "cat"], default="python",
                        help="how flarm-garbage writes: a Python send loop (default) or cat /dev/zero")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    args.cockpitctl = os.path.abspath(args.cockpitctl or os.path.join(os.path.dirname(args.binary), "cockpitctl"))
    for name in args.only or CHECKS:
        with tempfile.TemporaryDirectory(prefix="hardening-") as work:
            CHECKS[name](args, work)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
