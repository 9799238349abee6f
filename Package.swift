// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Crate",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CrateCore", targets: ["CrateCore"]),
        .executable(name: "crate", targets: ["crate"]),
        .executable(name: "CrateDesktop", targets: ["CrateDesktop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        // System library: GTK4 and libadwaita 1.2 (which pulls in gtk4). Only CrateDesktop may depend on it.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]
        ),
        // System library: libsecret, for API keys in the Secret Service (window and CLI).
        .systemLibrary(
            name: "CSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // C wrapper over libjpeg(-turbo): setjmp/longjmp error handling must stay in C.
        .target(
            name: "CJpeg",
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        // gettext (libintl, part of glibc) for `L10n`: Glibc's Swift module does not export it.
        .target(name: "CIntl"),
        // Hamming distances with POPCNT (runtime-dispatched) for tier 0 at library scale.
        .target(name: "CHamming"),
        // Tier-0 verification (C++ over OpenCV 4.6, Debian's libopencv-dev): only a C interface
        // crosses into Swift. The include path is Debian's; see scripts/install-deps.
        .target(
            name: "CCoverCheck",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [
                .linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_video"),
            ]
        ),
        // System library: libcurl, the one HTTP client (CrateCore/Networking).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // TagLib's C++ API behind a C interface: the C binding has no property map (album artist,
        // disc number, MusicBrainz ids). docs/decisions/0011-tag-reading-with-taglib.md
        .target(
            name: "CTagLib",
            linkerSettings: [.linkedLibrary("tag"), .linkedLibrary("stdc++")]
        ),
        // System library: GStreamer, used only by CrateAudio (the real player).
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-1.0",
            providers: [.apt(["libgstreamer1.0-dev"])]
        ),
        .target(
            name: "CrateCore",
            dependencies: [
                "CJpeg",
                "CIntl",
                "CTagLib",
                "CHamming",
                "CCoverCheck",
                "CCurl",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The live bindings the core must not import (libsecret) and the composition root's
        // `AppEnvironment.live`, shared by the window and the CLI.
        .target(
            name: "CrateLive",
            dependencies: ["CrateCore", "CSecret"]
        ),
        // The GStreamer player behind the `Player` protocol (window and CLI).
        .target(
            name: "CrateAudio",
            dependencies: ["CrateCore", "CGStreamer"]
        ),
        .target(
            name: "CrateCLI",
            dependencies: [
                "CrateCore",
                "CrateAudio",
                "CrateLive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "crate",
            dependencies: ["CrateCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "crate-bench",
            // The loopback fixture server stands in for ListenBrainz and MusicBrainz in `wall` and `artist`.
            dependencies: ["CrateCore", "CrateAudio", "CrateTestSupport"]
        ),
        .executableTarget(
            name: "CrateDesktop",
            dependencies: ["CrateCore", "CrateLive", "CrateAudio", "CGtk"]
        ),
        // Test helpers (loopback fixture server, virtual clock); never linked into the app.
        .target(
            name: "CrateTestSupport",
            dependencies: ["CrateCore"]
        ),
        // libFuzzer harnesses (docs/reliability.md #14). A plain build makes small replay tools; the
        // fuzzers themselves are built by scripts/fuzz with -sanitize=fuzzer and -DCRATE_FUZZ.
        .executableTarget(
            name: "FuzzJPEG",
            dependencies: ["CrateCore"],
            path: "Sources/Fuzz/FuzzJPEG"
        ),
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["CrateCore", "CrateTestSupport"],
            path: "Sources/Fuzz/FuzzJSON"
        ),
        .testTarget(
            name: "CrateCoreTests",
            dependencies: ["CrateCore", "CrateAudio", "CrateTestSupport"]
        ),
        .testTarget(
            name: "CrateCLITests",
            dependencies: ["CrateCLI", "CrateCore", "CrateLive", "CrateTestSupport", "crate"]
        ),
    ]
)
