/// What a `.submit()` call refers to.
enum FormReference: Equatable {
    case index(Int)
    case name(String)
    case id(String)
    case first
    /// The receiver could not be resolved: the nearest preceding form (the 3DS `form.submit()` pattern).
    case unknown(formsBefore: Int)
}
