"""Seeded input generators for Scripts/blackbox.py: every function takes a random.Random and returns bytes or text,
so a campaign is reproducible from its seed. Seeds are the spec's worked examples (docs/traffic-packet.md), the
bundled recorded flights, the shipped configuration file and the bundled airfield database."""
import json, os

# docs/traffic-packet.md, worked examples 1–6 (computed by an independent encoder).
TRAFFIC_EXAMPLES = [bytes.fromhex(h) for h in (
    "c101a0a1b2c300016b02bd2000fac37ef3861420016303b6c0000800",
    "c101b0a1b2c300026b02bd2100fac37ef3861420016303b6c0000800c4c17a11a2a42c8c",
    "c102205e5e5e00006b02bd250000683fb70012348000ffffffff8000",
    "c101e000beefffff6b02bd2000fa4fb899eb80f9fffb0000ffffff024fa4faeb60b6ffffff000000",
    "c181205e5e5e00006b02bd26000002123456a06b02bd2401f46843230016640271044c200000654321a06b02bd250000681b4ffff6e600c80320d555fb",
    "c28100a1b2c300016b02bd2001f4c37ef386142002123456800401cfff0601f43240026543210102ff9c00038000ff0080",
)]
EXTREMES = [b"\x00", b"\xff", b"\x80", b"\x7f", b"\xc1", b"\xc2", b"\x81"]


def flip(rng, data, flips):
    data = bytearray(data)
    for _ in range(flips):
        if data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def noise(rng, length):
    return bytes(rng.getrandbits(8) for _ in range(length))


def traffic_datagram(rng):
    """(kind, datagram): verbatim examples (so replays), bit flips, truncations, extensions, over-long and garbage."""
    example = rng.choice(TRAFFIC_EXAMPLES)
    roll = rng.random()
    if roll < 0.15:
        return "verbatim", example
    if roll < 0.45:
        return "flipped", flip(rng, example, rng.randint(1, 4))
    if roll < 0.55:
        return "truncated", example[:rng.randrange(1, len(example))]
    if roll < 0.65:
        return "extended", example + noise(rng, rng.randint(1, 40))
    if roll < 0.75:
        # A field set to an extreme code: time, speed, counts.
        data = bytearray(example)
        at = rng.randrange(len(data))
        data[at:at + 1] = rng.choice(EXTREMES)
        return "extreme-byte", bytes(data)
    if roll < 0.82:
        return "too-long", example + noise(rng, 473 - len(example) + rng.randrange(1_500))
    if roll < 0.90:
        return "header-garbage", bytes([0xC1, rng.choice((0x01, 0x02, 0x81))]) + noise(rng, rng.randint(1, 480))
    return "garbage", noise(rng, rng.randint(1, 600))


CONTROL_SEEDS = [
    {"v": 1, "request": "status", "id": 1},
    {"v": 1, "request": "version", "id": 2},
    {"v": 1, "request": "nearest", "count": 5, "radiusNauticalMiles": 30, "at": {"latitudeDegrees": 47.45, "longitudeDegrees": 8.55}},
    {"v": 1, "request": "nearest", "minimumRunwayFeet": 3000, "hardSurface": True, "all": True},
    {"v": 1, "request": "airfield", "ident": "LSZH"},
    {"v": 1, "request": "airfield", "ident": "KSFO", "id": "x"},
    {"v": 1, "request": "hypoxia.ack"},
    {"v": 1, "request": "alerts.ack"},
    {"v": 1, "request": "alerts.test"},
]
ODD_VALUES = [None, True, -1, 0, 1e308, -1e308, 9.3e18, 2**63, "", "x" * 300, [], {}, [[[[[]]]]], "\u0000", "\ud7ff", 1.5]


def control_line(rng):
    """One request line (no newline inside; never a `watch`, which streams)."""
    seed = dict(rng.choice(CONTROL_SEEDS))
    roll = rng.random()
    if roll < 0.25:
        line = json.dumps(seed).encode()
    elif roll < 0.5:
        key = rng.choice(list(seed) + ["at", "count", "id", "v", "request", "ident", "metar"])
        seed[key] = rng.choice(ODD_VALUES)
        line = json.dumps(seed).encode()
    elif roll < 0.75:
        line = flip(rng, json.dumps(seed).encode(), rng.randint(1, 6))
    elif roll < 0.85:
        line = b"[" * rng.randint(1, 3_000) + b"]" * rng.randint(0, 10)
    elif roll < 0.9:
        line = rng.choice([b"status", b"version", b"nearest", b"airfield LSZH", b"hypoxia.ack", b"STATUS"])
    else:
        line = noise(rng, rng.randint(1, 2_000))
    line = line.replace(b"\n", b" ")[:4_096]
    if b"watch" in line.lower() or not line.strip(b" \r\t"):
        return b'{"v":1,"request":"status"}'
    return line


METARS = [
    "LSZH 221020Z 24012G25KT 9999 FEW030 08/03 Q1012",
    "LSZH 221050Z VRB03KT CAVOK 10/02 Q1015",
    "LSZH 221120Z 22015G30KT 180V260 9999 SCT040 12/04 Q1010",
    "LSZH 221150Z 00000KT 0800 FG VV001 02/02 Q1025",
    "METAR LSZH 221220Z AUTO 27008KT 240V300 9999 NCD 14/05 Q1009 NOSIG",
    "EGLL 221020Z 24012KT 9999 FEW030 08/03 Q1012",
    "LSZH 221020Z 24012MPS 9999 FEW030 08/03 Q1012",
    "LSZH 221020Z 240P99KT 9999 FEW030 08/03 Q1012",
]


def metar_line(rng):
    """An `airfield` request carrying a mutated METAR (the text is what is fuzzed, the envelope stays valid)."""
    text = rng.choice(METARS)
    roll = rng.random()
    if roll < 0.3:
        text = "".join(c if not c.isdigit() or rng.random() > 0.15 else str(rng.randrange(10)) for c in text)
    elif roll < 0.5:
        tokens = text.split()
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(
            ["99999G999KT", "360100G050KT", "VRB99KT", "000V360", "/////KT", "24012G", "G25KT", "-RA", "1e308KT", "24012KTKT"]))
        text = " ".join(tokens)
    elif roll < 0.6:
        tokens = text.split()
        rng.shuffle(tokens)
        text = " ".join(tokens)
    elif roll < 0.7:
        text = text[:rng.randrange(len(text) + 1)]
    elif roll < 0.8:
        text = noise(rng, rng.randint(0, 300)).decode("latin-1")
    elif roll < 0.9:
        text = (text + " ") * rng.randint(2, 40)
    ident = rng.choice(["LSZH", "LSZH", "EGLL", "KSFO", "ZZZZ", "", "LSZH" * 5])
    return json.dumps({"v": 1, "request": "airfield", "ident": ident, "metar": text}).encode()[:4_096]


def replay_seeds(fixtures):
    """Small recordings of each format: a cockpitd recording (gpsd, baro, datagram, command lines), a gpspipe log and
    an IGC file (their first lines)."""
    def head(name, count):
        with open(os.path.join(fixtures, name), "rb") as f:
            return b"".join(f.readline() for _ in range(count))
    header = {"format": "cockpitd-recording", "formatVersion": 1, "software": "cockpitd blackbox", "timeUnit": "monotonic nanoseconds",
              "devices": {"gps": {"source": "gpsd", "endpoint": "localhost:2947"},
                          "baro": {"source": "bmp280", "calibrationHex": BARO_CALIBRATION}},
              "core": {"gpsStaleAfterSeconds": 3, "baroStaleAfterSeconds": 2, "tickIntervalSeconds": 1}}
    lines = [json.dumps(header)]
    for second in range(40):
        t = 1_000_000_000 * (second + 1)
        tpv = {"class": "TPV", "mode": 3, "time": "2026-11-22T10:00:%02d.000Z" % second, "lat": 47.45 + second * 1e-4,
               "lon": 8.55, "altMSL": 1200 + second * 5, "altHAE": 1250 + second * 5, "speed": 40 + second, "track": 90, "climb": 2}
        lines.append(json.dumps({"t": t, "k": "gpsd", "line": json.dumps(tpv)}))
        lines.append(json.dumps({"t": t + 50_000_000, "k": "baro.adc", "adcT": 519888, "adcP": 415148 - second * 100}))
        if second % 5 == 0:
            lines.append(json.dumps({"t": t + 60_000_000, "k": "datagram", "from": "127.0.0.1:4060",
                                     "hex": TRAFFIC_EXAMPLES[second // 5 % len(TRAFFIC_EXAMPLES)].hex()}))
        if second == 20:
            lines.append(json.dumps({"t": t + 70_000_000, "k": "command", "command": "hypoxia.ack"}))
    recording = ("\n".join(lines) + "\n").encode()
    return [recording, head("gpsd-3.22__bundg_zeus_9.gpspipe.jsonl", 200), head("igc-parser__20211015.igc", 400)]


REPLAY_NUMBERS = [b"1e10", b"-1e20", b"9.3e18", b"9223372036854775807", b"-9223372036854775808", b"1e308", b"-0", b"0",
                  b"null", b"NaN", b"\"x\"", b"[]", b"{}", b"3.2e9"]


def mutate_replay(rng, seeds):
    data = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.3:
            data = bytearray(flip(rng, data, rng.randint(1, 8)))
        elif roll < 0.55:
            # A number replaced by an extreme one.
            digits = [i for i in range(len(data)) if 48 <= data[i] <= 57]
            if digits:
                at = rng.choice(digits)
                end = at
                while end < len(data) and (48 <= data[end] <= 57 or data[end] in b".eE-+"):
                    end += 1
                data[at:end] = rng.choice(REPLAY_NUMBERS)
        elif roll < 0.7:
            lines = bytes(data).split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines.insert(i, lines[j])   # a line repeated elsewhere (time going back)
            data = bytearray(b"\n".join(lines))
        elif roll < 0.8:
            lines = bytes(data).split(b"\n")
            del lines[rng.randrange(len(lines))]
            data = bytearray(b"\n".join(lines))
        elif roll < 0.9:
            nl = [i for i in range(len(data)) if data[i] == 10]
            if nl:
                data[rng.choice(nl)] = rng.choice(b"*{ \x00")   # two lines joined by one byte
        else:
            data = data[:rng.randrange(len(data) + 1)]
    return bytes(data)


def mutate_config(rng, base):
    lines = base.split(b"\n")
    keys = [l[2:].split(b" = ")[0] for l in lines if l.startswith(b"# ") and b" = " in l]
    out = []
    for line in lines:
        if line.startswith(b"# ") and b" = " in line and rng.random() < 0.1:
            line = line[2:]   # uncomment: the default, then maybe mutated
            if rng.random() < 0.3:
                key = line.split(b" = ")[0]
                line = key + b" = " + rng.choice([b"", b"yes", b"no", b"-1", b"0", b"1e308", b"99999999999999999999",
                                                  b"none", b"/nonexistent/x", b"\xff\xfe", b"0x76", b"a" * 5000, b"=", b"0.2"])
        out.append(line)
    roll = rng.random()
    if roll < 0.2:
        out.insert(rng.randrange(len(out) + 1), rng.choice(keys) + b" = " + noise(rng, rng.randint(0, 40)).replace(b"\n", b""))
    elif roll < 0.3:
        out.insert(0, b"\xef\xbb\xbf" + out.pop(0))
    elif roll < 0.4:
        out.insert(rng.randrange(len(out) + 1), noise(rng, rng.randint(1, 200)))
    elif roll < 0.5:
        out.append(rng.choice(keys) + b" = " + b"x" * rng.randint(1, 100_000))
    data = b"\n".join(out)
    if rng.random() < 0.15:
        data = flip(rng, data, rng.randint(1, 10))
    return data


def corrupt_database(rng, pristine):
    data = bytearray(pristine)
    page = 4096
    roll = rng.random()
    if roll < 0.25:
        data = data[:rng.randrange(len(data))]            # truncated (a power cut while copying)
    elif roll < 0.5:
        for _ in range(rng.randint(1, 20)):               # pages zeroed (a bad SD card)
            at = rng.randrange(len(data) // page) * page
            data[at:at + page] = bytes(page)
    elif roll < 0.75:
        data = bytearray(flip(rng, data, rng.randint(1, 2_000)))
    else:
        data[0:100] = flip(rng, bytes(data[0:100]), rng.randint(1, 8))   # the header
    return bytes(data)


# BMP280 datasheet (BST-BMP280-DS001, section 8.2) calibration example, little-endian registers 0x88…0x9F:
# dig_T1 27504, T2 26435, T3 −1000, P1 36477, P2 −10685, P3 3024, P4 2855, P5 140, P6 −7, P7 15500, P8 −14600, P9 6000.
def _calibration():
    import struct
    return struct.pack("<HhhHhhhhhhhh", 27504, 26435, -1000, 36477, -10685, 3024, 2855, 140, -7, 15500, -14600, 6000).hex()


BARO_CALIBRATION = _calibration()


def baro_dump(rng):
    """(calibration hex, data hex) as `cockpitd baro decode` takes them: the datasheet calibration or a mutated one, and
    data registers with the datasheet's ADC words, extremes or noise."""
    calibration = bytes.fromhex(BARO_CALIBRATION)
    if rng.random() < 0.4:
        calibration = flip(rng, calibration, rng.randint(1, 6))
    if rng.random() < 0.05:
        calibration = noise(rng, 24)
    adc_p = rng.choice([415148, 1, 0, 0xF0000, 0xFFFFF, 0x80000, rng.randrange(1 << 20)])
    adc_t = rng.choice([519888, 0, 1, 0xFFFFF, 0x80000, rng.randrange(1 << 20)])
    data = bytes([adc_p >> 12, (adc_p >> 4) & 0xFF, (adc_p & 0xF) << 4, adc_t >> 12, (adc_t >> 4) & 0xFF, (adc_t & 0xF) << 4])
    if rng.random() < 0.05:
        data = noise(rng, rng.choice((5, 6, 7)))
    return calibration.hex(), data.hex()
