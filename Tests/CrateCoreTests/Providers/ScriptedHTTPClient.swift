import Foundation
@testable import CrateCore

/// An in-memory `HTTPClient`: records every request and answers from a queue.
/// Running out of answers is a transport error, so an unexpected extra call fails the test.
final class ScriptedHTTPClient: HTTPClient, @unchecked Sendable {
    enum Step {
        case respond(status: Int, headers: [String: String], body: Data)
        case fail(HTTPError)
    }

    private let lock = NSLock()
    private var steps: [Step] = []
    private var recorded: [HTTPRequest] = []

    init(_ steps: [Step] = []) {
        self.steps = steps
    }

    var requests: [HTTPRequest] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }

    /// Request bodies decoded as JSON objects.
    var bodies: [[String: Any]] {
        requests.map { ($0.body.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]) ?? [:] }
    }

    func enqueue(_ step: Step) {
        lock.lock(); defer { lock.unlock() }
        steps.append(step)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let step: Step? = {
            lock.lock(); defer { lock.unlock() }
            recorded.append(request)
            return steps.isEmpty ? nil : steps.removeFirst()
        }()
        switch step {
        case .respond(let status, let headers, let body)?:
            return HTTPResponse(status: status, headers: headers, body: body, url: request.url)
        case .fail(let error)?:
            throw error
        case nil:
            throw HTTPError.transport("no scripted response left")
        }
    }
}

/// Answers in the shapes of the real APIs (API-NOTES.md).
enum Wire {
    static func json(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// An Anthropic Messages response with one text block (or the given blocks).
    static func anthropic(text: String? = nil, blocks: [[String: Any]]? = nil, stopReason: String = "end_turn", model: String = "claude-sonnet-4-5-20250929") -> ScriptedHTTPClient.Step {
        let content = blocks ?? (text.map { [["type": "text", "text": $0]] } ?? [])
        return .respond(status: 200, headers: ["content-type": "application/json"], body: json([
            "id": "msg_01", "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": stopReason,
            "usage": ["input_tokens": 1650, "output_tokens": 240],
        ]))
    }

    static func anthropicError(status: Int, type: String, message: String, headers: [String: String] = [:]) -> ScriptedHTTPClient.Step {
        .respond(status: status, headers: headers, body: json(["type": "error", "error": ["type": type, "message": message]]))
    }

    static func openAI(content: String?, refusal: String? = nil, finishReason: String = "stop", model: String = "gpt-4o-2024-08-06") -> ScriptedHTTPClient.Step {
        var message: [String: Any] = ["role": "assistant", "content": content ?? NSNull()]
        if let refusal { message["refusal"] = refusal }
        return .respond(status: 200, headers: [:], body: json([
            "id": "chatcmpl-1", "object": "chat.completion", "model": model,
            "choices": [["index": 0, "message": message, "finish_reason": finishReason]],
            "usage": ["prompt_tokens": 900, "completion_tokens": 200, "total_tokens": 1100],
        ]))
    }

    static func openAIError(status: Int, code: String, message: String, headers: [String: String] = [:]) -> ScriptedHTTPClient.Step {
        .respond(status: status, headers: headers, body: json(["error": ["message": message, "type": code, "code": code]]))
    }
}

/// Collects diagnostic lines so tests can check what was (and was not) logged.
final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    var lines: [String] {
        lock.lock(); defer { lock.unlock() }
        return storage
    }

    var sink: DiagnosticLog {
        DiagnosticLog { [self] line in
            lock.lock(); defer { lock.unlock() }
            storage.append(line)
        }
    }
}

extension Data {
    /// A few bytes standing in for a prepared JPEG (the providers never decode it).
    static let fakeJPEG = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0xFF, 0xD9])
}
