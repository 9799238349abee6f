import Foundation

/// A photo ready for identification: the upright square JPEG for the vision provider and the
/// hashes for tier 0. The photo itself is never written to disk.
public struct PreparedPhoto: Sendable {
    /// Square JPEG, `ImagePreparer.visionSize` px (smaller only if the photo is smaller).
    public let visionJPEG: Data
    public let visionSide: Int
    public let hashes: PhotoHashes
    public let header: JPEGHeader
}

/// Artwork files made from a downloaded cover.
public struct PreparedArtwork: Sendable {
    /// ≤ 500 px square JPEG.
    public let large: Data
    /// 200 px square JPEG.
    public let thumbnail: Data
    public let hash: CoverHash
}

/// Turns photos and artwork into what identification and the library need (DESIGN §3.5).
public struct ImagePreparer: Sendable {
    public let visionSize: Int
    public let artworkSize: Int
    public let thumbnailSize: Int
    public let quality: Int
    public let cropSearch: CropSearch

    public init(visionSize: Int = 1024, artworkSize: Int = 500, thumbnailSize: Int = 200, quality: Int = 85,
                cropSearch: CropSearch = .standard) {
        self.visionSize = visionSize
        self.artworkSize = artworkSize
        self.thumbnailSize = thumbnailSize
        self.quality = quality
        self.cropSearch = cropSearch
    }

    /// Reads and prepares a photo file.
    public func preparePhoto(at url: URL, crop: NormalizedRect? = nil) throws -> PreparedPhoto {
        try preparePhoto(Self.read(url), crop: crop)
    }

    /// Prepares a photo: validate, decode with DCT scaling, crop a square (the centre, or the
    /// largest centred square inside `crop`), resize, orient, encode, hash.
    public func preparePhoto(_ data: Data, crop: NormalizedRect? = nil) throws -> PreparedPhoto {
        try Self.validate(data)
        let full = try JPEGCodec.probe(data)
        let ow = Double(full.orientation.swapsDimensions ? full.height : full.width)
        let oh = Double(full.orientation.swapsDimensions ? full.width : full.height)
        let square = Self.square(in: crop, width: ow, height: oh)
        // Decode just large enough for the crop to still give `visionSize` pixels.
        let shortSide = min(ow, oh)
        let needed = Int((Double(visionSize) * shortSide / square.side).rounded(.up))
        let header = try JPEGCodec.probe(data, minShortSide: needed)
        let stored = try JPEGCodec.decode(data, header: header, fast: true)
        let factor = Double(stored.width) / Double(full.width)
        let side = square.side * factor
        let origin = CoverHashing.storedSquare(x: square.x * factor, y: square.y * factor, side: side,
                                               orientation: full.orientation,
                                               width: Double(stored.width), height: Double(stored.height))
        let outSide = max(1, min(visionSize, Int(side.rounded())))
        // The JPEG for the vision call and the tier-0 hashes are independent: run them side by
        // side on the two cores, balanced — finding the cover's outline goes with the JPEG, the
        // luma table and crop search on the other side; only the few quad warps run after.
        var jpeg: Result<Data, Error> = .failure(ImageError.encodingFailed("not run"))
        var base: PhotoHashes?
        var integral: IntegralImage?
        var quads: [Quad] = []
        let orientation = full.orientation, search = cropSearch, quality = quality
        DispatchQueue.concurrentPerform(iterations: 2) { task in
            if task == 0 {
                let resized = Resampler.resize(stored, crop: (origin.x, origin.y, side, side), width: outSide, height: outSide)
                jpeg = Result { try JPEGCodec.encode(resized.oriented(orientation), quality: quality) }
                quads = QuadFinder.find(in: stored)
            } else {
                let table = IntegralImage(stored)
                base = CoverHashing.photoHashes(of: table, orientation: orientation, search: search)
                integral = table
            }
        }
        var hashes: PhotoHashes?
        if let base, let integral {
            let extra = CoverHashing.quadHashes(quads, integral: integral, orientation: orientation)
            hashes = PhotoHashes(candidates: base.candidates + extra, pHash: base.pHash, dHash: base.dHash)
        }
        guard let hashes else { throw ImageError.encodingFailed("hashing did not run") }
        return PreparedPhoto(visionJPEG: try jpeg.get(), visionSide: outSide, hashes: hashes, header: header)
    }

    /// Decodes a photo upright at full size (tools, tests).
    public func decodeUpright(_ data: Data, minShortSide: Int = 0) throws -> RGBImage {
        try Self.validate(data)
        let (image, header) = try JPEGCodec.decode(data, minShortSide: minShortSide)
        return image.oriented(header.orientation)
    }

    /// From downloaded cover art: a ≤ 500 px JPEG, a 200 px thumbnail and the cover's hashes.
    public func prepareArtwork(_ data: Data) throws -> PreparedArtwork {
        try Self.validate(data)
        let full = try JPEGCodec.probe(data)
        let header = try JPEGCodec.probe(data, minShortSide: artworkSize)
        let image = try JPEGCodec.decode(data, header: header).oriented(full.orientation)
        let side = Double(min(image.width, image.height))
        let crop = ((Double(image.width) - side) / 2, (Double(image.height) - side) / 2, side, side)
        let largeSide = min(artworkSize, Int(side))
        let large = Resampler.resize(image, crop: crop, width: largeSide, height: largeSide)
        let thumbSide = min(thumbnailSize, largeSide)
        let thumb = Resampler.resize(large, width: thumbSide, height: thumbSide)
        return PreparedArtwork(
            large: try JPEGCodec.encode(large, quality: quality),
            thumbnail: try JPEGCodec.encode(thumb, quality: quality),
            hash: CoverHashing.coverHash(of: large))
    }

    /// Just the 200 px thumbnail of downloaded artwork.
    public func thumbnail(fromArtwork data: Data) throws -> Data {
        try prepareArtwork(data).thumbnail
    }

    // MARK: - Validation

    /// Checks the bytes before any decoding: empty, not an image, or a format Crate doesn't decode.
    public static func validate(_ data: Data) throws {
        if data.isEmpty { throw ImageError.emptyFile }
        guard let format = ImageFormat.sniff(data) else { throw ImageError.notAnImage }
        if format != .jpeg { throw ImageError.unsupportedFormat(format.rawValue) }
    }

    static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ImageError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// The square to use, in display coordinates: centred in the photo or in the given rectangle.
    static func square(in crop: NormalizedRect?, width: Double, height: Double) -> (x: Double, y: Double, side: Double) {
        guard let crop else {
            let side = min(width, height)
            return ((width - side) / 2, (height - side) / 2, side)
        }
        let x0 = max(0, min(1, crop.x)) * width, y0 = max(0, min(1, crop.y)) * height
        let x1 = max(0, min(1, crop.x + crop.width)) * width, y1 = max(0, min(1, crop.y + crop.height)) * height
        let side = max(1, min(x1 - x0, y1 - y0))
        return (x0 + (x1 - x0 - side) / 2, y0 + (y1 - y0 - side) / 2, side)
    }
}
