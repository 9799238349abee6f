import ArgumentParser
import CrateCore
import Foundation

extension DebugCommand {
    /// `crate debug barcode PHOTO [--json]`: the EAN/UPC barcodes in a photo, as the scan will read
    /// them (`BarcodeReader`), with the ones refused (books' ISBNs) and why.
    struct ReadBarcodes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "barcode",
            abstract: "Print the EAN/UPC barcodes found in a photo (exit 2 when there are none)."
        )

        @Argument(help: "A JPEG or PNG photo.")
        var photo: String

        @Flag(help: "Print JSON instead of lines.")
        var json = false

        @Flag(help: "Every pass on every line (slower on a photo without a barcode).")
        var thorough = false

        func run() throws {
            let readings: [BarcodeReading]
            let elapsed: Double
            do {
                let image = try BarcodeReader.decodePhoto(at: URL(fileURLWithPath: photo))
                let start = DispatchTime.now().uptimeNanoseconds
                readings = try (thorough ? BarcodeReader.thorough : BarcodeReader()).readings(image)
                elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            } catch {
                throw fail(error)
            }
            if json {
                print(try BarcodeJSON.render(readings, milliseconds: elapsed))
            } else if readings.isEmpty {
                Terminal.say("No barcode found.")
            } else {
                for reading in readings {
                    let where_ = "at \(reading.box.x),\(reading.box.y) \(reading.box.width)×\(reading.box.height)"
                    switch reading.result {
                    case .success(let barcode):
                        Terminal.say("\(barcode.symbology.rawValue) \(barcode.digits) (GTIN-13 \(barcode.gtin13), quality \(reading.quality), \(reading.pass.rawValue) pass, \(where_))")
                    case .failure(let problem):
                        Terminal.say("\(reading.symbology.rawValue) \(reading.digits) refused: \(problem.message)")
                    }
                }
            }
            if readings.allSatisfy({ $0.barcode == nil }) { throw ExitCode(2) }
        }
    }
}

/// The JSON shape of `crate debug barcode --json`.
enum BarcodeJSON {
    struct Box: Encodable {
        let x: Int, y: Int, width: Int, height: Int
    }

    struct Entry: Encodable {
        let symbology: String
        let digits: String
        let gtin13: String?
        let valid: Bool
        let problem: String?
        let problem_code: String?
        let quality: Int
        let pass: String
        let box: Box
    }

    struct Output: Encodable {
        let barcodes: [Entry]
        let milliseconds: Double
    }

    static func render(_ readings: [BarcodeReading], milliseconds: Double) throws -> String {
        let entries = readings.map { reading in
            let problem: BarcodeError? = if case .failure(let error) = reading.result { error } else { nil }
            return Entry(symbology: reading.symbology.rawValue, digits: reading.digits, gtin13: reading.barcode?.gtin13,
                         valid: reading.barcode != nil, problem: problem?.message, problem_code: problem?.code,
                         quality: reading.quality, pass: reading.pass.rawValue,
                         box: Box(x: reading.box.x, y: reading.box.y, width: reading.box.width, height: reading.box.height))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let rounded = (milliseconds * 10).rounded() / 10
        return Terminal.json(try encoder.encode(Output(barcodes: entries, milliseconds: rounded)))
    }
}
