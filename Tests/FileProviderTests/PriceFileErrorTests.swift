import FileProviderLibrary
import Testing

struct PriceFileErrorTests {
    @Test func descriptionNamesThePathTheLocationAndTheReason() {
        let error = PriceFileError(path: "/srv/prices.json", location: "[2].amount", reason: #"not a decimal number: "12,5""#)
        #expect(error.description == #"/srv/prices.json: [2].amount: not a decimal number: "12,5""#)
    }

    @Test func descriptionLeavesOutAnEmptyLocation() {
        let error = PriceFileError(path: "/srv/prices.csv", location: "", reason: "no prices in the file")
        #expect(error.description == "/srv/prices.csv: no prices in the file")
    }
}
