import Foundation

/// Per-stage timings of photo preparation, for the benchmark (not used by the app).
public enum StageTimer {
    /// Median inputs per stage: each stage run `runs` times on the same photo.
    public static func measure(_ data: Data, preparer: ImagePreparer, runs: Int) throws -> [(String, [Double])] {
        var probe: [Double] = [], decode: [Double] = [], resize: [Double] = [], orient: [Double] = []
        var encode: [Double] = [], integralT: [Double] = [], search: [Double] = [], quads: [Double] = []
        var total: [Double] = [], edge: [Double] = [], find: [Double] = [], warp: [Double] = []
        for _ in 0..<runs {
            var header: JPEGHeader?
            probe.append(try time { header = try JPEGCodec.probe(data, minShortSide: preparer.visionSize, powerOfTwoOnly: true) })
            guard let header else { continue }
            var stored: RGBImage?
            decode.append(try time { stored = try JPEGCodec.decode(data, header: header, fast: true) })
            guard let stored else { continue }
            let side = Double(min(stored.width, stored.height))
            let crop = ((Double(stored.width) - side) / 2, (Double(stored.height) - side) / 2, side, side)
            var small: RGBImage?
            resize.append(time { small = Resampler.resize(stored, crop: crop, width: preparer.visionSize, height: preparer.visionSize) })
            guard let small else { continue }
            var upright: RGBImage?
            orient.append(time { upright = small.oriented(header.orientation) })
            encode.append(try time { _ = try JPEGCodec.encode(upright ?? small, quality: preparer.quality) })
            var integral: IntegralImage?
            integralT.append(time { integral = IntegralImage(stored) })
            guard let integral else { continue }
            search.append(time { _ = CoverHashing.photoHashes(of: integral, orientation: header.orientation, search: preparer.cropSearch) })
            quads.append(time {
                _ = CoverHashing.quadHashes(QuadFinder.find(in: stored), integral: integral, orientation: header.orientation)
            })
            edge.append(time { _ = EdgeMap(stored) })
            var found: [Quad] = []
            find.append(time { found = QuadFinder.find(in: stored) })
            warp.append(time { _ = CoverHashing.quadHashes(found, integral: integral, orientation: header.orientation) })
            total.append(try time { _ = try preparer.preparePhoto(data) })
        }
        return [("probe", probe), ("decode (DCT-scaled, alone)", decode), ("crop+resize 1024", resize), ("orient", orient),
                ("encode 1024 JPEG", encode), ("hash: luma integral", integralT), ("hash: crop search", search),
                ("hash: edge quads + warp", quads), ("  edge map", edge), ("  find (incl. edge map)", find), ("  warp hashes", warp), ("total preparePhoto (decode streams rows to the other core)", total)]
    }

    private static func time(_ block: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try block()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
