/// What an HTTP attempt draws from before it is sent: a provider's request budget.
/// The instance's own ``TokenBucket``, or, for a `serve` fleet, the fleet's bucket in Redis.
package protocol RequestBudget: Sendable {
    /// Takes one request's worth, waiting as long as the budget says.
    func take() async throws
}

extension TokenBucket: RequestBudget {}
