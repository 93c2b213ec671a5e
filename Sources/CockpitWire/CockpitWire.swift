/// The wire layer: what an input source writes to a recording (its raw records, verbatim as they reached the box) and
/// the pure decoders that turn them into core events. Nothing here opens a socket, reads a clock or keeps a global:
/// live mode, replay, the fuzz targets and the relay server all decode through the same code, so a recorded flight
/// replays exactly as it was flown.
public enum CockpitWire {}
