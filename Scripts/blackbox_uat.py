"""The black-box campaign's UAT surface (Scripts/blackbox.py): the campaign plays dump978-fa's raw port (the daemon runs
with `--uat 127.0.0.1:PORT` and connects to it as it would to dump978-fa) and writes the real recordings' lines, mutated,
to a running cockpitd. Between batches the daemon must answer `status`; at the end every line written must be counted
once under `radioTraffic.sources.uat` — as a downlink used (`observations`), an uplink, another line, or a refusal
counted by its reason — and the ground station list must stay within its bound.

Seeds: dump978's San Jose sample (439 downlinks, 704 uplinks) and the first 800 lines of fisb-decode's Indiana capture
(uplinks with `rs`, `rssi`, `t` fields, `#` lines), from Tests/Fixtures/radio-traffic/uat. Python 3 standard library.
"""
import gzip
import os
import socket
import threading
import time

HEX = b"0123456789abcdef"
# The framer of the daemon's line sources cuts a line longer than this (UATSettings.maximumLineBytes) and refuses it once.
MAXIMUM_LINE_BYTES = 2_048


def seeds(repo):
    folder = os.path.join(repo, "Tests", "Fixtures", "radio-traffic", "uat")
    lines = []
    for name in ("sample-data.txt.gz", "tg30.head-800.978.gz"):
        with gzip.open(os.path.join(folder, name), "rb") as capture:
            lines.extend(line.rstrip(b"\r\n") for line in capture if line.strip())
    return lines


def _hex(data):
    return data.hex().encode()


def mutate(rng, seeds):
    """One line (no newline in it) and the kind of damage done to it."""
    line = bytearray(rng.choice(seeds))
    frame_end = line.find(b";")
    kind = rng.choice(("real", "hex digit", "hex digit", "bytes", "frame bits", "cut", "longer", "fields", "no terminator",
                       "not hex", "other line", "too long", "noise", "direction", "payload type"))
    if kind == "hex digit" and frame_end > 1:
        for _ in range(rng.randint(1, 8)):
            line[rng.randrange(1, frame_end)] = HEX[rng.randrange(16)]
    elif kind == "bytes":
        for _ in range(rng.randint(1, 6)):
            line[rng.randrange(len(line))] = rng.randrange(1, 256)
    elif kind == "frame bits" and frame_end > 1:
        # Error correction that took a damaged frame as good: valid hex, any bits of the payload flipped.
        payload = bytearray(bytes.fromhex(line[1:frame_end].decode()))
        for _ in range(rng.randint(1, 24)):
            payload[rng.randrange(len(payload))] ^= 1 << rng.randrange(8)
        line[1:frame_end] = _hex(payload)
    elif kind == "cut":
        del line[rng.randrange(1, len(line)):]
    elif kind == "longer" and frame_end > 1:
        line[frame_end:frame_end] = bytes(rng.choice(HEX) for _ in range(rng.choice((1, 2, 34, 400))))
    elif kind == "fields":
        junk = rng.choice((b"rs=-3;", b"rs=x;", b"rssi=nan;", b"rssi=-inf;", b"t=1e400;", b"t=-5;", b"t=;", b"=;", b";;;",
                           b"key=value;", b"rs=99999999999999999999;", b"ss=300;", b"t=1604048190.102;" * 3))
        line += junk
    elif kind == "no terminator" and frame_end > 0:
        del line[frame_end:]
    elif kind == "not hex" and frame_end > 1:
        line[rng.randrange(1, frame_end)] = rng.choice(b"gxyzGXYZ :-+")
    elif kind == "other line":
        line = bytearray(rng.choice((b"#  RECENTER 15 -> 1767 i:1167", b"!rs=1;", b"*8d4840d6202cc371c32ce0576098;",
                                     b"MSG,3,1,1,4840D6,1", b"+", b"-", b";", b"+;", b"-;")))
    elif kind == "too long":
        line += bytes(rng.choice(HEX) for _ in range(MAXIMUM_LINE_BYTES + rng.randrange(1, 3_000)))
    elif kind == "noise":
        line = bytearray(rng.randrange(1, 256) for _ in range(rng.randint(1, 200)))
    elif kind == "direction":
        line[0:1] = b"+" if line[:1] == b"-" else b"-"
    elif kind == "payload type" and line[:1] == b"-" and frame_end > 3:
        line[1:3] = b"%02x" % rng.randrange(256)
    line = bytes(line).replace(b"\n", b" ")
    # A line that is empty once its CR is taken off is no line to the daemon: nothing to count.
    if not line.rstrip(b"\r"):
        line = b"#"
    return kind, line


class RawPort:
    """dump978-fa's raw port as the campaign plays it: a loopback listener the daemon connects to."""

    def __init__(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        self.connection = None
        self.connections = 0
        self.ready = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.connection = connection
            self.connections += 1
            self.ready.set()

    def wait_connected(self, seconds=15.0):
        return self.ready.wait(seconds)

    def send(self, data):
        self.connection.sendall(data)

    def hang_up(self):
        """Closes the connection after whole lines, as a restarting dump978-fa does; the daemon connects again."""
        self.ready.clear()
        self.connection.close()


def campaign(run, port, total, repo, rng):
    """Writes `total` mutated lines; returns the surface's results. `run` is the Campaign (status, alive, finding)."""
    if not port.wait_connected():
        run.finding("uat", "the daemon did not connect to the raw port within 15 s")
        return {}
    all_seeds = seeds(repo)
    before = run.status()[0]["radioTraffic"]["sources"].get("uat", {})
    weather_before = run.status()[0].get("weather", {})
    kinds = {}
    sent = hang_ups = 0
    batch = max(1, total // 20)
    started = time.monotonic()
    while sent < total:
        count = min(total - sent, 2_000)
        lines = []
        for _ in range(count):
            kind, line = mutate(rng, all_seeds)
            kinds[kind] = kinds.get(kind, 0) + 1
            lines.append(line)
        port.send(b"\n".join(lines) + b"\n")
        sent += count
        if sent % batch < count or sent == total:
            run.alive("uat")
        if rng.random() < 0.02 and sent < total:
            hang_ups += 1
            wait_for(run, before, sent, 60)
            port.hang_up()
            if not port.wait_connected():
                run.finding("uat", "the daemon did not connect again within 15 s of a hang-up")
                return {}
    source = wait_for(run, before, sent, 120)
    seconds = time.monotonic() - started

    def delta(key):
        return source.get(key, 0) - before.get(key, 0)

    rejected = {reason: count - before.get("rejected", {}).get(reason, 0) for reason, count in source.get("rejected", {}).items()}
    rejected = {reason: count for reason, count in rejected.items() if count}
    lines, used, uplinks, other, bad = delta("lines"), delta("observations"), delta("uplinks"), delta("otherLines"), delta("badLines")
    if lines != sent:
        run.finding("uat", f"wrote {sent} lines, the daemon counted {lines}")
    if used + uplinks + other + bad != lines:
        run.finding("uat", f"{lines} lines, but {used} used + {uplinks} uplinks + {other} other + {bad} refused")
    if sum(rejected.values()) != bad:
        run.finding("uat", f"{bad} refused lines, {sum(rejected.values())} by reason: {rejected}")
    weather = run.status()[0].get("weather", {})
    # What the uplinks' FIS-B decoder made of them (docs/radio-traffic.md, "FIS-B uplinks"): its refusals by reason.
    fisb = {key: _difference(weather.get(key), weather_before.get(key))
            for key in ("uplinks", "refusedUplinks", "apdus", "refusedAPDUs", "textReports", "stationReports",
                        "stationsWithMETAR", "stationsWithTAF", "stationsDropped")}
    if fisb["uplinks"] != uplinks:
        run.finding("uat", f"{uplinks} uplinks counted by the source, {fisb['uplinks']} by the weather state")
    stations = len(source.get("groundStations", []))
    if stations > 64:
        run.finding("uat", f"{stations} ground stations listed (bound 64)")
    return dict(lines=sent, kinds=kinds, hangUps=hang_ups, connections=port.connections, counted=lines, used=used,
                uplinks=uplinks, otherLines=other, refused=bad, refusedByReason=rejected, leftOut=source.get("leftOut"),
                groundStations=stations, fisb=fisb, linesPerSecond=round(sent / max(seconds, 1e-9)))


def _difference(after, before):
    """after − before for a counter, or for each key of a counter object (reasons)."""
    if isinstance(after, dict):
        before = before if isinstance(before, dict) else {}
        return {key: _difference(value, before.get(key)) for key, value in after.items() if _difference(value, before.get(key))}
    if isinstance(after, (int, float)):
        return after - (before if isinstance(before, (int, float)) else 0)
    return after


def wait_for(run, before, sent, seconds):
    """The uat source's status once it has counted `sent` lines since `before` (or after `seconds`)."""
    deadline = time.monotonic() + seconds
    while True:
        source = run.status()[0]["radioTraffic"]["sources"].get("uat", {})
        if source.get("lines", 0) - before.get("lines", 0) >= sent or time.monotonic() > deadline:
            return source
        time.sleep(0.1)
