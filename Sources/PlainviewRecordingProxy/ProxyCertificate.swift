// The one certificate the proxy presents at the end of every CONNECT tunnel, whatever host was asked for.
//
// Shipping this private key is harmless: the proxy listens on 127.0.0.1 only, it serves nothing but a flow's
// recorded responses, and its only client is a web view that has been told to ignore TLS errors. Nothing trusts
// this certificate, so holding its key lets nobody impersonate anything.
// Made with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
//            -subj "/CN=Plainview recording proxy"   (valid 2026-11-24 to 2126-10-31)

enum ProxyCertificate {
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBnjCCAUWgAwIBAgIUNISNnLZML/hdAJo3VTZxe6G3vWswCgYIKoZIzj0EAwIw
        JDEiMCAGA1UEAwwZUGxhaW52aWV3IHJlY29yZGluZyBwcm94eTAgFw0yNjExMjQw
        ODAyMDBaGA8yMTI2MTAzMTA4MDIwMFowJDEiMCAGA1UEAwwZUGxhaW52aWV3IHJl
        Y29yZGluZyBwcm94eTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABBvfOCejO/mz
        C6SK6b2avI7Blmo6WIXOYeCg7G5BdTnmn+r/WVzzcbpS9MEtZQRDK68V3H6vUbpt
        EDOABxq7VjGjUzBRMB0GA1UdDgQWBBT7kR7MZiz85GCWe5N8JPuQXYjBxzAfBgNV
        HSMEGDAWgBT7kR7MZiz85GCWe5N8JPuQXYjBxzAPBgNVHRMBAf8EBTADAQH/MAoG
        CCqGSM49BAMCA0cAMEQCIAPKCC9FFJsVYSvJH1xu7YFgphIp1isxwSjIBFE6l/Kh
        AiA4SwrCbk7ukMTMFp5y68v38yGT7o9WFue/Sx7ug7Xgvg==
        -----END CERTIFICATE-----

        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgUCWX5InPA7L7a/V4
        nLLL/IJk9QkrbsdPqcTCjS17TtShRANCAAQb3zgnozv5swukium9mryOwZZqOliF
        zmHgoOxuQXU55p/q/1lc83G6UvTBLWUEQyuvFdx+r1G6bRAzgAcau1Yx
        -----END PRIVATE KEY-----

        """
}
