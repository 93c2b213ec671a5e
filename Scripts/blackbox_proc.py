"""What /proc says about the daemon under test, for Scripts/blackbox.py."""


def memory(pid):
    """The daemon's memory from /proc (kB): RSS, anonymous, split into the main arena ([heap]) and other anonymous
    mappings (thread arenas, stacks), file-backed, and its thread count."""
    values = {}
    try:
        for line in open(f"/proc/{pid}/smaps_rollup"):
            parts = line.split()
            if len(parts) >= 3 and parts[2] == "kB":
                values[parts[0].rstrip(":")] = int(parts[1])
        # Where the anonymous memory is: the main arena ([heap]) or other mappings (thread arenas, stacks).
        name, heap, other = None, 0, 0
        for line in open(f"/proc/{pid}/smaps"):
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5:
                name = parts[5] if len(parts) > 5 else ""
            elif parts[0] == "Anonymous:":
                if name == "[heap]":
                    heap += int(parts[1])
                elif name == "":
                    other += int(parts[1])
        values["HeapAnon"], values["OtherAnon"] = heap, other
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("Threads:"):
                values["Threads"] = int(line.split()[1])
    except OSError:
        pass
    return {k: values.get(k) for k in ("Rss", "Anonymous", "HeapAnon", "OtherAnon", "Pss_File", "Threads")}


def kernel_drops(port):
    """Datagrams the kernel dropped at the UDP socket bound to `port` (the last column of /proc/net/udp)."""
    suffix = ":%04X" % port
    for line in open("/proc/net/udp").read().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(suffix):
            return int(fields[-1])
    return 0
