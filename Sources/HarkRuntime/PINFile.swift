import Crypto
public import Foundation
public import HarkDialogue

/// The owner's spoken PIN, kept as a salted PBKDF2-HMAC-SHA256 hash in a
/// file only the owner can read ($XDG_CONFIG_HOME/hark/pin by default).
public struct PINFile: PINAuthenticator {
    public let url: URL
    static let iterations = 50_000
    static let format = "pbkdf2-sha256"

    public init(url: URL = HarkPaths.configDirectory().appendingPathComponent("pin")) {
        self.url = url
    }

    public struct PINError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public func isSet() async -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    public func verify(_ digits: String) async -> Bool {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return false }
        let fields = text.split(separator: " ").map(String.init)
        guard fields.count == 4, fields[0] == Self.format, let iterations = Int(fields[1]),
              let salt = Data(hex: fields[2]) else { return false }
        return Self.derive(digits, salt: salt, iterations: iterations).hex == fields[3].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stores a new PIN: four to eight digits.
    public func set(_ digits: String) throws(PINError) {
        guard TurnGrammar.pinLengths.contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw PINError(description: "a PIN is \(TurnGrammar.pinLengths.lowerBound) to \(TurnGrammar.pinLengths.upperBound) digits")
        }
        var salt = Data(count: 16)
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255) }
        let line = "\(Self.format) \(Self.iterations) \(salt.hex) \(Self.derive(digits, salt: salt, iterations: Self.iterations).hex)\n"
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let temporary = url.appendingPathExtension("new")
            guard FileManager.default.createFile(atPath: temporary.path, contents: Data(line.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw PINError(description: "cannot write \(temporary.path)")
            }
            // Replace in one step, so a crash never leaves half a PIN.
            guard rename(temporary.path, url.path) == 0 else {
                throw PINError(description: "cannot replace \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch let error as PINError {
            throw error
        } catch {
            throw PINError(description: "cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    public func clear() throws(PINError) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw PINError(description: "cannot remove \(url.path): \(error.localizedDescription)")
        }
    }

    /// PBKDF2 with HMAC-SHA256, one 32-byte block (RFC 8018).
    static func derive(_ pin: String, salt: Data, iterations: Int) -> Data {
        let key = SymmetricKey(data: Data(pin.utf8))
        var block = Data(HMAC<SHA256>.authenticationCode(for: salt + Data([0, 0, 0, 1]), using: key))
        var result = block
        for _ in 1..<iterations {
            block = Data(HMAC<SHA256>.authenticationCode(for: block, using: key))
            for index in result.indices { result[index] ^= block[index] }
        }
        return result
    }
}

extension Data {
    var hex: String { map { String(format: "%02x", $0) }.joined() }

    init?(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
                  let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
