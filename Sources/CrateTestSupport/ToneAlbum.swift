import CrateCore
import Foundation

/// An album cut from one continuous signal: a sum of five sines at unrelated frequencies (no
/// period shorter than seconds, so a shifted copy never looks like itself), 48 kHz mono, cut
/// into tracks of unequal lengths that are not multiples of any codec's frame. Played gapless,
/// the tracks must give back the signal without a seam; `PCMCapture` measures the seams.
/// Encoded at test time with Debian's encoders (`lame`, `ffmpeg`, `oggenc`, `opusenc`) and
/// `gst-launch-1.0` for FLAC; nothing is checked in.
public struct ToneAlbum: Sendable {
    public static let rate = 48_000
    public static let frequencies: [Double] = [197, 311, 463, 701, 1033]

    /// The continuous signal, −1…1.
    public let signal: [Float]
    public let trackLengths: [Int]

    /// `gainDb` scales the whole album (two albums "mastered 10 dB apart").
    public init(trackSeconds: [Double], gainDb: Double = -6) {
        trackLengths = trackSeconds.map { Int(($0 * Double(Self.rate)).rounded()) }
        let count = trackLengths.reduce(0, +)
        // Each sine at 1/5 of the amplitude: the sum's peak stays at the album's gain.
        let amplitude = pow(10, gainDb / 20) / Double(Self.frequencies.count)
        var signal = [Float](repeating: 0, count: count)
        for (k, frequency) in Self.frequencies.enumerated() {
            let step = 2 * Double.pi * frequency / Double(Self.rate)
            for i in 0..<count { signal[i] += Float(amplitude * sin(step * Double(i) + Double(k))) }
        }
        self.signal = signal
    }

    /// Where each track starts in the signal, and where the last one ends.
    public var boundaries: [Int] {
        var positions = [0]
        for length in trackLengths { positions.append(positions.last! + length) }
        return positions
    }

    /// The formats made from the WAV tracks, each with the tool that encodes it.
    public enum Format: String, CaseIterable, Sendable {
        case flac, mp3Lame = "mp3-lame", mp3FFmpeg = "mp3-ffmpeg", aacM4A = "aac-m4a-ffmpeg", vorbis = "vorbis-oggenc", opus = "opus-opusenc"

        public var fileExtension: String {
            switch self {
            case .flac: "flac"
            case .mp3Lame, .mp3FFmpeg: "mp3"
            case .aacM4A: "m4a"
            case .vorbis: "ogg"
            case .opus: "opus"
            }
        }

        /// The encoder's program.
        public var tool: String { command(input: "", output: "").first ?? "" }

        /// The encoder's command line (through /usr/bin/env).
        func command(input: String, output: String) -> [String] {
            switch self {
            case .flac: ["gst-launch-1.0", "-q", "filesrc", "location=\(input)", "!", "wavparse", "!", "audioconvert", "!", "flacenc", "!", "filesink", "location=\(output)"]
            case .mp3Lame: ["lame", "--quiet", "-b", "192", input, output]
            case .mp3FFmpeg: ["ffmpeg", "-loglevel", "error", "-y", "-i", input, "-c:a", "libmp3lame", "-b:a", "192k", output]
            case .aacM4A: ["ffmpeg", "-loglevel", "error", "-y", "-i", input, "-c:a", "aac", "-b:a", "192k", output]
            case .vorbis: ["oggenc", "-Q", "-q", "6", "-o", output, input]
            case .opus: ["opusenc", "--quiet", "--bitrate", "128", input, output]
            }
        }

        /// The Debian package with the encoder.
        public var package: String {
            switch self {
            case .flac: "gstreamer1.0-tools"
            case .mp3Lame: "lame"
            case .mp3FFmpeg, .aacM4A: "ffmpeg"
            case .vorbis: "vorbis-tools"
            case .opus: "opus-tools"
            }
        }
    }

    public enum ToneError: Error, CustomStringConvertible {
        case encoderFailed(String)
        public var description: String {
            switch self {
            case .encoderFailed(let command): "encoder failed: \(command)"
            }
        }
    }

    /// The tracks as 16-bit WAV files in `directory` (01.wav, 02.wav, …).
    public func writeWAVs(in directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var paths: [String] = []
        for (index, range) in zip(boundaries, boundaries.dropFirst()).map({ $0..<$1 }).enumerated() {
            let path = "\(directory)/\(String(format: "%02d", index + 1)).wav"
            try Self.wav(signal[range]).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }

    /// The tracks encoded as `format` in `directory`, tagged with `tags` when given (TagLib).
    public func encode(_ format: Format, in directory: String, tags: [String: String] = [:]) throws -> [String] {
        let wavs = try writeWAVs(in: directory + "/wav")
        var paths: [String] = []
        for (index, wav) in wavs.enumerated() {
            let output = "\(directory)/\(String(format: "%02d", index + 1)).\(format.fileExtension)"
            try? FileManager.default.removeItem(atPath: output)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = format.command(input: wav, output: output)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: output) else {
                throw ToneError.encoderFailed(process.arguments?.joined(separator: " ") ?? "")
            }
            var trackTags = tags
            if !tags.isEmpty { trackTags["TRACKNUMBER"] = String(index + 1) }
            if !trackTags.isEmpty, !TagReader.write(trackTags, to: output) { throw ToneError.encoderFailed("tagging \(output)") }
            paths.append(output)
        }
        return paths
    }

    /// Whether `tool` is on PATH (the benchmark skips a format whose encoder is missing).
    public static func hasTool(_ tool: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "command -v \(tool)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func wav(_ samples: ArraySlice<Float>) -> Data {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(1)
        u32(UInt32(rate)); u32(UInt32(rate * 2)); u16(2); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(bytes)
        for sample in samples {
            let value = Int16(max(-32_767, min(32_767, (sample * 32_767).rounded())))
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}
