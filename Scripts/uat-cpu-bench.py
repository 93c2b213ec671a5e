#!/usr/bin/env python3
"""What the UAT source costs against the 1090 path, in instructions under callgrind, both measured in one run.

  python3 Scripts/uat-cpu-bench.py --cockpitd .build-release-static/release/cockpitd [--uat-file FILE]

Two recordings of the same form are replayed (`cockpitd replay REC --speed max --airfields none`) under
`valgrind --tool=callgrind --callgrind-out-file=/dev/null`, each beside a recording of the same length with no lines at
all; the difference of the two "Collected" counts is what the lines cost, the core's ticks for their targets included:

  - 1090: dump1090-mutability's SBS-1 output for 300 synthetic aircraft (Scripts/modes-frames.py streamed in real
    time: 2 positions and 2 velocities a second each, an identification every 5 s, for 60 s — the `traffic` bench's
    stream), each line at the instant it arrived from dump1090;
  - UAT: a dump978-fa raw capture (default fisb-decode's Indiana capture tg30.978, 8 minutes of one ground station's
    uplinks), each line at its own `t=` time, a `#` line at the time of the line before it.

It prints the instructions per line of each, the lines per second of each, the instructions per second of signal of
each, and the UAT's per second as a fraction of the 1090 path's. The daemon is stripped first (valgrind 3.19 cannot
read Swift 6.3's debug info). Needs valgrind, binutils and dump1090-mutability (Scripts/setup.sh installs them).
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)
DEFAULT_UAT = os.path.join(REPOSITORY, "..", "shared", "data", "radio-traffic", "uat", "tg30.978")
HEADER = {"format": "cockpitd-recording", "formatVersion": 2, "software": "uat-cpu-bench", "timeUnit": "monotonic nanoseconds",
          "devices": {}, "core": {"gpsStaleAfterSeconds": 3, "baroStaleAfterSeconds": 2, "tickIntervalSeconds": 1},
          "settings": {}}
START_NS = 1_000_000_000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=5.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def sbs_lines_from_dump1090(aircraft, seconds):
    """dump1090-mutability's SBS-1 lines for the synthetic traffic streamed in real time to its raw input port (as the
    `traffic` bench does), each with the instant it arrived (ns from the first)."""
    raw_port, sbs_port = free_port(), free_port()
    dump1090 = subprocess.Popen(["/usr/bin/dump1090-mutability", "--net-only", "--net-bind-address", "127.0.0.1",
                                 "--net-ri-port", str(raw_port), "--net-ro-port", "0", "--net-bi-port", "0",
                                 "--net-bo-port", "0", "--net-sbs-port", str(sbs_port), "--quiet"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not (wait_for_port(raw_port) and wait_for_port(sbs_port)):
            sys.exit("dump1090-mutability did not open its ports")
        reader = socket.create_connection(("127.0.0.1", sbs_port))
        chunks = []

        def read():
            reader.settimeout(5.0)
            while True:
                try:
                    chunk = reader.recv(65536)
                except socket.timeout:
                    return
                if not chunk:
                    return
                chunks.append((time.monotonic_ns(), chunk))

        thread = threading.Thread(target=read)
        thread.start()
        sent = subprocess.run([sys.executable, os.path.join(HERE, "modes-frames.py"), "--aircraft", str(aircraft),
                               "--rate-hz", "2", "--duration-s", str(seconds), "--realtime",
                               "--connect", "127.0.0.1:%d" % raw_port], check=True, capture_output=True)
        thread.join()
        reader.close()
    finally:
        dump1090.terminate()
        dump1090.wait()
    timed, pending = [], b""
    first = chunks[0][0] if chunks else 0
    for arrived, chunk in chunks:
        pending += chunk
        *whole, pending = pending.split(b"\r\n")
        timed.extend((arrived - first, line.decode("ascii", "replace")) for line in whole if line)
    return sent, timed


def write_recording(path, kind, timed_lines, end_ns):
    with open(path, "w") as out:
        out.write(json.dumps(HEADER, separators=(",", ":")) + "\n")
        for t, line in timed_lines:
            out.write(json.dumps({"t": t, "k": kind, "line": line}, separators=(",", ":")) + "\n")
        out.write(json.dumps({"t": end_ns, "k": "end"}, separators=(",", ":")) + "\n")


def uat_timed_lines(path):
    """Each line at its `t=` (relative to the first), a line without one at the time of the line before it."""
    timed, first, last = [], None, START_NS
    with open(path) as capture:
        for line in capture:
            line = line.rstrip("\r\n")
            if not line:
                continue
            match = re.search(r";t=([0-9.]+);", line)
            if match:
                receiver = float(match.group(1))
                first = receiver if first is None else first
                last = max(last, START_NS + round((receiver - first) * 1e9))
            timed.append((last, line))
    return timed


def collected(binary, recording, log):
    # Exit 1 is expected: with no GPS fix in it the replay ends by saying the recording is not a flight.
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-file=" + log, binary,
                           "replay", recording, "--speed", "max", "--airfields", "none"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode not in (0, 1):
        sys.exit("the replay of %s ended with %d" % (recording, done.returncode))
    with open(log) as text:
        for line in text:
            if "Collected :" in line:
                return int(line.split()[-1])
    sys.exit("callgrind gave no count for " + recording)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cockpitd", required=True, help="the daemon to measure (a release build)")
    parser.add_argument("--uat-file", default=DEFAULT_UAT, help="a dump978-fa raw capture (default tg30.978)")
    parser.add_argument("--aircraft", type=int, default=300)
    parser.add_argument("--seconds", type=int, default=60)
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="uat-cpu-bench-")
    binary = os.path.join(work, "cockpitd")
    subprocess.run(["strip", "-o", binary, arguments.cockpitd], check=True)

    _, sbs = sbs_lines_from_dump1090(arguments.aircraft, arguments.seconds)
    sbs_timed = [(START_NS + arrived, line) for arrived, line in sbs]
    sbs_end = sbs_timed[-1][0] + 1_000_000_000
    uat_timed = uat_timed_lines(arguments.uat_file)
    uat_end = uat_timed[-1][0] + 1_000_000_000
    runs = {}
    for name, kind, timed, end in [("1090", "adsb-sbs", sbs_timed, sbs_end),
                                   ("uat", "uat", uat_timed, uat_end)]:
        full, empty = os.path.join(work, name + ".jsonl"), os.path.join(work, name + "-empty.jsonl")
        write_recording(full, kind, timed, end)
        write_recording(empty, kind, [], end)
        with_lines = collected(binary, full, os.path.join(work, name + ".log"))
        without = collected(binary, empty, os.path.join(work, name + "-empty.log"))
        seconds = (end - START_NS) / 1e9
        runs[name] = (len(timed), seconds, with_lines, without)

    print("instructions under callgrind (Collected), replay --speed max --airfields none, stripped %s" % arguments.cockpitd)
    print("%-4s %8s %9s %14s %14s %12s %10s %14s" % ("path", "lines", "seconds", "with lines", "empty", "per line",
                                                  "lines/s", "per second"))
    per_second = {}
    for name, (lines, seconds, with_lines, without) in runs.items():
        cost = with_lines - without
        per_second[name] = cost / seconds
        print("%-4s %8d %9.1f %14d %14d %12.0f %10.2f %14.0f" % (name, lines, seconds, with_lines, without,
                                                                cost / lines, lines / seconds, cost / seconds))
    uat_lines = runs["uat"][0]
    uplinks = sum(1 for _, line in uat_timed if line.startswith("+"))
    print("1090: modes-frames.py's %d aircraft for %d s through dump1090-mutability: %d SBS lines" % (
        arguments.aircraft, arguments.seconds, len(sbs)))
    print("uat: %d lines, %d uplinks, %d downlinks, %d other" % (uat_lines, uplinks,
                                                              sum(1 for _, line in uat_timed if line.startswith("-")),
                                                              uat_lines - uplinks - sum(1 for _, line in uat_timed if line.startswith("-"))))
    print("uat per second / 1090 per second = %.4f (goal < 0.1)" % (per_second["uat"] / per_second["1090"]))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
