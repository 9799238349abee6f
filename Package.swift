// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Crate",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CrateCore", targets: ["CrateCore"]),
        .executable(name: "crate", targets: ["crate"]),
        .executable(name: "CrateDesktop", targets: ["CrateDesktop"]),
        .executable(name: "crate-player", targets: ["crate-player"]),
        // The heavy libraries, loaded with dlopen at first use (crate_plugins.h): tier-0
        // verification over OpenCV, the player's GStreamer calls, the Secret Service (libsecret,
        // GIO, libgcrypt). Nothing links them; they
        // are found next to the executable, in <prefix>/lib/crate, or in $CRATE_PLUGIN_DIR.
        .library(name: "CrateCoverCheck", type: .dynamic, targets: ["CCoverCheck"]),
        .library(name: "CrateGStreamer", type: .dynamic, targets: ["CGStreamerPlugin"]),
        .library(name: "CrateSecret", type: .dynamic, targets: ["CSecretPlugin"]),
        // EAN/UPC barcodes in photos (ZBar, which pulls in D-Bus, V4L2 and X11).
        .library(name: "CrateBarcode", type: .dynamic, targets: ["CBarcodePlugin"]),
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
        // System library: libsecret's headers and flags, for the keyring plugin only.
        .systemLibrary(
            name: "CSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // API keys in the Secret Service (window and CLI), built only into libCrateSecret.so: no
        // Swift target may depend on it (CrateLive reaches it through crate_plugins.h).
        .target(
            name: "CSecretPlugin",
            dependencies: ["CCratePlugins", "CSecret"],
            linkerSettings: [
                .linkedLibrary("secret-1"), .linkedLibrary("gio-2.0"),
                .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0"),
            ]
        ),
        // C wrapper over libjpeg(-turbo) and libpng (PNG artwork): setjmp/longjmp error handling
        // must stay in C.
        .target(
            name: "CJpeg",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]
        ),
        // gettext (libintl, part of glibc) for `L10n`: Glibc's Swift module does not export it.
        .target(name: "CIntl"),
        // Hamming distances with POPCNT (runtime-dispatched) for tier 0 at library scale.
        .target(name: "CHamming"),
        // The function tables of the loadable parts (header only): what the Swift side sees of them.
        .target(name: "CCratePlugins"),
        // Tier-0 verification (C++ over OpenCV 4.6, Debian's libopencv-dev), built only into
        // libCrateCoverCheck.so: no Swift target may depend on it. The include path is Debian's;
        // see scripts/install-deps.
        .target(
            name: "CCoverCheck",
            dependencies: ["CCratePlugins"],
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [
                .linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_video"), .linkedLibrary("opencv_features2d"),
                .linkedLibrary("opencv_calib3d"),
            ]
        ),
        // EAN-13/EAN-8/UPC-A/UPC-E decoding over ZBar (Debian's libzbar-dev), built only into
        // libCrateBarcode.so: no Swift target may depend on it (CrateCore reaches it through
        // crate_plugins.h).
        .target(
            name: "CBarcodePlugin",
            dependencies: ["CCratePlugins"],
            linkerSettings: [.linkedLibrary("zbar")]
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
        // System library: GStreamer's headers and flags, for the player's plugin only.
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-1.0",
            providers: [.apt(["libgstreamer1.0-dev"])]
        ),
        // The player's GStreamer calls, built only into libCrateGStreamer.so: no Swift target may
        // depend on it (CrateAudio reaches it through crate_plugins.h).
        .target(
            name: "CGStreamerPlugin",
            dependencies: ["CCratePlugins", "CGStreamer"],
            linkerSettings: [
                .linkedLibrary("gstpbutils-1.0"), .linkedLibrary("gstreamer-1.0"),
                .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0"), .linkedLibrary("m"),
            ]
        ),
        .target(
            name: "CrateCore",
            dependencies: [
                "CJpeg",
                "CIntl",
                "CTagLib",
                "CHamming",
                "CCratePlugins",
                "CCurl",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The live bindings the core must not import (libsecret) and the composition root's
        // `AppEnvironment.live`, shared by the window and the CLI.
        .target(
            name: "CrateLive",
            dependencies: ["CrateCore", "CCratePlugins"]
        ),
        // The GStreamer player behind the `Player` protocol (window and CLI), through libCrateGStreamer.so.
        .target(
            name: "CrateAudio",
            dependencies: ["CrateCore", "CCratePlugins"]
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
        // The player process: GStreamer runs here, not in the window or the CLI (a playbin abort
        // must not take them down). docs/decisions/0032-the-player-in-a-process-of-its-own.md
        .executableTarget(
            name: "crate-player",
            dependencies: ["CrateCore", "CrateAudio"]
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
            dependencies: ["CrateCore", "CrateAudio", "CrateTestSupport", "crate-player"]
        ),
        .testTarget(
            name: "CrateCLITests",
            dependencies: ["CrateCLI", "CrateCore", "CrateLive", "CrateTestSupport", "crate", "crate-player"]
        ),
    ]
)
