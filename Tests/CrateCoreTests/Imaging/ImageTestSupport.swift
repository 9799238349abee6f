import CrateCore
import Foundation

/// Pixels of a fixture as ImageMagick decodes them (an independent reference), resized to size×size.
func referencePixels(_ relative: String, size: Int) throws -> RGBImage {
    try referencePixels(relative, width: size, height: size, autoOrient: false)
}

/// Same, at width×height, optionally upright per EXIF (`-auto-orient`).
func referencePixels(_ relative: String, width: Int, height: Int, autoOrient: Bool) throws -> RGBImage {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
    process.arguments = [ImageFixtures.url(relative).path] + (autoOrient ? ["-auto-orient"] : [])
        + ["-colorspace", "sRGB", "-resize", "\(width)x\(height)!", "-depth", "8", "rgb:-"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RGBImage(width: width, height: height, pixels: [UInt8](data))
}

/// Mean absolute per-channel difference of two same-size images.
func meanAbsoluteDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
    precondition(a.pixels.count == b.pixels.count)
    var total = 0
    for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
    return Double(total) / Double(a.pixels.count)
}
