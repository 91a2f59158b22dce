import ShipcheckCore

/// The libraries of the Android platform an app's native code may name in `DT_NEEDED`: the
/// NDK's stable APIs (`meta/system_libs.json`, with the API level each appeared at; the oldest
/// are listed by the NDK as "16 or earlier") and the device's public list
/// (`system/core/rootdir/etc/public.libraries.android.txt`). Every other platform library is
/// private: since API 24, `dlopen` refuses it for apps ("is not accessible for the namespace").
package enum NDKSystemLibraries {
    package static let source = DataSource(
        title: "NDK meta/system_libs.json (r24) and AOSP public.libraries.android.txt",
        url: "https://developer.android.com/ndk/guides/stable_apis", retrieved: "2026-11-27")

    /// Public library → the first API level that has it.
    package static let publicLibraries: [String: Int] = [
        "libc.so": 3, "libm.so": 3, "libdl.so": 3, "liblog.so": 3, "libz.so": 3, "libstdc++.so": 3,
        "libGLESv1_CM.so": 4, "libGLESv2.so": 5, "libjnigraphics.so": 8,
        "libEGL.so": 9, "libOpenSLES.so": 9, "libandroid.so": 9, "libOpenMAXAL.so": 14,
        "libGLESv3.so": 18, "libmediandk.so": 21,
        "libcamera2ndk.so": 24, "libvulkan.so": 24,
        "libaaudio.so": 26, "libnativewindow.so": 26, "libsync.so": 26,
        "libneuralnetworks.so": 27,
        "libamidi.so": 29, "libbinder_ndk.so": 29,
        "libicu.so": 31, "libnativehelper.so": 31,
        // On the device's public list, outside the NDK's stable APIs.
        "libicui18n.so": 24, "libicuuc.so": 24, "libRS.so": 24, "libwebviewchromium_plat_support.so": 24,
        "libclang_rt.hwasan-aarch64-android.so": 29
    ]

    /// Private platform libraries apps linked before API 24 (bionic's `kLibraryExemptList`):
    /// the ones a library built against an old NDK or copied from a device may still name.
    package static let formerlyExempt: Set<String> = [
        "libandroid_runtime.so", "libbinder.so", "libcrypto.so", "libcutils.so", "libexpat.so", "libgui.so",
        "libmedia.so", "libnativehelper.so", "libssl.so", "libstagefright.so", "libsqlite.so", "libui.so",
        "libutils.so"
    ]

    /// The platform's own C++ runtime, private: apps package the NDK's `libc++_shared.so`.
    package static let platformCXXRuntime = "libc++.so"

    /// Whether `needed` (a library's `DT_NEEDED`) names a library of Android's: one of the public
    /// libraries by its unversioned name (`libdl.so`, `libm.so`, `liblog.so`; glibc's are
    /// `libdl.so.2`, `libm.so.6`). `libc.so` alone is not enough: musl's C library has that
    /// name too (the NDK links `libm.so` and `libdl.so` beside it).
    package static func namesAnAndroidLibrary(_ needed: [String]) -> Bool {
        needed.contains { $0 != "libc.so" && publicLibraries[$0] != nil }
    }

    /// Libraries of the Swift SDK for Android's runtime, which the app packages per ABI.
    package static func isSwiftRuntime(_ name: String) -> Bool {
        name.hasPrefix("libswift") || name.hasPrefix("libFoundation") || name == "lib_FoundationICU.so"
            || name == "libdispatch.so" || name == "libBlocksRuntime.so" || name == "libc++_shared.so"
    }
}
