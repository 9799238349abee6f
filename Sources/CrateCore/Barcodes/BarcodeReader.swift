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
/// The photo is made greyscale once; then passes run in order until one finds something: the
/// full picture (every `density`-th scan line, both directions), a half-size copy (blur and JPEG
/// noise average out; ZBar's edge detector prefers 2-4 px a bar module), the half-size copy
/// contrast-stretched (dark photos), and the half-size copy turned 45° (barcodes at 25-65°, which
/// no horizontal or vertical scan line crosses whole when they are short).
public struct BarcodeReader: Sendable {
    public enum Pass: String, Sendable, Codable, CaseIterable {
        case full, half, stretched, rotated
    }

    public var passes: [Pass]
    /// The full pass scans every `density`-th row and column (1: all).
    public var density: Int
    /// Where to look for the plugin; nil: the process's usual place (opened once, remembered).
    public var pluginDirectories: [String]?

    public init(passes: [Pass] = Pass.allCases, density: Int = 2, pluginDirectories: [String]? = nil) {
        self.passes = passes
        self.density = density
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
        let readings = try readings(image)
        let barcodes = readings.compactMap(\.barcode)
        if barcodes.isEmpty, let refused = readings.first, case .failure(let problem) = refused.result { throw problem }
        return barcodes
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

    /// Everything found by the first pass that finds anything, refused barcodes included.
    public func readings(_ image: RGBImage) throws(BarcodeError) -> [BarcodeReading] {
        let table = try table()
        let grey = GreyPlane(image)
        var half: GreyPlane?
        for pass in passes {
            var found: [BarcodeReading]
            switch pass {
            case .full:
                found = try Self.scan(grey, density: density, table: table, pass: pass, scale: 1)
            case .half:
                half = half ?? grey.halved()
                found = try Self.scan(half!, density: 1, table: table, pass: pass, scale: 2)
            case .stretched:
                half = half ?? grey.halved()
                guard let stretched = half!.stretched() else { continue }
                found = try Self.scan(stretched, density: 1, table: table, pass: pass, scale: 2)
            case .rotated:
                half = half ?? grey.halved()
                let (turned, unturn) = half!.rotated45()
                found = try Self.scan(turned, density: 1, table: table, pass: pass, scale: 1)
                found = found.map { $0.moved(unturn, scale: 2) }
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

    private static func scan(_ plane: GreyPlane, density: Int, table: UnsafePointer<crate_barcode_table>,
                             pass: Pass, scale: Int) throws(BarcodeError) -> [BarcodeReading] {
        var symbols = [crate_barcode_symbol](repeating: crate_barcode_symbol(), count: capacity)
        let count = plane.pixels.withUnsafeBufferPointer { pixels in
            symbols.withUnsafeMutableBufferPointer { out in
                table.pointee.decode_grey(pixels.baseAddress, Int32(plane.width), Int32(plane.height), Int32(plane.width),
                                          Int32(max(1, density)), out.baseAddress, Int32(capacity))
            }
        }
        guard count >= 0 else { throw .scanFailed(width: plane.width, height: plane.height) }
        var seen = Set<String>()
        return symbols.prefix(Int(min(count, Int32(capacity)))).compactMap { symbol -> BarcodeReading? in
            var symbol = symbol
            let digits = withUnsafeBytes(of: &symbol.digits) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let symbology = Self.symbology(symbol.symbology), seen.insert(digits).inserted else { return nil }
            let result: Result<Barcode, BarcodeError>
            do throws(BarcodeError) { result = .success(try Barcode(digits: digits, symbology: symbology)) } catch { result = .failure(error) }
            let box = PixelRect(x: Int(symbol.min_x) * scale, y: Int(symbol.min_y) * scale,
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
