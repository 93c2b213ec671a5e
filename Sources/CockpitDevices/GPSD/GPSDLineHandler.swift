import CockpitCore
import Glibc
import NIOCore
import NIOPosix
import CockpitIO
import CockpitWire

/// One connection to gpsd, read on the daemon's event loop: the socket libgps opened (after `?WATCH`) is handed to
/// NIO, and every report line is delivered on the loop as it is framed — no thread hand-off, no wake-up of a second
/// thread, one `read` per segment gpsd writes. Why not `gps_read`: see `GPSDSource`.
final class GPSDLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var framer = LineFramer(maximumLineBytes: GPSDReportDecoder.maximumLineBytes)
    private let deliver: @Sendable (TimedInput) -> Void
    private let isStopped: @Sendable () -> Bool
    private var failure: String?

    init(deliver: @escaping @Sendable (TimedInput) -> Void, isStopped: @escaping @Sendable () -> Bool) {
        self.deliver = deliver
        self.isStopped = isStopped
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let arrived = MonotonicClock.now()   // one clock reading per segment read: every line in it arrived then
        let buffer = unwrapInboundIn(data)
        let deliver = self.deliver
        buffer.withUnsafeReadableBytes { bytes in
            framer.append(bytes) { line in deliver(TimedInput(time: arrived, input: .gpsdLine(line))) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if failure == nil { failure = "read failed: \(error)" }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !isStopped() {
            deliver(TimedInput(time: MonotonicClock.now(), input: .gpsSource(.disconnected(reason: failure ?? "gpsd closed the connection"))))
        }
        context.fireChannelInactive()
    }
}

