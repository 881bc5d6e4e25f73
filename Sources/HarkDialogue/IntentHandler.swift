public import HarkIntents
public import HarkShortcuts

/// What Hark asks an app to work on: one intent and the values known so far.
public struct IntentRequest: Sendable, Equatable {
    public var app: String
    public var intent: String
    public var values: [String: ParameterValue]

    public init(app: String, intent: String, values: [String: ParameterValue]) {
        self.app = app
        self.intent = intent
        self.values = values
    }
}

/// An app's verdict on one parameter value, in the resolve phase.
public enum Resolution: Sendable, Equatable {
    /// The value is fine (perhaps changed, e.g. normalised).
    case success(ParameterValue)
    /// Ask for a value with the parameter's prompt.
    case needsValue
    /// Several values fit; Hark asks which, speaking the list.
    case disambiguation([EnumeratedValue])
    /// Hark asks "Did you mean …?" before taking this value.
    case confirmationRequired(ParameterValue)
    /// The value cannot be used. `failure` names one of the intent's failure
    /// templates ("outOfStock"); `reason` is spoken when there is no template.
    case unsupported(reason: String?, failure: String?)
    /// The parameter does not apply to this request.
    case notRequired
}

/// The response codes of the guidance, as a speaker can honour them.
public enum ResponseCode: String, Sendable, Equatable, CaseIterable, Codable {
    case success, failure, inProgress, ready, continueInApp, failureRequiringAppLaunch
}

/// An app's answer in the confirm or handle phase.
public struct HandlerResponse: Sendable, Equatable {
    public var code: ResponseCode
    /// One of the intent's named failures, for `.failure`.
    public var failure: String?
    /// Values for `${result.name}` placeholders (a total, a delivery time); a
    /// multistep shortcut passes them to its next step as outputs.
    public var values: [String: String]
    /// Donations to forget because what they were about no longer exists (a deleted
    /// contact); always the handler's own app's, whatever `app` they name.
    public var deleteDonations: [DonationFilter]

    public init(code: ResponseCode, failure: String? = nil, values: [String: String] = [:], deleteDonations: [DonationFilter] = []) {
        self.code = code
        self.failure = failure
        self.values = values
        self.deleteDonations = deleteDonations
    }

    public static let ready = HandlerResponse(code: .ready)
    public static let success = HandlerResponse(code: .success)
}

/// Carries out an app's intents: resolve each value, confirm, handle. Every
/// method has a default that accepts what it is given, so a handler
/// implements only the phases it cares about.
public protocol IntentHandler: Sendable {
    /// The values of a parameter with dynamic options (store locations, contacts); nil to keep the manifest's.
    func options(for parameter: String, of request: IntentRequest) async throws -> [EnumeratedValue]?
    func resolve(_ parameter: String, in request: IntentRequest) async throws -> Resolution
    /// Checks the request can go ahead (and prices it) before the person is asked to confirm.
    func confirm(_ request: IntentRequest) async throws -> HandlerResponse
    func handle(_ request: IntentRequest) async throws -> HandlerResponse
}

extension IntentHandler {
    public func options(for parameter: String, of request: IntentRequest) async throws -> [EnumeratedValue]? { nil }

    public func resolve(_ parameter: String, in request: IntentRequest) async throws -> Resolution {
        request.values[parameter].map(Resolution.success) ?? .needsValue
    }

    public func confirm(_ request: IntentRequest) async throws -> HandlerResponse { .ready }

    public func handle(_ request: IntentRequest) async throws -> HandlerResponse { .success }
}

/// For apps that only need their templates spoken: every value accepted, every request done.
public struct TemplateHandler: IntentHandler {
    public init() {}
}

/// A handler that could not do its job, with what to tell the person.
public struct HandlerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Spoken: specific and short ("Sorry, Chirp didn't answer in time.").
    public var spoken: String
    /// For logs: what went wrong underneath.
    public var detail: String

    public init(spoken: String, detail: String) {
        self.spoken = spoken
        self.detail = detail
    }

    public var description: String { "\(spoken) (\(detail))" }
}

/// The handlers of the installed apps, by app identifier; apps without one
/// are answered from their templates.
public struct HandlerDirectory: Sendable {
    private var handlers: [String: any IntentHandler]

    public init(_ handlers: [String: any IntentHandler] = [:]) {
        self.handlers = handlers
    }

    public subscript(app: String) -> any IntentHandler {
        get { handlers[app] ?? TemplateHandler() }
        set { handlers[app] = newValue }
    }

    public func has(_ app: String) -> Bool { handlers[app] != nil }
}
