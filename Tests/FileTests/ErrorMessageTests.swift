import PopoverFiles
import PopoverImage
import Testing

/// Every message names the file and says what is wrong, in words a report reader follows.
@Suite("Error messages")
struct ErrorMessageTests {
    @Test("each PNGError describes itself", arguments: [
        (PNGError.empty(file: "Goldens/x.png"), "Goldens/x.png: empty file (0 bytes), not a PNG"),
        (.notPNG(file: "Goldens/x.png"), "Goldens/x.png: not a PNG file (the first 8 bytes are not the PNG signature)"),
        (.truncated(file: "Goldens/x.png"), "Goldens/x.png: truncated PNG (the data ends before the image is complete)"),
        (.corrupt(file: "Goldens/x.png", reason: "IDAT: CRC error"), "Goldens/x.png: corrupt PNG: IDAT: CRC error"),
        (.tooLarge(file: "Goldens/x.png", width: 100_000, height: 100_000, limits: .default),
         "Goldens/x.png: header claims 100000 x 100000 pixels, more than the limit of 16384 on a side / 64 Mpx"),
        (.unreadable(file: "Goldens/x.png", reason: "Permission denied"), "Goldens/x.png: cannot read: Permission denied"),
        (.decoderFailure(file: "Goldens/x.png", reason: "out of memory"), "Goldens/x.png: could not decode PNG: out of memory"),
    ])
    func pngErrors(error: PNGError, message: String) {
        #expect(error.description == message)
    }

    @Test("FileError names the path, the operation and the OS reason")
    func fileErrors() {
        let error = FileError(path: "Goldens/a/b.png", operation: .write, code: 30, reason: "Read-only file system")
        #expect(error.description == "Goldens/a/b.png: cannot write: Read-only file system")
        #expect(FileError(path: "G", operation: .createDirectory, code: 13, reason: "Permission denied").description
            == "G: cannot create directory: Permission denied")
    }
}
