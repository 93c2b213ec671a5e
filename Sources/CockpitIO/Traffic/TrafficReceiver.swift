public import NIOCore
import NIOPosix
import CockpitCore

/// Listens for traffic datagrams on a UDP port and hands each one, raw, to `deliver` (on the event loop). Datagrams
/// larger than a relay reply are dropped unread by the kernel's truncation and counted by the decoder.
public final class TrafficReceiver: @unchecked Sendable {
    public let port: Int
    private var channel: (any Channel)?

    public init(port: Int) { self.port = port }

    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        let deliver: @Sendable ([UInt8], String) -> Void
        init(deliver: @escaping @Sendable ([UInt8], String) -> Void) { self.deliver = deliver }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var envelope = unwrapInboundIn(data)
            let bytes = envelope.data.readBytes(length: envelope.data.readableBytes) ?? []
            let from = envelope.remoteAddress.ipAddress.map { "\($0):\(envelope.remoteAddress.port ?? 0)" } ?? "?"
            deliver(bytes, from)
        }
    }

    public func start(loop: any EventLoop, deliver: @escaping @Sendable ([UInt8], String) -> Void) throws {
        let bootstrap = DatagramBootstrap(group: loop)
            .channelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .channelOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 2048))
            .channelInitializer { channel in
                do {
                    try channel.pipeline.syncOperations.addHandler(Handler(deliver: deliver))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch { return channel.eventLoop.makeFailedFuture(error) }
            }
        // Bound through TrafficPortSocket so that the sender can send from the same port (NAT).
        let descriptor = try TrafficPortSocket.bind(port: port).get()
        do {
            channel = try bootstrap.withBoundSocket(descriptor).wait()
        } catch {
            TrafficPortSocket.unbind(port: port)
            throw error
        }
    }

    public func stop() {
        try? channel?.close().wait()
        if channel != nil { TrafficPortSocket.unbind(port: port) }
    }
}
