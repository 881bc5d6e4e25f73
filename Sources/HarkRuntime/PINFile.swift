import Crypto
public import Foundation
public import HarkDialogue

/// The owner's spoken PIN, kept as a salted PBKDF2-HMAC-SHA256 hash in a
/// file only the owner can read ($XDG_CONFIG_HOME/hark/pin by default).
///
/// Wrong PINs are counted in a second file beside it (`pin.attempts`: the count and the end of
/// any lockout, see `PINLockout`), so the limit survives restarts; a right PIN clears it.
/// Checks, settings and clearings hold an exclusive lock on a third (`pin.lock`, see
/// `PINFileLock`), so guesses made at once, in one process or several, are counted one by one.
public struct PINFile: PINAuthenticator {
    public let url: URL
    /// The moment a check happens (a parameter for tests).
    public var now: @Sendable () -> Date = { Date() }
    /// PBKDF2 rounds for a PIN stored by `set`: one derivation takes over 300 ms in a release
    /// build on the project's machine, and every guess at a copied file pays it too. Files
    /// record their own rounds, so PINs stored with fewer (50,000 before) still verify.
    public static let defaultIterations = 250_000
    /// Rounds used by `set` (lowered by tests that set many PINs).
    public var iterations = Self.defaultIterations
    static let format = "pbkdf2-sha256"

    public init(url: URL = HarkPaths.configDirectory().appendingPathComponent("pin")) {
        self.url = url
    }

    /// Where wrong PINs are counted.
    public var attemptsURL: URL { url.appendingPathExtension("attempts") }

    /// The lock held across every check, setting and clearing.
    public var lockURL: URL { url.appendingPathExtension("lock") }

    public struct PINError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Whether the PIN file exists. When that cannot be told (a folder it cannot search), says
    /// yes: the check then reports why the PIN cannot be read, rather than "no PIN is set".
    public func isSet() async -> Bool {
        do {
            return try exists(url)
        } catch {
            return true
        }
    }

    /// Whether the PIN file exists; throws when that cannot be told (EACCES, ENOTDIR...), which
    /// is not the same as its absence.
    public func isStored() throws(PINError) -> Bool {
        try exists(url)
    }

    private func exists(_ file: URL) throws(PINError) -> Bool {
        if access(file.path, F_OK) == 0 { return true }
        guard errno == ENOENT else {
            throw PINError(description: "cannot look for \(file.path): \(String(cString: strerror(errno)))")
        }
        return false
    }

    public func check(_ digits: String) async -> PINCheck {
        // Off the cooperative pool: waiting for the lock and deriving block a thread. One queue
        // for the process, so guesses made at once wait in line on one thread.
        await withCheckedContinuation { continuation in
            Self.checks.async { continuation.resume(returning: checkHoldingLock(digits)) }
        }
    }

    private static let checks = DispatchQueue(label: "hark.pin-checks")

    /// Reads the count, checks the PIN and writes the count in one step under the lock, so no
    /// guess is checked before the one ahead of it is counted.
    func checkHoldingLock(_ digits: String) -> PINCheck {
        do {
            return try PINFileLock.holding(lockURL) { () throws(PINError) in checkLocked(digits) }
        } catch {
            return .unavailable(error.description)
        }
    }

    private func checkLocked(_ digits: String) -> PINCheck {
        let moment = now()
        var lockout: PINLockout
        do {
            lockout = try readLockout()
        } catch {
            return .unavailable(error.description)
        }
        if let seconds = lockout.secondsLeft(at: moment) { return .lockedOut(seconds: seconds) }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            return .unavailable("cannot read \(url.path): \(error.localizedDescription)")
        }
        let fields = text.split(separator: " ").map(String.init)
        guard fields.count == 4, fields[0] == Self.format, let iterations = Int(fields[1]), iterations > 0,
              let salt = Data(hex: fields[2]), let stored = Data(hex: fields[3].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return .unavailable("\(url.path) is not a PIN file written by hark pin set")
        }
        do {
            if Self.equalInConstantTime(Self.derive(digits, salt: salt, iterations: iterations), stored) {
                if lockout.failures > 0 { try writeLockout(PINLockout()) }
                return .accepted
            }
            let started = lockout.recordFailure(at: moment)
            try writeLockout(lockout)
            return started.map { .lockedOut(seconds: $0) } ?? .wrong
        } catch {
            // A wrong PIN that cannot be counted must not be allowed again and again.
            return .unavailable(error.description)
        }
    }

    /// Compares every byte whatever the first difference, so the time taken says nothing of
    /// how much of a guess was right.
    static func equalInConstantTime(_ left: Data, _ right: Data) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) { difference |= a ^ b }
        return difference == 0
    }

    /// The count of wrong PINs so far ("FAILURES LOCKED-UNTIL-EPOCH-SECONDS"); none when the file is absent.
    public func readLockout() throws(PINError) -> PINLockout {
        guard try exists(attemptsURL) else { return PINLockout() }
        let text: String
        do {
            text = try String(contentsOf: attemptsURL, encoding: .utf8)
        } catch {
            throw PINError(description: "cannot read \(attemptsURL.path): \(error.localizedDescription)")
        }
        let fields = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count == 2, let failures = Int(fields[0]), failures >= 0, let until = Double(fields[1]) else {
            throw PINError(description: "\(attemptsURL.path) is damaged; remove it with hark pin clear and set the PIN again")
        }
        return PINLockout(failures: failures, lockedUntil: until > 0 ? Date(timeIntervalSince1970: until) : nil)
    }

    func writeLockout(_ lockout: PINLockout) throws(PINError) {
        let line = "\(lockout.failures) \(lockout.lockedUntil?.timeIntervalSince1970 ?? 0)\n"
        try replace(attemptsURL, with: line)
    }

    /// Writes `text` to `file` through a temporary file renamed over it, readable by the owner only.
    private func replace(_ file: URL, with text: String) throws(PINError) {
        try makeFolder(of: file)
        let temporary = file.appendingPathExtension("new")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(text.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw PINError(description: "cannot write \(temporary.path)")
        }
        // Replace in one step, so a crash never leaves half a file.
        guard rename(temporary.path, file.path) == 0 else {
            throw PINError(description: "cannot replace \(file.path): \(String(cString: strerror(errno)))")
        }
    }

    private func makeFolder(of file: URL) throws(PINError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw PINError(description: "cannot make \(file.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
    }

    /// Stores a new PIN: four to eight digits.
    public func set(_ digits: String) throws(PINError) {
        guard TurnGrammar.pinLengths.contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw PINError(description: "a PIN is \(TurnGrammar.pinLengths.lowerBound) to \(TurnGrammar.pinLengths.upperBound) digits")
        }
        var salt = Data(count: 16)
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255) }
        let line = "\(Self.format) \(iterations) \(salt.hex) \(Self.derive(digits, salt: salt, iterations: iterations).hex)\n"
        try makeFolder(of: url)
        try PINFileLock.holding(lockURL) { () throws(PINError) in
            try replace(url, with: line)
            // A new PIN starts with a clean count: the owner, at the machine, set it.
            try removeIfPresent(attemptsURL)
        }
    }

    private func removeIfPresent(_ file: URL) throws(PINError) {
        guard try exists(file) else { return }
        do {
            try FileManager.default.removeItem(at: file)
        } catch {
            throw PINError(description: "cannot remove \(file.path): \(error.localizedDescription)")
        }
    }

    public func clear() throws(PINError) {
        // Nothing to clear makes no lock file either (nor a folder for it).
        let stored = try exists(url), counted = try exists(attemptsURL)
        guard stored || counted else { return }
        try PINFileLock.holding(lockURL) { () throws(PINError) in
            try removeIfPresent(url)
            try removeIfPresent(attemptsURL)
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
