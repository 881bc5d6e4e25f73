public import Foundation
import GRDB
public import HarkIntents
import Synchronization
public import HarkShortcuts

/// What went wrong with the shortcuts database, in one line, with SQLite's own code.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The file could not be opened or created.
        case open
        /// A phrase, automation or donation that is not there.
        case notFound
        /// Two shortcuts with one phrase (another process got there first).
        case duplicate
        /// The file is not a database Hark can use (newer schema, corrupt).
        case unusable
        /// A change to a database that could only be opened for reading (a full disk).
        case readOnly
        case sqlite
    }

    public var code: Code
    public var message: String
    /// SQLite's result code, when it said one.
    public var sqliteCode: Int32?

    public init(_ code: Code, _ message: String, sqliteCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.sqliteCode = sqliteCode
    }

    public var description: String { message }
}

/// Personal shortcuts, their steps, donations and automations in one SQLite
/// database (WAL mode, so a running `hark listen` and the command line read and
/// write it at once). Every change is one transaction: a process killed in the
/// middle leaves the last committed state. The schema is migrated forward on open.
///
/// A file that cannot be written (a full disk) is opened read-only instead: Hark still
/// answers and lists shortcuts, and each change fails with the reason until the file can
/// be opened for writing again, which each change tries (see ReadOnlyOpening.swift).
///
/// A running process notices changes made by others through `changeVersion()`,
/// a counter that triggers bump on every change to shortcuts and automations:
/// cheap enough to poll twice a second.
public final class ShortcutStore: Sendable {
    public let url: URL
    /// The open database, and why it could only be opened for reading (nil when it can be
    /// written). Replaced when a read-only store is opened for writing again.
    let connection: Mutex<(database: any DatabaseWriter, readOnlyReason: String?)>

    /// Why the database could only be opened for reading; nil when it can be written.
    public var readOnlyReason: String? { connection.withLock { $0.readOnlyReason } }

    /// The database file when none is named: $XDG_DATA_HOME/hark/shortcuts.sqlite.
    public static let fileName = "shortcuts.sqlite"

    public init(url: URL) throws(StoreError) {
        self.url = url
        do {
            connection = Mutex((try Self.openWritable(url), nil))
        } catch {
            guard Self.mayReadInstead(after: error, url) else { throw error }
            connection = Mutex((try Self.openReadOnly(url, after: error), Self.readOnlyReason(after: error, url)))
        }
    }

    /// The usual way in: a pool of connections in WAL mode, migrated to this Hark's schema.
    static func openWritable(_ url: URL) throws(StoreError) -> DatabasePool {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(.open, "cannot make the folder for \(url.path): \(error.localizedDescription)")
        }
        var configuration = Configuration()
        // Another process holding the write lock is waited for, not an error.
        configuration.busyMode = .timeout(10)
        configuration.label = "hark.shortcuts"
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: url.path, configuration: configuration)
        } catch {
            throw Self.storeError(error, doing: "opening \(url.path)", code: .open)
        }
        try migrate(pool, url)
        return pool
    }

    // MARK: Schema

    /// The migrations in order; a database records which it has had. Never edit a
    /// migration that has shipped: add one.
    public static let migrationNames = ["v1-shortcuts-donations", "v2-steps-automations"]

    static func migrator(upTo last: String? = nil) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-shortcuts-donations") { db in
            try db.execute(sql: """
                CREATE TABLE shortcut (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    phrase TEXT NOT NULL UNIQUE,
                    app TEXT NOT NULL,
                    intent TEXT NOT NULL,
                    parameter_values TEXT NOT NULL DEFAULT '{}',
                    created REAL NOT NULL);
                CREATE TABLE donation (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app TEXT NOT NULL,
                    intent TEXT NOT NULL,
                    parameter_values TEXT NOT NULL,
                    date REAL NOT NULL,
                    weekday INTEGER NOT NULL,
                    minute INTEGER NOT NULL);
                CREATE INDEX donation_by_app ON donation(app, intent);
                """)
        }
        guard last != "v1-shortcuts-donations" else { return migrator }
        // Shortcuts of several steps: each shortcut's one action becomes its first step.
        migrator.registerMigration("v2-steps-automations") { db in
            try db.execute(sql: """
                CREATE TABLE shortcut_step (
                    shortcut_id INTEGER NOT NULL REFERENCES shortcut(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    app TEXT NOT NULL,
                    intent TEXT NOT NULL,
                    parameter_values TEXT NOT NULL DEFAULT '{}',
                    PRIMARY KEY (shortcut_id, position));
                INSERT INTO shortcut_step (shortcut_id, position, app, intent, parameter_values)
                    SELECT id, 0, app, intent, parameter_values FROM shortcut;
                ALTER TABLE shortcut DROP COLUMN app;
                ALTER TABLE shortcut DROP COLUMN intent;
                ALTER TABLE shortcut DROP COLUMN parameter_values;
                CREATE TABLE automation (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    shortcut_id INTEGER NOT NULL REFERENCES shortcut(id) ON DELETE CASCADE,
                    minute INTEGER NOT NULL,
                    days TEXT NOT NULL,
                    created REAL NOT NULL,
                    last_run REAL);
                CREATE TABLE change_counter (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
                INSERT INTO change_counter VALUES (1, 0);
                """)
            for table in ["shortcut", "shortcut_step", "automation"] {
                for event in ["INSERT", "UPDATE", "DELETE"] {
                    try db.execute(sql: """
                        CREATE TRIGGER \(table)_\(event.lowercased())_counts AFTER \(event) ON \(table)
                        BEGIN UPDATE change_counter SET version = version + 1; END;
                        """)
                }
            }
        }
        return migrator
    }

    private static func migrate(_ pool: DatabasePool, _ url: URL) throws(StoreError) {
        let migrator = Self.migrator()
        do {
            try refuseNewer(try pool.read { db in try migrator.appliedIdentifiers(db) }, url)
            try migrator.migrate(pool)
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.storeError(error, doing: "migrating \(url.path)", code: .unusable)
        }
    }

    /// A database written by a newer Hark has tables this one does not know how to keep.
    static func refuseNewer(_ applied: Set<String>, _ url: URL) throws(StoreError) {
        let unknown = applied.subtracting(Self.migrationNames)
        guard unknown.isEmpty else {
            throw StoreError(.unusable, "\(url.path) was written by a newer Hark (it has \(unknown.sorted().joined(separator: ", ")))")
        }
    }

    /// Opens a database at an older schema: for tests of migrations and of what old versions wrote.
    static func openOld(url: URL, upTo migration: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: url.path)
        try migrator(upTo: migration).migrate(pool)
        return pool
    }

    /// The migrations this database has had, in order.
    public func appliedMigrations() throws(StoreError) -> [String] {
        try reading("reading the schema version") { db in
            let applied = try Self.migrator().appliedIdentifiers(db)
            return Self.migrationNames.filter(applied.contains)
        }
    }

    /// SQLite's own check of the file: "ok" when it is sound.
    public func integrityCheck() throws(StoreError) -> String {
        try reading("checking integrity") { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
        }
    }

    /// A number that changes whenever a shortcut or automation does, in any process.
    public func changeVersion() throws(StoreError) -> Int64 {
        try reading("reading the change counter") { db in
            try Int64.fetchOne(db, sql: "SELECT version FROM change_counter WHERE id = 1") ?? 0
        }
    }

    // MARK: Shortcuts

    public func shortcuts() throws(StoreError) -> [PersonalShortcut] {
        try reading("reading shortcuts") { db in
            let steps = try Row.fetchAll(db, sql: """
                SELECT shortcut_id, app, intent, parameter_values FROM shortcut_step ORDER BY shortcut_id, position
                """)
            var byShortcut: [Int64: [ShortcutStep]] = [:]
            for row in steps {
                let values: String = row["parameter_values"]
                byShortcut[row["shortcut_id"], default: []].append(
                    ShortcutStep(app: row["app"], intent: row["intent"], values: Self.decode(values, as: [String: String].self) ?? [:]))
            }
            return try Row.fetchAll(db, sql: "SELECT id, phrase FROM shortcut ORDER BY phrase").map { row in
                PersonalShortcut(id: row["id"], phrase: row["phrase"], steps: byShortcut[row["id"]] ?? [])
            }
        }
    }

    /// The shortcut with this phrase (said any way: case and punctuation do not matter), or this id.
    public func shortcut(_ phraseOrID: String) throws(StoreError) -> PersonalShortcut? {
        let all = try shortcuts()
        let phrase = PersonalShortcut.normalised(phraseOrID)
        return all.first { $0.phrase == phrase } ?? Int64(phraseOrID).flatMap { id in all.first { $0.id == id } }
    }

    @discardableResult
    public func addShortcut(phrase: String, steps: [ShortcutStep], at date: Date = Date()) throws(StoreError) -> PersonalShortcut {
        let normalised = PersonalShortcut.normalised(phrase)
        let id: Int64 = try writing("adding the shortcut \"\(normalised)\"") { db in
            try db.execute(sql: "INSERT INTO shortcut (phrase, created) VALUES (?, ?)",
                           arguments: [normalised, date.timeIntervalSince1970])
            let id = db.lastInsertedRowID
            try Self.insertSteps(steps, of: id, db)
            return id
        }
        return PersonalShortcut(id: id, phrase: normalised, steps: steps)
    }

    /// Replaces a shortcut's phrase and steps in one transaction.
    public func updateShortcut(_ shortcut: PersonalShortcut) throws(StoreError) {
        try writing("changing the shortcut \"\(shortcut.phrase)\"") { db in
            try db.execute(sql: "UPDATE shortcut SET phrase = ? WHERE id = ?", arguments: [shortcut.phrase, shortcut.id])
            guard db.changesCount == 1 else { throw StoreError(.notFound, "there is no shortcut \(shortcut.id)") }
            try db.execute(sql: "DELETE FROM shortcut_step WHERE shortcut_id = ?", arguments: [shortcut.id])
            try Self.insertSteps(shortcut.steps, of: shortcut.id, db)
        }
    }

    /// Deletes the shortcut, its steps and its automations; false when there was none.
    @discardableResult
    public func deleteShortcut(id: Int64) throws(StoreError) -> Bool {
        try writing("deleting shortcut \(id)") { db in
            try db.execute(sql: "DELETE FROM shortcut WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    private static func insertSteps(_ steps: [ShortcutStep], of id: Int64, _ db: Database) throws {
        for (position, step) in steps.enumerated() {
            try db.execute(sql: """
                INSERT INTO shortcut_step (shortcut_id, position, app, intent, parameter_values) VALUES (?, ?, ?, ?, ?)
                """, arguments: [id, position, step.app, step.intent, encode(step.values)])
        }
    }

    // MARK: Donations

    @discardableResult
    public func donate(_ donation: Donation) throws(StoreError) -> Int64 {
        try writing("recording what was done") { db in
            try db.execute(sql: """
                INSERT INTO donation (app, intent, parameter_values, date, weekday, minute) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [donation.app, donation.intent, Self.encode(donation.values),
                                 donation.date.timeIntervalSince1970, donation.weekday, donation.time.minutes])
            return db.lastInsertedRowID
        }
    }

    /// Donations, oldest first; only the app's when one is named.
    public func donations(app: String? = nil) throws(StoreError) -> [Donation] {
        try reading("reading donations") { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM donation WHERE (?1 IS NULL OR app = ?1) ORDER BY date, id
                """, arguments: [app])
            return rows.map { row in
                let values: String = row["parameter_values"]
                return Donation(id: row["id"], app: row["app"], intent: row["intent"],
                                values: Self.decode(values, as: [String: ParameterValue].self) ?? [:],
                                date: Date(timeIntervalSince1970: row["date"]), weekday: row["weekday"],
                                time: TimeOfDay(minutes: min(max(row["minute"], 0), TimeOfDay.minutesPerDay - 1)))
            }
        }
    }

    /// Deletes the donations the filter matches; returns how many.
    @discardableResult
    public func deleteDonations(_ filter: DonationFilter) throws(StoreError) -> Int {
        var sql = "DELETE FROM donation WHERE app = ?"
        var arguments: StatementArguments = [filter.app]
        if let intent = filter.intent {
            sql += " AND intent = ?"
            arguments += [intent]
        }
        for (name, identifier) in filter.values.sorted(by: { $0.key < $1.key }) {
            // The path is bound, not spliced: a parameter name cannot change the statement.
            sql += " AND json_extract(parameter_values, ?) = ?"
            arguments += [Self.jsonPath(name), identifier]
        }
        let statement = sql, bound = arguments
        return try writing("deleting donations of \(filter.app)") { db in
            try db.execute(sql: statement, arguments: bound)
            return db.changesCount
        }
    }

    static func jsonPath(_ parameter: String) -> String {
        "$.\"" + parameter.replacingOccurrences(of: "\"", with: "") + "\".identifier"
    }

    // MARK: Automations

    @discardableResult
    public func addAutomation(shortcutID: Int64, time: TimeOfDay, days: Weekdays, at date: Date = Date()) throws(StoreError) -> Automation {
        let id: Int64 = try writing("adding an automation") { db in
            try db.execute(sql: "INSERT INTO automation (shortcut_id, minute, days, created) VALUES (?, ?, ?, ?)",
                           arguments: [shortcutID, time.minutes, days.description, date.timeIntervalSince1970])
            return db.lastInsertedRowID
        }
        guard let automation = try automations().first(where: { $0.id == id }) else {
            throw StoreError(.notFound, "the automation \(id) vanished as it was added")
        }
        return automation
    }

    public func automations() throws(StoreError) -> [Automation] {
        try reading("reading automations") { db in
            try Row.fetchAll(db, sql: """
                SELECT automation.*, shortcut.phrase FROM automation JOIN shortcut ON shortcut.id = automation.shortcut_id
                ORDER BY minute, automation.id
                """).map { row in
                let days: String = row["days"]
                let lastRun: Double? = row["last_run"]
                return Automation(id: row["id"], shortcutID: row["shortcut_id"], phrase: row["phrase"],
                                  time: TimeOfDay(minutes: min(max(row["minute"], 0), TimeOfDay.minutesPerDay - 1)),
                                  days: (try? Weekdays.parse(days).get()) ?? .everyDay,
                                  created: Date(timeIntervalSince1970: row["created"]),
                                  lastRun: lastRun.map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    @discardableResult
    public func deleteAutomation(id: Int64) throws(StoreError) -> Bool {
        try writing("deleting automation \(id)") { db in
            try db.execute(sql: "DELETE FROM automation WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Records that an automation ran; false when another process already ran it for this time.
    @discardableResult
    public func markRun(automation id: Int64, firedAt fire: Date, at date: Date) throws(StoreError) -> Bool {
        try writing("recording that automation \(id) ran") { db in
            try db.execute(sql: "UPDATE automation SET last_run = ? WHERE id = ? AND (last_run IS NULL OR last_run < ?)",
                           arguments: [date.timeIntervalSince1970, id, fire.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    // MARK: Plumbing

    private func reading<T>(_ doing: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try connection.withLock { $0.database }.read(body)
        } catch {
            throw Self.storeError(error, doing: doing)
        }
    }

    private func writing<T>(_ doing: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        let database = try writableDatabase(doing)
        do {
            return try database.write(body)
        } catch {
            throw Self.storeError(error, doing: doing)
        }
    }

    static func storeError(_ error: any Error, doing: String, code: StoreError.Code = .sqlite) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let database = error as? DatabaseError else { return StoreError(code, "\(doing): \(error)") }
        if database.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return StoreError(.duplicate, "\(doing): there is already one like it", sqliteCode: database.extendedResultCode.rawValue)
        }
        let kind: StoreError.Code = database.resultCode == .SQLITE_NOTADB || database.resultCode == .SQLITE_CORRUPT ? .unusable : code
        return StoreError(kind, "\(doing): \(database.message ?? "\(database.resultCode)") (SQLite \(database.resultCode.rawValue))",
                          sqliteCode: database.extendedResultCode.rawValue)
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decode<T: Decodable>(_ text: String, as type: T.Type) -> T? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
