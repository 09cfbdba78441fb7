import Testing
@testable import Injection
