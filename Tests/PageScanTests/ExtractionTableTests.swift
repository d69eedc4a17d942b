import Testing
@testable import PageScan

private let doc = "https://shop.example/checkout/pay?order=1#top"

/// Every row is also scanned without the limiter's dropping of unread attributes: the result must be the same.
private func scan(_ html: String, documentURL: String = doc, interfaces: Set<String>? = nil) throws -> PageScanResult {
    let r: PageScanResult
    if let interfaces {
        r = try PageScanner.scan(Array(html.utf8), documentURL: documentURL, androidInterfaces: interfaces)
    } else {
        r = try PageScanner.scan(Array(html.utf8), documentURL: documentURL)
    }
    let unfiltered = try PageScanner.scan(
        Array(html.utf8), documentURL: documentURL,
        androidInterfaces: interfaces ?? PageScanner.defaultAndroidInterfaces,
        dropsUnreadAttributes: false)
    #expect(r == unfiltered, "dropping unread attributes changed the result of \(html)")
    return r
}

/// One HTML snippet and what should come out of it.
struct Row<T: Sendable>: Sendable, CustomTestStringConvertible {
    var name: String
    var html: String
    var expected: T
    init(_ name: String, _ html: String, _ expected: T) { self.name = name; self.html = html; self.expected = expected }
    var testDescription: String { name }
}

@Suite struct RefreshExtractionTests {
    static let rows: [Row<PageScanResult.Refresh?>] = [
        .init(
            "http-equiv is case-insensitive", "<meta http-equiv='ReFrEsH' content='2;url=/next'>",
            .init(delay: 2, url: "https://shop.example/next")),
        .init(
            "no url refreshes the document itself", "<meta http-equiv=refresh content=3>",
            .init(delay: 3, url: "https://shop.example/checkout/pay?order=1#top")),
        .init(
            "a later refresh with a shorter delay replaces the pending one (WebKit, Chromium)",
            "<meta http-equiv=refresh content='1;url=/first'><meta http-equiv=refresh content='0;url=/second'>",
            .init(delay: 0, url: "https://shop.example/second")),
        .init(
            "a later refresh with the same delay replaces it too",
            "<meta http-equiv=refresh content='2;url=/first'><meta http-equiv=refresh content='2;url=/second'>",
            .init(delay: 2, url: "https://shop.example/second")),
        .init(
            "a later refresh with a longer delay never fires first",
            "<meta http-equiv=refresh content='1;url=/first'><meta http-equiv=refresh content='5;url=/second'>",
            .init(delay: 1, url: "https://shop.example/first")),
        .init(
            "a refresh that does not parse is skipped",
            "<meta http-equiv=refresh content='soon'><meta http-equiv=refresh content='0;url=/second'>",
            .init(delay: 0, url: "https://shop.example/second")),
        .init(
            "inside noscript does not count (web views run scripts)",
            "<head><noscript><meta http-equiv=refresh content='0;url=/nojs'></noscript></head>", nil),
        .init(
            "noscript in body does not count either",
            "<body><noscript><meta http-equiv=refresh content='0;url=/nojs'></noscript><meta http-equiv=refresh content='5;url=/js'></body>",
            .init(delay: 5, url: "https://shop.example/js")),
        .init("comments never count", "<!-- <meta http-equiv=refresh content='0;url=/c'> -->", nil),
        .init("template content is inert", "<template><meta http-equiv=refresh content='0;url=/t'></template>", nil),
        .init(
            "entities in content are decoded", "<meta http-equiv=refresh content='0;url=/a?x=1&amp;y=2'>",
            .init(delay: 0, url: "https://shop.example/a?x=1&y=2")),
        .init(
            "resolved against base href", "<base href='https://cdn.example/dir/'><meta http-equiv=refresh content='0;url=next'>",
            .init(delay: 0, url: "https://cdn.example/dir/next")),
        .init(
            "custom schemes stay as they are", "<meta http-equiv=refresh content='0;url=yourecomapp://callback?x=1'>",
            .init(delay: 0, url: "yourecomapp://callback?x=1")),
        .init("meta without http-equiv is not a refresh", "<meta name=refresh content='0;url=/x'>", nil),
        .init(
            "refresh in body still counts", "<body><p>hi<meta http-equiv=refresh content='0;url=/b'></body>",
            .init(delay: 0, url: "https://shop.example/b")),
    ]

    @Test(arguments: rows)
    func refresh(_ row: Row<PageScanResult.Refresh?>) throws {
        #expect(try scan(row.html).refresh == row.expected)
    }

    @Test func headerValueResolvesAgainstTheDocument() {
        #expect(PageScanner.parseRefresh("0; url=/done", documentURL: doc) == .init(delay: 0, url: "https://shop.example/done"))
        #expect(PageScanner.parseRefresh("0; url=/done", documentURL: "not absolute") == nil)
    }
}

@Suite struct LinkExtractionTests {
    static let rows: [Row<[PageScanResult.Link]>] = [
        .init(
            "relative href, text collapsed", "<a href='next'>  Pay\n   <b>now</b>  </a>",
            [.init(url: "https://shop.example/checkout/next", text: "Pay now")]),
        .init(
            "target kept", "<a href='/x' target='_blank'>x</a>",
            [.init(url: "https://shop.example/x", text: "x", target: "_blank")]),
        .init(
            "area uses alt as text", "<map><area href='/zone' alt='Zone'></map>",
            [.init(url: "https://shop.example/zone", text: "Zone")]),
        .init("a without href is not a link", "<a>Back to app</a><a name=x>y</a>", []),
        .init(
            "empty href is the document without fragment", "<a href=''>self</a>",
            [.init(url: "https://shop.example/checkout/pay?order=1", text: "self")]),
        .init("fragment href", "<a href='#pay'>f</a>", [.init(url: "https://shop.example/checkout/pay?order=1#pay", text: "f")]),
        .init("query href", "<a href='?order=2'>q</a>", [.init(url: "https://shop.example/checkout/pay?order=2", text: "q")]),
        .init("protocol-relative", "<a href='//bank.example/auth'>b</a>", [.init(url: "https://bank.example/auth", text: "b")]),
        .init("dot segments", "<a href='../a/./b/../c'>d</a>", [.init(url: "https://shop.example/a/c", text: "d")]),
        .init(
            "backslashes in http URLs are slashes", "<a href='\\\\evil.example\\x'>e</a>",
            [.init(url: "https://evil.example/x", text: "e")]),
        .init(
            "entities in href decoded", "<a href='/p?a=1&amp;b=2&lt;'>e</a>",
            [.init(url: "https://shop.example/p?a=1&b=2%3C", text: "e")]),
        .init(
            "entities in text decoded", "<a href='/p'>Tom &amp; Jerry&nbsp;&#x41;</a>",
            [.init(url: "https://shop.example/p", text: "Tom & Jerry\u{A0}A")]),
        .init("spaces are percent-encoded", "<a href=' /a b '>s</a>", [.init(url: "https://shop.example/a%20b", text: "s")]),
        .init(
            "intent URL kept whole", "<a href='intent://example.com/p#Intent;scheme=https;package=a.b;end;'>app</a>",
            [.init(url: "intent://example.com/p#Intent;scheme=https;package=a.b;end;", text: "app")]),
        .init(
            "javascript: kept unresolved", "<a href='javascript:void(0)'>js</a>", [.init(url: "javascript:void(0)", text: "js")]),
        .init(
            "custom scheme kept", "<a href='bankid:///?autostarttoken=x&redirect=null'>BankID</a>",
            [.init(url: "bankid:///?autostarttoken=x&redirect=null", text: "BankID")]),
        .init(
            "swish scheme kept", "<a href='swish://paymentrequest?token=abc'>Swish</a>",
            [.init(url: "swish://paymentrequest?token=abc", text: "Swish")]),
        .init(
            "mailto kept", "<a href='mailto:help@shop.example'>mail</a>", [.init(url: "mailto:help@shop.example", text: "mail")]),
        .init("links inside noscript are not in a scripting browser's document", "<noscript><a href='/x'>x</a></noscript>", []),
        .init(
            "uppercase scheme lowered for special schemes", "<a href='HTTPS://Bank.Example/A'>u</a>",
            [.init(url: "https://bank.example/A", text: "u")]),
    ]

    @Test(arguments: rows)
    func links(_ row: Row<[PageScanResult.Link]>) throws {
        #expect(try scan(row.html).links == row.expected)
    }
}

@Suite struct BaseResolutionTests {
    static let rows: [Row<String>] = [
        .init("absolute base", "<base href='https://cdn.example/d/'><a href='x'>", "https://cdn.example/d/x"),
        .init("relative base resolves against the document", "<base href='/other/'><a href='x'>", "https://shop.example/other/x"),
        .init(
            "first base with href wins", "<base target=_top><base href='/one/'><base href='/two/'><a href='x'>",
            "https://shop.example/one/x"),
        .init("base after the link still applies", "<a href='x'></a><base href='/late/'>", "https://shop.example/late/x"),
        .init("javascript: base is ignored", "<base href='javascript:alert(1)'><a href='x'>", "https://shop.example/checkout/x"),
        .init("base with entities", "<base href='https://cdn.example/a&amp;b/'><a href='x'>", "https://cdn.example/a&b/x"),
    ]

    @Test(arguments: rows)
    func base(_ row: Row<String>) throws {
        #expect(try scan(row.html).links.first?.url == row.expected)
    }

    @Test func baseTargetIsTheDefaultTarget() throws {
        let r = try scan("<base target=_top><a href=x>x</a><a href=y target=_blank>y</a><form></form>")
        #expect(r.links.map(\.target) == ["_top", "_blank"])
        #expect(r.forms.first?.target == "_top")
    }

    @Test func relativeAgainstAnOpaqueDocumentURLIsDropped() throws {
        let r = try scan("<a href='x'>x</a><a href='https://ok.example/'>ok</a>", documentURL: "about:blank")
        #expect(r.links.map(\.url) == ["https://ok.example/"])
    }
}

@Suite struct FormExtractionTests {
    typealias F = PageScanResult.Form.Field

    @Test func fieldsFollowWhatABrowserSubmits() throws {
        let r = try scan(
            """
            <form action="/pay" method="PoSt" target="acs">
              <input type="hidden" name="PaReq" value="eJx&amp;Vd">
              <input name="MD" value="42">
              <input name="noValue">
              <input value="unnamed">
              <input name="off" disabled value="1">
              <input type="checkbox" name="cb1" value="yes">
              <input type="checkbox" name="cb2" checked>
              <input type="radio" name="r" value="a"><input type="radio" name="r" value="b" checked>
              <input type="submit" name="go" value="Go"><input type="image" name="img"><button name="b">B</button>
              <textarea name="TermUrl">
            https://shop.example/3ds/return</textarea>
              <select name="one"><option value="1">One<option value="2">Two</select>
              <select name="pick"><option>Alpha<option selected>  Beta  </option></select>
              <select name="multi" multiple><option value="a" selected>a<option value="b">b<option value="c" selected>c</select>
              <fieldset disabled><input name="inDisabledSet" value="x"></fieldset>
            </form>
            """)
        #expect(r.forms.count == 1)
        let f = try #require(r.forms.first)
        #expect(f.action == "https://shop.example/pay")
        #expect(f.method == "POST")
        #expect(f.target == "acs")
        #expect(f.autoSubmit == false)
        #expect(
            f.fields == [
                F(name: "PaReq", value: "eJx&Vd"), F(name: "MD", value: "42"), F(name: "noValue", value: ""),
                F(name: "cb2", value: "on"), F(name: "r", value: "b"),
                F(name: "TermUrl", value: "https://shop.example/3ds/return"),
                F(name: "one", value: "1"), F(name: "pick", value: "Beta"),
                F(name: "multi", value: "a"), F(name: "multi", value: "c"),
            ])
    }

    static let actionRows: [Row<String>] = [
        .init("no action is the document URL", "<form><input name=a></form>", "https://shop.example/checkout/pay?order=1#top"),
        .init(
            "empty action is the document URL (not the base)", "<base href='https://cdn.example/'><form action=''></form>",
            "https://shop.example/checkout/pay?order=1#top"),
        .init(
            "relative action uses the base", "<base href='https://cdn.example/d/'><form action='post'></form>",
            "https://cdn.example/d/post"),
        .init("absolute action", "<form action='https://acs.bank.example/creq'></form>", "https://acs.bank.example/creq"),
    ]

    @Test(arguments: actionRows)
    func action(_ row: Row<String>) throws {
        #expect(try scan(row.html).forms.first?.action == row.expected)
    }

    @Test func methodDefaultsToGet() throws {
        #expect(
            try scan("<form></form><form method=dialog></form><form method=POST></form>").forms.map(\.method) == [
                "GET", "GET", "POST",
            ])
    }

    @Test func formAttributeAssignsOwner() throws {
        let r = try scan("<form id=a></form><form id=b><input name=x value=1 form=a></form><input name=y value=2 form=b>")
        #expect(r.forms.map(\.fields) == [[F(name: "x", value: "1")], [F(name: "y", value: "2")]])
    }

    /// Deviation, kept visible: a browser ignores a nested `<form>` start tag (one form, field `a`); libxml2's
    /// parser closes the open form instead, so the inner tag starts a second form. SAX events cannot tell an
    /// implied `</form>` from a written one, and `</form><form>` back to back is common, so we follow libxml2.
    @Test func nestedFormTagStartsASecondFormUnderLibxml2() throws {
        let r = try scan("<form action=/outer><form action=/inner><input name=a value=1></form><input name=b value=2></form>")
        #expect(r.forms.map(\.action) == ["https://shop.example/outer", "https://shop.example/inner"])
        #expect(r.forms.map(\.fields) == [[], [F(name: "a", value: "1")]])
    }

    static let autoSubmitRows: [Row<[Bool]>] = [
        .init(
            "body onload forms[0]", "<body onload='document.forms[0].submit()'><form></form><form></form></body>", [true, false]),
        .init(
            "requestSubmit() submits too",
            "<form id=x></form><form id=pay></form><script>document.getElementById('pay').requestSubmit();</script>",
            [false, true]),
        .init(
            "requestSubmit() alone in a script", "<form name=pay></form><script>document.forms.pay.requestSubmit()</script>",
            [true]),
        .init(
            "body onload forms[1]", "<body onload='document.forms[1].submit();'><form></form><form></form></body>", [false, true]),
        .init(
            "getElementById in inline script",
            "<form id=x></form><form id=threeds></form><script>document.getElementById('threeds').submit();</script>",
            [false, true]),
        .init(
            "forms['name']", "<form name=a></form><form name=pay></form><script>document.forms[\"pay\"].submit()</script>",
            [false, true]),
        .init(
            "forms.name", "<form name=a></form><form name=pay></form><script>document.forms.pay.submit()</script>", [false, true]),
        .init(
            "document.NAME", "<form name=downloadForm></form><form name=z></form><script>document.downloadForm.submit()</script>",
            [true, false]),
        .init(
            "variable from getElementById (3DS creq)",
            "<form id=a></form><form id=creqForm></form><script>var form = document.getElementById(\"creqForm\");\nform.submit();</script>",
            [false, true]),
        .init(
            "unknown receiver: the form just before the script",
            "<form></form><form></form><script>form.submit()</script><form></form>", [false, true, false]),
        .init(
            "querySelector", "<form></form><form id=q></form><script>document.querySelector('#q').submit()</script>",
            [false, true]),
        .init("jQuery", "<script src=/jquery.js></script><form id=j></form><script>$('#j').submit()</script>", [true]),
        // With no script that could have loaded jQuery, `$` throws a ReferenceError: nothing is submitted.
        .init("jQuery never loaded", "<form id=j></form><script>$('#j').submit()</script>", [false]),
        .init(
            "window.onload function",
            "<form id=w></form><script>window.onload = function () { document.getElementById('w').submit(); };</script>", [true]),
        .init(
            "named function called on load",
            "<form id=w></form><script>function go(){ document.forms[0].submit() } go();</script>", [true]),
        .init(
            "named function called from body onload",
            "<body onload='go()'><form id=w></form><script>function go(){ document.forms[0].submit() }</script>", [true]),
        .init(
            "named function only called from a button is not automatic",
            "<form id=w></form><button onclick='go()'>Pay</button><script>function go(){ document.forms[0].submit() }</script>",
            [false]),
        .init("onclick handler is not automatic", "<form><button onclick='this.form.submit()'>x</button></form>", [false]),
        .init(
            "click listener is not automatic",
            "<form id=c></form><script>document.getElementById('b').addEventListener('click', function(){ document.forms[0].submit() })</script>",
            [false]),
        .init(
            "DOMContentLoaded listener is automatic",
            "<form id=c></form><script>document.addEventListener('DOMContentLoaded', function(){ document.forms[0].submit() })</script>",
            [true]),
        .init(
            "setTimeout of a named function",
            "<form></form><script>function s(){document.forms[0].submit()} setTimeout(s, 10)</script>", [true]),
        .init(
            "commented-out submit does not count",
            "<form></form><script>// document.forms[0].submit()\n/* form.submit() */</script>", [false]),
        .init(
            "submit in a string does not count", "<form></form><script>var s = 'document.forms[0].submit()';</script>", [false]),
        .init("external script body ignored", "<form></form><script src='/x.js'>document.forms[0].submit()</script>", [false]),
        .init(
            "non-JavaScript script type ignored", "<form></form><script type='text/template'>document.forms[0].submit()</script>",
            [false]),
    ]

    @Test(arguments: autoSubmitRows)
    func autoSubmit(_ row: Row<[Bool]>) throws {
        #expect(try scan(row.html).forms.map(\.autoSubmit) == row.expected)
    }
}

@Suite struct FrameExtractionTests {
    static let rows: [Row<[PageScanResult.Frame]>] = [
        .init(
            "iframe with name", "<iframe src='/acs' name='threeDSFrame'></iframe>",
            [.init(url: "https://shop.example/acs", name: "threeDSFrame")]),
        .init(
            "frameset frames", "<frameset><frame src='a.html'><frame src='https://b.example/'></frameset>",
            [.init(url: "https://shop.example/checkout/a.html"), .init(url: "https://b.example/")]),
        // Every frame is listed (indices are `window.frames`'), so a form can target a src-less frame by name.
        .init(
            "no or empty src is about:blank, listed", "<iframe name=m></iframe><iframe src=''></iframe>",
            [.init(url: "about:blank", name: "m"), .init(url: "about:blank")]),
        .init(
            "srcdoc wins over src", "<iframe srcdoc='<p>x' src='/f'></iframe><iframe src='/g'></iframe>",
            [.init(url: "about:srcdoc"), .init(url: "https://shop.example/g")]),
        .init(
            "a src that does not parse keeps its place", "<iframe src='http://[::1'></iframe><iframe src='/g'></iframe>",
            [.init(url: "about:blank"), .init(url: "https://shop.example/g")]),
        .init("entities decoded", "<iframe src='/f?a=1&amp;b=2'></iframe>", [.init(url: "https://shop.example/f?a=1&b=2")]),
    ]

    @Test(arguments: rows)
    func frames(_ row: Row<[PageScanResult.Frame]>) throws {
        #expect(try scan(row.html).frames == row.expected)
    }
}

@Suite struct ScriptNavigationTests {
    typealias N = PageScanResult.ScriptNavigation
    static let rows: [Row<[N]>] = [
        .init("location =", "<script>location = '/a'</script>", [N(url: "https://shop.example/a", kind: .assign, onLoad: true)]),
        .init(
            "location.href =", "<script>location.href=\"/b\";</script>",
            [N(url: "https://shop.example/b", kind: .assign, onLoad: true)]),
        .init(
            "window.location =", "<script>window.location = '/c'</script>",
            [N(url: "https://shop.example/c", kind: .assign, onLoad: true)]),
        .init(
            "window.location.href =", "<script>window.location.href = '/d'</script>",
            [N(url: "https://shop.example/d", kind: .assign, onLoad: true)]),
        .init(
            "document.location.href =", "<script>document.location.href = '/e'</script>",
            [N(url: "https://shop.example/e", kind: .assign, onLoad: true)]),
        .init(
            "top.location =", "<script>top.location = '/t'</script>",
            [N(url: "https://shop.example/t", kind: .assign, onLoad: true, target: "_top")]),
        .init(
            "window.top.location.href =, parent.location.replace()",
            "<script>window.top.location.href = '/t'; parent.location.replace('/p'); self.location = '/s'</script>",
            [
                N(url: "https://shop.example/t", kind: .assign, onLoad: true, target: "_top"),
                N(url: "https://shop.example/p", kind: .replace, onLoad: true, target: "_parent"),
                N(url: "https://shop.example/s", kind: .assign, onLoad: true),
            ]),
        .init(
            "a tap handler's top.location (not the plain-assignment fast path)",
            "<a onclick=\"top.location.href='/t'\">x</a><a onclick=\"window.location.href='/w'\">y</a>",
            [
                N(url: "https://shop.example/t", kind: .assign, onLoad: false, target: "_top"),
                N(url: "https://shop.example/w", kind: .assign, onLoad: false),
            ]),
        .init(
            "location.assign()", "<script>location.assign('/f')</script>",
            [N(url: "https://shop.example/f", kind: .assign, onLoad: true)]),
        .init(
            "location.replace()", "<script>window.location.replace('/g')</script>",
            [N(url: "https://shop.example/g", kind: .replace, onLoad: true)]),
        .init(
            "window.open()", "<script>window.open('https://pop.example/', '_blank')</script>",
            [N(url: "https://pop.example/", kind: .windowOpen, onLoad: true)]),
        .init(
            "location['href'] =", "<script>location['href'] = '/h'</script>",
            [N(url: "https://shop.example/h", kind: .assign, onLoad: true)]),
        .init(
            "setTimeout(function, 8000) waits 8 s",
            "<script>setTimeout(function () { location.replace('/slow'); }, 8000);</script>",
            [N(url: "https://shop.example/slow", kind: .replace, onLoad: true, delay: 8000)]),
        .init(
            "setTimeout(arrow, 1500)", "<script>window.setTimeout(() => { window.location.href = '/arrow' }, 1500)</script>",
            [N(url: "https://shop.example/arrow", kind: .assign, onLoad: true, delay: 1500)]),
        .init(
            "nested blocks inside the callback",
            "<script>setTimeout(function(){ if (a) { for (;;) { location = '/deep' } } }, 300)</script>",
            [N(url: "https://shop.example/deep", kind: .assign, onLoad: true, delay: 300)]),
        .init(
            "a computed delay is no delay we can know", "<script>setTimeout(function(){ location = '/x' }, t * 2)</script>",
            [N(url: "https://shop.example/x", kind: .assign, onLoad: true)]),
        .init(
            "a call that is not setTimeout", "<script>later(function(){ location = '/y' }, 500)</script>",
            [N(url: "https://shop.example/y", kind: .assign, onLoad: true)]),
        .init(
            "after the setTimeout call, no delay", "<script>setTimeout(function(){}, 500); location = '/z'</script>",
            [N(url: "https://shop.example/z", kind: .assign, onLoad: true)]),
        .init(
            "JS escapes decoded", #"<script>location.href = "\x2Fesc\u002Fa\/b\'\"\\"</script>"#,
            [N(url: "https://shop.example/esc/a/b'%22/", kind: .assign, onLoad: true)]),
        .init(
            "decodeURIComponent",
            #"<script>location.href = decodeURIComponent("https%3A%2F%2Fapp.example%2Fcb%3Fa%3D1%26b%3D2")</script>"#,
            [N(url: "https://app.example/cb?a=1&b=2", kind: .assign, onLoad: true)]),
        .init(
            "concatenated literals", "<script>location = 'https://a.example' + '/p'</script>",
            [N(url: "https://a.example/p", kind: .assign, onLoad: true)]),
        .init(
            "template literal", "<script>location.href = `/tpl`</script>",
            [N(url: "https://shop.example/tpl", kind: .assign, onLoad: true)]),
        .init("computed URL is not reported", "<script>location.href = base + '/x'; location = url;</script>", []),
        .init("comparison is not navigation", "<script>if (location == '/x') {}; if (location.href === '/y') {}</script>", []),
        .init("other objects' location is not navigation", "<script>shop.location = '/x'; xhr.open('GET', '/api')</script>", []),
        .init("comments are not navigation", "<script>// location = '/c'\n/* location.href = '/d' */</script>", []),
        .init(
            "onclick handler is not on load", "<button onclick=\"location.href='/tap'\">x</button>",
            [N(url: "https://shop.example/tap", kind: .assign, onLoad: false)]),
        .init(
            "an arrow-function click listener is a tap",
            "<button id=b>x</button><script>document.getElementById('b').addEventListener('click', (e) => { location.href = '/arrow' })</script>",
            [N(url: "https://shop.example/arrow", kind: .assign, onLoad: false)]),
        .init(
            "an async arrow click listener with one bare parameter is a tap",
            "<script>b.addEventListener('click', async e => { await fetch('/s'); location.href = '/after' })</script>",
            [N(url: "https://shop.example/after", kind: .assign, onLoad: false, condition: .networkAnswer)]),
        .init(
            "an arrow click listener with an expression body is a tap",
            "<script>b.addEventListener('click', () => window.open('/expr'), false); location.href = '/load'</script>",
            [
                N(url: "https://shop.example/expr", kind: .windowOpen, onLoad: false),
                N(url: "https://shop.example/load", kind: .assign, onLoad: true),
            ]),
        .init(
            "an arrow onclick property is a tap", "<script>btn.onclick = () => { window.location = '/prop' }</script>",
            [N(url: "https://shop.example/prop", kind: .assign, onLoad: false)]),
        .init(
            "an arrow load listener runs on load",
            "<script>window.addEventListener('load', () => { location.replace('/loaded') })</script>",
            [N(url: "https://shop.example/loaded", kind: .replace, onLoad: true)]),
        .init(
            "body onload is on load", "<body onload=\"location.replace('/load')\">",
            [N(url: "https://shop.example/load", kind: .replace, onLoad: true)]),
        .init(
            "intent URL kept", "<script>window.location = 'intent://x/y#Intent;scheme=https;package=a.b;end'</script>",
            [N(url: "intent://x/y#Intent;scheme=https;package=a.b;end", kind: .assign, onLoad: true)]),
        .init(
            "custom scheme kept", "<script>location.href = 'yourecomapp://done'</script>",
            [N(url: "yourecomapp://done", kind: .assign, onLoad: true)]),
        .init(
            "javascript: link code is a tap", "<a href=\"javascript:location.href='/jl'\">x</a>",
            [N(url: "https://shop.example/jl", kind: .assign, onLoad: false)]),
        .init(
            "function declared but only called on tap",
            "<div onclick='redirect()'></div><script>function redirect() { window.location.href = '/r'; }</script>",
            [N(url: "https://shop.example/r", kind: .assign, onLoad: false)]),
        .init(
            "function called on load", "<script>function redirect() { window.location.href = '/r'; }\nredirect();</script>",
            [N(url: "https://shop.example/r", kind: .assign, onLoad: true)]),
        .init(
            "setTimeout with an anonymous function runs on load, after its delay",
            "<script>setTimeout(function(){ location.replace('/later') }, 3000)</script>",
            [N(url: "https://shop.example/later", kind: .replace, onLoad: true, delay: 3000)]),
        .init(
            "regex literal does not confuse the tokenizer", #"<script>var r = /["']/g; location = '/after-regex'</script>"#,
            [N(url: "https://shop.example/after-regex", kind: .assign, onLoad: true)]),
        // Scripts with functions are matched after the whole page is seen; findings still come in document order.
        .init(
            "document order across scripts with and without functions",
            "<script>location.href='/1'</script><script>function f(){ location.href='/2' } f()</script>"
                + "<button onclick=\"location.href='/3'\">b</button><script>function g(){ location.replace('/4') }</script>"
                + "<script>location.assign('/5')</script><a onclick='g()'>x</a>",
            [
                N(url: "https://shop.example/1", kind: .assign, onLoad: true),
                N(url: "https://shop.example/2", kind: .assign, onLoad: true),
                N(url: "https://shop.example/3", kind: .assign, onLoad: false),
                N(url: "https://shop.example/4", kind: .replace, onLoad: false),
                N(url: "https://shop.example/5", kind: .assign, onLoad: true),
            ]),
        .init(
            "a function called on load by a later script",
            "<script>function late(){ location = '/late' }</script><script>late()</script>",
            [N(url: "https://shop.example/late", kind: .assign, onLoad: true)]),
        .init(
            "an onload handler before any script that matters",
            "<body onload='init()'><p>x</p><script>function init(){ location.replace('/i') }</script>",
            [N(url: "https://shop.example/i", kind: .replace, onLoad: true)]),
        .init("inside noscript nothing runs", "<noscript><script>location='/x'</script></noscript>", []),
        .init(
            "script entities are not decoded (raw text)", "<script>location = '/a?x=1&amp;y=2'</script>",
            [N(url: "https://shop.example/a?x=1&amp;y=2", kind: .assign, onLoad: true)]),
    ]

    @Test(arguments: rows)
    func navigations(_ row: Row<[N]>) throws {
        #expect(try scan(row.html).scriptNavigations.map(\.withoutRunOrder) == row.expected)
    }
}

@Suite struct HookTests {
    typealias H = PageScanResult.Hook
    static let rows: [Row<[H]>] = [
        .init(
            "iOS message handler with argument",
            #"<script>window.webkit.messageHandlers.completed.postMessage("success")</script>"#,
            [H(kind: .webkitMessageHandler, name: "completed", argument: "\"success\"", onLoad: true)]),
        .init(
            "iOS message handler without argument", "<script>webkit.messageHandlers.canceled.postMessage()</script>",
            [H(kind: .webkitMessageHandler, name: "canceled", argument: nil, onLoad: true)]),
        .init(
            "iOS bracket form", "<script>window.webkit.messageHandlers['paid'].postMessage({a: 1})</script>",
            [H(kind: .webkitMessageHandler, name: "paid", argument: "{a: 1}", onLoad: true)]),
        .init(
            "Android interface", #"<script>callbacks.completed("success")</script>"#,
            [H(kind: .androidInterface, name: "callbacks.completed", argument: "\"success\"", onLoad: true)]),
        .init(
            "Android interface via window, in a handler", "<button onclick='window.Android.canceled()'>x</button>",
            [H(kind: .androidInterface, name: "Android.canceled", argument: nil, onLoad: false)]),
        .init("unknown objects are not hooks", "<script>analytics.track('x'); foo.callbacks.completed()</script>", []),
    ]

    @Test(arguments: rows)
    func hooks(_ row: Row<[H]>) throws {
        #expect(try scan(row.html).hooks == row.expected)
    }

    @Test func interfaceNamesAreConfigurable() throws {
        let html = "<script>payBridge.done('ok'); callbacks.completed()</script>"
        #expect(
            try scan(html, interfaces: ["payBridge"]).hooks == [
                H(kind: .androidInterface, name: "payBridge.done", argument: "'ok'", onLoad: true)
            ])
    }
}

extension PageScanResult.ScriptNavigation {
    /// The navigation without its place in the run order (tables of what is found; `RunOrderTests` check the order).
    var withoutRunOrder: Self { var n = self; n.runOrder = nil; return n }
}
