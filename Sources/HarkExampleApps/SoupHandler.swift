public import HarkDialogue
public import HarkIntents

/// Soup Shack (apps/soup): supplies its stores, knows what is sold out, and
/// says how long an order will take.
public struct SoupHandler: IntentHandler {
    public static let stores = [
        EnumeratedValue(identifier: "main_street", spoken: "Main Street", synonyms: ["main"]),
        EnumeratedValue(identifier: "harbor", spoken: "Harbor", synonyms: ["harbour"]),
    ]
    public var soldOut: Set<String>

    public init(soldOut: Set<String> = ["chicken_noodle"]) {
        self.soldOut = soldOut
    }

    public func options(for parameter: String, of request: IntentRequest) async throws -> [EnumeratedValue]? {
        parameter == "storeLocation" ? Self.stores : nil
    }

    public func resolve(_ parameter: String, in request: IntentRequest) async throws -> Resolution {
        guard let value = request.values[parameter] else { return .needsValue }
        if parameter == "soup", soldOut.contains(value.identifier) {
            return .unsupported(reason: nil, failure: "outOfStock")
        }
        return .success(value)
    }

    public func handle(_ request: IntentRequest) async throws -> HandlerResponse {
        let minutes = request.values["orderType"]?.identifier == "delivery" ? 35 : 15
        return HandlerResponse(code: .success, values: ["minutes": "\(minutes)"])
    }
}
