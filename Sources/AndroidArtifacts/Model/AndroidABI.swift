/// An Android ABI as the folders of an APK, an App Bundle or an AAR name it (`lib/arm64-v8a/`,
/// `jni/x86/`), with the ELF machine its libraries must be built for.
package enum AndroidABI: String, Sendable, CaseIterable, Comparable {
    case arm64 = "arm64-v8a"
    case armv7 = "armeabi-v7a"
    case x86_64
    case x86
    case riscv64
    /// Retired ABIs (NDK r17 and r16): still named so a library there is recognised.
    case armeabi, mips, mips64

    /// The ABI of a folder name, as Android names it.
    package init?(folder: some StringProtocol) { self.init(rawValue: String(folder)) }

    package var is64Bit: Bool { self == .arm64 || self == .x86_64 || self == .riscv64 || self == .mips64 }

    /// The 64-bit ABI a device of this 32-bit ABI's family runs, which Google Play requires
    /// beside it.
    package var sixtyFourBitCounterpart: AndroidABI? {
        switch self {
        case .armv7, .armeabi: .arm64
        case .x86: .x86_64
        case .mips: .mips64
        case .arm64, .x86_64, .riscv64, .mips64: nil
        }
    }

    /// `e_machine` of its libraries.
    package var machine: UInt16 {
        switch self {
        case .arm64: 183
        case .armv7, .armeabi: 40
        case .x86_64: 62
        case .x86: 3
        case .riscv64: 243
        case .mips, .mips64: 8
        }
    }

    /// Whether a device loads libraries of this ABI with pages of 16 KB (Android 15's 16 KB
    /// devices are 64-bit ARM and x86: Google Play's requirement names these two).
    package var mayRunWith16KBPages: Bool { self == .arm64 || self == .x86_64 }

    /// How messages name an `e_machine`.
    package static func machineName(_ machine: UInt16) -> String {
        switch machine {
        case 183: "AArch64"
        case 40: "ARM"
        case 62: "x86-64"
        case 3: "x86"
        case 243: "RISC-V"
        case 8: "MIPS"
        default: "machine \(machine)"
        }
    }

    package static func < (lhs: AndroidABI, rhs: AndroidABI) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
