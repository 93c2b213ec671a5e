"""The checks of Scripts/hardening-check.py for the EFB discovery table, the control socket's watchers and a flight log
lost under the daemon: each prints one line of numbers, run against a cockpitd binary (loopback only; bounded)."""
import json, os, socket, time

from hardening_support import Daemon, status


def forged_udp(source, destination, port, payload, source_port=40000):
    """One UDP datagram with a forged IPv4 source (a raw socket: needs root or CAP_NET_RAW)."""
    import struct
    udp = struct.pack("!HHHH", source_port, port, 8 + len(payload), 0) + payload
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, socket.IPPROTO_UDP, 0,
                         socket.inet_aton(source), socket.inet_aton(destination))
    raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    raw.sendto(header + udp, (destination, 0))
    raw.close()


def gdl90_destinations(daemon):
    gdl = (status(daemon.socket)[1] or {}).get("outputs", {}).get("gdl90", {})
    return gdl, {d.get("destination"): d.get("sent", 0) for d in gdl.get("destinations", [])}


def gdl90_spoofer(args, work):
    """The pilot's tablet announces every 5 s (ForeFlight's period); from its second announcement on, 64 forged
    apps on the same network announce every second, for 20 s."""
    daemon = Daemon(args.binary, work)
    time.sleep(1)
    tablet = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tablet.bind(("127.0.0.200", 0))
    tablet.settimeout(0.05)
    announce_tablet = json.dumps({"App": "ForeFlight", "GDL90": {"port": tablet.getsockname()[1]}}).encode()
    forged = []
    for host in range(10, 74):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((f"127.0.0.{host}", 0))
        forged.append(s)
    got = got_before = 0
    start = time.monotonic()
    next_tablet, next_forged, attack_start = 0.0, 5.5, 5.5
    while time.monotonic() - start < attack_start + 20:
        now = time.monotonic() - start
        if now >= next_tablet:
            tablet.sendto(announce_tablet, ("127.0.0.1", daemon.discovery_port))
            next_tablet += 5
        if now >= next_forged:
            for s in forged:
                s.sendto(json.dumps({"App": "ForeFlight", "GDL90": {"port": 4000}}).encode(), ("127.0.0.1", daemon.discovery_port))
            next_forged += 1
        try:
            while True:
                tablet.recv(4096)
                if now >= attack_start + 1:
                    got += 1
                else:
                    got_before += 1
        except (socket.timeout, BlockingIOError):
            pass
    gdl, _ = gdl90_destinations(daemon)
    discovery = gdl.get("discovery", {})
    daemon.stop()
    print(f"gdl90-spoofer: the tablet (every 5 s) got {got_before} datagrams in the 5 s before the attack; with 64 forged apps "
          f"announcing every second, {got} datagrams in 19 s; discovery: {len(discovery.get('clients', []))} EFBs, "
          f"replaced {discovery.get('replaced')}, rejected {discovery.get('rejected')}")


def gdl90_broadcast(args, work):
    """Announcements from this network's broadcast address (127.255.255.255 on loopback), the limited broadcast
    address and the network address (forged with a raw socket), and one naming the discovery port as its port."""
    daemon = Daemon(args.binary, work)
    time.sleep(2)
    plain = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    plain.bind(("127.0.0.5", 0))
    plain.sendto(json.dumps({"App": "X", "GDL90": {"port": daemon.discovery_port}}).encode(), ("127.0.0.1", daemon.discovery_port))
    forged_sources = ["127.255.255.255", "255.255.255.255", "127.0.0.0"]
    raw = "yes"
    end = time.monotonic() + 8
    while time.monotonic() < end:
        for source in forged_sources:
            try:
                forged_udp(source, "127.0.0.1", daemon.discovery_port, json.dumps({"App": "X", "GDL90": {"port": 4000}}).encode())
            except PermissionError:
                raw = "no (not root: only the discovery-port case was sent)"
        time.sleep(2)
    gdl, sent = gdl90_destinations(daemon)
    discovery = gdl.get("discovery", {})
    daemon.stop()
    counts = ", ".join(f"{source} {sent.get(source + ':4000', 0)}" for source in forged_sources)
    print(f"gdl90-broadcast: datagrams sent in 8 s to {counts}, to the discovery port itself "
          f"{sent.get(f'127.0.0.5:{daemon.discovery_port}', 0)}; raw sources sent: {raw}; "
          f"discovery rejected {discovery.get('rejected')} (last: {discovery.get('lastRejection')})")


def control_watchers(args, work):
    """64 `watch` clients that never read; the pilot's `status` asked once a second for up to 75 s."""
    daemon = Daemon(args.binary, work)
    watchers = []
    for _ in range(64):
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(daemon.socket)
        client.sendall(b'{"v":1,"request":"watch"}\n')
        watchers.append(client)
    started = time.monotonic()
    first, answered, asked = None, 0, 0
    while time.monotonic() - started < 75:
        took, body = status(daemon.socket, 2)
        asked += 1
        if body is not None:
            answered += 1
            if first is None:
                first = time.monotonic() - started
        if first is not None and time.monotonic() - started > first + 10:
            break
        time.sleep(max(0.0, 1.0 - took))
    control = ((status(daemon.socket, 2)[1] or {}).get("daemon") or {}).get("control") or {}
    daemon.stop()
    for client in watchers:
        client.close()
    said = f"{first:.1f} s" if first is not None else "never (75 s)"
    print(f"control-watchers: 64 watchers that never read: the pilot's status first answered after {said}, "
          f"{answered} of {asked} asked; stuckClientsDisconnected {control.get('stuckClientsDisconnected')}, "
          f"refusedTooManyClients {control.get('refusedTooManyClients')}")


def flight_log_truncated(args, work):
    """The flight log truncated to 0 bytes under a replaying daemon, at 10, 14 and 19 s after start."""
    outcomes = []
    for delay in (10, 14, 19):
        log = os.path.join(work, f"truncated-{delay}.sqlite")
        daemon = Daemon(args.binary, work, ["--flight-log", log, "--profile", "glider"])
        time.sleep(delay)
        os.truncate(log, 0)
        time.sleep(5)
        flight_log = (status(daemon.socket)[1] or {}).get("outputs", {}).get("flight-log", {})
        daemon.stop()
        outcomes.append(f"state '{flight_log.get('state')}' failed {flight_log.get('failed')} filesLost {flight_log.get('filesLost')}")
    print(f"flight-log-truncated: truncate -s 0 at 10/14/19 s, status 5 s later: " + "; ".join(outcomes))
