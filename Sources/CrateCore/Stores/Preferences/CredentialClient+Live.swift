/// The clients the app tests keys and tokens with: one tiny real request each, never recorded as
/// usage and never retried at length (a person is waiting for the answer).
extension CredentialClient where Context == ProviderTarget {
    /// Sends the provider one tiny completion; the identity is the model that answered.
    public static func provider(http: any HTTPClient) -> CredentialClient {
        CredentialClient { key, target in
            let provider = ProviderFactory.makeDirect(kind: target.kind, key: key.isEmpty ? nil : key, model: target.model,
                                                      endpoint: target.endpoint, http: http)
            guard let provider else { throw ProviderError.missingKey(target.kind) }
            let request = LLMRequest(system: "Answer with the single word OK.", user: "Connection test from Crate.", purpose: .review, maxOutputTokens: 8)
            return try await provider.complete(request).model
        }
    }
}

extension CredentialClient where Context == AccountTarget {
    /// ListenBrainz's `validate-token`; the identity is the user the token belongs to.
    public static func listenBrainz(transport: any HTTPClient, limiter: RateLimiter) -> CredentialClient {
        CredentialClient { token, target in
            let user = target.user.isEmpty ? nil : target.user
            let client = ListenBrainzClient.live(settings: target.settings, user: user, token: token, transport: transport, limiter: limiter)
            return try await client.validateToken()
        }
    }

    /// Discogs' `/oauth/identity`; the identity is the user the token belongs to.
    public static func discogs(transport: any HTTPClient, limiter: RateLimiter) -> CredentialClient {
        CredentialClient { token, target in
            // No retry and no long pacing wait: a person is waiting for this answer.
            var policy = DiscogsClient.retryPolicy
            policy.maxAttempts = 1
            policy.failFastAfter = 5
            let client = DiscogsClient(http: ResilientHTTPClient(base: transport, policy: policy, limiter: limiter), limiter: limiter,
                                       baseURL: target.settings.endpoints.discogs, token: token, contact: target.settings.musicBrainzContact)
            return try await client.identity()
        }
    }
}
