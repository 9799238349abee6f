import CrateCore
import Foundation

/// Fuzz harness for the JPEG wrapper (docs/reliability.md #14): header probe, scaled decode, and the
/// artwork preparation that the Cover Art Archive's bytes go through. Any input must end in an
/// image or an `ImageError`, never a crash, a hang or a sanitizer report.
///
/// Built two ways: with `-DCRATE_FUZZ` (see `scripts/fuzz`) libFuzzer drives
/// `LLVMFuzzerTestOneInput`; in a plain build this is a small tool that replays files through the
/// same code, which is how a crash found by the fuzzer becomes a reproducible case.
enum FuzzJPEG {
    static func run(_ data: Data) {
        // Errors are the expected answer to most inputs; only crashes matter here.
        guard let header = try? JPEGCodec.probe(data, minShortSide: 32) else { return }
        // Scaled down (DCT scaling) so a valid 80 MP header does not spend seconds per input.
        guard let image = try? JPEGCodec.decode(data, header: header, fast: header.scaledWidth * header.scaledHeight > 1 << 20) else { return }
        _ = image.width
        // The full artwork path (orient, crop, resize, hash, re-encode) is slow per input, so
        // only small images take it; the decoder above sees every input.
        if header.width * header.height <= 128 * 128 {
            _ = try? ImagePreparer().prepareArtwork(data)
        }
    }
}

#if CRATE_FUZZ
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzJPEG.run(bytes.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}

/// SwiftPM links every executable with `main` aliased to `<Module>_main`, which shadows
/// libFuzzer's own `main`; so this is the entry point, and it hands over to libFuzzer's driver.
@_cdecl("FuzzJPEG_main")
public func fuzzJPEGMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzJPEGTestOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#else
@main
enum FuzzJPEGReplay {
    static func main() {
        let files = CommandLine.arguments.dropFirst()
        if files.isEmpty {
            print("usage: FuzzJPEG FILE... (replays inputs; build with scripts/fuzz to fuzz)")
        }
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): unreadable")
                continue
            }
            FuzzJPEG.run(data)
            print("\(path): ok")
        }
    }
}
#endif
