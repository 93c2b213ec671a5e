#!/usr/bin/env python3
"""Synthetic Mode S extended squitter traffic for tests and benchmarks, as dump1090's AVR text lines.

Each aircraft sends DF17 frames (ICAO Annex 10 Vol IV, 3.1.2.8.6; the public reference is "The 1090 MHz Riddle"):
  - identification (type code 4): its call sign, at the start and then every `--ident-every-s` seconds;
  - airborne position (type code 11): barometric altitude in 25 ft steps, CPR even and odd frames alternating so a
    decoder can find the position globally from the first pair;
  - airborne velocity (type code 19, subtype 1): east/north ground speed in knots, barometric vertical rate.
Positions come `--rate-hz` times a second per aircraft, each followed by a velocity frame.

The output is one `*<28 hex digits>;` line per frame: what dump1090 accepts on its raw input port and writes on its raw
output port. Without `--realtime` every frame is written at once (the aircraft still move `1 / rate` seconds between
positions); with it, frames leave when the wall clock reaches their time (streaming into a live dump1090).
`--truth FILE` writes each aircraft's state at its last position frame as JSON (address, call sign, latitude,
longitude, altitude, speed, track, vertical rate), the answer a decoder's output is checked against.

Python 3 standard library only.
"""
import argparse
import heapq
import json
import math
import random
import socket
import sys
import time

# The Mode S parity generator: x^24 + x^23 + ... (0x1FFF409, written 0xFFF409 without its leading x^24 term).
CRC_GENERATOR = 0x1FFF409
# Call sign characters: the 6-bit code of each (A-Z are 1-26, space 32, digits 48-57).
CALLSIGN_ALPHABET = "#ABCDEFGHIJKLMNOPQRSTUVWXYZ##### ###############0123456789######"
CPR_LATITUDE_ZONES = 15   # NZ, the number of latitude zones between the equator and a pole
CPR_BITS = 17             # airborne CPR: 17 bits of latitude and of longitude
NAUTICAL_MILE_DEGREES = 1.0 / 60.0


def parity(data_88_bits):
    """The 24-bit parity of the first 88 bits of a 112-bit frame: the remainder of data * x^24 by the generator."""
    remainder = data_88_bits << 24
    for bit in range(111, 23, -1):
        if remainder & (1 << bit):
            remainder ^= CRC_GENERATOR << (bit - 24)
    return remainder


def frame(address, message_56_bits):
    """A DF17 frame (capability 5: airborne) around a 56-bit ME field, with its parity, as an AVR line."""
    data = (17 << 83) | (5 << 80) | (address << 56) | message_56_bits
    return "*%028X;" % ((data << 24) | parity(data))


def identification(callsign, category=3):
    """Type code 4 (emitter category set A; 3 = medium aircraft), eight 6-bit characters, padded with spaces."""
    message = (4 << 51) | (category << 48)
    for index, character in enumerate(callsign.upper().ljust(8)[:8]):
        message |= CALLSIGN_ALPHABET.index(character) << (42 - 6 * index)
    return message


def altitude_field(altitude_ft):
    """The 12-bit altitude with the Q bit set: 25 ft steps from -1000 ft, the Q bit eighth from the left."""
    steps = max(0, min(2047, int(round((altitude_ft + 1000) / 25.0))))
    return ((steps >> 4) << 5) | (1 << 4) | (steps & 0xF)


def longitude_zones(latitude_deg):
    """NL: the number of longitude zones at a latitude (the closed form of the specification)."""
    if latitude_deg == 0:
        return 59
    if abs(latitude_deg) == 87:
        return 2
    if abs(latitude_deg) > 87:
        return 1
    a = 1 - math.cos(math.pi / (2 * CPR_LATITUDE_ZONES))
    b = math.cos(math.pi / 180 * abs(latitude_deg)) ** 2
    return int(math.floor(2 * math.pi / math.acos(1 - a / b)))


def positive_mod(x, y):
    return x - y * math.floor(x / y)


def cpr_encode(latitude_deg, longitude_deg, odd):
    """Airborne CPR: the 17-bit latitude and longitude of a position in the even (odd = 0) or odd (odd = 1) grid."""
    scale = 1 << CPR_BITS
    latitude_zone_deg = 360.0 / (4 * CPR_LATITUDE_ZONES - odd)
    yz = int(math.floor(scale * positive_mod(latitude_deg, latitude_zone_deg) / latitude_zone_deg + 0.5))
    # The longitude zones are counted at the latitude the receiver will decode, not at the exact one.
    decoded_latitude_deg = latitude_zone_deg * (yz / scale + math.floor(latitude_deg / latitude_zone_deg))
    zones = longitude_zones(decoded_latitude_deg) - odd
    longitude_zone_deg = 360.0 / zones if zones > 0 else 360.0
    xz = int(math.floor(scale * positive_mod(longitude_deg, longitude_zone_deg) / longitude_zone_deg + 0.5))
    return yz % scale, xz % scale


def airborne_position(latitude_deg, longitude_deg, altitude_ft, odd):
    """Type code 11 (barometric altitude, horizontal containment < 0.1 nm): surveillance status 0, single antenna 0."""
    yz, xz = cpr_encode(latitude_deg, longitude_deg, odd)
    return (11 << 51) | (altitude_field(altitude_ft) << 36) | (odd << 34) | (yz << 17) | xz


def airborne_velocity(east_kt, north_kt, vertical_rate_fpm):
    """Type code 19 subtype 1 (subsonic ground speed): each component in 1 kt steps with a direction bit, the vertical
    rate in 64 ft/min steps from the barometric source; 0 in a field means no information, so values are offset by 1."""
    east = min(1022, int(round(abs(east_kt)))) + 1
    north = min(1022, int(round(abs(north_kt)))) + 1
    vertical = min(510, int(round(abs(vertical_rate_fpm) / 64.0))) + 1
    return ((19 << 51) | (1 << 48) | ((1 if east_kt < 0 else 0) << 42) | (east << 32) | ((1 if north_kt < 0 else 0) << 31)
            | (north << 21) | (1 << 20) | ((1 if vertical_rate_fpm < 0 else 0) << 19) | (vertical << 10))


class Aircraft:
    """One synthetic aircraft, flying straight at a constant speed and vertical rate from a random start."""

    def __init__(self, index, seed, centre, radius_nm):
        # Each aircraft draws from its own generator: aircraft i is the same whatever the number of aircraft.
        draw = random.Random("%d-%d" % (seed, index))
        self.address = 0x300000 + (index * 0x9E3 + seed * 0x11) % 0x0FFFFF + 1
        self.callsign = "SYN%04d" % index
        distance_nm = radius_nm * math.sqrt(draw.random())
        bearing_rad = draw.uniform(0, 2 * math.pi)
        self.latitude_deg = centre[0] + distance_nm * math.cos(bearing_rad) * NAUTICAL_MILE_DEGREES
        self.longitude_deg = centre[1] + distance_nm * math.sin(bearing_rad) * NAUTICAL_MILE_DEGREES / math.cos(
            math.radians(centre[0]))
        self.altitude_ft = draw.randrange(1000, 39000, 25)
        self.ground_speed_kt = draw.uniform(80, 450)
        self.track_deg = draw.uniform(0, 360)
        self.vertical_rate_fpm = draw.choice([0, 0, 0, 640, -640, 1280, -1280])
        self.odd = draw.randrange(2)
        self.phase_s = draw.random()
        self.time_s = 0.0

    def fly(self, seconds):
        track = math.radians(self.track_deg)
        north_nm = self.ground_speed_kt * seconds / 3600 * math.cos(track)
        east_nm = self.ground_speed_kt * seconds / 3600 * math.sin(track)
        self.latitude_deg += north_nm * NAUTICAL_MILE_DEGREES
        self.longitude_deg += east_nm * NAUTICAL_MILE_DEGREES / math.cos(math.radians(self.latitude_deg))
        self.altitude_ft = max(0.0, min(45000.0, self.altitude_ft + self.vertical_rate_fpm * seconds / 60))
        self.time_s += seconds

    def velocity_components_kt(self):
        track = math.radians(self.track_deg)
        return self.ground_speed_kt * math.sin(track), self.ground_speed_kt * math.cos(track)

    def truth(self):
        east, north = self.velocity_components_kt()
        return {"address": "%06X" % self.address, "callsign": self.callsign, "latitudeDegrees": self.latitude_deg,
                "longitudeDegrees": self.longitude_deg, "altitudeFeet": self.altitude_ft,
                "groundSpeedKnots": self.ground_speed_kt, "trackTrueDegrees": self.track_deg,
                "eastKnots": east, "northKnots": north, "verticalRateFeetPerMinute": self.vertical_rate_fpm,
                "timeSeconds": self.time_s}


def frames(aircraft, rate_hz, duration_s, ident_every_s):
    """Every frame as (time in s, AVR line), in time order, made as they are asked for (a long stream starts at
    once): per aircraft, at its phase within the first interval and then every 1 / rate s, a position frame and a
    velocity frame; an identification first and then every `ident_every_s`."""
    interval_s = 1.0 / rate_hz
    due = []
    for index, plane in enumerate(aircraft):
        plane.fly(plane.phase_s * interval_s)
        due.append((plane.time_s, index))
    heapq.heapify(due)
    last_ident_s = [None] * len(aircraft)
    while due:
        at_s, index = heapq.heappop(due)
        plane = aircraft[index]
        if last_ident_s[index] is None or at_s - last_ident_s[index] >= ident_every_s:
            yield at_s, frame(plane.address, identification(plane.callsign))
            last_ident_s[index] = at_s
        yield at_s, frame(plane.address, airborne_position(plane.latitude_deg, plane.longitude_deg, plane.altitude_ft, plane.odd))
        east, north = plane.velocity_components_kt()
        yield at_s, frame(plane.address, airborne_velocity(east, north, plane.vertical_rate_fpm))
        plane.odd ^= 1
        # The state at an aircraft's last position frame is its truth: it flies on only when another one follows.
        if at_s + interval_s < duration_s:
            plane.fly(interval_s)
            heapq.heappush(due, (plane.time_s, index))


def open_output(connect):
    if connect is None:
        return sys.stdout.write, sys.stdout.flush
    host, port = connect.rsplit(":", 1)
    connection = socket.create_connection((host, int(port)))
    return (lambda text: connection.sendall(text.encode("ascii"))), (lambda: None)


def main():
    parser = argparse.ArgumentParser(description="Mode S DF17 frames (AVR text) for synthetic aircraft.")
    parser.add_argument("--aircraft", type=int, default=20, help="number of aircraft (default 20)")
    parser.add_argument("--rate-hz", type=float, default=2.0, help="position frames per aircraft per second (default 2)")
    parser.add_argument("--duration-s", type=float, default=10.0, help="seconds of traffic (default 10)")
    parser.add_argument("--centre", default="47.0,8.0", help="centre LAT,LON in degrees (default 47.0,8.0)")
    parser.add_argument("--radius-nm", type=float, default=50.0, help="aircraft start within this radius (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--ident-every-s", type=float, default=5.0, help="identification repeat interval (default 5)")
    parser.add_argument("--realtime", action="store_true", help="write each frame when the wall clock reaches its time")
    parser.add_argument("--connect", metavar="HOST:PORT", help="write to this TCP port (dump1090's raw input) instead of stdout")
    parser.add_argument("--truth", metavar="FILE", help="write every aircraft's state at its last position frame here (JSON)")
    options = parser.parse_args()
    centre = tuple(float(part) for part in options.centre.split(","))
    aircraft = [Aircraft(index, options.seed, centre, options.radius_nm) for index in range(options.aircraft)]
    write, flush = open_output(options.connect)
    stream = frames(aircraft, options.rate_hz, options.duration_s, options.ident_every_s)
    if options.realtime:
        started = time.monotonic()
        pending = next(stream, None)
        while pending is not None:
            wait_s = started + pending[0] - time.monotonic()
            if wait_s > 0:
                time.sleep(wait_s)
            now_s = time.monotonic() - started
            batch = []
            while pending is not None and pending[0] <= now_s:
                batch.append(pending[1] + "\n")
                pending = next(stream, None)
            write("".join(batch))
            flush()
    else:
        write("".join(line + "\n" for _, line in stream))
        flush()
    if options.truth:
        with open(options.truth, "w") as truth_file:
            json.dump([plane.truth() for plane in aircraft], truth_file, indent=1)


if __name__ == "__main__":
    main()
