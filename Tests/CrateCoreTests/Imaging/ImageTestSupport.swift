import CrateCore
import Foundation

/// Pixels of a fixture as ImageMagick decodes them (an independent reference), resized to size×size.
func referencePixels(_ relative: String, size: Int) throws -> RGBImage {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
    process.arguments = [ImageFixtures.url(relative).path, "-colorspace", "sRGB", "-resize", "\(size)x\(size)!", "-depth", "8", "rgb:-"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RGBImage(width: size, height: size, pixels: [UInt8](data))
}

/// Mean absolute per-channel difference of two same-size images.
func meanAbsoluteDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
    precondition(a.pixels.count == b.pixels.count)
    var total = 0
    for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
    return Double(total) / Double(a.pixels.count)
}
