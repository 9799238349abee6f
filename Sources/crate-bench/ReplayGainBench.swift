import CrateAudio
import CrateCore
import CrateTestSupport
import Foundation

@MainActor
func benchReplayGain() async throws {}
