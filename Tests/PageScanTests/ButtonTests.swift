import PageScan
import Testing

/// Buttons a user can tap: their kind, what they read, which form they belong to, where their onclick goes.
@Suite struct ButtonTests {
    typealias Button = PageScanResult.Button

    static func scan(_ html: String) throws -> PageScanResult {
        try PageScanner.scan(
            Array(html.utf8), contentType: "text/html; charset=utf-8", documentURL: "https://shop.example.com/pay")
    }

    @Test(arguments: [
        ("<form><button>  Godkänn\n köp </button></form>", Button(kind: .submit, label: "Godkänn köp")),
        (
            "<form><button type=submit name=c value=yes>OK</button></form>",
            Button(kind: .submit, label: "OK", name: "c", value: "yes")
        ),
        ("<form><input type=submit value=Betala></form>", Button(kind: .submit, label: "Betala", value: "Betala")),
        ("<form><input type=submit></form>", Button(kind: .submit, label: "Submit")),
        ("<form><input type=image alt=Swish src=s.png name=pay></form>", Button(kind: .image, label: "Swish", name: "pay")),
        (
            "<form><input type=button value=Back aria-label='Go back'></form>",
            Button(kind: .button, label: "Back", ariaLabel: "Go back", value: "Back")
        ),
        ("<form><button type=image>Pic</button></form>", Button(kind: .submit, label: "Pic")),
    ])
    func aFormsButtonReadsAsTheUserSeesIt(_ html: String, _ expected: Button) throws {
        let result = try Self.scan(html)
        #expect(result.forms.first?.buttons == [expected])
        #expect(result.buttons.isEmpty)
    }

    @Test func disabledButtonsAndOtherInputsAreNotButtons() throws {
        let result = try Self.scan(
            "<form><button disabled>No</button><fieldset disabled><input type=submit value=X></fieldset><input type=text value=t></form>"
        )
        #expect(result.forms.first?.buttons == [])
    }

    @Test func theFormAttributeAndPageButtonsAndOnclick() throws {
        let result = try Self.scan(
            """
            <form id=f action=/a></form><button form=f>Outside</button>
            <button type=button onclick="location.href='/cancel'">Avbryt</button><button form=missing>Lost</button>
            """)
        #expect(result.forms.first?.buttons.map(\.label) == ["Outside"])
        #expect(result.buttons.map(\.label) == ["Avbryt", "Lost"])
        #expect(result.buttons.first?.onclickURL == "https://shop.example.com/cancel")
    }

    /// Each button's `onclickURL` is its own handler's first navigation, resolved; never a neighbour's.
    @Test(
        arguments: [
            // A handler without a navigation, next to one with: each keeps its own.
            (
                "<button onclick=\"track()\">A</button><button onclick=\"location.href='/b'\">B</button>",
                [nil, "https://shop.example.com/b"]
            ),
            // Handlers of other elements (and a disabled button's) come between: they are not the buttons'.
            (
                "<div onclick=\"location='/div'\"><button disabled onclick=\"location='/off'\">Off</button>"
                    + "<input type=button value=I onclick=\"window.open('/i')\"></div>", ["https://shop.example.com/i"]
            ),
            // The first navigation counts even when it does not resolve (then there is none).
            ("<button onclick=\"location.href='http://[::1'; location.href='/later'\">X</button>", [nil]),
            // A handler that declares a function it calls (its findings come when the page is finished).
            (
                "<button onclick=\"function go(){ location.assign('/fn') } go()\">F</button><button onclick=\"location='/n'\">N</button>",
                ["https://shop.example.com/fn", "https://shop.example.com/n"]
            ),
            // No script on the page mentions a navigation word: nothing is analysed, nothing found.
            ("<button onclick=\"a()\">A</button><button>B</button>", [nil, nil]),
        ] as [(String, [String?])])
    func aButtonsOnclickURLIsItsOwnHandlersFirstNavigation(_ html: String, _ expected: [String?]) throws {
        #expect(try Self.scan(html).buttons.map(\.onclickURL) == expected)
    }
}
