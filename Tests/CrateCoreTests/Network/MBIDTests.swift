import CrateCore
import Testing

@Suite("MBID")
struct MBIDTests {
    @Test func acceptsAndLowercasesUUIDs() throws {
        #expect(try MBID("7EC069C0-4424-3169-8ED0-D5E2473E0E84").rawValue == "7ec069c0-4424-3169-8ed0-d5e2473e0e84")
    }

    @Test(arguments: [
        "../etc/passwd", "", "7ec069c0-4424-3169-8ed0-d5e2473e0e8", "7ec069c0-4424-3169-8ed0-d5e2473e0e84/..",
        "7ec069c0_4424_3169_8ed0_d5e2473e0e84", "zzc069c0-4424-3169-8ed0-d5e2473e0e84", "7ec069c0-4424-3169-8ed0-d5e2473e0e8%",
        "７ec069c0-4424-3169-8ed0-d5e2473e0e84",
    ])
    func rejectsAnythingElse(input: String) {
        #expect(throws: MBIDError.invalid(input)) { try MBID(input) }
    }
}
