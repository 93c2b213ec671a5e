#!/usr/bin/env python3
"""Black-box campaign against a real cockpitd (issue 19). Python 3 standard library only.

Starts `cockpitd run` with real sockets (a Unix control socket, a UDP traffic port, the bundled airfield database),
throws seeded, reproducible mutated or garbage inputs at each surface, checks between batches that the daemon still
answers `status` within a bound, and compares the daemon's counters with what was sent. Surfaces that are files
(replay files, configuration files, airfield databases, barometer dumps) run the `cockpitd` subcommands that read
them, each under a timeout: exit 0 or 1 with a message is fine; a signal, a timeout or another code is a finding.

    Scripts/blackbox.py --binary .build/debug/cockpitd --scale short     # a minute or two (the test suite's size)
    Scripts/blackbox.py --binary .build/release/cockpitd --scale full    # the campaign (by hand, under nice)

Exit status 0 when every surface is clean and accounted for; 1 with the findings listed (inputs kept in --keep).
"""
import argparse, json, os, random, shutil, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blackbox_inputs as inputs  # noqa: E402
import blackbox_proc as proc  # noqa: E402
import blackbox_uat as uat  # noqa: E402

SCALES = {
    "short": dict(control=3_000, traffic=3_000, metar=300, replay=15, config=30, database=3, baro=60, uat=3_000),
    "full": dict(control=600_000, traffic=200_000, metar=20_000, replay=1_000, config=1_000, database=100, baro=2_000,
                 uat=1_000_000),
}
STATUS_BOUND_SECONDS = 2.0


class Campaign:
    def __init__(self, args):
        self.args = args
        self.binary = os.path.abspath(args.binary)
        self.repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.work = tempfile.mkdtemp(prefix="blackbox-")
        self.keep = args.keep or os.path.join(self.work, "findings")
        os.makedirs(self.keep, exist_ok=True)
        self.findings = []
        self.results = {}
        self.status_times = []
        self.daemon = None
        self.uat_port = uat.RawPort()   # dump978-fa's raw port, played by the campaign (blackbox_uat.py)

    # -- the live daemon -------------------------------------------------------------------------------------------

    def start_daemon(self):
        self.socket_path = os.path.join(self.work, "cockpitd.sock")
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.bind(("127.0.0.1", 0))
        self.traffic_port = probe.getsockname()[1]
        probe.close()
        command = [self.binary, "run", "--config", "none", "--gpsd", "none", "--baro", "none",
                   "--socket", self.socket_path, "--traffic-port", str(self.traffic_port),
                   "--airfields", os.path.join(self.repo, "Data", "airfields.sqlite"), "--flight-log", "off",
                   "--audio-device", "none", "--flarm-port", "0", "--gdl90-discovery-port", "0",
                   "--uat", f"127.0.0.1:{self.uat_port.port}"]
        env = dict(os.environ)
        # As the unit runs it (CacheDirectory=): the airfield index is mapped from a file there, not held on the heap.
        env["CACHE_DIRECTORY"] = os.path.join(self.work, "cache")
        os.makedirs(env["CACHE_DIRECTORY"], exist_ok=True)
        for item in self.args.env:
            key, _, value = item.partition("=")
            env[key] = value
        self.daemon = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.work, "daemon.log"), "w"),
                                       env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if os.path.exists(self.socket_path):
                try:
                    self.status()
                    return
                except OSError:
                    pass
            if self.daemon.poll() is not None:
                raise SystemExit(f"cockpitd exited at start ({self.daemon.returncode}); see {self.work}/daemon.log")
            time.sleep(0.1)
        raise SystemExit("cockpitd did not answer within 30 s")

    def request(self, line, timeout=5.0):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(self.socket_path)
            s.sendall(line + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(1 << 20)
                if not chunk:
                    break
                data += chunk
        return json.loads(data)

    def status(self):
        started = time.monotonic()
        answer = self.request(b'{"v":1,"request":"status"}')
        elapsed = time.monotonic() - started
        self.status_times.append(elapsed)
        return answer["status"], elapsed

    def alive(self, surface):
        """Between batches: the daemon runs and answers `status` within the bound."""
        if self.daemon.poll() is not None:
            self.finding(surface, f"cockpitd exited with {self.daemon.returncode}")
            raise SystemExit(self.report())
        try:
            status, elapsed = self.status()
        except (OSError, ValueError) as error:
            self.finding(surface, f"status failed: {error}")
            return None
        if elapsed > STATUS_BOUND_SECONDS:
            self.finding(surface, f"status took {elapsed:.2f} s (bound {STATUS_BOUND_SECONDS} s)")
        return status

    def memory(self):
        return proc.memory(self.daemon.pid)

    def finding(self, surface, text, data=None, suffix=".bin"):
        entry = {"surface": surface, "what": text}
        if data is not None:
            path = os.path.join(self.keep, f"{surface}-{len(self.findings)}{suffix}")
            with open(path, "wb") as f:
                f.write(data)
            entry["input"] = path
        self.findings.append(entry)
        print(f"FINDING [{surface}] {text}" + (f" ({entry['input']})" if "input" in entry else ""), flush=True)

    # -- control socket and METAR ------------------------------------------------------------------------------------

    def control_counters(self):
        status, _ = self.status()
        return status["daemon"]["control"]

    def converse(self, lines, read):
        """One connection: send the lines, read one answer per line. Returns (ok, errors) answers read."""
        ok = errors = 0
        self.last_end = "answered"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(30)
            s.connect(self.socket_path)
            s.sendall(b"".join(line + b"\n" for line in lines))
            if not read:
                return 0, 0
            data = b""
            while data.count(b"\n") < len(lines):
                try:
                    chunk = s.recv(1 << 20)
                except (ConnectionResetError, socket.timeout) as error:
                    self.last_end = type(error).__name__
                    break
                if not chunk:
                    self.last_end = "closed by the daemon"
                    break
                data += chunk
        for answer in data.split(b"\n")[:-1]:
            if json.loads(answer).get("ok"):
                ok += 1
            else:
                errors += 1
        return ok, errors

    def control(self, surface, total, make_line):
        rng = random.Random(f"{self.args.seed}-{surface}")
        before = self.control_counters()
        memory = [dict(requests=0, **self.memory())]
        sent = ok = errors = oversized = abandoned_lines = abandoned = cut = cut_lines = 0
        cut_ends = {}
        batch = max(1, total // 20)
        next_check = batch
        while sent < total:
            if rng.random() < 0.002:
                # One line over the limit: answered with request-too-large, then the connection closes.
                o, e = self.converse([b"x" * (4_097 + rng.randrange(60_000))], read=True)
                oversized += 1
                errors += e
                continue
            count = min(total - sent, rng.choice((1, 1, 2, 3, 8, 32, 64)))
            lines = [make_line(rng) for _ in range(count)]
            if rng.random() < 0.01:
                self.converse(lines, read=False)   # sends and hangs up without reading
                abandoned += 1
                abandoned_lines += count
            else:
                o, e = self.converse(lines, read=True)
                ok += o
                errors += e
                if o + e != count:
                    # Pipelined requests with big answers and nobody reading yet: the daemon drops the client once
                    # its unsent answers pass 256 KiB (docs/control-protocol.md); checked against its counter below.
                    cut += 1
                    cut_lines += count - o - e
                    cut_ends[self.last_end] = cut_ends.get(self.last_end, 0) + 1
                    with open(os.path.join(self.keep, f"{surface}-cut-{cut}.txt"), "wb") as f:
                        f.write(b"".join(line + b"\n" for line in lines))
            sent += count
            if sent >= next_check:
                next_check += batch
                self.alive(surface)
                memory.append(dict(requests=sent, **self.memory()))
        time.sleep(0.5)
        after = self.control_counters()
        delta = {k: after.get(k, 0) - before.get(k, 0)
                 for k in ("requests", "errorAnswers", "oversizedRequests", "badRequests", "stuckClientsDisconnected",
                           "idleClientsDisconnected")}
        # Status requests of the checks themselves are counted too (one per alive() and control_counters()).
        checks = len(memory)
        answered_lines = ok + errors - oversized
        accounted = delta["requests"] - checks
        if not (answered_lines <= accounted <= answered_lines + abandoned_lines + cut_lines):
            self.finding(surface, f"daemon counted {accounted} requests, client had {answered_lines} answered, "
                                  f"{abandoned_lines} abandoned and {cut_lines} cut off")
        # A slow client (the campaign itself, descheduled on a loaded machine) is cut off by design: a request line
        # begun must end within 5 s, and answers nobody reads must stay under 256 KiB. The daemon counts both.
        if cut > delta["stuckClientsDisconnected"] + delta["idleClientsDisconnected"]:
            self.finding(surface, f"{cut} connections cut off early, daemon counted {delta['stuckClientsDisconnected']} "
                                  f"stuck and {delta['idleClientsDisconnected']} idle clients")
        if delta["oversizedRequests"] != oversized:
            self.finding(surface, f"oversized: daemon {delta['oversizedRequests']}, sent {oversized}")
        self.results[surface] = dict(lines=sent, oversized=oversized, answeredOk=ok, answeredError=errors,
                                     abandonedConnections=abandoned, abandonedLines=abandoned_lines,
                                     cutConnections=cut, cutLines=cut_lines, cutEnds=cut_ends,
                                     daemonDelta=delta, statusChecks=checks, memory=memory)

    # -- traffic port -------------------------------------------------------------------------------------------------

    def traffic(self, total):
        rng = random.Random(f"{self.args.seed}-traffic")
        status, _ = self.status()
        before = status["traffic"]
        drops_before = proc.kernel_drops(self.traffic_port)
        kinds = {}
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for index in range(total):
                kind, datagram = inputs.traffic_datagram(rng)
                kinds[kind] = kinds.get(kind, 0) + 1
                s.sendto(datagram, ("127.0.0.1", self.traffic_port))
                if index % 20 == 19:
                    time.sleep(0.002)
                if index % max(1, total // 10) == 0:
                    self.alive("traffic")
        time.sleep(1.0)
        status, _ = self.status()
        after = status["traffic"]
        drops = proc.kernel_drops(self.traffic_port) - drops_before
        rejected = {k: after["rejected"].get(k, 0) - before["rejected"].get(k, 0) for k in after["rejected"]}
        if "accepted" in after:
            received = after["received"] - before["received"]
            accepted = {k: after["accepted"].get(k, 0) - before["accepted"].get(k, 0) for k in after["accepted"]}
        else:
            # A daemon before issue 19's rework: `received` counted aircraft, not datagrams.
            accepted = {"received (aircraft)": after["received"] - before["received"]}
            received = sum(accepted.values()) + sum(rejected.values())
        if received + drops != total:
            self.finding("traffic", f"sent {total}, daemon received {received}, kernel dropped {drops}")
        if sum(accepted.values()) + sum(rejected.values()) != received:
            self.finding("traffic", f"received {received} ≠ accepted {accepted} + rejected {rejected}")
        self.results["traffic"] = dict(sent=total, kinds=kinds, received=received, kernelDrops=drops, accepted=accepted,
                                       rejected=rejected, replyEntries=after.get("replyEntries"), emptyReplies=after.get("emptyReplies"),
                                       targets=len(after["targets"]))

    # -- files: replay, config, database, barometer dumps ---------------------------------------------------------------

    def run_file(self, surface, command, data, suffix, timeout, allowed=(0, 1)):
        try:
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.finding(surface, f"no answer within {timeout} s: {' '.join(command[1:3])}", data, suffix)
            return None
        if done.returncode not in allowed:
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
            self.finding(surface, f"exit {done.returncode}: {tail[0][:200]}", data, suffix)
            return None
        if done.returncode != 0 and not done.stderr.strip():
            self.finding(surface, f"exit {done.returncode} without a message", data, suffix)
        return done

    def files(self, surface, total, make, command_for, suffix, timeout, check=None, allowed=(0, 1)):
        rng = random.Random(f"{self.args.seed}-{surface}")
        outcomes = {}
        path = os.path.join(self.work, f"input{suffix}")
        for index in range(total):
            data = make(rng)
            if isinstance(data, str):
                data = data.encode()
            with open(path, "wb") as f:
                f.write(data)
            done = self.run_file(surface, command_for(path), data, suffix, timeout, allowed)
            key = "finding" if done is None else f"exit {done.returncode}"
            if done is not None and check is not None:
                problem = check(done, data)
                if problem:
                    self.finding(surface, problem, data, suffix)
                    key = "finding"
            outcomes[key] = outcomes.get(key, 0) + 1
            if index % max(1, total // 5) == 0:
                self.alive(surface)
        self.results[surface] = dict(inputs=total, outcomes=outcomes)

    def baro(self, total):
        """`cockpitd baro decode CALIBRATION DATA --json`: a reading or a clear refusal (64: bad register bytes)."""
        rng = random.Random(f"{self.args.seed}-baro")
        outcomes = {}
        for _ in range(total):
            calibration, data = inputs.baro_dump(rng)
            done = self.run_file("baro", [self.binary, "baro", "decode", calibration, data, "--json"],
                                 f"{calibration} {data}".encode(), ".txt", 20, allowed=(0, 1, 64))
            key = "finding" if done is None else f"exit {done.returncode}"
            outcomes[key] = outcomes.get(key, 0) + 1
        self.results["baro"] = dict(inputs=total, outcomes=outcomes)

    def replay_check(self, done, data):
        if done.returncode != 0:
            return None
        try:
            summary = json.loads(done.stdout)
        except ValueError:
            return "exit 0 without a JSON summary"
        if summary.get("format") == "recording":
            lines = [l for l in data.split(b"\n")[1:] if l.strip()]
            counted = summary.get("events", 0) + summary.get("skippedLines", 0)
            if counted != len(lines):
                return f"{len(lines)} event lines, summary accounts for {counted}"
        return None

    def report(self, final=True):
        result = dict(seed=self.args.seed, scale=self.args.scale, binary=self.binary, surfaces=self.results,
                      statusSeconds=dict(checks=len(self.status_times), max=round(max(self.status_times or [0]), 3)),
                      findings=self.findings, load=os.getloadavg())
        text = json.dumps(result, indent=1)
        if self.args.out:
            with open(self.args.out, "w") as f:
                f.write(text + "\n")
        if final:
            print(text)
        return 1 if self.findings else 0

    def run(self, surface, work):
        """One surface, then the results so far to --out (a long campaign cut short keeps its numbers)."""
        started = time.monotonic()
        work()
        if surface in self.results:
            self.results[surface]["seconds"] = round(time.monotonic() - started, 1)
        self.report(final=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/cockpitd")
    parser.add_argument("--scale", choices=sorted(SCALES), default="short")
    parser.add_argument("--seed", default="19")
    parser.add_argument("--surfaces", default="control,traffic,metar,replay,config,database,baro,uat")
    parser.add_argument("--count", action="append", default=[], help="SURFACE=N overrides the scale's count")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the daemon's environment")
    parser.add_argument("--out", help="write the JSON result here")
    parser.add_argument("--keep", help="directory for inputs that found something")
    args = parser.parse_args()
    counts = dict(SCALES[args.scale])
    for item in args.count:
        key, _, value = item.partition("=")
        counts[key] = int(value)
    campaign = Campaign(args)
    surfaces = args.surfaces.split(",")
    binary = campaign.binary
    fixtures = os.path.join(campaign.repo, "Tests", "Fixtures", "flights")
    try:
        campaign.start_daemon()
        started = campaign.memory()
        campaign.results["memoryAtStart"] = started
        if "control" in surfaces:
            campaign.run("control", lambda: campaign.control("control", counts["control"], inputs.control_line))
        if "metar" in surfaces:
            campaign.run("metar", lambda: campaign.control("metar", counts["metar"], inputs.metar_line))
        if "traffic" in surfaces:
            campaign.run("traffic", lambda: campaign.traffic(counts["traffic"]))
        if "replay" in surfaces:
            seeds = inputs.replay_seeds(fixtures)
            campaign.run("replay", lambda: campaign.files("replay", counts["replay"], lambda rng: inputs.mutate_replay(rng, seeds),
                           lambda p: [binary, "replay", p, "--speed", "max", "--airfields", "none", "--json"],
                           ".replay", 60, check=campaign.replay_check))
        if "config" in surfaces:
            base = open(os.path.join(campaign.repo, "Systemd", "cockpitd.conf"), "rb").read()
            campaign.run("config", lambda: campaign.files("config", counts["config"], lambda rng: inputs.mutate_config(rng, base),
                           lambda p: [binary, "run", "--config", p, "--check-config"], ".conf", 30))
        if "database" in surfaces:
            pristine = open(os.path.join(campaign.repo, "Data", "airfields.sqlite"), "rb").read()
            flight = os.path.join(fixtures, "igc-parser__20211015.igc")
            campaign.run("database", lambda: campaign.files("database", counts["database"], lambda rng: inputs.corrupt_database(rng, pristine),
                           lambda p: [binary, "replay", flight, "--speed", "max", "--airfields", p], ".sqlite", 120))
        if "baro" in surfaces:
            campaign.run("baro", lambda: campaign.baro(counts["baro"]))
        if "uat" in surfaces:
            campaign.run("uat", lambda: campaign.results.update(uat=uat.campaign(
                campaign, campaign.uat_port, counts["uat"], campaign.repo, random.Random(f"{args.seed}-uat"))))
        campaign.alive("end")
        campaign.results["memoryAtEnd"] = campaign.memory()
    finally:
        if campaign.daemon and campaign.daemon.poll() is None:
            campaign.daemon.terminate()
            try:
                code = campaign.daemon.wait(10)
                if code != 0:
                    campaign.finding("daemon", f"exit {code} on SIGTERM")
            except subprocess.TimeoutExpired:
                campaign.finding("daemon", "did not stop within 10 s of SIGTERM")
                campaign.daemon.kill()
    code = campaign.report()
    if not args.keep and not campaign.findings:
        shutil.rmtree(campaign.work, ignore_errors=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
