extension String {
    /// The text ending as a sentence does: a detail from elsewhere ("the request timed out", a
    /// server's message) often has no full stop, and the next sentence would run into it.
    var endingSentence: String {
        guard let last = last, !".!?…".contains(last) else { return self }
        return self + "."
    }
}
