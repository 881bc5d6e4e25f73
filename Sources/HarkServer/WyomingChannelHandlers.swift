import HarkWyoming
import NIOCore

/// Turns the bytes of a connection into Wyoming events with `WyomingFrameDecoder`; a malformed
/// event is thrown as its `WyomingError`, which ends the connection's inbound stream.
struct WyomingEventDecoder: ByteToMessageDecoder {
    typealias InboundOut = WyomingEvent

    private var frames: WyomingFrameDecoder

    init(limits: WyomingLimits) {
        frames = WyomingFrameDecoder(limits: limits)
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let (consumed, event) = try buffer.withUnsafeReadableBytes { bytes throws(WyomingError) in try frames.decode(bytes) }
        buffer.moveReaderIndex(forwardBy: consumed)
        if let event {
            context.fireChannelRead(wrapInboundOut(event))
            return .continue
        }
        return consumed > 0 ? .continue : .needMoreData
    }

    /// What is left when the client closes is an event cut short: there is no one left to tell.
    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}

/// Writes Wyoming events with `WyomingFrameEncoder`.
struct WyomingEventEncoder: MessageToByteEncoder {
    typealias OutboundIn = WyomingEvent

    func encode(data event: WyomingEvent, out: inout ByteBuffer) throws {
        out.writeBytes(try WyomingFrameEncoder.encode(event))
    }
}
