import CLibCrypto

/// SHA-256 (FIPS 180-4), computed by the system's libcrypto (OpenSSL).
///
/// The harness names golden files and saved report images by this digest: a file
/// digest decides whether a shortcut may be taken or an approval still applies, so it
/// must be one that nobody can make collide on purpose. Rendered pixels use the much
/// faster, non-cryptographic `XXH64` instead.
///
/// A value type: a copy taken part-way carries on independently of the original.
public struct SHA256: Sendable {
    private var context: DigestContext

    public init() {
        context = DigestContext()
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex($0) }
    }

    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        hexDigits(digest(bytes))
    }

    /// The 32-byte digest of `bytes`, in one call.
    public static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = withAddress(bytes) { input in
            out.withUnsafeMutableBufferPointer { EVP_Digest(input, bytes.count, $0.baseAddress, &length, EVP_sha256(), nil) }
        }
        precondition(ok == 1 && length == 32, "libcrypto could not compute a SHA-256 digest")
        return out
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if !isKnownUniquelyReferenced(&context) { context = DigestContext(copying: context) }
        precondition(EVP_DigestUpdate(context.pointer, base, bytes.count) == 1, "libcrypto could not update a SHA-256 digest")
    }

    /// The 32-byte digest of everything given to `update`; the hasher then starts over.
    public mutating func finalize() -> [UInt8] {
        if !isKnownUniquelyReferenced(&context) { context = DigestContext(copying: context) }
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context.pointer, $0.baseAddress, &length) }
        precondition(ok == 1 && length == 32, "libcrypto could not finish a SHA-256 digest")
        context = DigestContext()
        return out
    }

    /// `finalize()` as 64 lowercase hex digits.
    public mutating func finalizeHex() -> String {
        Self.hexDigits(finalize())
    }

    static func hexDigits(_ bytes: [UInt8]) -> String { Hex.string(bytes) }
}

/// libcrypto's digest state, owned by one `SHA256` value at a time: a value about to
/// change it while others share it takes a copy first, so a shared context is never
/// written and may cross threads.
private final class DigestContext: @unchecked Sendable {
    let pointer: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new() else { fatalError("out of memory creating a SHA-256 context") }
        precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "libcrypto could not start a SHA-256 digest")
        pointer = context
    }

    init(copying other: DigestContext) {
        guard let context = EVP_MD_CTX_new() else { fatalError("out of memory creating a SHA-256 context") }
        precondition(EVP_MD_CTX_copy_ex(context, other.pointer) == 1, "libcrypto could not copy a SHA-256 digest")
        pointer = context
    }

    deinit { EVP_MD_CTX_free(pointer) }
}

/// Runs `body` with the address of `bytes`, never nil: libcrypto wants one even for no
/// bytes.
private func withAddress<T>(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawPointer) -> T) -> T {
    if let base = bytes.baseAddress { return body(base) }
    var zero: UInt8 = 0
    return withUnsafeBytes(of: &zero) { body($0.baseAddress!) }
}
