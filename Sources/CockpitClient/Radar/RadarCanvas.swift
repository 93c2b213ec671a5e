/// How a cell is drawn when the terminal has colour (plain text otherwise).
public enum RadarStyle: Sendable, Equatable {
    case plain, ring, label, own, target, dimmed, alert, header, alertHeader

    /// SGR parameters (ECMA-48): faint for rings and old targets, bold red reverse video for a proximity alert.
    var sgr: String? {
        switch self {
        case .plain: nil
        case .ring: "2;36"
        case .label: "36"
        case .own: "1;33"
        case .target: "1;97"
        case .dimmed: "2"
        case .alert: "1;7;31"
        case .header: "1"
        case .alertHeader: "1;7;31"
        }
    }
}

/// A character grid the radar is drawn into, with braille sub-cell dots for the rings.
struct RadarCanvas {
    struct Cell: Equatable {
        var character: Character = " "
        var style: RadarStyle = .plain
        /// Braille dot bits (U+2800 + bits), merged until a character is written over them.
        var dots: UInt8 = 0
        /// A glyph or tag is here: later text must not overwrite it.
        var taken = false
    }

    let width: Int
    let height: Int
    private(set) var cells: [[Cell]]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: Array(repeating: Cell(), count: width), count: height)
    }

    func contains(_ row: Int, _ column: Int) -> Bool { row >= 0 && row < height && column >= 0 && column < width }

    func isTaken(_ row: Int, _ column: Int) -> Bool { contains(row, column) && cells[row][column].taken }

    mutating func put(_ character: Character, _ row: Int, _ column: Int, _ style: RadarStyle, take: Bool = false) {
        guard contains(row, column) else { return }
        cells[row][column].character = character
        cells[row][column].style = style
        cells[row][column].dots = 0
        if take { cells[row][column].taken = true }
    }

    /// Writes text from `column`, clipped to the canvas.
    mutating func write(_ text: String, _ row: Int, _ column: Int, _ style: RadarStyle, take: Bool = false) {
        for (offset, character) in text.enumerated() { put(character, row, column + offset, style, take: take) }
    }

    /// Sets one braille dot at dot coordinates (2 dots per column, 4 per row).
    mutating func dot(x: Int, y: Int, style: RadarStyle) {
        let row = y >> 2, column = x >> 1
        guard x >= 0, y >= 0, contains(row, column), cells[row][column].character == " " || cells[row][column].dots != 0 else { return }
        // Dot numbering of the Unicode braille block: 1 2 3 7 down the left column, 4 5 6 8 down the right.
        let bits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
        cells[row][column].dots |= bits[x & 1][y & 3]
        cells[row][column].character = Character(Unicode.Scalar(0x2800 + UInt32(cells[row][column].dots))!)
        cells[row][column].style = style
    }

    /// The lines, trailing blanks removed; with colour, each run of a style wrapped in its SGR sequence.
    func lines(colour: Bool) -> [String] {
        cells.map { row in
            var end = row.count
            while end > 0, row[end - 1].character == " " { end -= 1 }
            var line = ""
            var current: RadarStyle = .plain
            for cell in row[..<end] {
                if colour, cell.style != current {
                    if current.sgr != nil { line += "\u{1B}[0m" }
                    if let sgr = cell.style.sgr { line += "\u{1B}[\(sgr)m" }
                    current = cell.style
                }
                line.append(cell.character)
            }
            if colour, current.sgr != nil { line += "\u{1B}[0m" }
            return line
        }
    }
}
