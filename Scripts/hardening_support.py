"""What Scripts/hardening-check.py and its check modules share: a free loopback port, the status request and a
paced replay with the FLARM and GDL 90 discovery ports open. Python 3 standard library only."""
import json, os, socket, subprocess, time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLIGHT = os.path.join(REPO, "Tests", "Fixtures", "flights", "opensoar__missing_lcu_lseeyou_lines.igc")


def free_port(kind=socket.SOCK_STREAM):
    probe = socket.socket(socket.AF_INET, kind)
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def status(path, timeout=15.0):
    """(seconds to answer, status object or None)."""
    started = time.monotonic()
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.settimeout(timeout)
        client.connect(path)
        client.sendall(b"status\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = client.recv(65536)
            if not chunk:
                break
            data += chunk
        client.close()
        answer = json.loads(data)
        return time.monotonic() - started, answer.get("status")
    except (OSError, ValueError):
        return time.monotonic() - started, None


class Daemon:
    """A paced replay (1x: one core tick a wall second) with the FLARM and GDL 90 discovery ports open."""

    def __init__(self, binary, work, extra=()):
        self.socket = os.path.join(work, "cockpitd.sock")
        self.flarm_port = free_port()
        self.discovery_port = free_port(socket.SOCK_DGRAM)
        self.process = subprocess.Popen([binary, "replay", FLIGHT, "--speed", "1", "--socket", self.socket,
                                         "--flarm-port", str(self.flarm_port), "--gdl90-discovery-port", str(self.discovery_port),
                                         "--log-level", "error"] + list(extra),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and status(self.socket, 1)[1] is None:
            time.sleep(0.1)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
