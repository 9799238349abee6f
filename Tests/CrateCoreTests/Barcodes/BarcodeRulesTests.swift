import CrateCore
import Foundation
import Testing

/// `Barcode`, the one place of the barcode rules: GS1 check digits, UPC-E expansion, UPC-A ⇄
/// EAN-13, books refused, and what a typed barcode may look like.
@Suite("Barcode rules")
struct BarcodeRulesTests {
    @Test("GS1 check digits: valid barcodes of every symbology are accepted")
    func validCheckDigits() throws {
        #expect(Barcode.checkDigit(of: "400638133393") == "1")
        #expect(try Barcode(digits: "4006381333931", symbology: .ean13).gtin13 == "4006381333931")
        #expect(try Barcode(digits: "5099902943527", symbology: .ean13).digits == "5099902943527")
        #expect(try Barcode(digits: "96385074", symbology: .ean8).gtin13 == "0000096385074")
        #expect(try Barcode(digits: "042100005264", symbology: .upcA).gtin13 == "0042100005264")
        #expect(try Barcode(digits: "04252614", symbology: .upcE).upcA == "042100005264")
    }

    @Test("A wrong check digit is refused, saying which digit was expected")
    func wrongCheckDigit() {
        #expect(throws: BarcodeError.wrongCheckDigit("4006381333932", expected: "1")) {
            try Barcode(digits: "4006381333932", symbology: .ean13)
        }
        #expect(throws: BarcodeError.wrongCheckDigit("042100005265", expected: "4")) { try Barcode(typed: "042100005265") }
        #expect(throws: BarcodeError.self) { try Barcode(digits: "04252615", symbology: .upcE) }
        let message = BarcodeError.wrongCheckDigit("4006381333932", expected: "1").message
        #expect(message.contains("4006381333932") && message.contains("should be 1"))
    }

    @Test("UPC-E expands to UPC-A by its sixth digit (known pairs)")
    func upcEExpansion() throws {
        let pairs = [("04252614", "042100005264"), ("01234565", "012345000065"), ("02345673", "023456000073"),
                     ("06320652", "063206000052")]
        for (upcE, upcA) in pairs {
            #expect(Barcode.expandUPCE(upcE) == upcA)
            let e = try Barcode(digits: upcE, symbology: .upcE), a = try Barcode(digits: upcA, symbology: .upcA)
            #expect(e.isSameItem(as: a))
            #expect(e.searchForms == [upcE, upcA, "0" + upcA])
        }
        // Sixth digit 0-2, 3, 4 and 5-9: where the zeros go (the check digit is carried over as it is).
        #expect(Barcode.expandUPCE("01234520") == "012200003450")
        #expect(Barcode.expandUPCE("01234530") == "012300000450")
        #expect(Barcode.expandUPCE("01234540") == "012340000050")
        #expect(Barcode.expandUPCE("01234590") == "012345000090")
        // A UPC-E must have number system 0 or 1.
        #expect(throws: BarcodeError.wrongLength("24252614")) { try Barcode(digits: "24252614", symbology: .upcE) }
    }

    @Test("UPC-A and the EAN-13 with a leading 0 are the same item")
    func upcAIsEAN13WithLeadingZero() throws {
        let upc = try Barcode(typed: "042100005264")
        let ean = try Barcode(typed: "0042100005264")
        #expect(upc.symbology == .upcA && ean.symbology == .ean13)
        #expect(upc.isSameItem(as: ean) && upc.gtin13 == ean.gtin13)
        #expect(ean.upcA == "042100005264")
        #expect(upc.searchForms == ["042100005264", "0042100005264"])
        #expect(ean.searchForms == ["0042100005264", "042100005264"])
        #expect(try Barcode(typed: "5099902943527").upcA == nil)
        #expect(!(try Barcode(typed: "5099902943527")).isSameItem(as: upc))
    }

    @Test("A book's barcode (ISBN, 978/979) is refused with a clear message")
    func isbnRefused() {
        #expect(throws: BarcodeError.isbn("9780306406157")) { try Barcode(typed: "978-0-306-40615-7") }
        #expect(throws: BarcodeError.isbn("9790260000438")) { try Barcode(digits: "9790260000438", symbology: .ean13) }
        #expect(BarcodeError.isbn("9780306406157").message == "9780306406157 is a book's barcode (ISBN), not a record's.")
        #expect(BarcodeError.isbn("9780306406157").code == "isbn")
    }

    @Test("Typed barcodes: spaces and hyphens ignored, lengths and digits checked, 8 digits EAN-8 or else UPC-E")
    func typed() throws {
        #expect(try Barcode(typed: " 5 099902 943527\n").digits == "5099902943527")
        #expect(try Barcode(typed: "96385074").symbology == .ean8)
        #expect(try Barcode(typed: "04252614").symbology == .upcE)
        #expect(throws: BarcodeError.wrongLength("12345")) { try Barcode(typed: "12345") }
        #expect(throws: BarcodeError.wrongLength("50999029435271")) { try Barcode(typed: "50999029435271") }
        #expect(throws: BarcodeError.notDigits("50999O2943527")) { try Barcode(typed: "50999O2943527") }
        #expect(throws: BarcodeError.notDigits("")) { try Barcode(typed: "  ") }
        #expect(throws: BarcodeError.wrongLength("4006381333931")) { try Barcode(digits: "4006381333931", symbology: .upcA) }
        #expect(throws: BarcodeError.notDigits("")) { try Barcode(digits: "", symbology: .ean8) }
    }

    @Test("Encoded and decoded as digits and symbology; decoding checks the rules")
    func codable() throws {
        let barcode = try Barcode(typed: "04252614")
        let data = try JSONEncoder().encode(barcode)
        #expect(try JSONDecoder().decode(Barcode.self, from: data) == barcode)
        let wrong = Data(#"{"digits":"4006381333932","symbology":"EAN-13"}"#.utf8)
        #expect(throws: BarcodeError.wrongCheckDigit("4006381333932", expected: "1")) { try JSONDecoder().decode(Barcode.self, from: wrong) }
    }
}
