import Testing
@testable import CrateCore

@Suite("Renderer policy")
struct RendererPolicyTests {
    private func settings(_ environment: [String: String], _ nodes: [String], nvidia: Bool = false) -> [String] {
        RendererPolicy.environment(for: environment, driNodes: nodes, hasNvidia: nvidia).map { "\($0.name)=\($0.value)" }
    }

    @Test func noGPUMeansCairoWithoutSettingUpGL() {
        #expect(settings([:], []) == ["GSK_RENDERER=cairo", "GDK_DEBUG=gl-disable"])
        #expect(settings([:], ["by-path"]) == ["GSK_RENDERER=cairo", "GDK_DEBUG=gl-disable"])
    }

    @Test func aGPULeavesGTKItsOwnChoice() {
        #expect(settings([:], ["card0", "renderD128"]).isEmpty)
        #expect(settings([:], ["renderD128"]).isEmpty)
        #expect(settings([:], [], nvidia: true).isEmpty)
    }

    @Test func softwareGLAskedForMeansCairoEvenWithAGPU() {
        #expect(settings(["LIBGL_ALWAYS_SOFTWARE": "1"], ["renderD128"]) == ["GSK_RENDERER=cairo", "GDK_DEBUG=gl-disable"])
        #expect(settings(["LIBGL_ALWAYS_SOFTWARE": "true"], ["renderD128"]) == ["GSK_RENDERER=cairo", "GDK_DEBUG=gl-disable"])
        #expect(settings(["LIBGL_ALWAYS_SOFTWARE": "0"], ["renderD128"]).isEmpty)
    }

    @Test func theUsersChoicesAreNeverOverridden() {
        #expect(settings(["GSK_RENDERER": "gl"], []).isEmpty)
        #expect(settings(["GSK_RENDERER": "ngl", "LIBGL_ALWAYS_SOFTWARE": "1"], []).isEmpty)
        #expect(settings(["GDK_DEBUG": "events"], []) == ["GSK_RENDERER=cairo"])
    }
}
