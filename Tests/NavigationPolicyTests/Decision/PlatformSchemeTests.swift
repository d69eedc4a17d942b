import Testing
import NavigationPolicy
import PlainviewURL

/// The schemes of the phone's own apps are in the one list of schemes the OS owns (which `serve` never
/// redirects to without `--app-scheme`).
@Suite struct PlatformSchemeTests {
    @Test(arguments: [Platform.ios, .android])
    func everyDefaultAppSchemeIsPlatformOwned(platform: Platform) {
        for h in PlatformDefaultApps.handlers(on: platform) {
            #expect(SchemeKind.platformOwnedSchemes.contains(h.scheme), "\(h.scheme)")
        }
    }
}
