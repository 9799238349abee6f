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
                                    confidence: answer.confidence, usedSearch: found.tier == .visionSearch)
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
            // Network down, overloaded, refused: say so instead of "unable to identify".
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
