import Testing

@testable import TrackServer

/// `Authorization` values read byte by byte (the single-point hot path): the scheme in any case,
/// blanks around the credentials dropped, anything else refused.
@Suite struct CredentialsParsingTests {
    @Test(arguments: [
        ("Bearer abc", "bearer ", "abc"), ("bearer abc", "bearer ", "abc"), ("BEARER \t abc \t", "bearer ", "abc"),
        ("Basic dTpw", "basic ", "dTpw"), ("bAsIc  dTpw", "basic ", "dTpw"), ("Bearer ", "bearer ", ""),
        ("Bearer é ü", "bearer ", "é ü"),
    ])
    func schemeAndCredentialsAreRead(header: String, scheme: String, expected: String) {
        #expect(Authenticator.credentials(header, scheme: scheme) == Substring(expected))
    }

    @Test(arguments: [
        ("", "bearer "), ("Bearer", "bearer "), ("Bearerabc", "bearer "), ("Basic abc", "bearer "),
        ("Bearer\tabc", "bearer "), (" Bearer abc", "bearer "), ("Beärer abc", "bearer "), ("Bearer\0abc", "bearer "),
        ("Dearer abc", "bearer "), ("BEARER@abc", "bearer "),
    ])
    func otherSchemesAndMalformedValuesAreRefused(header: String, scheme: String) {
        #expect(Authenticator.credentials(header, scheme: scheme) == nil)
    }

    @Test func aHugeValueIsReadWhole() {
        let token = String(repeating: "t", count: 1 << 20)
        #expect(Authenticator.credentials("Bearer " + token + "   ", scheme: "bearer ")?.count == token.count)
        #expect(Authenticator.credentials(String(repeating: " ", count: 1 << 16), scheme: "bearer ") == nil)
    }

    @Test func theTokenHashIsTheFIPSDigestInLowercaseHex() {
        // FIPS 180-4's "abc" example.
        #expect(Tokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Tokens.hash("").count == 64)
    }
}
