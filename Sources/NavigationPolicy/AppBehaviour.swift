// What a simulated app does when the OS opens it with a URL (the simulator's part of an environment file).
// STUB: the simulator issue defines the real model; the environment file decodes it under each app's `behaviour` key.

/// How an installed app behaves when opened, in the simulated world.
public struct AppBehaviour: Sendable, Hashable, Codable {
    public init() {}
}
