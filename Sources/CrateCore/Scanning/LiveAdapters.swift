import Foundation

// The providers' own types, seen through the scan pipeline's small protocols.

extension VisionIdentifier: CoverIdentifying {
    public var identity: String? { "\(providerKind.rawValue)/\(providerModel)" }

    public func identify(photoJPEG: Data) async throws -> VisionAnswer? {
        do {
            switch try await identify(jpeg: photoJPEG) {
            case .identified(let found):
                let answer = found.answer
                return VisionAnswer(artist: answer.artist, album: answer.album, year: answer.year, label: answer.label,
                                    confidence: answer.confidence, usedSearch: found.tier == .visionSearch, sleeve: answer.sleeve)
            case .notIdentified:
                return nil
            }
        } catch IdentificationError.unreadableAnswer {
            return nil
        } catch IdentificationError.provider(let error) where error.needsSettings {
            throw ProviderKeyProblem(keyProblemMessage: error.message)
        } catch IdentificationError.provider(let error) where ScanFailure.isCancellation(error) {
            throw ScanFailure.cancelled
        } catch IdentificationError.provider(let error) where ScanFailure.isUnreachable(error) {
            // No network: plain words, and the photo waits in the queue for the connection.
            throw ScanFailure.offline(service: providerKind.displayName)
        } catch IdentificationError.provider(let error) {
            // The scan was stopped (Ctrl+C, the window's cancel): not the service's answer at all.
            if Task.isCancelled { throw CancellationError() }
            // Overloaded, rate limited, a server error: passing trouble, typed so the queue keeps
            // the photo's tries. Otherwise (refused, unreadable) say so instead of "unable to identify".
            if error.isTransient { throw ServiceTroubleError(error) }
            throw ScanFailure.other(error.message)
        }
    }
}

extension ReviewService: AlbumReviewing {
    public func cachedReview(for album: Album) throws -> Review? {
        cachedReview(for: try ReviewInput(album: album))
    }

    public func review(for album: Album, regenerate: Bool) async throws -> Review {
        do {
            return try await review(for: ReviewInput(album: album), regenerate: regenerate).review
        } catch let error as ReviewError where error.needsSettings {
            throw ProviderKeyProblem(keyProblemMessage: error.message)
        }
    }
}

/// A provider's passing trouble (429, 5xx, 529, a dropped connection) during a scan. Its message
/// is the provider error's; the bulk queue puts the photo back with all its tries.
public struct ServiceTroubleError: Error, Equatable, LocalizedError {
    public let underlying: ProviderError

    public init(_ underlying: ProviderError) {
        self.underlying = underlying
    }

    public var errorDescription: String? { underlying.message }
}
