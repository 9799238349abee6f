import CCratePlugins
import Foundation

/// One barcode ZBar found in a photo, judged by `Barcode`'s rules.
public struct BarcodeReading: Equatable, Sendable {
    public let symbology: BarcodeSymbology
    /// The digits as ZBar read them (check digit included).
    public let digits: String
    /// ZBar's quality: how many scan lines agreed (higher is surer).
    public let quality: Int
    /// Where it is, in the photo's pixels (the bounding box of the scan lines that crossed it).
    public let box: PixelRect
    /// The pass that found it.
    public let pass: BarcodeReader.Pass
    /// The barcode, or why it was refused (an ISBN, or a check digit ZBar should have caught).
    public let result: Result<Barcode, BarcodeError>

    public var barcode: Barcode? { try? result.get() }
}

/// Finds EAN-13, EAN-8, UPC-A and UPC-E barcodes in a photo already decoded (the scan's own
/// `RGBImage`), through libCrateBarcode.so (ZBar), opened at first use.
///
/// The photo is made greyscale once; then passes run in order until one finds something. ZBar
/// reads along rows and along columns (one direction on each core), so a barcode at 0-30° or
/// turned 90° is read by the first pass; the standard passes are the full picture and, for
/// barcodes at 30-60° (which no row or column crosses whole when they are short), the picture
/// turned 45° (half size when the photo is large). Measured on generated photos, a half-size pass
/// and a contrast-stretched one found nothing the others missed, so they are only in `thorough`.
public struct BarcodeReader: Sendable {
    public enum Pass: String, Sendable, Codable, CaseIterable {
        /// The photo as it is.
        case full
        /// Half the width and height (2×2 means): averages out noise; bars get thinner.
        case half
        /// Half size, its darkest and brightest 1 % stretched to black and white (dark photos).
        case stretched
        /// Turned 45° (from the half-size copy when the photo's short side is ≥ 2000 px).
        case rotated
    }

    public var passes: [Pass]
    /// How many rows (and columns) each pass scans across the picture's short side, at most:
    /// ZBar scans every (short side / `scanLines`)-th line. 600 is every 5th line of a 12 MP photo,
    /// every 2nd of a 1600×1200 one; a barcode 100 px tall is still crossed 20 times.
    public var scanLines: Int
    /// Where to look for the plugin; nil: the process's usual place (opened once, remembered).
    public var pluginDirectories: [String]?

    public static let standardPasses: [Pass] = [.full, .rotated]
    /// Every pass, every line: for a photo the user says is of a barcode (several times slower on a
    /// photo without one).
    public static let thorough = BarcodeReader(passes: Pass.allCases, scanLines: .max)

    public init(passes: [Pass] = standardPasses, scanLines: Int = 600, pluginDirectories: [String]? = nil) {
        self.passes = passes
        self.scanLines = scanLines
        self.pluginDirectories = pluginDirectories
    }

    /// Why barcodes cannot be read from photos in this process (nil: they can). Opens the plugin.
    public static var unavailable: BarcodeError? {
        PluginLoader.status(.barcode).map { BarcodeError.unavailable($0) }
    }

    /// The valid record barcodes in `image`, best first (several when several are in frame; none
    /// for a photo without one). Throws `.isbn` when all that was found is books' barcodes, and
    /// `.unavailable` when the plugin or ZBar is missing — never crashes.
    public func read(_ image: RGBImage) throws(BarcodeError) -> [Barcode] {
        try Self.valid(try readings(image))
    }

    /// Decodes the photo file (JPEG or PNG, upright per its EXIF orientation) and reads it: for tools
    /// and the CLI; the scan reads the image it already decoded. Image problems throw `ImageError`.
    public func read(photoAt url: URL) throws -> [Barcode] {
        try read(try Self.decodePhoto(at: url))
    }

    /// The photo's pixels as the scan sees them.
    public static func decodePhoto(at url: URL) throws -> RGBImage {
        let data = try ImagePreparer.read(url)
        if ImageFormat.sniff(data) == .png { return try PNGCodec.decode(data) }
        return try ImagePreparer().decodeUpright(data)
    }

    /// The valid record barcodes in a prepared photo, from the luma the preparation kept
    /// (`preparePhoto(…, keepingLuma: true)`; the DCT-scaled decode, so no second decode), as
    /// `read(_:)`. A photo prepared without it has none to read: nothing found.
    public func read(_ photo: PreparedPhoto) throws(BarcodeError) -> [Barcode] {
        guard let luma = photo.luma else { return [] }
        return try Self.valid(try readings(luma))
    }

    /// Everything found in a prepared photo's kept luma (boxes in its stored, scaled pixels).
    public func readings(_ photo: PreparedPhoto) throws(BarcodeError) -> [BarcodeReading] {
        guard let luma = photo.luma else { return [] }
        return try readings(luma)
    }

    private static func valid(_ readings: [BarcodeReading]) throws(BarcodeError) -> [Barcode] {
        let barcodes = readings.compactMap(\.barcode)
        if barcodes.isEmpty, let refused = readings.first, case .failure(let problem) = refused.result { throw problem }
        return barcodes
    }

    /// Everything found by the first pass that finds anything, refused barcodes included.
    public func readings(_ image: RGBImage) throws(BarcodeError) -> [BarcodeReading] {
        let table = try table()
        return try readings(GreyPlane(image), table: table)
    }

    func readings(_ grey: GreyPlane) throws(BarcodeError) -> [BarcodeReading] {
        try readings(grey, table: try table())
    }

    private func readings(_ grey: GreyPlane, table: UnsafePointer<crate_barcode_table>) throws(BarcodeError) -> [BarcodeReading] {
        var half: GreyPlane?
        let large = min(grey.width, grey.height) >= 2000
        for pass in passes {
            var found: [BarcodeReading]
            switch pass {
            case .full:
                found = try scan(grey, table: table, pass: pass, scale: 1)
            case .half:
                half = half ?? grey.halved()
                found = try scan(half!, table: table, pass: pass, scale: 2)
            case .stretched:
                half = half ?? grey.halved()
                guard let stretched = half!.stretched() else { continue }
                found = try scan(stretched, table: table, pass: pass, scale: 2)
            case .rotated:
                if large { half = half ?? grey.halved() }
                let (turned, unturn) = (large ? half! : grey).rotated45()
                // Half the lines: the turned picture is larger, and what it is for (short barcodes
                // at 30-60°) is still crossed many times.
                found = try scan(turned, table: table, pass: pass, scale: 1, lines: scanLines / 2)
                found = found.map { $0.moved(unturn, scale: large ? 2 : 1) }
            }
            if !found.isEmpty { return found.sorted { ($0.barcode != nil ? 1 : 0, $0.quality) > ($1.barcode != nil ? 1 : 0, $1.quality) } }
        }
        return []
    }

    // MARK: - Private

    private func table() throws(BarcodeError) -> UnsafePointer<crate_barcode_table> {
        do throws(PluginError) {
            let raw: UnsafeRawPointer
            if let pluginDirectories {
                raw = try PluginLoader.load(.barcode, from: pluginDirectories)
            } else {
                raw = try PluginLoader.table(.barcode)
            }
            return raw.assumingMemoryBound(to: crate_barcode_table.self)
        } catch {
            throw .unavailable(error)
        }
    }

    private static let capacity = 16

    /// ZBar along rows and columns, one direction on each core; a barcode both directions read is
    /// one reading (boxes joined, qualities added).
    private func scan(_ plane: GreyPlane, table: UnsafePointer<crate_barcode_table>,
                      pass: Pass, scale: Int, lines: Int? = nil) throws(BarcodeError) -> [BarcodeReading] {
        let density = Int32(clamping: max(1, min(plane.width, plane.height) / max(1, lines ?? scanLines)))
        let capacity = Self.capacity
        var symbols = [[crate_barcode_symbol]](repeating: [crate_barcode_symbol](repeating: crate_barcode_symbol(), count: capacity), count: 2)
        var counts: [Int32] = [0, 0]
        plane.pixels.withUnsafeBufferPointer { pixels in
            symbols.withUnsafeMutableBufferPointer { symbols in
                counts.withUnsafeMutableBufferPointer { counts in
                    // Each task writes only its own slot of `symbols` and `counts`.
                    Parallel.perform(iterations: 2) { direction in
                        counts[direction] = symbols[direction].withUnsafeMutableBufferPointer { out in
                            table.pointee.decode_grey(pixels.baseAddress, Int32(plane.width), Int32(plane.height), Int32(plane.width),
                                                      direction == 0 ? density : 0, direction == 1 ? density : 0,
                                                      out.baseAddress, Int32(capacity))
                        }
                    }
                }
            }
        }
        guard counts.allSatisfy({ $0 >= 0 }) else { throw .scanFailed(width: plane.width, height: plane.height) }
        var merged: [(crate_barcode_symbol, String)] = []
        for direction in 0..<2 {
            for var symbol in symbols[direction].prefix(Int(min(counts[direction], Int32(capacity)))) {
                let digits = withUnsafeBytes(of: &symbol.digits) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if let index = merged.firstIndex(where: { $0.1 == digits && $0.0.symbology == symbol.symbology }) {
                    var known = merged[index].0
                    known.quality += symbol.quality
                    known.min_x = min(known.min_x, symbol.min_x)
                    known.min_y = min(known.min_y, symbol.min_y)
                    known.max_x = max(known.max_x, symbol.max_x)
                    known.max_y = max(known.max_y, symbol.max_y)
                    merged[index].0 = known
                } else {
                    merged.append((symbol, digits))
                }
            }
        }
        return merged.compactMap { symbol, digits -> BarcodeReading? in
            guard let symbology = Self.symbology(symbol.symbology) else { return nil }
            let result: Result<Barcode, BarcodeError>
            do throws(BarcodeError) { result = .success(try Barcode(digits: digits, symbology: symbology)) } catch { result = .failure(error) }
            let box = PixelRect(x: Int(max(0, symbol.min_x)) * scale, y: Int(max(0, symbol.min_y)) * scale,
                                width: Int(max(0, symbol.max_x - symbol.min_x) + 1) * scale,
                                height: Int(max(0, symbol.max_y - symbol.min_y) + 1) * scale)
            return BarcodeReading(symbology: symbology, digits: digits, quality: Int(symbol.quality), box: box, pass: pass, result: result)
        }
    }

    private static func symbology(_ value: Int32) -> BarcodeSymbology? {
        switch Int(value) {
        case Int(CRATE_BARCODE_EAN13): .ean13
        case Int(CRATE_BARCODE_EAN8): .ean8
        case Int(CRATE_BARCODE_UPCA): .upcA
        case Int(CRATE_BARCODE_UPCE): .upcE
        default: nil
        }
    }
}

extension BarcodeReading {
    /// The reading with its box taken through `transform` (points of the pass's picture to the
    /// half-size picture) and then scaled to the photo.
    func moved(_ transform: (Double, Double) -> (Double, Double), scale: Int) -> BarcodeReading {
        let corners = [(box.x, box.y), (box.x + box.width, box.y), (box.x, box.y + box.height), (box.x + box.width, box.y + box.height)]
            .map { transform(Double($0.0), Double($0.1)) }
        let xs = corners.map(\.0), ys = corners.map(\.1)
        let x0 = Int(xs.min()!) * scale, y0 = Int(ys.min()!) * scale
        let moved = PixelRect(x: max(0, x0), y: max(0, y0), width: Int(xs.max()! - xs.min()!) * scale,
                              height: Int(ys.max()! - ys.min()!) * scale)
        return BarcodeReading(symbology: symbology, digits: digits, quality: quality, box: moved, pass: pass, result: result)
    }
}
