import CSQLite

/// A thin wrapper over libsqlite3 (no ORM, no Foundation): open, execute, prepared statements.
public final class SQLiteDatabase {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var code: Int32
        public var message: String
        public var description: String { "SQLite error \(code): \(message)" }
    }

    let handle: OpaquePointer

    public enum Mode {
        case readOnly
        /// Read-only, and promised not to change while open (SQLite `immutable=1`): no file locks and no change
        /// checks per statement. Replace such a file by renaming a new one over it, then reopen.
        case immutable
        case readWriteCreate
    }

    public init(path: String, mode: Mode) throws(Failure) {
        var pointer: OpaquePointer?
        var flags: Int32
        var name = path
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .immutable:
            flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            var escaped = ""
            for character in path {
                switch character {
                case "%": escaped += "%25"
                case "?": escaped += "%3F"
                case "#": escaped += "%23"
                default: escaped.append(character)
                }
            }
            name = "file:" + escaped + "?immutable=1"
        }
        let code = sqlite3_open_v2(name, &pointer, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let pointer { sqlite3_close(pointer) }
            throw Failure(code: code, message: "\(path): \(message)")
        }
        handle = pointer
    }

    private var closed = false

    /// Closes the connection now (`sqlite3_close_v2`: statements not yet finalized finish closing it when they are).
    /// Nothing may use the database afterwards. Closing at `deinit` alone is not enough where another connection is
    /// about to open the same path: until this one has closed, the two would share the `-wal` and `-shm` files.
    public func close() {
        guard !closed else { return }
        closed = true
        sqlite3_close_v2(handle)
    }

    // close_v2, not close: a statement still alive when the database goes (a holder's properties are released in any
    // order) would make sqlite3_close fail with SQLITE_BUSY and leave the connection open for good.
    deinit { if !closed { sqlite3_close_v2(handle) } }

    func failure(_ code: Int32) -> Failure { Failure(code: code, message: String(cString: sqlite3_errmsg(handle))) }

    public func execute(_ sql: String) throws(Failure) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        if code != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "?"
            sqlite3_free(error)
            throw Failure(code: code, message: message)
        }
    }

    public func prepare(_ sql: String) throws(Failure) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        return Statement(statement: statement, database: self)
    }

    /// Runs `PRAGMA quick_check`; nil when the file is sound, else what SQLite found.
    public func integrityProblem() -> String? {
        guard let statement = try? prepare("PRAGMA quick_check") else { return "cannot run quick_check" }
        guard (try? statement.step()) == true else { return "quick_check returned nothing" }
        let result = statement.text(0) ?? "?"
        return result == "ok" ? nil : result
    }

    public final class Statement {
        let statement: OpaquePointer
        let database: SQLiteDatabase
        /// SQLITE_TRANSIENT: SQLite copies bound text (the macro is not imported into Swift).
        static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        init(statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        public func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        public func bind(_ index: Int32, _ value: Double?) {
            if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        }
        public func bind(_ index: Int32, _ value: Int64?) {
            if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        }
        public func bind(_ index: Int32, _ value: String?) {
            if let value { sqlite3_bind_text(statement, index, value, -1, Self.transient) } else { sqlite3_bind_null(statement, index) }
        }

        public func bind(_ index: Int32, bytes: [UInt8]) {
            bytes.withUnsafeBytes { _ = sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
        }

        /// Advances; true while there is a row.
        @discardableResult
        public func step() throws(Failure) -> Bool {
            let code = sqlite3_step(statement)
            if code == SQLITE_ROW { return true }
            if code == SQLITE_DONE { return false }
            throw database.failure(code)
        }

        public func double(_ column: Int32) -> Double? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
        }
        public func int64(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
        }
        /// The column's bytes, valid until the next step or reset; nil for NULL (an empty blob is an empty buffer).
        public func blob(_ column: Int32) -> UnsafeRawBufferPointer? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: pointer, count: count)
        }
        public func text(_ column: Int32) -> String? {
            guard let pointer = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: pointer)
        }
    }
}
