import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `POST /`: the Chainlink external-adapter contract.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeChainlinkTests {
    @Test(arguments: [
        #"{"id":"1","data":{"base":"ETH","quote":"USD"}}"#,
        #"{"id":"1","data":{"from":"eth","to":"usd"}}"#,
        #"{"id":1,"data":{"coin":"ETH","market":"USD"}}"#,
        #"{"id":"1","data":{"base":"ETH"}}"#,
    ])
    func aPriceIsTheResultInBothPlaces(body: String) throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.post("/", body: body)
        #expect(reply.status == 200)
        #expect(reply.body == #"{"jobRunID":"1","data":{"result":"3120.48"},"result":"3120.48","statusCode":200}"#)
    }

    @Test func aFailedFetchIsErroredWith500() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.post("/", body: #"{"id":"abc","data":{"base":"DOGE","quote":"USD"}}"#)
        #expect(reply.status == 500)
        #expect(reply.body.hasPrefix(#"{"jobRunID":"abc","status":"errored","error":{"name":"AdapterError","message":"file: no price for DOGE-USD in "#), "\(reply)")
        #expect(reply.body.hasSuffix(#""},"statusCode":500}"#))
    }

    @Test(arguments: [
        ("not json", #"{"jobRunID":"1","status":"errored","error":{"name":"AdapterInputError","message":"#),
        (#"{"id":"9","data":{"quote":"USD"}}"#, #"{"jobRunID":"9","status":"errored","error":{"name":"AdapterInputError","message":"data: needs base (or from, or coin): the asset code"},"statusCode":400}"#),
        (#"{"id":"9","data":{"base":"../etc"}}"#, #"{"jobRunID":"9","status":"errored","error":{"name":"AdapterInputError","message":"data.base: not an asset code (2 to 10 letters or digits)"},"statusCode":400}"#),
        (#"{"id":"9"}"#, #"{"jobRunID":"9","status":"errored","error":{"name":"AdapterInputError","message":"#),
    ])
    func anUnreadableRequestIsErroredWith400(body: String, expected: String) throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let reply = try server.post("/", body: body)
        #expect(reply.status == 400)
        #expect(reply.body.hasPrefix(expected), "\(reply)")
        #expect(reply.body.hasSuffix(#","statusCode":400}"#))
    }
}
