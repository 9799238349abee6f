import Foundation

/// Provider answers in the real wire shapes (Anthropic Messages, OpenAI-compatible chat).
public enum ProviderFixtures {
    /// A valid review for Rumours, as the model would write it.
    public static let rumoursReview = """
        {"context_summary":"Rumours turns a band's private collapse into immaculate soft rock. The craft never slips.",
         "context_bullets":["Spent 31 weeks at No. 1 on the Billboard 200 and won the 1978 Grammy for Album of the Year.",
                            "\\"Dreams\\" became the band's only US No. 1 single.",
                            "Its harmony-rich production shaped decades of pop records."],
         "rating":9.6,"recommendation":"Essential Classic","key_tracks":["Dreams","Go Your Own Way","The Chain"]}
        """

    /// An Anthropic Messages response whose one text block is `text`.
    public static func anthropicMessage(_ text: String, model: String = "claude-sonnet-4-5-20250929") -> String {
        let escaped = String(decoding: (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data("[\"\"]".utf8), as: UTF8.self)
        let literal = String(escaped.dropFirst().dropLast())
        return """
            {"id":"msg_fixture","type":"message","role":"assistant","model":"\(model)",
             "content":[{"type":"text","text":\(literal)}],"stop_reason":"end_turn",
             "usage":{"input_tokens":812,"output_tokens":301}}
            """
    }

    public static let anthropicAuthError = #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#
}
